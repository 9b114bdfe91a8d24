"""Kuromasu (Kurodoko) as CNF: one variable ("black", r, c) per cell without a clue.

Rules and the blocks that enforce them:

* numbered and "?" cells are white: they get no variable at all;
* no two black cells share a side: a binary clause per edge;
* a number counts the white cells it sees: visibility literals per direction (``visibility``
  option: ``rays`` chains "the first d cells this way are white" one step at a time, ``pairs``
  defines each such literal directly from its d cells), whose sum is fixed by a cardinality
  encoding (``card`` option);
* white cells form one region (``connectivity`` option): ``rank`` (reachability levels),
  ``lazy`` (cuts added for disconnected candidates), ``propagator`` (an IPASIR-UP engine on
  CaDiCaL 1.9.5), or ``none`` (the rule dropped: a relaxation).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pysat.formula import IDPool

from ...model import Cell, Direction, Family, Kuromasu
from ..base import EncodingSpec, Option
from .common import Clause, CnfModel, card_option
from .connectivity import (
    BoardGraph,
    ConnectivityPropagator,
    component_cuts,
)

CONNECTIVITY: tuple[str, ...] = ("lazy", "propagator", "rank", "none")
VISIBILITY: tuple[str, ...] = ("rays", "pairs")


def build_default(puzzle: Kuromasu, options: Mapping[str, Any]) -> CnfModel:
    cnf = CnfModel(pool=IDPool())
    clues = puzzle.clue_cells
    cnf.decision = {cell: cnf.var("black", *cell) for cell in puzzle.grid.cells() if cell not in clues}
    black = cnf.decision

    # No two black cells share a side.
    for a, b in puzzle.grid.edges():
        if a in black and b in black:
            cnf.add([-black[a], -black[b]])

    # A number equals the white cells it sees, itself included.
    define = _ray_chain if options["visibility"] == "rays" else _ray_pairs
    for clue, n in puzzle.numbers.items():
        seen: list[int] = []
        fixed = 1  # the numbered cell itself
        for direction in Direction:
            ray = puzzle.grid.ray(clue, direction)[:n]
            lits, always = define(cnf, black, clue, direction, ray, n)
            seen.extend(lits)
            fixed += always
        cnf.equals(seen, n - fixed, options["card"])

    # All white cells form one orthogonally connected region.
    graph = BoardGraph.of(puzzle, black)
    mode = options["connectivity"]
    if mode == "rank":
        _reach_levels(cnf, puzzle, graph)
    elif mode == "lazy":
        cnf.refine = lambda marked: component_cuts(graph, marked)
    elif mode == "propagator":
        cnf.propagator = lambda: (ConnectivityPropagator(graph), list(black.values()))
    cnf.notes.update(connectivity=mode, visibility=options["visibility"])
    return cnf


def _ray_chain(
    cnf: CnfModel, black: dict[Cell, int], clue: Cell, direction: Direction, ray: Sequence[Cell], n: int
) -> tuple[list[int], int]:
    """Directional chain: see(d) <-> see(d-1) and white(c_d); clue cells reuse see(d-1).

    Returns the literals "the d-th cell this way is seen" (d < n) and how many are always seen;
    seeing an n-th cell this way alone would exceed the number, so that literal is forced false.
    """
    lits: list[int] = []
    always = 0
    prev: int | None = None  # None: everything so far is a clue cell, seen for sure
    for d, cell in enumerate(ray, start=1):
        b = black.get(cell)
        if d == n:  # the first n cells this way cannot all be white
            cnf.add(([-prev] if prev is not None else []) + ([b] if b is not None else []))
            break
        if b is None:
            cur = prev
        elif prev is None:
            cur = -b
        else:
            cur = cnf.var("see", *clue, direction.name, d)
            cnf.extend([[-cur, prev], [-cur, -b], [cur, -prev, b]])
        if cur is None:
            always += 1
        else:
            lits.append(cur)
        prev = cur
    return lits, always


def _ray_pairs(
    cnf: CnfModel, black: dict[Cell, int], clue: Cell, direction: Direction, ray: Sequence[Cell], n: int
) -> tuple[list[int], int]:
    """Direct definition per (clue, cell) pair: see(d) <-> no black among the first d cells."""
    lits: list[int] = []
    always = 0
    for d in range(1, len(ray) + 1):
        between = [black[c] for c in ray[:d] if c in black]
        if d == n:  # the first n cells this way cannot all be white
            cnf.add(between)
            break
        if not between:
            always += 1
            continue
        if len(between) == 1:
            lits.append(-between[0])
            continue
        see = cnf.var("see", *clue, direction.name, d)
        cnf.extend([[-see, -b] for b in between])
        cnf.add([see] + between)
        lits.append(see)
    return lits, always


def _reach_levels(cnf: CnfModel, puzzle: Kuromasu, graph: BoardGraph) -> None:
    """Unary ranks: ("reach", r, c, k) = c is white and k steps from the root along white cells.

    A white cell other than the root has a white neighbour of smaller rank; every white cell has
    some rank < number of cells. The root is the first clue cell; without clues, one white cell
    chosen by ("root", r, c) variables plays it.
    """
    cells = graph.cells
    top = len(cells) - 1  # a shortest path visits each cell at most once
    black = graph.black
    white = lambda c: None if c not in black else -black[c]  # noqa: E731 - None: always white
    if graph.root is not None:
        dist = graph.distances(graph.root)
        start: dict[Cell, int] = {}  # level 0 is the root alone, known white
    else:
        dist = {c: 0 for c in cells}
        start = {c: cnf.var("root", *c) for c in cells}
        # Exactly one root when some cell is white, and the root is white.
        roots = list(start.values())
        cnf.atmost(roots, 1, "seqcounter")
        for c in cells:
            cnf.add([black[c]] + roots)
            cnf.add([-start[c], -black[c]])

    def reach(c: Cell, k: int) -> int | bool:
        """The level variable, True for the root, False when c is too far for k steps."""
        if c == graph.root:
            return True
        if k < dist[c]:
            return False
        if k == 0:
            return start[c]
        return cnf.var("reach", *c, k)

    for c in cells:
        if c == graph.root:
            continue
        w = white(c)
        for k in range(max(1, dist[c]), top + 1):
            lvl = reach(c, k)
            # Reached within k steps: white, and itself or a neighbour reached within k-1 steps.
            if w is not None:
                cnf.add([-lvl, w])
            support = [reach(c, k - 1)] + [reach(nb, k - 1) for nb in graph.neighbours[c]]
            if not any(x is True for x in support):
                cnf.add([-lvl] + [x for x in support if x is not False])
        # Every white cell is reached within the last level.
        cnf.add(([-w] if w is not None else []) + [reach(c, top)])


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.KUROMASU,
        paradigm="sat",
        name="default",
        build=build_default,
        description="black-cell variables, adjacency clauses, ray visibility counted by a cardinality encoding, connectivity by lazy cuts or alternatives",
        reference="IPASIR-UP: Fazekas et al., SAT 2023 (propagator); reachability levels as in SAT encodings of connectivity (Bayless et al., AAAI 2015, for the lazy/propagator contrast)",
        options=(
            Option(
                "connectivity", "lazy", CONNECTIVITY,
                "how 'white cells are connected' is enforced: lazy cuts, an external propagator, reachability levels, or none",
                relaxing=("none",),
            ),
            Option("visibility", "rays", VISIBILITY, "visibility literals: chained along each ray, or defined per (clue, cell) pair"),
            card_option("seqcounter", "cells a number sees"),
        ),
    ),
]
