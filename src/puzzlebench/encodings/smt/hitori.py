"""Hitori as z3 assertions: one Boolean ("shaded", r, c) per cell.

Rules and the blocks that enforce them:

* no number twice among the unshaded cells of a line: per group of equal numbers in a row or
  column, at most one unshaded cell (one ``Or`` of two "shaded" per pair of the group);
* no two shaded cells share a side: one ``Or(Not a, Not b)`` per edge;
* all unshaded cells form one orthogonally connected region (``connectivity`` option, shared
  with Kuromasu in :mod:`.connectivity`): ``lazy`` (the one-cell cuts up front, split candidates
  rejected by the lazy rule's region cuts), ``rank`` (integer ranks decreasing towards a root),
  or ``none`` (the rule dropped: a relaxation);
* ranks are rooted at a cell the deduction stage settled unshaded, when there is one.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from ...model import Family, Hitori
from ..base import EncodingSpec, Option
from ..latin import known_root, repeated_groups
from ..regions import connectivity_rule
from .common import SmtModel
from .connectivity import connect_by_rank, no_walled_in_cell

CONNECTIVITY: tuple[str, ...] = ("lazy", "rank", "none")
#: lazy by default: cheaper than rank on the janko boards (docs/decisions).
DEFAULT_CONNECTIVITY = "lazy"


def build_default(puzzle: Hitori, options: Mapping[str, Any]) -> SmtModel:
    model = SmtModel()
    grid = puzzle.grid
    shaded = {cell: model.bool("shaded", *cell) for cell in grid.all_cells}
    model.decision = shaded
    white = {cell: model.neg(s) for cell, s in shaded.items()}

    # No number twice among the unshaded cells of a row or column.
    for group in repeated_groups(puzzle):
        for a, b in combinations(group, 2):
            model.add(model.any([shaded[a], shaded[b]]))

    # No two shaded cells share a side.
    for a, b in grid.edges():
        model.add(model.any([white[a], white[b]]))

    root = known_root(puzzle)

    # All unshaded cells form one orthogonally connected region.
    mode = options["connectivity"]
    if mode == "rank":
        connect_by_rank(model, grid, shaded, white, root)
        model.logic = "QF_LIA"  # ranks go to the arithmetic solver, as for Kuromasu
    elif mode == "lazy":
        no_walled_in_cell(model, grid, shaded, white)
        model.lazy = connectivity_rule(puzzle.rows, puzzle.cols, shaded)
    model.notes.update(connectivity=mode)
    return model


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.HITORI,
        paradigm="smt",
        name="default",
        build=build_default,
        description="shaded Booleans, pairwise clauses for repeated numbers, adjacency clauses, "
        "connectivity by lazy region cuts or ranks",
        reference="lazy cuts as in counterexample-guided (CEGAR) connectivity; ranks as in "
        "reachability encodings of connectivity (Bayless et al., AAAI 2015)",
        options=(
            Option(
                "connectivity",
                DEFAULT_CONNECTIVITY,
                CONNECTIVITY,
                "how 'all unshaded cells connected' is enforced: lazy (region cuts on split candidates), "
                "rank (integer ranks decreasing towards a root), none (rule dropped)",
                relaxing=("none",),
            ),
        ),
    ),
]
