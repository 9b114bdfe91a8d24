"""puzzlekit encodings: a puzzle handed to puzzlekit's own CP-SAT solvers as its text grid.

puzzlekit (SmilingWayne/puzzlekit) models each puzzle type itself; the "encoding" here is only
the translation into its input grid, so what is measured is puzzlekit's model as it ships.
Its grid alphabet is the janko corpus's: each family's ``FamilySpec.janko`` tokens in, its answer
mark (``o`` bulb, ``x`` black/shaded) out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import EncodingError
from ..model import Puzzle, family_spec, family_specs
from .base import Artifact, EncodingSpec


@dataclass
class PuzzlekitArtifact(Artifact):
    """puzzlekit's solver name, its input grid, and the grid symbol that marks a decision cell.

    ``decision`` maps each cell that may be marked to itself (puzzlekit answers on the same
    grid); ``marked`` is the answer grid's symbol for a marked cell (bulb ``o``, black ``x``).
    """

    puzzle_type: str = ""
    grid: list[list[str]] = field(default_factory=list)
    marked: str = ""

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0


#: puzzlekit's solver for each family it has one for (its ``puzzle_type`` names).
PUZZLE_TYPES: dict[str, str] = {
    "lightup": "akari",
    "kuromasu": "kuromasu",
    "hitori": "hitori",
    "nurikabe": "nurikabe",
}


def _build(puzzle: Puzzle, options: Mapping[str, Any]) -> PuzzlekitArtifact:
    """puzzlekit reads the janko problem grid and answers on it with the janko answer mark."""
    spec = family_spec(puzzle)
    codec = spec.janko
    reason = codec.limits(puzzle) if codec else f"no janko grid for {spec.family}"
    reason = reason or _PEER_LIMITS.get(spec.family.value, lambda p: None)(puzzle)
    if reason:
        raise EncodingError(
            f"puzzlekit's {PUZZLE_TYPES[spec.family.value]} solver cannot take this puzzle: {reason}"
        )
    assert codec is not None  # no janko grid is a reason above
    decision = {cell: cell for cell in spec.candidates(puzzle)}
    return PuzzlekitArtifact(
        decision=decision,
        puzzle_type=PUZZLE_TYPES[spec.family.value],
        grid=codec.tokens(puzzle),
        marked=codec.mark,
    )


#: What a puzzle has that puzzlekit's model of its family does not state, beyond the janko grid's
#: own limits: puzzlekit's Nurikabe takes every clue for its island's size, so a '?' clue (an
#: island of unknown size) is declined rather than handed over as a number it is not.
#: puzzlekit's Hitori groups cells by their token, so its '-' cells (no number) would count as
#: repeats of one another: a board with such cells is declined.
_PEER_LIMITS = {
    "nurikabe": lambda p: f"'?' clue at {min(p.unknown)} (an island of unknown size)" if p.unknown else None,
    "hitori": lambda p: (
        f"cell {min(p.blanks)} has no number (puzzlekit's HitoriSolver would take its cells without a "
        "number for repeats of one another)"
        if p.blanks
        else None
    ),
}

_REFERENCE = "puzzlekit 0.3.4, https://github.com/SmilingWayne/puzzlekit"

#: What puzzlekit's model of each family states (read from its solvers/<type>.py).
_DESCRIPTIONS = {
    "lightup": "puzzlekit's AkariSolver (CP-SAT): at most one bulb per row/column segment, "
    "every open cell sees a bulb, numbered walls count their neighbours",
    "kuromasu": "puzzlekit's KuromasuSolver (CP-SAT): no adjacent blacks, white cells connected "
    "by a height (distance) labelling, visibility chains per direction summed to each number",
    "hitori": "puzzlekit's HitoriSolver (CP-SAT): repeated numbers, adjacent shaded cells and the "
    "connectivity of unshaded cells as puzzlekit models them",
    "nurikabe": "puzzlekit's NurikabeSolver (CP-SAT): wall connectivity, 2x2 walls and island sizes "
    "as puzzlekit models them",
}


def specs() -> list[EncodingSpec]:
    """puzzlekit's encodings for every registered family it has a solver for."""
    return [
        EncodingSpec(
            family=spec.family,
            paradigm="puzzlekit",
            name="default",
            build=_build,
            description=_DESCRIPTIONS[spec.family.value],
            origin="puzzlekit",
            reference=f"{_REFERENCE} (solvers/{PUZZLE_TYPES[spec.family.value]}.py)",
        )
        for spec in family_specs()
        if spec.family.value in PUZZLE_TYPES and spec.janko
    ]


ENCODINGS: list[EncodingSpec] = specs()
