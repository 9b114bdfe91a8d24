"""Kuromasu (Kurodoko) in CP-SAT: one Boolean ("black", r, c) per cell without a clue.

Rules and the blocks that enforce them:

* numbered and "?" cells are white: they get no variable;
* no two black cells share a side: one clause per edge;
* a number counts the white cells it sees, itself included (``visibility`` option):
  ``rays`` chains Booleans "the first k cells this way are white" (w_k <-> w_{k-1} /\\ white_k);
  ``distance`` gives each direction an integer "cells seen" equal to the minimum, over the ray's
  cells, of "k if the k-th cell is black" (``AddMinEquality``). Rays are cut after n cells:
  seeing n cells one way already exceeds the number;
* all white cells form one region (``connectivity`` option), rooted at the clue nearest the
  centre (a chosen cell when the board has no clue):
  ``rank`` — every white non-root cell has a white neighbour of smaller level (levels bounded
  below by the Manhattan distance to the root); ``flow`` — single-commodity flow: the root sends
  one unit to every other white cell over white-white arcs; ``lazy`` — up front only the
  one-cell cuts (given two clues, no white cell is walled in alone); a candidate whose white
  cells are split is rejected and, per white region C with black border B but the largest, the
  cut "a cell of B is white" (``regions.connectivity_cuts``) is added before searching again;
  ``none`` drops the rule (a relaxation: it may accept split answers, never loses a true one).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ortools.sat.python import cp_model

from ...model import Cell, Direction, Family, Kuromasu
from ..base import EncodingSpec, Option
from ..regions import connectivity_rule, root_cell
from .common import Clause, CpModelArtifact, new_bools

CONNECTIVITY: tuple[str, ...] = ("lazy", "rank", "flow", "none")
VISIBILITY: tuple[str, ...] = ("distance", "rays")
#: Defaults chosen by measurement on the janko corpus (560 puzzles, uniqueness proofs).
DEFAULT_CONNECTIVITY = "lazy"
DEFAULT_VISIBILITY = "distance"

Black = dict[Cell, cp_model.IntVar]


def build_default(puzzle: Kuromasu, options: Mapping[str, Any]) -> CpModelArtifact:
    connectivity = options["connectivity"]
    # Rays and distances are functions of the colouring; rank levels and flows are not.
    art = CpModelArtifact(functional=connectivity in ("lazy", "none"))
    model = art.model
    clues = puzzle.clue_cells
    black = new_bools(model, "black", (c for c in puzzle.grid.all_cells if c not in clues))
    art.decision = black

    # No two black cells share a side.
    for a, b in puzzle.grid.edges():
        if a in black and b in black:
            model.add_bool_or([~black[a], ~black[b]])

    # A number equals the white cells it sees in its row and column, itself included.
    seen_in = _rays if options["visibility"] == "rays" else _distance
    for clue, n in puzzle.numbers.items():
        terms: list = []
        fixed = 1  # the numbered cell itself
        for direction in Direction:
            ray = puzzle.grid.ray(clue, direction)[:n]
            more, always = seen_in(model, black, ray)
            terms.extend(more)
            fixed += always
        model.add(cp_model.LinearExpr.sum(terms) == n - fixed)

    # All white cells form one orthogonally connected region.
    if connectivity == "rank":
        _connect_by_rank(model, puzzle, black)
    elif connectivity == "flow":
        _connect_by_flow(model, puzzle, black)
    elif connectivity == "lazy":
        _no_isolated_white(model, puzzle, black)
        art.lazy = connectivity_rule(puzzle.rows, puzzle.cols, black)
    return art


# -- visibility -------------------------------------------------------------------------------

def _rays(model: cp_model.CpModel, black: Black, ray: Sequence[Cell]) -> tuple[list, int]:
    """Literals w_k "the first k cells of the ray are white" (constant-true ones counted apart)."""
    lits: list = []
    always = 0
    prev = None  # None: every cell so far is a clue (white for sure)
    for cell in ray:
        if cell not in black:  # a clue: white, the chain goes on unchanged
            w = prev
        elif prev is None:
            w = ~black[cell]
        else:  # w <-> prev /\ not black[cell]
            w = model.new_bool_var("")
            model.add_bool_and([prev, ~black[cell]]).only_enforce_if(w)
            model.add_bool_or([~prev, black[cell], w])
        if w is None:
            always += 1
        else:
            lits.append(w)
        prev = w
    return lits, always


def _distance(model: cp_model.CpModel, black: Black, ray: Sequence[Cell]) -> tuple[list, int]:
    """One integer d = min over the ray's cells k of (k if cell k is black else len(ray))."""
    if not ray:
        return [], 0
    length = len(ray)
    options = [length - (length - k) * black[cell] for k, cell in enumerate(ray) if cell in black]
    if not options:
        return [], length
    d = model.new_int_var(0, length, "")
    model.add_min_equality(d, options + [length])
    return [d], 0


# -- connectivity -----------------------------------------------------------------------------

