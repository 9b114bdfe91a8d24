"""Janko / puzzlekit text: ``ROWS COLS`` then one line per row of space-separated tokens.

The tokens are each family's own (``FamilySpec.janko``), for example:

- Akari problem: ``-`` empty, ``x`` wall, ``0``-``4`` numbered wall; solution adds ``o`` (bulb).
- Kuromasu problem: ``-`` cell, a positive integer numbered cell; solution: ``-`` white,
  ``x`` black (numbered cells may appear as their number).
  Published answers may write ``-`` over walls and numbers, or ``x`` over a numbered wall;
  all these forms are read.

The text does not say which family it holds; each family's codec may claim a problem by its
tokens (a problem with ``x``, ``0`` or ``o`` is Akari, one with a number above 4 and a ``-`` is
Kuromasu); when none or several do, the family must come from the caller (or the file name).
:func:`iter_janko` reads the puzzlekit-dataset JSON files, which name their family.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CellError, ParseError, PuzzleError
from ..model import Family, Puzzle, Solution, family_spec, family_specs
from ..model.family import BadToken, JankoCodec
from .base import (
    Format,
    check_grid_size,
    decode_text,
    is_number,
    numbered_lines,
    parse_number,
    position,
    split_tokens,
    strip_bom,
)

NAME = "janko"


def families() -> tuple[Family, ...]:
    """The families with a janko codec."""
    return tuple(spec.family for spec in family_specs() if spec.janko)


def dataset_family(name: str) -> Family | None:
    """The family a dataset's "name" field (or a file name) speaks of, if any."""
    name = name.lower()
    for spec in family_specs():
        if spec.janko and any(key in name for key in (*spec.janko.dataset_names, spec.family.value)):
            return spec.family
    return None


def _codec(family: Family) -> JankoCodec:
    codec = family_spec(family).janko
    if codec is None:
        raise ParseError(NAME, f"holds {', '.join(map(str, families()))} puzzles, not {family.value}")
    return codec


@dataclass(frozen=True)
class _Row:
    """One grid row of the text: its line number, the line, and its tokens."""

    line_no: int
    line: str
    tokens: list[str]

    def column(self, index: int) -> int:
        """The 1-based column of token ``index`` (worked out only for an error message)."""
        return split_tokens(self.line)[index][0]


def _table(text: str) -> tuple[int, int, list[_Row]]:
    """Size line and token rows, shape checked.

    Tokens are split by ``str.split`` (the same whitespace as :func:`split_tokens`, without
    recording every token's column: a corpus is read puzzle after puzzle, and columns are only
    needed to point at an error).
    """
    lines = [(n, line) for n, line in numbered_lines(strip_bom(text)) if line and not line.isspace()]
    if not lines:
        raise ParseError(NAME, "empty text, expected 'ROWS COLS' on the first line", 1, 1)
    n, first = lines[0]
    size = first.split()
    if len(size) != 2 or not all(is_number(t) for t in size):
        raise ParseError(
            NAME, f"expected 'ROWS COLS' (two positive integers), got {first.strip()[:30]!r}", n, 1
        )
    rows, cols = (
        parse_number(NAME, t, what, n, col) for (col, t), what in zip(split_tokens(first), ("ROWS", "COLS"))
    )
    if rows < 1 or cols < 1:
        raise ParseError(
            NAME, f"expected 'ROWS COLS' (two positive integers), got {first.strip()[:30]!r}", n, 1
        )
    check_grid_size(NAME, rows, cols, n, 1)
    body = lines[1:]
    if len(body) != rows:
        where = body[rows][0] if len(body) > rows else (body[-1][0] + 1 if body else n + 1)
        raise ParseError(NAME, f"expected {rows} grid rows, got {len(body)}", where, 1)
    table = []
    for k, (n, line) in enumerate(body):
        tokens = line.split()
        if len(tokens) != cols:
            raise ParseError(NAME, f"row {k + 1} has {len(tokens)} token(s), expected {cols}", n, 1)
        table.append(_Row(n, line, tokens))
    return rows, cols, table


def _guess_family(tokens: list[list[str]]) -> Family:
    claims = [spec.family for spec in family_specs() if spec.janko and spec.janko.claims(tokens)]
    if len(claims) != 1:
        could = " or ".join(map(str, claims or families()))
        raise ParseError(
            NAME, f"cannot tell which family this is (it could be {could}); give the family", 1, 1
        )
    return claims[0]


