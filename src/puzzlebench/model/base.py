"""What every puzzle family shares: the family enum, solutions, violations, metadata."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from ..errors import CellOutOfBounds, ClueOutOfRange, GridShapeError, PuzzleError
from .grid import Cell, Grid

#: The most cells a puzzle may have. Every reader and every encoding goes through the model, so
#: this bound holds for every format (a declared size of 100000x100000 fails here, at once,
#: instead of a writer or an encoding looping over ten billion cells). Override it with the
#: environment variable ``PUZZLEBENCH_MAX_CELLS`` or by assigning this constant.
MAX_CELLS = 1_000_000
MAX_CELLS_ENV = "PUZZLEBENCH_MAX_CELLS"


def max_cells() -> int:
    """The cell bound in force: ``$PUZZLEBENCH_MAX_CELLS`` when set, else :data:`MAX_CELLS`."""
    text = os.environ.get(MAX_CELLS_ENV, "").strip()
    if not text:
        return MAX_CELLS
    if not (text.isascii() and text.isdecimal()) or len(text) > 18 or int(text) < 1:
        raise PuzzleError(f"{MAX_CELLS_ENV} must be a positive integer, got {text[:30]!r}")
    return int(text)


def prechecked(cls: type, rows: int, cols: int, **fields: Any) -> Any:
    """A puzzle of ``cls`` from cells a reader made itself and already knows valid (in bounds,
    in row-major order, numbers in range), as ``cls(rows, cols, **fields)`` would build it with
    no name and no metadata, without the constructor checking every cell again (reading a
    corpus puzzle is on the clock). Mappings in ``fields`` are handed over read-only."""
    check_size(rows, cols)
    puzzle: Any = object.__new__(cls)
    for name, value in {
        "rows": rows,
        "cols": cols,
        "name": "",
        "meta": MappingProxyType({}),
        **fields,
    }.items():
        object.__setattr__(puzzle, name, MappingProxyType(value) if isinstance(value, dict) else value)
    return puzzle


def check_size(rows: object, cols: object) -> None:
    """Raise :class:`GridShapeError` unless ``rows`` x ``cols`` is a grid the model accepts:
    positive integers whose product is at most :func:`max_cells`."""
    if (
        isinstance(rows, bool)
        or isinstance(cols, bool)
        or not isinstance(rows, int)
        or not isinstance(cols, int)
        or rows < 1
        or cols < 1
    ):
        raise GridShapeError(f"grid must have at least one row and one column, got {rows!r}x{cols!r}")
    limit = max_cells()
    if rows * cols > limit:
        raise GridShapeError(
            f"grid of {rows}x{cols} = {rows * cols} cells is larger than the limit of {limit} cells "
            f"(set {MAX_CELLS_ENV} to raise it)"
        )


class _Named(type):
    """Metaclass of the open name types: ``Family.KUROMASU``, ``for f in Family``, ``"x" in Family``."""

    def __getattr__(cls, attr: str):
        members = cls.__dict__.get("_members", {})
        for member in members.values():
            if member.attr == attr:
                return member
        raise AttributeError(f"{cls.__name__} has no member {attr}")

    def __iter__(cls):
        return iter(list(cls._members.values()))

    def __len__(cls) -> int:
        return len(cls._members)

    def __contains__(cls, value: object) -> bool:
        return isinstance(value, str) and value in cls._members


_N = TypeVar("_N", bound="_Name")


class _Name(str, metaclass=_Named):
    """A registered name: a singleton ``str`` equal to its text, with ``.value`` and ``.name``
    (its ``UPPER_CASE`` attribute) like an enum member, pickled by its text."""

    _members: dict[str, Any] = {}  # each subclass keeps its own members
    attr: str

    @classmethod
    def _create(cls: type[_N], text: str, attr: str) -> _N:
        member = str.__new__(cls, text)
        member.attr = attr
        cls._members[text] = member
        return member

    @property
    def value(self) -> str:
        return str.__str__(self)

    @property
    def name(self) -> str:
        return self.attr

    def __str__(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.attr}>"

    def __reduce__(self):
        return (type(self), (str.__str__(self),))

    def __copy__(self) -> _Name:
        return self

    def __deepcopy__(self, memo) -> _Name:
        return self


class Family(_Name):
    """A puzzle family's name. Families are registered, not enumerated here: each family module
    calls :meth:`define` once (``LIGHTUP = Family.define("lightup")``), after which
    ``Family("lightup")``, ``Family.LIGHTUP`` and ``for f in Family`` know it. Members are
    singletons (``is`` compares them) and equal to their name as a string."""

    _members: dict[str, Family] = {}
    _aliases: dict[str, Family] = {}

    def __new__(cls, value: object) -> Family:
        if isinstance(value, Family):
            return value
        key: Any = str(value).strip().lower() if isinstance(value, str) else value
        member = cls._members.get(key) or cls._aliases.get(key)
        if member is None:
            raise ValueError(f"{value!r} is not a puzzle family; known: {', '.join(cls._members)}")
        return member

    @classmethod
    def define(cls, name: str, aliases: Iterable[str] = ()) -> Family:
        """The family called ``name`` (lower case), created on first call; ``aliases`` are
        other names ``Family(...)`` accepts (``akari`` for ``lightup``)."""
        if name in cls._members:
            return cls._members[name]
        if not name.isidentifier() or name.lower() != name:
            raise ValueError(f"a family name is a lower-case identifier, got {name!r}")
        member = cls._create(name, name.upper())
        for alias in aliases:
            cls._aliases[alias.lower()] = member
        return member


class Rule(_Name):
    """The name of a rule an answer can break (what verifiers report). Each family module
    defines its own (``UNLIT_CELL = Rule.define("UNLIT_CELL", "unlit cell")``); ``Rule.UNLIT_CELL``
    then finds it."""

    _members: dict[str, Rule] = {}

    def __new__(cls, value: object) -> Rule:
        if isinstance(value, Rule):
            return value
        for member in cls._members.values():
            if value in (str.__str__(member), member.attr):
                return member
        raise ValueError(f"{value!r} is not a rule name")

    @classmethod
    def define(cls, attr: str, text: str) -> Rule:
        """The rule called ``text`` (``Rule.<attr>``), created on first call."""
        return cls._members.get(text) or cls._create(text, attr)


#: A cell outside the grid (every family).
OUT_OF_BOUNDS = Rule.define("OUT_OF_BOUNDS", "cell out of bounds")


@dataclass(frozen=True)
class Violation:
    """One broken rule, with the cells involved and a sentence a person can act on."""

    rule: Rule
    cells: tuple[Cell, ...]
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


@dataclass(frozen=True)
class Solution:
    """An answer: the set of marked cells (bulbs, black cells or lit cells by family)."""

    cells: frozenset[Cell]

    def __init__(self, cells: Iterable[Cell]):
        object.__setattr__(self, "cells", frozenset((int(r), int(c)) for r, c in cells))

    def sorted(self) -> list[list[int]]:
        """The cells as a sorted list of ``[row, col]`` pairs (the JSON form)."""
        return [[r, c] for r, c in sorted(self.cells)]

    def digest(self) -> str:
        """A short stable hash of the answer, for comparing runs."""
        text = ";".join(f"{r},{c}" for r, c in sorted(self.cells))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def __len__(self) -> int:
        return len(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self.cells

    def __iter__(self):
        return iter(sorted(self.cells))


def freeze_map(items: Mapping[Cell, Any] | Iterable[tuple[Cell, Any]]) -> Mapping[Cell, Any]:
    """A read-only mapping with keys in row-major order."""
    pairs = items.items() if isinstance(items, Mapping) else items
    return MappingProxyType(dict(sorted(((int(r), int(c)), v) for (r, c), v in pairs)))


@dataclass(frozen=True, eq=False)
class Puzzle:
    """Base of the three immutable puzzle types.

    ``name`` and ``meta`` (origin, generator seed and parameters, ...) travel with the puzzle but
    take no part in equality: two puzzles are equal when their boards are.
    """

    family: ClassVar[Family]
    solution_type: ClassVar[type[Solution]] = Solution

    rows: int
    cols: int
    name: str = field(default="", kw_only=True)
    meta: Mapping[str, Any] = field(default_factory=dict, kw_only=True)

    def _check_size(self) -> None:
        check_size(self.rows, self.cols)
        object.__setattr__(self, "meta", MappingProxyType(dict(self.meta)))

    # Read-only mappings cannot be pickled; send them as dicts (process pools, Dask workers).
    def __getstate__(self) -> dict[str, Any]:
        proxied = [k for k, v in self.__dict__.items() if isinstance(v, MappingProxyType)]
        values = {k: dict(v) if k in proxied else v for k, v in self.__dict__.items()}
        return {"values": values, "proxied": proxied}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state["values"].items():
            object.__setattr__(self, key, MappingProxyType(value) if key in state["proxied"] else value)

    def _check_cell(self, cell: Cell, what: str) -> Cell:
        try:
            r, c = cell
        except (TypeError, ValueError):
            raise PuzzleError(f"{what}: {cell!r} is not a (row, col) pair") from None
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise CellOutOfBounds(f"{what} at {(r, c)} is outside the {self.rows}x{self.cols} grid")
        return (int(r), int(c))

    def _is_cell(self, cell: object) -> bool:
        """Whether ``cell`` is already an in-bounds ``(row, col)`` pair of plain ints (the form
        readers build; anything else goes through :meth:`_check_cell`, which converts or refuses)."""
        return (
            type(cell) is tuple
            and len(cell) == 2
            and type(cell[0]) is int
            and type(cell[1]) is int
            and 0 <= cell[0] < self.rows
            and 0 <= cell[1] < self.cols
        )

    def _check_cells(self, cells: Iterable[Cell], what: str) -> set[Cell]:
        """:meth:`_check_cell` of every cell, as a set."""
        is_cell, check = self._is_cell, self._check_cell
        return {cell if is_cell(cell) else check(cell, what) for cell in cells}

    def _check_numbers(self, numbers: Mapping[Cell, Any], low: int, high: int, what: str) -> dict[Cell, int]:
        """``numbers`` with in-bounds cells and integer values in ``low..high``, else a
        :class:`ClueOutOfRange` naming ``what`` (e.g. "Kuromasu number")."""
        out = {}
        for cell, n in dict(numbers).items():
            if not self._is_cell(cell):
                cell = self._check_cell(cell, "number")
            if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= high:
                raise ClueOutOfRange(
                    f"{what} at {cell} must be {low}..{high} on a {self.rows}x{self.cols} grid, got {n!r}",
                    cell,
                )
            out[cell] = n
        return out

    @property
    def grid(self) -> Grid:
        return Grid(self.rows, self.cols)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    def key(self) -> tuple:
        """The board content, for equality and hashing (family-specific)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.key()))

    def content_hash(self) -> str:
        """A stable hash of the board (not of its name or metadata)."""
        return hashlib.sha256(repr((self.family.value, self.key())).encode()).hexdigest()[:16]

    def solution(self, cells: Iterable[Cell]) -> Solution:
        """Wrap a set of cells as this family's solution type."""
        return self.solution_type(cells)

    def verify(self, solution: Solution | Iterable[Cell]) -> list[Violation]:
        """Every rule the answer breaks; an empty list means the answer is valid."""
        from .verify import verify

        return verify(self, solution)

    def is_solution(self, solution: Solution | Iterable[Cell]) -> bool:
        return not self.verify(solution)

    def with_meta(self, name: str | None = None, **meta: Any) -> Puzzle:
        """A copy with another name and/or more metadata."""
        import dataclasses

        return dataclasses.replace(self, name=self.name if name is None else name, meta={**self.meta, **meta})

    # Rendering lives in puzzlebench.render; these hooks make puzzles show up in Jupyter.
    def to_text(self, solution: Solution | None = None, violations: Iterable[Violation] = ()) -> str:
        from ..render import render_text

        return render_text(self, solution, violations)

    def to_svg(self, solution: Solution | None = None, violations: Iterable[Violation] = ()) -> str:
        from ..render import render_svg

        return render_svg(self, solution, violations)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __str__(self) -> str:
        return self.to_text()


