"""Hitori in CP-SAT: one Boolean ("shaded", r, c) per cell.

Rules and the blocks that enforce them:

* no number twice among the unshaded cells of a line: per group of equal numbers in a row or
  column, ``AddAtMostOne`` over the "unshaded" literals;
* no two shaded cells share a side: one clause per edge;
* all unshaded cells form one region (``connectivity`` option, shared with Kuromasu in
  :mod:`.connectivity`): ``lazy`` (one-cell cuts up front, region cuts on split candidates),
  ``rank`` (levels), ``flow`` (single-commodity flow), ``none`` (the rule dropped: a
  relaxation); rooted at a cell known unshaded, else at a chosen unshaded cell;
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import Family, Hitori
from ..base import EncodingSpec, Option
from ..latin import known_root, repeated_groups
from ..regions import connectivity_rule
from .common import CpModelArtifact, new_bools
from .connectivity import connect_by_flow, connect_by_rank, no_isolated_white

CONNECTIVITY: tuple[str, ...] = ("lazy", "rank", "flow", "none")
#: lazy by default: on Hitori boards a few cuts settle the connectivity, where flow's larger model
#: costs more on every board size (docs/decisions).
DEFAULT_CONNECTIVITY = "lazy"


def build_default(puzzle: Hitori, options: Mapping[str, Any]) -> CpModelArtifact:
    connectivity = options["connectivity"]
    # Rank levels and flows are not functions of the shading; the rest is.
    art = CpModelArtifact(functional=connectivity in ("lazy", "none"))
    model = art.model
    grid = puzzle.grid
    shaded = new_bools(model, "shaded", grid.all_cells)
    art.decision = shaded

    # No number twice among the unshaded cells of a row or column.
    for group in repeated_groups(puzzle):
        model.add_at_most_one([~shaded[c] for c in group])

    # No two shaded cells share a side.
    for a, b in grid.edges():
        model.add_bool_or([~shaded[a], ~shaded[b]])

    root = known_root(puzzle)

    # All unshaded cells form one orthogonally connected region.
    if connectivity == "rank":
        connect_by_rank(model, grid, shaded, root)
    elif connectivity == "flow":
        connect_by_flow(model, grid, shaded, root)
    elif connectivity == "lazy":
        no_isolated_white(model, grid, shaded)
        art.lazy = connectivity_rule(puzzle.rows, puzzle.cols, shaded)
    return art


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.HITORI,
        paradigm="cp",
        name="default",
        build=build_default,
        description="shaded Booleans; at most one unshaded per repeated number in a line; connectivity by "
        "lazy cuts, levels or flow",
        options=(
            Option(
                "connectivity",
                DEFAULT_CONNECTIVITY,
                CONNECTIVITY,
                "how 'all unshaded cells connected' is enforced: lazy (cuts on split candidates), rank "
                "(levels), flow (single-commodity flow), none (rule dropped)",
                relaxing=("none",),
            ),
        ),
    ),
]
