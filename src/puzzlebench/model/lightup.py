"""Light Up (Akari): walls, numbered walls, and bulbs that light their row and column."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Iterable, Mapping

from ..errors import ClueOutOfRange
from .base import Family, Puzzle, Solution, freeze_map
from .grid import Cell


class LightUpSolution(Solution):
    """The set of bulb cells."""

    @property
    def bulbs(self) -> frozenset[Cell]:
        return self.cells


@dataclass(frozen=True, eq=False)
class LightUp(Puzzle):
    """An R x C grid of open cells and walls; a wall may carry a number 0..4.

    Numbered cells are walls whether or not ``walls`` lists them.
    """

    family: ClassVar[Family] = Family.LIGHTUP
    solution_type: ClassVar[type[Solution]] = LightUpSolution

    walls: frozenset[Cell] = frozenset()
    numbers: Mapping[Cell, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._check_size()
        numbers = {}
        for cell, n in dict(self.numbers).items():
            cell = self._check_cell(cell, "number")
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 4:
                raise ClueOutOfRange(f"Light Up number at {cell} must be 0..4, got {n!r}")
            numbers[cell] = n
        walls = {self._check_cell(cell, "wall") for cell in self.walls} | set(numbers)
        object.__setattr__(self, "numbers", freeze_map(numbers))
        object.__setattr__(self, "walls", frozenset(walls))

    def key(self) -> tuple:
        return (self.rows, self.cols, tuple(sorted(self.walls)), tuple(self.numbers.items()))

    def is_open(self, cell: Cell) -> bool:
        return cell not in self.walls

    @property
    def open_cells(self) -> list[Cell]:
        return [cell for cell in self.grid.cells() if cell not in self.walls]

    def solution(self, cells: Iterable[Cell]) -> LightUpSolution:
        return LightUpSolution(cells)
