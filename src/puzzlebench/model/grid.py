"""Grid geometry shared by every encoding: cells, neighbourhoods, runs of open cells, rays.

Coordinates are 0-based ``(row, column)`` pairs. The verifiers in this package deliberately do
not use these helpers, so that a bug here cannot hide itself by breaking both sides at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, lru_cache

Cell = tuple[int, int]


class Direction(Enum):
    """The four orthogonal directions, as (row step, column step)."""

    UP = (-1, 0)
    DOWN = (1, 0)
    LEFT = (0, -1)
    RIGHT = (0, 1)

    @property
    def step(self) -> Cell:
        return self.value


@dataclass(frozen=True)
class Segment:
    """A maximal horizontal or vertical run of open cells (a Light Up "group")."""

    horizontal: bool
    cells: tuple[Cell, ...]

    def __len__(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Grid:
    """The geometry of an ``rows x cols`` board."""

    rows: int
    cols: int

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != 2:
            return False
        r, c = cell
        return 0 <= r < self.rows and 0 <= c < self.cols

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def cells(self) -> Iterator[Cell]:
        """All cells in row-major order."""
        for r in range(self.rows):
            for c in range(self.cols):
                yield (r, c)

    def index(self, cell: Cell) -> int:
        """Row-major index of a cell."""
        return cell[0] * self.cols + cell[1]

    def neighbours4(self, cell: Cell) -> list[Cell]:
        """Orthogonal neighbours, clipped at the border."""
        r, c = cell
        out = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < self.rows and 0 <= nc < self.cols:
                out.append((nr, nc))
        return out

    def neighbours8(self, cell: Cell) -> list[Cell]:
        """The 3x3 neighbourhood without the cell itself, clipped at the border."""
        return [n for n in self.block3x3(cell) if n != cell]

    def block3x3(self, cell: Cell) -> list[Cell]:
        """The 3x3 neighbourhood including the cell itself, clipped at the border."""
        r, c = cell
        return [
            (nr, nc)
            for nr in range(max(0, r - 1), min(self.rows, r + 2))
            for nc in range(max(0, c - 1), min(self.cols, c + 2))
        ]

    def ray(
        self, cell: Cell, direction: Direction, blocked: Callable[[Cell], bool] | None = None
    ) -> list[Cell]:
        """Cells seen from ``cell`` going one way, stopping before a blocked cell or the border."""
        dr, dc = direction.step
        r, c = cell[0] + dr, cell[1] + dc
        out = []
        while 0 <= r < self.rows and 0 <= c < self.cols and not (blocked and blocked((r, c))):
            out.append((r, c))
            r, c = r + dr, c + dc
        return out

    def rays(self, cell: Cell, blocked: Callable[[Cell], bool] | None = None) -> dict[Direction, list[Cell]]:
        """The four rays from ``cell`` (nearest cell first)."""
        return {d: self.ray(cell, d, blocked) for d in Direction}

    def segments(self, is_open: Callable[[Cell], bool]) -> list[Segment]:
        """Maximal horizontal runs, then maximal vertical runs, of open cells."""
        out: list[Segment] = []
        for horizontal in (True, False):
            outer, inner = (self.rows, self.cols) if horizontal else (self.cols, self.rows)
            for a in range(outer):
                run: list[Cell] = []
                for b in range(inner + 1):
                    cell = (a, b) if horizontal else (b, a)
                    if b < inner and is_open(cell):
                        run.append(cell)
                    elif run:
                        out.append(Segment(horizontal, tuple(run)))
                        run = []
        return out

    def edges(self, cells: Iterable[Cell] | None = None) -> list[tuple[Cell, Cell]]:
        """Orthogonally adjacent pairs (each once, smaller cell first) among ``cells``."""
        pool = set(self.cells()) if cells is None else set(cells)
        return [(a, b) for a in sorted(pool) for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1)) if b in pool]

    @cached_property
    def all_cells(self) -> tuple[Cell, ...]:
        return tuple(self.cells())


class Subgrid:
    """A grid's geometry restricted to some of its cells (those a region may hold): the part of
    :class:`Grid`'s interface the connectivity encodings use (``all_cells``, ``size``,
    ``neighbours4``, ``edges``)."""

    def __init__(self, grid: Grid, cells: Iterable[Cell]):
        self.grid = grid
        self.all_cells: tuple[Cell, ...] = tuple(sorted(cells))
        self._members = frozenset(self.all_cells)

    @property
    def size(self) -> int:
        return len(self.all_cells)

    def neighbours4(self, cell: Cell) -> list[Cell]:
        return [nb for nb in self.grid.neighbours4(cell) if nb in self._members]

    def edges(self) -> list[tuple[Cell, Cell]]:
        return self.grid.edges(self.all_cells)


@lru_cache(maxsize=64)
def _row_shift_masks(rows: int, cols: int) -> tuple[int, int]:
    """Bit masks over a grid's flat cells (bit ``r * cols + c``): the cells off the first column
    and the cells off the last one (where a shift by one along a row may land)."""
    every = sum(1 << (r * cols) for r in range(rows))  # bit 0 of each row
    return every * (((1 << cols) - 1) ^ 1), every * (((1 << cols) - 1) >> 1)


def bit_region(rows: int, cols: int, seed: int, within: int, goal: int = 0) -> int:
    """The cells of the bit set ``within`` orthogonally connected to the bits of ``seed``, over
    the flat cells of a ``rows`` x ``cols`` grid (bit ``r * cols + c``). Grown a whole breadth-
    first layer per step (four shifts, masked at the row ends): a few big-integer operations per
    layer instead of a Python step per cell. With ``goal``, growth stops once it holds every
    bit of ``goal``."""
    off_first, off_last = _row_shift_masks(rows, cols)
    reach = seed & within
    while not goal or goal & ~reach:
        grown = (
            reach | (reach << 1 & off_first) | (reach >> 1 & off_last) | reach << cols | reach >> cols
        ) & within
        if grown == reach:
            break
        reach = grown
    return reach