def read(text: str, family: Family | None = None) -> Puzzle:
    rows, cols, table = _table(text)
    tokens = [row.tokens for row in table]
    family = Family(family) if family is not None else _guess_family(tokens)
    codec = _codec(family)
    try:
        return codec.parse(rows, cols, tokens)
    except CellError as exc:  # Rule: a cell the model refuses is named at its token
        row = table[exc.cell[0]] if exc.cell else table[0]
        raise ParseError(NAME, str(exc), row.line_no, row.column(exc.cell[1]) if exc.cell else 1) from None
    except BadToken as exc:
        row = table[exc.row]
        raise ParseError(
            NAME,
            f"bad {family.value} problem token {exc.token!r}, expected {exc.expected}",
            row.line_no,
            row.column(exc.col),
        ) from None


def _problem_tokens(puzzle: Puzzle) -> list[list[str]]:
    return _codec(puzzle.family).tokens(puzzle)


def _join(puzzle: Puzzle, rows: list[list[str]]) -> str:
    return "\n".join([f"{puzzle.rows} {puzzle.cols}"] + [" ".join(row) for row in rows])


def write(puzzle: Puzzle) -> str:
    FORMAT.check_writable(puzzle)
    return _join(puzzle, _problem_tokens(puzzle))


def write_solution(puzzle: Puzzle, solution: Solution) -> str:
    """The family's answer text: the problem with marks (Akari: ``o`` on bulbs), or the mark
    (``x``) on marked cells and ``-`` elsewhere."""
    FORMAT.check_writable(puzzle)
    codec = _codec(puzzle.family)
    if codec.marks_over_problem:
        board = codec.tokens(puzzle)
        rows = [
            [codec.mark if (r, c) in solution.cells else t for c, t in enumerate(row)]
            for r, row in enumerate(board)
        ]
    else:
        rows = [
            [codec.mark if (r, c) in solution.cells else "-" for c in range(puzzle.cols)]
            for r in range(puzzle.rows)
        ]
    return _join(puzzle, rows)


def read_solution(text: str, puzzle: Puzzle) -> Solution:
    """The answer in a janko solution text, checked against ``puzzle``'s size and clues."""
    codec = _codec(puzzle.family)
    rows, cols, table = _table(text)
    if (rows, cols) != puzzle.shape:
        raise ParseError(NAME, f"solution is {rows}x{cols}, puzzle is {puzzle.rows}x{puzzle.cols}", 1, 1)
    board = codec.tokens(puzzle)
    cells = []
    for r, row in enumerate(table):
        for c, tok in enumerate(row.tokens):
            if tok == codec.mark:
                cells.append((r, c))
            elif tok == "-":  # some published answers blank out the clues
                continue
            elif not codec.fits(tok, board[r][c]):
                raise ParseError(
                    NAME,
                    f"solution token {tok!r} disagrees with the puzzle's {board[r][c]!r}",
                    row.line_no,
                    row.column(c),
                )
    return puzzle.solution(cells)


def detect(text: str) -> bool:
    first = strip_bom(text).lstrip().split("\n", 1)[0].split()
    return len(first) == 2 and all(is_number(t) for t in first)


def _limits(puzzle: Puzzle) -> str | None:
    codec = family_spec(puzzle).janko
    return codec.limits(puzzle) if codec else None


def _shape(record: object) -> str:
    """What a corpus record holds, in a few words (for an error message)."""
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}"
    kinds = ", ".join(f"{k}: {type(record[k]).__name__}" for k in ("problem", "solution") if k in record)
    return "{" + kinds + "}"


@dataclass(frozen=True)
class JankoEntry:
    """One corpus record: its id, the puzzle (named by the id), the published solution (None when
    the record has none, or none that reads: ``solution_error`` then says why), the record's source
    and its problem text as the corpus holds it."""

    id: str
    puzzle: Puzzle
    solution: Solution | None
    source: str = ""
    problem: str = ""
    solution_error: str = ""

    def __iter__(self):  # unpacks as (id, puzzle, solution)
        return iter((self.id, self.puzzle, self.solution))


