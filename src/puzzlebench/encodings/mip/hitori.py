"""Hitori as a MIP: one binary s_c ("shaded") per cell.

Rules and the rows that enforce them:

* no number twice among the unshaded cells of a line: per group G of k equal numbers in a row
  or column, sum over G of (1 - s) <= 1, i.e. sum over G of s >= k - 1;
* no two shaded cells share a side: s_u + s_v <= 1 per edge;
* all unshaded cells form one region (``connectivity`` option, shared with Kuromasu in
  :mod:`.connectivity`): ``lazy`` (one-cell cuts up front, region cuts added as rows for split
  candidates), ``flow`` (single-commodity flow, rooted at a cell known unshaded or a chosen one),
  ``none`` (the rule dropped: a relaxation);
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import Family, Hitori
from ..base import EncodingSpec, Option
from ..latin import known_root, repeated_groups
from ..regions import connectivity_rule
from .common import MipModel, total
from .connectivity import connect_by_flow, no_isolated_white

CONNECTIVITY: tuple[str, ...] = ("lazy", "flow", "none")
#: lazy by default: cheaper than flow on the janko boards, both proving as many (docs/decisions).
DEFAULT_CONNECTIVITY = "lazy"


def build_default(puzzle: Hitori, options: Mapping[str, Any]) -> MipModel:
    model = MipModel()
    grid = puzzle.grid
    shaded = model.binaries(grid.all_cells)
    model.decision = {cell: var.index for cell, var in shaded.items()}

    # No number twice among the unshaded cells of a row or column.
    for group in repeated_groups(puzzle):
        model.add_ge(total(shaded[c] for c in group), len(group) - 1)

    # No two shaded cells share a side.
    for a, b in grid.edges():
        model.add_le(shaded[a] + shaded[b], 1)

    root = known_root(puzzle)

    # All unshaded cells form one orthogonally connected region.
    connectivity = options["connectivity"]
    if connectivity == "flow":
        connect_by_flow(model, grid, shaded, root)
    elif connectivity == "lazy":
        no_isolated_white(model, grid, shaded)
        model.lazy = connectivity_rule(puzzle.rows, puzzle.cols, shaded)
    return model


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.HITORI,
        paradigm="mip",
        name="default",
        build=build_default,
        description="shaded binaries, one row per repeated number in a line, no-adjacent rows; connectivity "
        "by lazy cuts or a single-commodity flow",
        options=(
            Option(
                "connectivity",
                DEFAULT_CONNECTIVITY,
                CONNECTIVITY,
                "how 'all unshaded cells connected' is enforced: lazy (cuts on split candidates, added as rows), "
                "flow (single-commodity flow), none (rule dropped)",
                relaxing=("none",),
            ),
        ),
    ),
]
