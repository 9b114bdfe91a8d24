"""Kuromasu (Kurodoko) in CP-SAT: one Boolean ("black", r, c) per cell without a clue.

Rules and the blocks that enforce them:

* numbered and "?" cells are white: they get no variable;
* no two black cells share a side: one clause per edge;
* a number counts the white cells it sees, itself included (``visibility`` option):
  ``rays`` chains Booleans "the first k cells this way are white" (w_k <-> w_{k-1} /\\ white_k);
  ``distance`` gives each direction an integer "cells seen" equal to the minimum, over the ray's
  cells, of "k if the k-th cell is black" (``AddMinEquality``). Rays are cut after n cells:
  seeing n cells one way already exceeds the number. ``adder`` and ``shared`` state the count
  (and the edge clauses) as the SAT encoding's clauses, one ``bool_or`` constraint each: the four rays'
  chains are unary numbers merged pairwise into unary partial sums ("sees at least k"), and
  ``shared`` names each stretch of a line once for the numbers at both ends;
* all white cells form one region (``connectivity`` option), rooted at the clue nearest the
  centre (a chosen cell when the board has no clue):
  ``rank`` — every white non-root cell has a white neighbour of smaller level (levels bounded
  below by the Manhattan distance to the root); ``flow`` — single-commodity flow: the root sends
  one unit to every other white cell over white-white arcs; ``lazy`` — up front only the
  one-cell cuts (no white cell is walled in alone; ``cut=plus`` also no diamond of radius 1,
  clipped at the border, ``diamond`` radius 2 too: the shapes a fence of pairwise apart black
  cells closes first); a candidate whose white cells are split is
  rejected and, per white region C with black border B but the largest, the cut "a cell of B is
  white" (``regions.connectivity_cuts``) is added before searching again; ``none`` drops the
  rule (a relaxation: it may accept split answers, never loses a true one);
* CP-SAT's search (``linearization``, ``inprocessing``): no LP relaxation and no clause
  inprocessing by default. With CP-SAT's LP the search on the 100x100 boards crawls (the LP and
  its cuts take the time) and none is solved. ``cp_presolve=off`` skips CP-SAT's presolve and
  symmetry detection: on the clausal statement of those boards they take nearly all of each
  search.

``auto`` (the default of ``visibility``, ``cut`` and ``cp_presolve``) picks ``shared``, ``plus``
and ``off`` from ``AUTO_CELLS`` cells on, else ``distance``, ``cell`` and CP-SAT's presolve.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ortools.sat.python import cp_model

from ...model import Cell, Direction, Family, Grid, Kuromasu
from ..base import EncodingSpec, Option, axes
from ..regions import connectivity_rule, root_cell
from ..sat import kuromasu as sat_kuromasu
from .common import (
    CpModelArtifact,
    add_clauses,
    apply_inprocessing,
    apply_linearization,
    inprocessing_option,
    linearization_option,
    new_bools,
)
from .connectivity import connect_by_flow, connect_by_rank, no_isolated_white

CONNECTIVITY: tuple[str, ...] = ("lazy", "rank", "flow", "none")
VISIBILITY: tuple[str, ...] = ("auto", "distance", "rays", "adder", "shared")
#: The visibility values stated as the SAT encoding's clauses, with its ``visibility`` value.
CLAUSAL: dict[str, str] = {"adder": "rays", "shared": "shared"}
CUT: tuple[str, ...] = ("auto", "cell", "plus", "diamond")
#: Per ``cut`` value: the largest radius of the diamonds stated walled-in-free up front.
CUT_RADIUS: dict[str, int] = {"cell": 0, "plus": 1, "diamond": 2}
#: Defaults chosen by measurement on the janko corpus (560 puzzles, uniqueness proofs).
DEFAULT_CONNECTIVITY = "lazy"
DEFAULT_VISIBILITY = "auto"
#: ``auto`` picks ``visibility=shared``, ``cut=plus`` and ``cp_presolve=off`` from this many cells
#: on (the generated 50x50 to 100x100 boards), else ``distance``, ``cell`` and CP-SAT's presolve
#: (the janko boards, all smaller, keep the model that suits them).
AUTO_CELLS = 2000
PRESOLVE: tuple[str, ...] = ("auto", "on", "off")

Black = dict[Cell, cp_model.IntVar]


def build_default(puzzle: Kuromasu, options: Mapping[str, Any]) -> CpModelArtifact:
    connectivity = options["connectivity"]
    big = puzzle.rows * puzzle.cols >= AUTO_CELLS
    visibility = options["visibility"]
    if visibility == "auto":
        visibility = "shared" if big else "distance"
    cut = options["cut"]
    if cut == "auto":
        cut = "plus" if big else "cell"
    presolve = options["cp_presolve"]
    if presolve == "auto":
        presolve = "off" if visibility in CLAUSAL else "on"
    # Rays and distances are functions of the colouring; rank levels and flows are not.
    art = CpModelArtifact(functional=connectivity in ("lazy", "none"))
    level = options["linearization"]
    if level == "auto":  # the labels of rank and flow are integers the LP bounds; lazy/none are clauses
        level = 1 if connectivity in ("rank", "flow") else 0
    apply_linearization(art, level)
    apply_inprocessing(art, options["inprocessing"])
    if presolve == "off":
        art.parameters.update(cp_model_presolve=False, symmetry_level=0)
    model = art.model
    clues = puzzle.clue_cells
    black = new_bools(model, "black", (c for c in puzzle.grid.all_cells if c not in clues))
    art.decision = black

    if visibility in CLAUSAL:
        # No two black cells share a side, and a number equals the white cells it sees: the
        # SAT encoding's clauses (its unary ray chains merged pairwise), over these Booleans.
        add_clauses(
            model,
            black,
            sat_kuromasu.build_default(
                puzzle,
                {"visibility": CLAUSAL[visibility], "card": "adder", "connectivity": "none", "cut": "none"},
            ),
        )
    else:
        # No two black cells share a side.
        for a, b in puzzle.grid.edges():
            if a in black and b in black:
                model.add_bool_or([~black[a], ~black[b]])
        # A number equals the white cells it sees in its row and column, itself included.
        seen_in = _rays if visibility == "rays" else _distance
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
        for radius in range(1, CUT_RADIUS[cut] + 1):
            walled_in_diamonds(model, puzzle.grid, black, radius)
        art.lazy = connectivity_rule(puzzle.rows, puzzle.cols, black)
    return art


def walled_in_diamonds(model: cp_model.CpModel, grid: Grid, black: Black, radius: int) -> None:
    """Connectivity's cuts for every diamond of ``radius`` (the cells within that Manhattan
    distance of a centre, clipped at the border): its fence (the cells just outside it) is not
    all black. Only fences black cells can fill (no two fence cells side by side, none a clue)
    and only where a cell beyond the fence touches it (that cell is then white, as is the
    diamond's cell next to the fence: all black would split the white cells)."""
    offsets = [
        (dr, dc)
        for dr in range(-radius, radius + 1)
        for dc in range(-radius, radius + 1)
        if abs(dr) + abs(dc) <= radius
    ]
    for r, c in grid.all_cells:
        region = {(r + dr, c + dc) for dr, dc in offsets if (r + dr, c + dc) in grid}
        fence = {nb for cell in region for nb in grid.neighbours4(cell)} - region
        if not fence or any(f not in black for f in fence):
            continue
        if any(nb in fence for f in fence for nb in grid.neighbours4(f)):
            continue  # two fence cells side by side: never all black
        if not any(nb not in region and nb not in fence for f in fence for nb in grid.neighbours4(f)):
            continue  # nothing beyond the fence
        model.add_bool_or([~black[f] for f in fence])


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
                "cut",
                "auto",
                CUT,
                "with connectivity=lazy, the cuts stated up front: cell (no white cell walled in alone), "
                "plus (also no diamond of radius 1, clipped at the border), diamond (radius 1 and 2); "
                "auto: plus on boards of 2,000+ cells, else cell",
            ),
            Option(
                "visibility",
                DEFAULT_VISIBILITY,
                VISIBILITY,
                "how a number counts what it sees: rays (Boolean chains summed linearly), distance (integer "
                "minimum), adder (the SAT encoding's clauses: ray chains merged pairwise into unary sums), "
                "shared (adder over one literal per stretch of a line, shared by the numbers at both ends); "
                "auto: shared on boards of 2,000+ cells, else distance",
            ),
            # the 100x100 boards with visibility=shared spent about 95% of each search in CP-SAT's
            # presolve (its pure-SAT presolve and probing of about 300,000 clauses) and symmetry
            # detection, and then about a second of search
            Option(
                "cp_presolve",
                "auto",
                PRESOLVE,
                "CP-SAT's presolve and symmetry detection on this model: on, off (cp_model_presolve "
                "and symmetry_level 0; the search still probes at its start), auto: off with the clausal "
                "visibility values (adder, shared), else on",
            ),
            # the clausal statement needs no LP: on the 100x100 boards CP-SAT's LP (level 1) slows
            # the search to a crawl, and the janko boards take as long either way; connectivity=rank
            # or flow state arithmetic that the LP relaxation propagates, and crawl without it
            # (docs/decisions)
            linearization_option("auto", "auto: 1 with connectivity=rank|flow, else 0"),
            # no inprocessing: the first search on the 100x100 boards is cheaper without it
            inprocessing_option(False),
        ),
    ),
]

#: The default's options are the ways it states a rule; the rest of its options are fixed settings.
ENCODINGS = [
    axes(spec, "connectivity", "visibility") if spec.name == "default" else spec for spec in ENCODINGS
]
