"""The native text format: self-describing, all three families, optionally with an answer.

::

    kind: kuromasu
    rows: 3
    cols: 4
    name: tiny                      (optional)
    meta: {"origin": "seed000"}     (optional, one JSON object)
     .  3  .  .
     ?  .  .  .
     .  .  . 12
    solution:                       (optional)
     .  3  #  .
     ...

Cell tokens, separated by spaces (columns are right-aligned for reading), are each family's
own (``FamilySpec.native_help``; ``puzzlebench families`` lists them), for example:

- lightup: ``.`` open, ``#`` wall, ``0``-``4`` numbered wall;
- kuromasu: ``.`` cell, a positive integer numbered cell, ``?`` white cell with unknown number;
- lightbulbs: the cell's number 1..9.

The ``solution:`` grid repeats the board with each marked cell replaced by the family's mark
(``FamilySpec.native_mark``: ``*`` for a Light Up bulb or a lit LightBulbs cell, ``#`` for a
Kuromasu black cell).
"""

from __future__ import annotations

import json
import re

from ..errors import CellError, ParseError
from ..model import Family, Puzzle, Solution, family_spec, family_specs
from ..model.family import BadToken
from .base import (
    Format,
    check_grid_size,
    end_of,
    numbered_lines,
    parse_number,
    position,
    safe_name,
    split_tokens,
    strip_bom,
)

NAME = "native"
_KEY = re.compile(r"^([a-z]+):\s*(.*?)\s*$")


def _tokens(puzzle: Puzzle) -> list[list[str]]:
    """The board as rows of cell tokens."""
    try:
        token = family_spec(puzzle).native_token
    except (AttributeError, ValueError):
        raise TypeError(f"no native form for {type(puzzle).__name__}") from None
    return [[token(puzzle, (r, c)) for c in range(puzzle.cols)] for r in range(puzzle.rows)]


def _grid_text(rows: list[list[str]]) -> list[str]:
    width = max(len(t) for row in rows for t in row)
    return [" ".join(t.rjust(width) for t in row) for row in rows]


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    lines = [f"kind: {puzzle.family.value}", f"rows: {puzzle.rows}", f"cols: {puzzle.cols}"]
    name = safe_name(puzzle.name)
    if name:
        lines.append(f"name: {name}")
    if puzzle.meta:
        lines.append("meta: " + json.dumps(dict(puzzle.meta), sort_keys=True, default=str))
    board = _tokens(puzzle)
    lines += _grid_text(board)
    if solution is not None:
        mark = family_spec(puzzle).native_mark
        marked = [
            [mark if (r, c) in solution.cells else t for c, t in enumerate(row)]
            for r, row in enumerate(board)
        ]
        lines.append("solution:")
        lines += _grid_text(marked)
    return "\n".join(lines) + "\n"


def write_solution(puzzle: Puzzle, solution: Solution) -> str:
    return write(puzzle, solution)