def _white(black: Black, cell: Cell) -> Any:
    """The literal "cell is white" (True for a clue cell)."""
    return ~black[cell] if cell in black else True


def _roots(model: cp_model.CpModel, puzzle: Kuromasu, black: Black) -> dict[Cell, Any]:
    """Literal "cell is the root" per cell: the fixed root clue, or exactly one chosen white cell."""
    fixed = root_cell(puzzle)
    if fixed is not None:
        return {cell: cell == fixed for cell in puzzle.grid.all_cells}
    roots = new_bools(model, "root", puzzle.grid.all_cells)
    model.add_exactly_one(roots.values())
    for cell, r in roots.items():
        model.add_implication(r, ~black[cell])
    return roots


def _connect_by_rank(model: cp_model.CpModel, puzzle: Kuromasu, black: Black) -> None:
    """Levels: the root has level 0; every other white cell a white neighbour one level lower or more."""
    grid, n = puzzle.grid, puzzle.grid.size
    roots = _roots(model, puzzle, black)
    fixed = root_cell(puzzle)
    level = {}
    for cell in grid.all_cells:
        low = 0 if fixed is None else abs(cell[0] - fixed[0]) + abs(cell[1] - fixed[1])
        level[cell] = model.new_int_var(low, n - 1, f"level[{cell[0]},{cell[1]}]")
    for cell in grid.all_cells:
        is_root = roots[cell]
        if is_root is True:
            model.add(level[cell] == 0)
            continue
        if is_root is not False:
            model.add(level[cell] == 0).only_enforce_if(is_root)
        parents = []
        for nb in grid.neighbours4(cell):
            p = model.new_bool_var("")
            # A parent is white and has a smaller level.
            if nb in black:
                model.add_implication(p, ~black[nb])
            model.add(level[cell] >= level[nb] + 1).only_enforce_if(p)
            parents.append(p)
        # A white non-root cell has a parent.
        needs = [black[cell]] if cell in black else []
        if is_root is not False:
            needs.append(is_root)
        model.add_bool_or(needs + parents)


def _connect_by_flow(model: cp_model.CpModel, puzzle: Kuromasu, black: Black) -> None:
    """Single-commodity flow: the root emits one unit per other white cell, each white cell keeps one."""
    grid, n = puzzle.grid, puzzle.grid.size
    roots = _roots(model, puzzle, black)
    inflow: dict[Cell, list] = {cell: [] for cell in grid.all_cells}
    outflow: dict[Cell, list] = {cell: [] for cell in grid.all_cells}
    for a, b in grid.edges():
        for u, v in ((a, b), (b, a)):
            f = model.new_int_var(0, n - 1, "")
            # Flow runs over white-white arcs only.
            for end in (u, v):
                if end in black:
                    model.add(f == 0).only_enforce_if(black[end])
            outflow[u].append(f)
            inflow[v].append(f)
    whites = n - cp_model.LinearExpr.sum(list(black.values()))
    for cell in grid.all_cells:
        white = 1 - black[cell] if cell in black else 1
        # The root's source supplies every white cell (itself included); no other cell has one.
        source = model.new_int_var(0, n, "")
        if roots[cell] is True:
            model.add(source == whites)
        elif roots[cell] is False:
            model.add(source == 0)
        else:
            model.add(source == whites).only_enforce_if(roots[cell])
            model.add(source == 0).only_enforce_if(~roots[cell])
        # Conservation: what comes in, plus the source, minus what goes out, is kept (1 if white).
        model.add(cp_model.LinearExpr.sum(inflow[cell]) + source - cp_model.LinearExpr.sum(outflow[cell]) == white)


def _no_isolated_white(model: cp_model.CpModel, puzzle: Kuromasu, black: Black) -> None:
    """The one-cell cuts up front: with two clues on the board, no white cell is walled in alone."""
    if len(puzzle.clue_cells) < 2:
        return
    for cell in puzzle.grid.all_cells:
        way_out = [~black[nb] for nb in puzzle.grid.neighbours4(cell) if nb in black]
        if len(way_out) < len(puzzle.grid.neighbours4(cell)):
            continue  # a clue neighbour is always white
        model.add_bool_or(way_out + ([black[cell]] if cell in black else []))


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.KUROMASU,
        paradigm="cp",
        name="default",
        build=build_default,
        description="black Booleans; visibility chains or distance integers; connectivity by lazy cuts, "
        "levels or flow",
        options=(
            Option(
                "connectivity",
                DEFAULT_CONNECTIVITY,
                CONNECTIVITY,
                "how 'all white cells connected' is enforced: lazy (cuts on split candidates), rank "
                "(levels), flow (single-commodity flow), none (rule dropped)",
                relaxing=("none",),
            ),
            Option(
                "visibility",
                DEFAULT_VISIBILITY,
                VISIBILITY,
                "how a number counts what it sees: rays (Boolean chains) or distance (integer minimum)",
            ),
        ),
    ),
]
