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
  one-cell cuts (no white cell is walled in alone); a candidate whose white cells are split is
  rejected and, per white region C with black border B but the largest, the cut "a cell of B is
  white" (``regions.connectivity_cuts``) is added before searching again; ``none`` drops the
  rule (a relaxation: it may accept split answers, never loses a true one);
* CP-SAT's search (``linearization``, ``inprocessing``): no LP relaxation and no clause
  inprocessing by default. With CP-SAT's LP the 100x100 boards made about 50 conflicts a CPU
  second (the LP and its cuts took the time) and none was solved in 60 s.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ortools.sat.python import cp_model

from ...model import Cell, Direction, Family, Kuromasu
from ..base import EncodingSpec, Option
from ..regions import connectivity_rule, root_cell
from .common import (CpModelArtifact, apply_inprocessing, apply_linearization, inprocessing_option,
                     linearization_option, new_bools)
from .connectivity import connect_by_flow, connect_by_rank, no_isolated_white

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
    apply_linearization(art, options["linearization"])
    apply_inprocessing(art, options["inprocessing"])
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
        connect_by_rank(model, puzzle.grid, black, root_cell(puzzle))
    elif connectivity == "flow":
        connect_by_flow(model, puzzle.grid, black, root_cell(puzzle))
    elif connectivity == "lazy":
        no_isolated_white(model, puzzle.grid, black)
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
            # on the 100x100 gen-kuromasu boards CP-SAT's LP (level 1) made about 50 conflicts a
            # CPU second and no answer in 60 s; level 0 makes thousands and proves s1 in about 22 CPU
            # s; the janko sample (every 10th) takes 0.5 s either way
            linearization_option(0),
            # first search on the three 100x100 boards: 0.72-0.87 deterministic s without, 0.96-1.47 with
            inprocessing_option(False),
        ),
    ),
]
