"""The family registry: what the package knows about a puzzle family, declared in one place.

A family is one module (``model/lightup.py``, ``model/hitori.py``, ...) that defines its
puzzle and solution types, its rules and independent verifier, and ends with one
:func:`register_family` call whose :class:`FamilySpec` names everything the rest of the
package needs: how to draw a cell, the cell tokens of the native and janko texts, the
puzz.link codec, the cells brute force tries, a random small board for tests, and where its
generator lives. The formats, the renderer, the verifier, the bench spec, the command line and
the tests ask this registry; none of them names a family.

A family from outside the package registers the same way (from a plugin module).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..errors import PuzzleError
from .base import ClueBoard, Family, Puzzle, Violation
from .grid import Cell

if TYPE_CHECKING:
    from ..generate.common import Generated

#: a family's own puzzle type, which its spec's callbacks take
P = TypeVar("P", bound=Puzzle)


class BadToken(ValueError):
    """A cell token that does not belong to a family's alphabet, at 0-based ``(row, col)``.

    Raised by the token readers of :class:`FamilySpec`; each format turns it into a
    :class:`~puzzlebench.errors.ParseError` naming its own line and column."""

    def __init__(self, row: int, col: int, token: str, expected: str):
        super().__init__(f"bad cell {token!r} at {(row, col)}, expected {expected}")
        self.row, self.col, self.token, self.expected = row, col, token, expected


class BadBody(ValueError):
    """A malformed puzz.link body: ``message`` and the 0-based ``index`` of the offending
    character (the format adds the URL's own offset)."""

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.message, self.index = message, index


@dataclass(frozen=True)
class CellView:
    """How one cell is drawn: ``text`` in the terminal; ``fill`` (an SVG colour), an optional
    ``label`` written in it (in ``ink``), and ``disc`` (a bulb) in SVG."""

    text: str
    fill: str = "#fff"
    label: str | None = None
    ink: str = "#000"
    disc: bool = False


#: Colours shared by the families' cell views.
WHITE, DARK, LIT = "#fff", "#222", "#fff3a0"


def clue_view(p: ClueBoard, cell: Cell, marked: frozenset[Cell], _: Any) -> CellView:
    """A clue board's cell (Kuromasu, Nurikabe): marked cells dark, clues labelled."""
    if cell in marked:
        return CellView("#", DARK)
    label = p.clue_label(cell)
    return CellView(label or ".", WHITE, label)


def clue_token(p: ClueBoard, cell: Cell) -> str:
    """A clue board's native text token: the number, '?', or '.'."""
    return p.clue_label(cell) or "."


@dataclass(frozen=True)
class JankoCodec(Generic[P]):
    """A family's janko / puzzlekit text (``ROWS COLS`` then rows of space-separated tokens).

    ``tokens`` writes the problem, ``parse`` reads it (raising :class:`BadToken`), ``mark`` is
    the answer token of a marked cell; a solution's other tokens must be ``-`` or satisfy
    ``fits(token, problem_token)``. ``marks_over_problem``: solutions repeat the problem with
    marks (Akari) rather than ``-``/mark everywhere. ``claims`` tells from a problem's tokens
    that the text is this family's (for files that do not say), ``limits`` what a puzzle has
    that the text cannot say."""

    tokens: Callable[[P], list[list[str]]]
    parse: Callable[[int, int, list[list[str]]], P]
    mark: str = "x"
    marks_over_problem: bool = False
    fits: Callable[[str, str], bool] = lambda token, clue: token == clue
    claims: Callable[[list[list[str]]], bool] = lambda tokens: False
    limits: Callable[[P], str | None] = lambda puzzle: None
    dataset_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class PuzzlinkCodec(Generic[P]):
    """A family's puzz.link body codec (after ``?TYPE/COLS/ROWS/``), as pzprjs writes it.

    ``ids`` are the type names pzprjs accepts (the first is written); ``decode(body, rows,
    cols)`` raises :class:`BadBody` on a malformed body; ``limits(puzzle)`` says what of a
    puzzle the body cannot hold (None when it can). The body parts pzprjs shares between
    genres (number16 cells, runs of empty cells) are in :mod:`puzzlebench.formats.puzzlink`."""

    ids: tuple[str, ...]
    decode: Callable[[str, int, int], P]
    encode: Callable[[P], str]
    limits: Callable[[P], str | None] = lambda puzzle: None


@dataclass(frozen=True)
class InstanceSchema(Generic[P]):
    """How a family's puzzle is handed to an encoding file: ``write(puzzle)`` gives the text
    (ASP facts, MiniZinc data), ``text`` documents it, ``answer`` names where the answer is read
    (the ASP predicate ``answer/2``, or the MiniZinc 2-D Boolean array)."""

    answer: str
    text: str
    write: Callable[[P], str]


def asp_size(puzzle: Puzzle) -> list[str]:
    """The ``size(R,C).`` fact every family's ASP schema starts with."""
    return [f"size({puzzle.rows},{puzzle.cols})."]


ASP_SIZE_DOC = "size(R,C).      the board has R rows and C columns (cells 0..R-1 x 0..C-1)\n"
MZN_SIZE_DOC = "int: h; int: w;                     rows, columns\n"


def dzn_board(puzzle: Puzzle, name: str, value: Callable[[Cell], int]) -> str:
    """MiniZinc data ``h``, ``w`` and the 2-D array ``name`` of ``value(cell)``."""
    rows = ",\n     | ".join(
        ", ".join(f"{value((r, c)):2d}" for c in range(puzzle.cols)) for r in range(puzzle.rows)
    )
    return f"h = {puzzle.rows};\nw = {puzzle.cols};\n{name} = [| {rows} |];\n"


@dataclass(frozen=True)
class FamilySpec(Generic[P]):
    """Everything the package knows about one family.

    - ``family``, ``title`` (as people write it), ``aliases`` (other names it goes by),
      ``puzzle_type``, ``answer`` (what the marked cells are: "bulbs", "black cells", ...),
      ``rules`` (one line each, for help texts);
    - ``verify(puzzle, cells)``: the independent verifier, on in-bounds cells;
      ``accepts(puzzle, cells)``, when given: the same rules as a plain yes or no, without the
      details, for the harness's check of every answer (``verify`` runs only when it says no, to
      tell what is broken); it must say yes exactly when ``verify`` finds nothing;
    - ``view(puzzle, cell, marked, context)``: a :class:`CellView`; ``context(puzzle, marked)``
      what the views share (e.g. Light Up's lit cells), computed once per picture;
    - ``native_token(puzzle, cell)`` / ``from_native(rows, cols, tokens, name, meta)``: the native
      text's cell tokens; ``native_mark``: the token of a marked cell in a native solution grid;
      ``native_help``: the token alphabet in words;
    - ``janko``, ``puzzlink``: codecs, or None where the format has no such family;
    - ``candidates(puzzle)``: the cells an answer may mark (brute force tries their subsets);
    - ``random_board(rng, rows, cols)``: a random small puzzle (for tests);
    - ``asp_facts``, ``mzn_data``: the instance interface of ``.lp`` and ``.mzn`` encoding files;
    - ``proof_paradigms``: the paradigms a generator's uniqueness proof tries, fastest first;
    - ``generator``: ``"module:OptionsClass:function"``, imported on first use.
    """

    family: Family
    title: str
    puzzle_type: type[P]
    answer: str
    verify: Callable[[P, frozenset[Cell]], list[Violation]]
    view: Callable[[P, Cell, frozenset[Cell], Any], CellView]
    native_token: Callable[[P, Cell], str]
    from_native: Callable[..., P]
    native_mark: str
    native_help: str
    candidates: Callable[[P], list[Cell]]
    random_board: Callable[[random.Random, int, int], P]
    rules: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    context: Callable[[P, frozenset[Cell]], Any] = lambda puzzle, marked: None
    janko: JankoCodec[P] | None = None
    puzzlink: PuzzlinkCodec[P] | None = None
    asp_facts: InstanceSchema[P] | None = None
    mzn_data: InstanceSchema[P] | None = None
    proof_paradigms: tuple[str, ...] = ("sat", "asp", "cp", "smt")
    generator: str | None = None
    description: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    accepts: Callable[[P, frozenset[Cell]], bool] | None = None

    def generator_parts(self) -> tuple[type, Callable[..., Generated]] | None:
        """The generator's options class and function, imported now (None if it has none)."""
        if self.generator is None:
            return None
        module, options, function = self.generator.split(":")
        mod = import_module(module)
        return getattr(mod, options), getattr(mod, function)


_SPECS: dict[Family, FamilySpec[Any]] = {}


def register_family(spec: FamilySpec[P]) -> FamilySpec[P]:
    """Add (or replace) a family's descriptor; its ``family`` must come from ``Family.define``."""
    if spec.puzzle_type.family is not spec.family:
        raise ValueError(
            f"{spec.puzzle_type.__name__}.family is {spec.puzzle_type.family!r}, not {spec.family!r}"
        )
    _SPECS[spec.family] = spec
    return spec


def family_spec(family: Family | str | Puzzle) -> FamilySpec[Any]:
    """The descriptor of a family (given as a Family, its name or alias, or a puzzle of it)."""
    if isinstance(family, Puzzle):
        family = family.family
    try:
        return _SPECS[Family(family)]
    except (KeyError, ValueError):
        raise PuzzleError(f"unknown puzzle family {family!r}; known: {', '.join(map(str, _SPECS))}") from None


def family_specs() -> Iterator[FamilySpec[Any]]:
    """Every registered family's descriptor, in registration order."""
    return iter(list(_SPECS.values()))


def grid_cells(rows: int, cols: int) -> list[Cell]:
    """Every cell of a grid in row-major order."""
    return [(r, c) for r in range(rows) for c in range(cols)]


def numbers_from_tokens(
    tokens: Sequence[Sequence[str]], blank: str, expected: str, low: int = 0, high: int | None = None
) -> dict[Cell, int]:
    """``{cell: n}`` for every token that is a decimal number in ``low..high``; ``blank`` tokens
    are skipped, anything else is a :class:`BadToken` (``expected`` says what was wanted)."""
    numbers: dict[Cell, int] = {}
    for r, row in enumerate(tokens):
        for c, tok in enumerate(row):
            if tok == blank:
                continue
            if (
                not (tok.isascii() and tok.isdecimal())
                or len(tok) > 9
                or int(tok) < low
                or (high is not None and int(tok) > high)
            ):
                raise BadToken(r, c, tok, expected)
            numbers[(r, c)] = int(tok)
    return numbers
