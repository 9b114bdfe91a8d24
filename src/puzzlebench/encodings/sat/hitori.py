"""Hitori as CNF: one "shaded" variable per cell.

Rules and the blocks that enforce them:

* no number twice among the unshaded cells of a line: per group of equal numbers in a row or
  column, at most one unshaded cell (``amo`` option: pairwise clauses, or a cardinality
  encoding over the "unshaded" literals);
* no two shaded cells share a side: a binary clause per edge;
* unshaded cells form one region (``connectivity`` option, shared with Kuromasu in
  :mod:`.connectivity`): ``lazy`` (cuts added for split candidates), ``propagator`` (an
  IPASIR-UP engine on CaDiCaL 1.9.5), ``rank`` (reachability levels), or ``none`` (the rule
  dropped: a relaxation);
* ranks are rooted at a cell the deduction stage settled unshaded, when there is one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pysat.formula import IDPool

from ...model import Cell, Family, Hitori
from ..base import EncodingSpec, Option
from ..latin import known_root, repeated_groups
from ..regions import connectivity_rule
from .common import CnfModel, amo_option
from .connectivity import BoardGraph, ConnectivityPropagator, reach_levels

CONNECTIVITY: tuple[str, ...] = ("lazy", "propagator", "rank", "none")
#: lazy by default: cheaper than the propagator, and rank's levels grow too many on the largest
#: boards (docs/decisions).


def build_default(puzzle: Hitori, options: Mapping[str, Any]) -> CnfModel:
    """Variables 1..n are the cells in row-major order ("shaded"); auxiliaries follow."""
    rows, cols = puzzle.rows, puzzle.cols
    decision: dict[Cell, int] = {(r, c): r * cols + c + 1 for r in range(rows) for c in range(cols)}
    cnf = CnfModel(pool=IDPool(start_from=rows * cols + 1), decision=decision)
    shaded = decision

    # No number twice among the unshaded cells of a row or column.
    for group in repeated_groups(puzzle):
        cnf.atmost([-shaded[c] for c in group], 1, options["amo"])

    # No two shaded cells share a side.
    cnf.extend([(-shaded[a], -shaded[b]) for a, b in puzzle.grid.edges()])

    root = known_root(puzzle)

    # All unshaded cells form one orthogonally connected region.
    mode = options["connectivity"]
    if mode == "lazy":
        cnf.lazy = connectivity_rule(rows, cols, decision)
    elif mode == "rank":
        reach_levels(cnf, BoardGraph.of(puzzle, decision, root))
    elif mode == "propagator":
        graph = BoardGraph.of(puzzle, decision)  # rooted at the first cell found unshaded
        cnf.propagator = lambda: (ConnectivityPropagator(graph), list(decision.values()))
    cnf.notes.update(connectivity=mode)
    return cnf


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.HITORI,
        paradigm="sat",
        name="default",
        build=build_default,
        description="shaded-cell variables, at most one unshaded per repeated number in a line, adjacency "
        "clauses, connectivity by lazy cuts or alternatives",
        reference="IPASIR-UP: Fazekas et al., SAT 2023 (propagator); reachability levels (Bayless et al., AAAI 2015)",
        options=(
            Option(
                "connectivity",
                "lazy",
                CONNECTIVITY,
                "how 'unshaded cells are connected' is enforced: lazy cuts, an external propagator, "
                "reachability levels, or none",
                relaxing=("none",),
            ),
            amo_option("auto", "the unshaded cells sharing a number in a line"),
        ),
    ),
]
