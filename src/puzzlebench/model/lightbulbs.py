"""LightBulbs (seed 003): every cell holds 1..9; lit iff the number counts lit cells around it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterable, Sequence

from ..errors import ClueOutOfRange, GridShapeError
from .base import Family, Puzzle, Solution
from .grid import Cell


class LightBulbsSolution(Solution):
    """The set of lit cells."""

    @property
    def lit(self) -> frozenset[Cell]:
        return self.cells


@dataclass(frozen=True, eq=False)
class LightBulbs(Puzzle):
    """An R x C grid of numbers 1..9, one per cell (``numbers[row][col]``)."""

    family: ClassVar[Family] = Family.LIGHTBULBS
    solution_type: ClassVar[type[Solution]] = LightBulbsSolution

    numbers: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        self._check_size()
        rows = [tuple(row) for row in self.numbers]
        if len(rows) != self.rows:
            raise GridShapeError(f"LightBulbs grid declares {self.rows} rows but has {len(rows)}")
        for r, row in enumerate(rows):
            if len(row) != self.cols:
                raise GridShapeError(f"LightBulbs row {r} has {len(row)} numbers, expected {self.cols}")
            for c, n in enumerate(row):
                if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 9:
                    raise ClueOutOfRange(f"LightBulbs number at {(r, c)} must be 1..9, got {n!r}")
        object.__setattr__(self, "numbers", tuple(rows))

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], **kw) -> "LightBulbs":
        """Build from a list of rows; the size is taken from the list."""
        rows = [tuple(row) for row in rows]
        if not rows or not rows[0]:
            raise GridShapeError("LightBulbs grid is empty")
        return cls(len(rows), len(rows[0]), numbers=tuple(rows), **kw)

    def key(self) -> tuple:
        return (self.rows, self.cols, self.numbers)

    def number(self, cell: Cell) -> int:
        return self.numbers[cell[0]][cell[1]]

    def solution(self, cells: Iterable[Cell]) -> LightBulbsSolution:
        return LightBulbsSolution(cells)
