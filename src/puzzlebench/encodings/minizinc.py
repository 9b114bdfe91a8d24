"""MiniZinc encodings: seed 001's Light Up model, run by the ``minizinc`` driver (Gecode).

The model is package data (``encodings/cp/seed001.mzn``), kept as the seed prints it apart from
OCR repairs noted in its header. An encoding here only turns a puzzle into the model's data:
``h`` rows, ``w`` columns and the board ``b`` (-1 white, 5 black without number, 0..4 numbered).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..errors import EncodingError
from ..model import Cell, Family, LightUp, Puzzle
from .base import Artifact, EncodingSpec

#: Seed 001's board codes.
WHITE = -1
PLAIN_BLACK = 5


@dataclass
class MiniZincArtifact(Artifact):
    """A model (``.mzn`` text) and its data (``.dzn`` text) for the ``minizinc`` driver.

    ``decision`` maps each cell that may be marked to its 1-based ``(row, col)`` index in the
    model's 2-D Boolean array named ``array``; the backend reads that array from each solution.
    """

    model: str = ""
    data: str = ""
    array: str = "x"

    def fix_cell(self, handle: Any, on: bool) -> None:
        row, col = handle
        self.model += f"\nconstraint {self.array}[{row},{col}] = {'true' if on else 'false'};"

    def fix_false(self) -> None:
        self.model += "\nconstraint false;"


def seed001_model() -> str:
    """The text of seed 001's MiniZinc model."""
    return (
        resources.files("puzzlebench.encodings")
        .joinpath("cp")
        .joinpath("seed001.mzn")
        .read_text(encoding="utf-8")
    )


def lightup_board(puzzle: LightUp) -> list[list[int]]:
    """Seed 001's board ``b``: -1 white, 5 unnumbered black, 0..4 numbered black."""
    return [
        [
            puzzle.numbers.get((r, c), PLAIN_BLACK) if (r, c) in puzzle.walls else WHITE
            for c in range(puzzle.cols)
        ]
        for r in range(puzzle.rows)
    ]


def lightup_dzn(puzzle: LightUp) -> str:
    """The puzzle as seed 001's MiniZinc data (``h``, ``w`` and the 2-D array ``b``)."""
    rows = ",\n     | ".join(", ".join(f"{v:2d}" for v in row) for row in lightup_board(puzzle))
    return f"h = {puzzle.rows};\nw = {puzzle.cols};\nb = [| {rows} |];\n"


def _build_seed001(puzzle: Puzzle, options: Mapping[str, Any]) -> MiniZincArtifact:
    if not isinstance(puzzle, LightUp):
        raise EncodingError(f"seed 001's MiniZinc model is for Light Up, not {puzzle.family}")
    # Every open cell may hold a bulb; x[i,j] is its 1-based Boolean in the model.
    decision: dict[Cell, tuple[int, int]] = {cell: (cell[0] + 1, cell[1] + 1) for cell in puzzle.open_cells}
    return MiniZincArtifact(decision=decision, model=seed001_model(), data=lightup_dzn(puzzle), array="x")


_DESCRIPTION = (
    "Seed 001's MiniZinc model: a visibility relation between white squares, at most one light "
    "of each mutually visible pair, every white square sees a light, numbered squares count "
    "their orthogonal lights (Gecode through the minizinc driver)"
)

ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="minizinc",
        name=name,
        build=_build_seed001,
        description=_DESCRIPTION,
        origin="seed001",
        reference="MiniZinc Handbook, Light Up example (lightup1.mzn); LPL model library, 2.5.2 Light Up",
    )
    for name in ("seed001", "default")
]
