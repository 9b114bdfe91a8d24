"""ASP encoding of Hitori: a choice of shaded cells, the Latin rule as pairwise constraints, and
the connectivity programs Kuromasu uses (``connect_*.lp``), on ``white/2``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import Family, Hitori, Puzzle
from ..base import EncodingSpec, Option
from ..latin import known_root
from .kuromasu import CONNECTIVITY_FILES
from .program import AspProgram
from .propagator import ConnectivityPropagator

#: reach by default: as fast as the propagator on the janko boards, and plain ASP (docs/decisions).
CONNECTIVITY = Option(
    "connectivity",
    "reach",
    tuple(CONNECTIVITY_FILES),
    "how 'all unshaded cells are connected' is enforced: flood fill from a root (reach); a parent tree "
    "under clingo's #edge acyclicity (acyclic); a Python connectivity propagator (propagator); "
    "seed 000's all-pairs closure (closure); or not at all (none, relaxing)",
    relaxing=("none",),
)


def _root_facts(p: Hitori, root: Any) -> str:
    """The connectivity root: a cell known unshaded, else two adjacent cells (one is unshaded)."""
    pair = [root] if root else [(0, 0)] + ([(0, 1)] if p.cols > 1 else [(1, 0)] if p.rows > 1 else [])
    return "".join(f"root({r},{c})." for r, c in pair)


def build_default(puzzle: Puzzle, options: Mapping[str, Any]) -> AspProgram:
    if not isinstance(puzzle, Hitori):
        raise TypeError(f"expected a Hitori puzzle, got {type(puzzle).__name__}")
    connectivity = options["connectivity"]
    root = known_root(puzzle)
    parts = [f"size({puzzle.rows},{puzzle.cols})."]
    parts += [
        f"num({r},{c},{n})."
        for r, row in enumerate(puzzle.numbers)
        for c, n in enumerate(row)
        if not puzzle.blank((r, c))  # Rule: a cell without a number has no num fact
    ]
    if connectivity in ("reach", "acyclic"):
        parts.append(_root_facts(puzzle, root))
    propagator = None
    if connectivity == "propagator":
        propagator = ConnectivityPropagator(puzzle.rows, puzzle.cols, (), predicate="shaded")
    files = ["hitori.lp", *CONNECTIVITY_FILES[connectivity]]
    return AspProgram(files=tuple(files), facts="".join(parts), predicate="shaded", propagator=propagator)


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.HITORI,
        paradigm="asp",
        name="default",
        build=build_default,
        description="choice of shaded cells, no two adjacent; no repeated number among unshaded cells of a "
        "line; one unshaded region (connectivity option)",
        options=(CONNECTIVITY,),
    ),
]
