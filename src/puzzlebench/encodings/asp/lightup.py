"""ASP encodings of Light Up: the default (lighting by segments, rays or closure) and seed 000's.

Grounding size of seed 000's port on the seed's 10x10 sample (clingo 5.8, ``problem.lp``):
1,260 atoms / 2,245 rules, against 12,146 / 27,668 in the seed's table (lparse/smodels). The
walls are facts, so clingo's grounder computes ``connect_cell`` entirely while grounding.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import Family, LightUp, Puzzle
from ..base import EncodingSpec, Option
from .program import AspProgram, cell_of_1based

LIGHTING = Option(
    "lighting",
    "segments",
    ("segments", "rays", "closure"),
    "how light is modelled: one atom per row/column segment; rays stepping cell by cell from "
    "each bulb; or a static visibility closure between open cells (seed 000/001 style)",
)


def _lightup(puzzle: Puzzle) -> LightUp:
    if not isinstance(puzzle, LightUp):
        raise TypeError(f"expected a LightUp puzzle, got {type(puzzle).__name__}")
    return puzzle


def build_default(puzzle: Puzzle, options: Mapping[str, Any]) -> AspProgram:
    """Row and column runs of open cells and numbered walls as facts."""
    p = _lightup(puzzle)
    # open cells as runs: one fact per maximal row/column segment keeps the text short
    parts = []
    for seg in p.grid.segments(p.is_open):
        (r0, c0), (r1, c1) = seg.cells[0], seg.cells[-1]
        parts.append(f"h({r0},{c0},{c1})." if seg.horizontal else f"v({c0},{r0},{r1}).")
    parts += [f"number({r},{c},{n})." for (r, c), n in p.numbers.items()]
    lighting = options["lighting"]
    return AspProgram(files=("lightup.lp", f"lightup_{lighting}.lp"), facts="".join(parts), predicate="bulb")


def build_seed000(puzzle: Puzzle, options: Mapping[str, Any]) -> AspProgram:
    """Seed 000's facts: row/col ranges and black(X,Y[,N]) walls, 1-based (row, column)."""
    p = _lightup(puzzle)
    parts = [f"row(1..{p.rows}).", f"col(1..{p.cols})."]
    for r, c in sorted(p.walls):
        n = p.numbers.get((r, c))
        parts.append(f"black({r + 1},{c + 1})." if n is None else f"black({r + 1},{c + 1},{n}).")
    return AspProgram(
        files=("seed000_lightup.lp",), facts="".join(parts), predicate="lightbulb", to_cell=cell_of_1based
    )


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="asp",
        name="default",
        build=build_default,
        description="choice of bulbs on open cells; at most one bulb and at least one lit segment "
        "per cell (lighting option); numbered walls as #count constraints",
        options=(LIGHTING,),
    ),
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="asp",
        name="seed000",
        build=build_seed000,
        description="seed 000's lightup.lp ported rule for rule (connect_cell closure, adjbulb counts)",
        origin="seed000",
        reference="seed 000: ASP solvers for Light Up and Kuromasu (lparse/smodels), appendix lightup.lp; "
        "its table for the 10x10 sample: 12,146 atoms / 27,668 rules",
    ),
]