@dataclass(frozen=True, eq=False)
class ClueBoard(Puzzle):
    """Base of the puzzles with numbered cells and '?' cells (a clue whose number is unknown) on
    an otherwise empty grid: Kuromasu, Nurikabe. ``NUMBER`` names a number in errors."""

    NUMBER: ClassVar[str] = "number"

    numbers: Mapping[Cell, int] = field(default_factory=dict)
    unknown: frozenset[Cell] = frozenset()

    def highest(self) -> int:
        """The largest number the board's size allows."""
        raise NotImplementedError

    def __post_init__(self) -> None:
        self._check_size()
        numbers = self._check_numbers(self.numbers, 1, self.highest(), self.NUMBER)
        unknown = frozenset(self._check_cells(self.unknown, "'?' clue"))
        both = sorted(unknown & numbers.keys())
        if both:
            raise PuzzleError(f"cell {both[0]} is both a number and a '?' clue")
        object.__setattr__(self, "numbers", freeze_map(numbers))
        object.__setattr__(self, "unknown", unknown)

    @property
    def clue_cells(self) -> frozenset[Cell]:
        """Every clue cell: numbered and '?' cells."""
        return frozenset(self.numbers) | self.unknown

    def clue_label(self, cell: Cell) -> str | None:
        """The number at ``cell`` as text, '?' on a '?' clue, else None."""
        return str(self.numbers[cell]) if cell in self.numbers else "?" if cell in self.unknown else None


