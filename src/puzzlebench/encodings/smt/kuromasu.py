"""Kuromasu (Kurodoko) as z3 assertions: one Boolean ("black", r, c) per cell without a clue.

Rules and the blocks that enforce them:

* numbered and "?" cells are white: they get no variable ("?" cells forbid black, nothing more);
* no two black cells share a side: one ``Or(Not a, Not b)`` per edge;
* a number counts the white cells it sees, itself included (``visibility`` option):
  ``distance`` gives each direction one bounded integer d, "the first d cells this way are
  white and the next one is black (or the border)"; the number is 1 + the four distances.
  ``rays`` chains Booleans s_k "the first k cells this way are white" (s_k = s_{k-1} and white)
  and counts the true ones (``card`` option: ``adder``, the default, merges the four rays' chains,
  which are already unary numbers, pairwise as the SAT encoding does; or PbEq, or a sum of If
  terms); ``shared`` names each stretch of a line once for the numbers at both ends; ``auto``
  (the default) is shared on boards of ``AUTO_CELLS`` cells or more, else rays. Either way a ray
  is cut after n cells: seeing n cells one way already exceeds the number;
* all white cells form one orthogonally connected region (``connectivity`` option):
  ``lazy`` — a candidate whose white cells are split is rejected by the lazy rule
  (``regions.connectivity_cuts``), which returns, for every white region C but the largest, the
  cut "a boundary cell of C turns white"; the one-cell cuts (no white cell walled in alone) are asserted up
  front where sound. ``rank`` — every white cell other than the root has a white neighbour of
  smaller rank (an integer bounded below by the Manhattan distance to the root); the root is the
  clue nearest the centre, or on a clueless board the first white cell in row-major order.
  ``none`` drops the rule (a relaxation: it may accept split answers, never loses a true one).

Why the cut is sound: if C is white and its boundary black, C is a whole white region; a valid
answer then has no other white cell, and no cell beyond C and its boundary either (such cells
would all be black, and one would touch the black boundary); and C cannot turn all black, its
cells touching the black boundary. A split candidate has another white region, so each of its
regions is such a C.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from ...model import Cell, Direction, Family, Kuromasu
from ..base import EncodingSpec, Option
from ..regions import connectivity_rule, root_cell
from .common import CARD_CHOICES, SmtModel, UnarySums
from .connectivity import connect_by_rank, no_walled_in_cell

CONNECTIVITY: tuple[str, ...] = ("lazy", "rank", "none")
VISIBILITY: tuple[str, ...] = ("distance", "rays", "shared")
#: ``visibility=auto`` picks ``shared`` from this many cells on, else ``rays`` (as the SAT
#: encoding's ``auto``): on the 100x100 boards shared is cheaper than rays (with ``card=adder``
#: and with PbEq), on janko's boards (all smaller) alike (docs/decisions).
AUTO_CELLS = 2000

Black = dict[Cell, z3.BoolRef]
White = dict[Cell, z3.BoolRef]


def build_default(puzzle: Kuromasu, options: Mapping[str, Any]) -> SmtModel:
    model = SmtModel()
    grid = puzzle.grid
    clues = puzzle.clue_cells
    black: Black = {cell: model.bool("black", *cell) for cell in grid.all_cells if cell not in clues}
    model.decision = black
    # "cell is white", made once per cell (constant True for a clue cell).
    white = {cell: model.neg(black[cell]) if cell in black else model.true for cell in grid.all_cells}

    # No two black cells share a side.
    for a, b in grid.edges():
        if a in black and b in black:
            model.add(model.any([white[a], white[b]]))

    # A number equals the white cells it sees in its row and column, itself included.
    visibility = options["visibility"]
    if visibility == "auto":
        visibility = "shared" if grid.size >= AUTO_CELLS else "rays"
    stretches = _Stretches() if visibility == "shared" else None
    sums = model.unary_sums() if options["card"] == "adder" else None
    for clue, n in puzzle.numbers.items():
        if visibility in ("rays", "shared"):
            _count_by_rays(model, black, white, clue, n, options["card"], puzzle, stretches, sums)
        else:
            _count_by_distance(model, black, white, clue, n, puzzle)
    if stretches is not None:
        stretches.link(model)
    if sums is not None:
        sums.close()

    # All white cells form one orthogonally connected region.
    mode = options["connectivity"]
    if mode == "rank":
        connect_by_rank(model, puzzle.grid, black, white, root_cell(puzzle))
        # Bit-blasted (QF_FD) rank comparisons search badly: ranks go to the arithmetic solver.
        model.logic = "QF_LIA"
    elif mode == "lazy":
        no_walled_in_cell(model, puzzle.grid, black, white)
        model.lazy = connectivity_rule(puzzle.rows, puzzle.cols, black)
    model.notes.update(connectivity=mode, visibility=visibility)
    return model


# -- visibility -------------------------------------------------------------------------------


def _count_by_distance(
    model: SmtModel, black: Black, white: White, clue: Cell, n: int, puzzle: Kuromasu
) -> None:
    """Per direction an integer d in [0, min(len, n-1)]: cells before index d white, cell d black."""
    distances = []
    for direction in Direction:
        ray = puzzle.grid.ray(clue, direction)
        top = min(len(ray), n - 1)  # seeing n cells one way would exceed the number
        d = model.int("dist", *clue, direction.name, lo=0, hi=top)
        for k, cell in enumerate(ray[: top + 1]):
            # Seeing past cell k means cell k is white.
            if k < top:
                model.add(model.implies(model.rel(d, ">", k), white[cell]))
            # Stopping at cell k means cell k is black (a clue cell never stops the view).
            model.add(model.implies(model.rel(d, "==", k), black[cell] if cell in black else model.false))
        distances.append(d)
    model.add(1 + z3.Sum(distances) == n)


class _Stretches:
    """``visibility=shared``: the chain Boolean "every cell of this stretch is white" named by the
    stretch's first and last cells without a clue, so that the rays of two numbers that look at
    the same stretch from both ends share it; ``link`` then asserts that a stretch through a
    numbered cell implies the stretch beyond it, or is impossible when that number cannot see
    so far (as in the SAT encoding's option of the same name)."""

    def __init__(self) -> None:
        self.named: dict[tuple[Cell, Cell], z3.BoolRef] = {}
        self.never: set[tuple[Cell, Cell]] = set()
        self.beyond: list[tuple[z3.BoolRef, tuple[Cell, Cell]]] = []

    def link(self, model: SmtModel) -> None:
        for lit, part in self.beyond:
            if part in self.named:
                model.add(model.implies(lit, self.named[part]))
            elif part in self.never:
                model.add(model.neg(lit))


def _count_by_rays(
    model: SmtModel,
    black: Black,
    white: White,
    clue: Cell,
    n: int,
    card: str,
    puzzle: Kuromasu,
    stretches: _Stretches | None = None,
    sums: UnarySums | None = None,
) -> None:
    """Chains s_k "the first k cells this way are white": the true ones, plus the cells seen for
    sure (the clue itself and clue cells next in line), number n. With ``stretches``, s_k is the
    shared Boolean of its stretch."""
    rays: list[list[z3.BoolRef]] = []  # per direction: its unary number "sees k cells this way"
    always = 1  # the numbered cell itself
    for direction in Direction:
        seen: list[z3.BoolRef] = []
        rays.append(seen)
        prev: z3.BoolRef | None = None  # None: every cell so far is a clue, seen for sure
        first: Cell | None = None  # the first and last cells without a clue so far
        last: Cell | None = None
        past: list[Cell] = []  # per numbered cell passed after `first`: the next cell without a clue
        passed = False
        for k, cell in enumerate(puzzle.grid.ray(clue, direction)[:n], start=1):
            if cell in black:
                if first is None:
                    first = cell
                elif passed:
                    past.append(cell)
                passed, last = False, cell
            elif first is not None:
                passed = True
            if cell not in black:
                cur = prev
            elif prev is None:
                cur = white[cell]
            elif stretches is None:
                cur = model.bool("sees", *clue, direction.name, k)
                model.add(model.iff(cur, model.all([prev, white[cell]])))
            else:
                assert first is not None  # prev is set: a cell without a clue came first
                key = (min(first, cell), max(first, cell))
                cur = stretches.named.get(key)
                if cur is None:
                    cur = stretches.named[key] = model.bool("stretch", *key[0], *key[1])
                model.add(model.iff(cur, model.all([prev, white[cell]])))
                stretches.beyond += [(cur, (min(j, cell), max(j, cell))) for j in past if j != cell]
            if k == n:
                # The first n cells this way cannot all be white.
                model.add(model.neg(cur) if cur is not None else model.false)
                if stretches is not None and first is not None and last is not None:
                    stretches.never.add((min(first, last), max(first, last)))
                break
            if cur is None:
                always += 1
            else:
                seen.append(cur)
            prev = cur
    if sums is not None:
        sums.equals(rays, n - always)
    else:
        model.add(model.count([x for ray in rays for x in ray], "==", n - always, card))


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.KUROMASU,
        paradigm="smt",
        name="default",
        build=build_default,
        description="black Booleans, adjacency clauses, visibility by distance integers or ray chains, "
        "connectivity by lazy region cuts or ranks",
        reference="lazy cuts as in counterexample-guided (CEGAR) connectivity; ranks as in "
        "reachability encodings of connectivity (Bayless et al., AAAI 2015)",
        options=(
            Option(
                "connectivity",
                "lazy",
                CONNECTIVITY,
                "how 'all white cells connected' is enforced: lazy (region cuts on split candidates), "
                "rank (integer ranks decreasing towards a root), none (rule dropped)",
                relaxing=("none",),
            ),
            Option(
                "visibility",
                "auto",
                ("auto",) + VISIBILITY,
                "how a number counts what it sees: distance (one integer per direction), rays "
                "(Boolean chains 'sees k cells this way'), shared (the same chains, one Boolean "
                "per stretch of a line, linked through numbered cells), or auto (shared on boards "
                "of 2,000+ cells, else rays)",
            ),
            Option(
                "card",
                "adder",
                ("adder",) + CARD_CHOICES,
                "how counts of the cells a number sees are written (visibility=rays or shared; "
                "distance sums integers): adder merges the four rays' unary chains pairwise (a "
                "totalizer on sorted inputs, as the SAT encoding's), pb = PbEq, sum = Sum(If(b, 1, 0)) == n",
            ),
        ),
    ),
]