def _parse(text: str) -> tuple[Puzzle, list[tuple[int, list[tuple[int, str]]]] | None]:
    """The puzzle, and the tokenised solution rows if the text has a ``solution:`` section."""
    header: dict[str, tuple[int, str]] = {}
    text = strip_bom(text)
    lines = [(n, line) for n, line in numbered_lines(text) if line.strip()]
    i = 0
    # Header: key: value lines until the first grid row.
    while i < len(lines) and (m := _KEY.match(lines[i][1].strip())) and m.group(1) != "solution":
        key, value = m.group(1), m.group(2)
        if key not in ("kind", "rows", "cols", "name", "meta"):
            raise ParseError(
                NAME, f"unknown header key {key!r} (expected kind, rows, cols, name, meta)", lines[i][0], 1
            )
        if key in header:
            raise ParseError(NAME, f"header key {key!r} given twice", lines[i][0], 1)
        header[key] = (lines[i][0], value)
        i += 1
    for key in ("kind", "rows", "cols"):
        if key not in header:
            where = (lines[i][0], 1) if i < len(lines) else end_of(text)
            raise ParseError(NAME, f"missing header line '{key}: ...' before the grid", *where)
    kind_line, kind = header["kind"]
    try:
        family = Family(kind)
    except ValueError:
        known = ", ".join(spec.family.value for spec in family_specs())
        raise ParseError(NAME, f"kind must be one of {known}, got {kind!r}", kind_line, 7) from None
    size = []
    for key in ("rows", "cols"):
        n, value = header[key]
        number = parse_number(NAME, value, key, n, len(key) + 3)
        if number < 1:
            raise ParseError(NAME, f"{key} must be a positive integer, got {value!r}", n, len(key) + 3)
        size.append(number)
    rows, cols = size
    check_grid_size(NAME, rows, cols, header["rows"][0], 1)
    name = header.get("name", (0, ""))[1]
    meta = {}
    if "meta" in header:
        n, value = header["meta"]
        try:
            meta = json.loads(value)
        except json.JSONDecodeError as exc:
            raise ParseError(NAME, f"meta must be one JSON object: {exc.msg}", n, 7 + exc.pos) from None
        except (ValueError, RecursionError) as exc:  # integers past int()'s digit limit, deep nesting
            raise ParseError(NAME, f"meta must be one JSON object: {str(exc)[:80]}", n, 7) from None
        if not isinstance(meta, dict):
            raise ParseError(NAME, "meta must be a JSON object", n, 7)

    def grid(start: int, what: str) -> list[tuple[int, list[tuple[int, str]]]]:
        out = []
        for k in range(rows):
            if start + k >= len(lines):
                last = lines[-1][0] if lines else 1
                raise ParseError(NAME, f"{what} has {k} row(s), expected {rows}", last + 1, 1)
            n, line = lines[start + k]
            tokens = split_tokens(line)
            if len(tokens) != cols:
                raise ParseError(NAME, f"{what} row {k + 1} has {len(tokens)} cell(s), expected {cols}", n, 1)
            out.append((n, tokens))
        return out

    board = grid(i, "grid")
    i += rows
    puzzle = _build(family, rows, cols, board, name, meta)
    solution_rows = None
    if i < len(lines):
        n, line = lines[i]
        if line.strip() != "solution:":
            raise ParseError(
                NAME, f"expected 'solution:' or the end after the grid, got {line.strip()[:20]!r}", n, 1
            )
        solution_rows = grid(i + 1, "solution")
        i += 1 + rows
        if i < len(lines):
            raise ParseError(NAME, "unexpected text after the solution grid", lines[i][0], 1)
    return puzzle, solution_rows


def _build(family: Family, rows: int, cols: int, board, name: str, meta: dict) -> Puzzle:
    """The puzzle from tokenised grid rows (each token checked against the family's alphabet)."""
    spec = family_spec(family)
    tokens = [[tok for _, tok in row] for _, row in board]
    try:
        return spec.from_native(rows, cols, tokens, name=name, meta=meta)
    except CellError as exc:  # Rule: a cell the model refuses is named at its token in the grid
        if exc.cell is None:
            raise ParseError(NAME, str(exc), board[0][0], 1) from None
        n, row = board[exc.cell[0]]
        raise ParseError(NAME, str(exc), n, row[exc.cell[1]][0]) from None
    except BadToken as exc:
        n, row = board[exc.row]
        raise ParseError(
            NAME, f"bad {family.value} cell {exc.token!r}, expected {exc.expected}", n, row[exc.col][0]
        ) from None


def read(text: str, family: Family | None = None) -> Puzzle:
    puzzle, _ = _parse(text)
    if family is not None and puzzle.family is not Family(family):
        kind = re.search(r"^[ \t]*kind:", strip_bom(text), re.M)
        where = position(strip_bom(text), kind.end() + 1) if kind else (1, 1)
        raise ParseError(
            NAME, f"file holds a {puzzle.family.value} puzzle, not {Family(family).value}", *where
        )
    return puzzle


def read_solution(text: str, puzzle: Puzzle | None = None) -> Solution:
    """The answer in a native file's ``solution:`` section (checked against ``puzzle`` if given)."""
    own, rows = _parse(text)
    if rows is None:
        raise ParseError(NAME, "no 'solution:' section", *end_of(strip_bom(text)))
    if puzzle is not None and puzzle != own:
        raise ParseError(NAME, "the file's board differs from the given puzzle", 1, 1)
    board = _tokens(own)
    mark = family_spec(own).native_mark
    cells = []
    for r, (n, tokens) in enumerate(rows):
        for c, (col, tok) in enumerate(tokens):
            if tok == mark:
                cells.append((r, c))
            elif tok != board[r][c]:
                raise ParseError(
                    NAME, f"solution cell {tok!r} is neither {mark!r} nor the board's {board[r][c]!r}", n, col
                )
    return own.solution(cells)


def detect(text: str) -> bool:
    return strip_bom(text).lstrip().startswith("kind:")


FORMAT = Format(
    name=NAME,
    description="puzzlebench's own text: kind, size, optional name/meta, grid, optional solution",
    families=lambda: tuple(spec.family for spec in family_specs()),
    extensions=(".pzl",),
    read=read,
    write=write,
    detect=detect,
    read_solution=read_solution,
    write_solution=write_solution,
)