@dataclass(frozen=True, eq=False)
class NumberBoard(Puzzle):
    """Base of the puzzles with a number in every cell (``numbers[row][col]``): LightBulbs, Hitori.

    ``LOW``/``HIGH`` bound the numbers (``HIGH`` None: no upper bound), ``RANGE`` says so in words."""

    LOW: ClassVar[int] = 1
    HIGH: ClassVar[int | None] = None
    RANGE: ClassVar[str] = "a positive integer"

    numbers: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        self._check_size()
        title = type(self).__name__
        rows = [tuple(row) for row in self.numbers]
        if len(rows) != self.rows:
            raise GridShapeError(f"{title} grid declares {self.rows} rows but has {len(rows)}")
        for r, row in enumerate(rows):
            if len(row) != self.cols:
                raise GridShapeError(f"{title} row {r} has {len(row)} numbers, expected {self.cols}")
            for c, n in enumerate(row):
                if (
                    isinstance(n, bool)
                    or not isinstance(n, int)
                    or n < self.LOW
                    or (self.HIGH is not None and n > self.HIGH)
                ):
                    raise ClueOutOfRange(
                        f"{title} number at {(r, c)} must be {self.RANGE}, got {n!r}", (r, c)
                    )
        object.__setattr__(self, "numbers", tuple(rows))

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[int]], **kw: Any):
        """Build from a list of rows; the size is taken from the list."""
        grid = [tuple(row) for row in rows]
        if not grid or not grid[0]:
            raise GridShapeError(f"{cls.__name__} grid is empty")
        return cls(len(grid), len(grid[0]), numbers=tuple(grid), **kw)

    def key(self) -> tuple:
        return (self.rows, self.cols, self.numbers)

    def number(self, cell: Cell) -> int:
        return self.numbers[cell[0]][cell[1]]