def iter_janko(
    path: str | Path, family: Family | None = None, malformed: list[tuple[str, str]] | None = None
) -> Iterator[JankoEntry]:
    """Every puzzle of a puzzlekit-dataset JSON file (``{"name", "data": {ID: {problem, solution}}}``).

    Puzzles are named by their id and carry ``meta`` with ``source`` and ``corpus``. A record
    whose problem cannot be read raises a :class:`ParseError` naming its id; given a ``malformed``
    list, such a record is appended to it as ``(id, reason)`` instead and the rest are still read.
    A record whose problem reads and whose solution does not (one janko Hitori record holds a move
    record there) is a puzzle all the same: it comes without a solution, the reason in
    :attr:`JankoEntry.solution_error`.
    """
    path = Path(path)
    fmt = f"{NAME}-json"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PuzzleError(f"no such file: {path}") from None
    except OSError as exc:
        raise PuzzleError(f"cannot read {path}: {exc.strerror or exc}") from None
    text = decode_text(data, fmt, path.name)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(fmt, f"{path.name}: {exc.msg}", exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:  # integers past int()'s digit limit, deep nesting
        raise ParseError(fmt, f"{path.name}: not readable JSON ({str(exc)[:80]})", 1, 1) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("data"), dict):
        raise ParseError(
            fmt,
            f"{path.name}: expected an object with a 'data' object of puzzles",
            *_key_position(text, "data"),
        )
    if family is None:
        family = dataset_family(str(doc.get("name", ""))) or dataset_family(path.name)
    for pid, record in doc["data"].items():
        problem = record.get("problem") if isinstance(record, dict) else None
        answer = record.get("solution") if isinstance(record, dict) else None
        try:
            if not isinstance(problem, str) or not (answer is None or isinstance(answer, str)):
                raise ParseError(
                    fmt,
                    f"{path.name} puzzle {pid!r}: expected 'problem' and 'solution' texts "
                    f"(strings), got {_shape(record)}",
                    *_key_position(text, pid),
                )
            puzzle = _named(
                read,
                problem,
                family,
                where=f"{path.name} puzzle {pid!r}",
                fmt=fmt,
                at=_key_position(text, pid),
            )
        except ParseError as exc:
            if malformed is None:
                raise
            malformed.append((str(pid), str(exc)))
            continue
        solution, why = None, ""
        if answer:
            try:
                solution = _named(
                    read_solution,
                    answer,
                    puzzle,
                    where=f"{path.name} solution of {pid!r}",
                    fmt=fmt,
                    at=_key_position(text, pid),
                )
            except ParseError as exc:
                why = str(exc)
        source = str(record.get("source", ""))
        puzzle = puzzle.with_meta(name=str(pid), source=source, corpus=str(doc.get("name", path.stem)))
        yield JankoEntry(str(pid), puzzle, solution, source, problem, why)


def _key_position(text: str, key: str) -> tuple[int, int]:
    """The (line, column) of the first ``"key":`` in a JSON text (the key as ``json`` writes it,
    escaped or not); the start of the text when it is written some other way."""
    for form in (json.dumps(key), json.dumps(key, ensure_ascii=False)):
        m = re.search(re.escape(form) + r"\s*:", text)
        if m:
            return position(text, m.start())
    return 1, 1


def _named(reader: Any, text: str, arg: Any, where: str, fmt: str, at: tuple[int, int] = (1, 1)) -> Any:
    """``reader(text, arg)``, its errors as :class:`ParseError` naming ``where`` (line and column
    inside the record's text; ``at``, the record's place in the file, for an error without them)."""
    try:
        return reader(text, arg)
    except ParseError as exc:
        line, column = (exc.line, exc.column) if exc.line is not None else at
        raise ParseError(exc.format, f"{where}: {exc.reason}", line, column) from None
    except PuzzleError as exc:
        raise ParseError(fmt, f"{where}: {exc}", *at) from None


FORMAT = Format(
    name=NAME,
    description="janko.at / puzzlekit text: 'ROWS COLS' then rows of tokens (- x 0-4 o; - numbers)",
    families=families,
    extensions=(".janko",),
    read=read,
    write=write,
    detect=detect,
    limits=_limits,
    read_solution=read_solution,
    write_solution=write_solution,
)
