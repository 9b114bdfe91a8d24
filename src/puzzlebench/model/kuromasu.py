"""Kuromasu (Kurodoko, "Range"): numbered white cells that count what they see."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Iterable, Mapping

from ..errors import ClueOutOfRange, PuzzleError
from .base import Family, Puzzle, Solution, freeze_map
from .grid import Cell


class KuromasuSolution(Solution):
    """The set of black cells."""

    @property
    def black(self) -> frozenset[Cell]:
        return self.cells


@dataclass(frozen=True, eq=False)
class Kuromasu(Puzzle):
    """An R x C grid with numbered cells (1..R+C-1) and "?" cells (white, number unknown)."""

    family: ClassVar[Family] = Family.KUROMASU
    solution_type: ClassVar[type[Solution]] = KuromasuSolution

    numbers: Mapping[Cell, int] = field(default_factory=dict)
    unknown: frozenset[Cell] = frozenset()

    def __post_init__(self) -> None:
        self._check_size()
        most = self.rows + self.cols - 1
        numbers = {}
        for cell, n in dict(self.numbers).items():
            cell = self._check_cell(cell, "number")
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= most:
                raise ClueOutOfRange(
                    f"Kuromasu number at {cell} must be 1..{most} on a {self.rows}x{self.cols} grid, got {n!r}"
                )
            numbers[cell] = n
        unknown = frozenset(self._check_cell(cell, "'?' clue") for cell in self.unknown)
        both = sorted(unknown & numbers.keys())
        if both:
            raise PuzzleError(f"cell {both[0]} is both a number and a '?' clue")
        object.__setattr__(self, "numbers", freeze_map(numbers))
        object.__setattr__(self, "unknown", unknown)

    def key(self) -> tuple:
        return (self.rows, self.cols, tuple(self.numbers.items()), tuple(sorted(self.unknown)))

    @property
    def clue_cells(self) -> frozenset[Cell]:
        """Every cell that must stay white: numbered and '?' cells."""
        return frozenset(self.numbers) | self.unknown

    def solution(self, cells: Iterable[Cell]) -> KuromasuSolution:
        return KuromasuSolution(cells)
