"""puzzlekit encodings: a puzzle handed to puzzlekit's own CP-SAT solvers as its text grid.

puzzlekit (SmilingWayne/puzzlekit) models each puzzle type itself; the "encoding" here is only
the translation into its input grid, so what is measured is puzzlekit's model as it ships.
Its grid alphabet is the janko corpus's: ``-`` empty, ``x`` black, digits for numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import EncodingError
from ..model import Family, Kuromasu, LightUp, Puzzle
from .base import Artifact, EncodingSpec

EMPTY = "-"
BLACK = "x"


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


def _lightup(puzzle: Puzzle, options: Mapping[str, Any]) -> PuzzlekitArtifact:
    assert isinstance(puzzle, LightUp)
    grid = [
        [
            (str(puzzle.numbers[(r, c)]) if (r, c) in puzzle.numbers else BLACK) if (r, c) in puzzle.walls else EMPTY
            for c in range(puzzle.cols)
        ]
        for r in range(puzzle.rows)
    ]
    return PuzzlekitArtifact(
        decision={cell: cell for cell in puzzle.open_cells}, puzzle_type="akari", grid=grid, marked="o"
    )


def _kuromasu(puzzle: Puzzle, options: Mapping[str, Any]) -> PuzzlekitArtifact:
    assert isinstance(puzzle, Kuromasu)
    # puzzlekit's Kuromasu input has numbers and blanks only: a "?" clue cannot be said.
    if puzzle.unknown:
        first = min(puzzle.unknown)
        raise EncodingError(f"puzzlekit's Kuromasu solver has no '?' clue (cell {first} is one)")
    grid = [
        [str(puzzle.numbers[(r, c)]) if (r, c) in puzzle.numbers else EMPTY for c in range(puzzle.cols)]
        for r in range(puzzle.rows)
    ]
    decision = {cell: cell for cell in puzzle.grid.cells() if cell not in puzzle.clue_cells}
    return PuzzlekitArtifact(decision=decision, puzzle_type="kuromasu", grid=grid, marked=BLACK)


_REFERENCE = "puzzlekit 0.3.4, https://github.com/SmilingWayne/puzzlekit (solvers/akari.py, solvers/kuromasu.py)"

ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="puzzlekit",
        name="default",
        build=_lightup,
        description="puzzlekit's AkariSolver (CP-SAT): at most one bulb per row/column segment, "
        "every open cell sees a bulb, numbered walls count their neighbours",
        origin="puzzlekit",
        reference=_REFERENCE,
    ),
    EncodingSpec(
        family=Family.KUROMASU,
        paradigm="puzzlekit",
        name="default",
        build=_kuromasu,
        description="puzzlekit's KuromasuSolver (CP-SAT): no adjacent blacks, white cells connected "
        "by a height (distance) labelling, visibility chains per direction summed to each number",
        origin="puzzlekit",
        reference=_REFERENCE,
    ),
]
