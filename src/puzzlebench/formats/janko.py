"""Janko / puzzlekit text: ``ROWS COLS`` then one line per row of space-separated tokens.

- Akari problem: ``-`` empty, ``x`` wall, ``0``-``4`` numbered wall; solution adds ``o`` (bulb).
- Kuromasu problem: ``-`` cell, a positive integer numbered cell; solution: ``-`` white,
  ``x`` black (numbered cells may appear as their number).
  Published answers may write ``-`` over walls and numbers, or ``x`` over a numbered wall;
  all these forms are read.

The text does not say which family it holds; a problem with ``x``, ``0`` or ``o`` is Akari, one
with a number above 4 is Kuromasu, anything else needs the family from the caller (or the file
name). :func:`iter_janko` reads the puzzlekit-dataset JSON files, which name their family.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..errors import ParseError, PuzzleError
from ..model import Family, Kuromasu, LightUp, Puzzle, Solution
from .base import (Format, check_grid_size, decode_text, is_number, numbered_lines, parse_number, split_tokens,
                   strip_bom)

NAME = "janko"
FAMILIES = (Family.LIGHTUP, Family.KUROMASU)
#: Dataset "name" field -> family.
DATASET_FAMILY = {"akari": Family.LIGHTUP, "lightup": Family.LIGHTUP, "kuromasu": Family.KUROMASU,
                  "kurodoko": Family.KUROMASU}


def _table(text: str) -> tuple[int, int, list[tuple[int, list[tuple[int, str]]]]]:
    """Size line and token rows, shape checked."""
    lines = [(n, line) for n, line in numbered_lines(strip_bom(text)) if line.strip()]
    if not lines:
        raise ParseError(NAME, "empty text, expected 'ROWS COLS' on the first line", 1, 1)
    n, first = lines[0]
    size = split_tokens(first)
    if len(size) != 2 or not all(is_number(t) for _, t in size):
        raise ParseError(NAME, f"expected 'ROWS COLS' (two positive integers), got {first.strip()[:30]!r}", n, 1)
    rows, cols = (parse_number(NAME, t, what, n, col) for (col, t), what in zip(size, ("ROWS", "COLS")))
    if rows < 1 or cols < 1:
        raise ParseError(NAME, f"expected 'ROWS COLS' (two positive integers), got {first.strip()[:30]!r}", n, 1)
    check_grid_size(NAME, rows, cols, n, 1)
    body = lines[1:]
    if len(body) != rows:
        where = body[rows][0] if len(body) > rows else (body[-1][0] + 1 if body else n + 1)
        raise ParseError(NAME, f"expected {rows} grid rows, got {len(body)}", where, 1)
    table = []
    for k, (n, line) in enumerate(body):
        tokens = split_tokens(line)
        if len(tokens) != cols:
            raise ParseError(NAME, f"row {k + 1} has {len(tokens)} token(s), expected {cols}", n, 1)
        table.append((n, tokens))
    return rows, cols, table


def _guess_family(table) -> Family | None:
    for _, tokens in table:
        for _, tok in tokens:
            if tok in ("x", "o", "0"):
                return Family.LIGHTUP
            if is_number(tok) and (len(tok) > 1 or int(tok) > 4):
                return Family.KUROMASU
    return None


def read(text: str, family: Family | None = None) -> Puzzle:
    rows, cols, table = _table(text)
    family = Family(family) if family is not None else _guess_family(table)
    if family is None:
        raise ParseError(NAME, "cannot tell Akari from Kuromasu (only '-' and 1..4 occur); give the family")
    if family not in FAMILIES:
        raise ParseError(NAME, f"holds Akari or Kuromasu puzzles, not {family.value}")
    walls, numbers = set(), {}
    for r, (n, tokens) in enumerate(table):
        for c, (col, tok) in enumerate(tokens):
            if tok == "-":
                continue
            if family is Family.LIGHTUP and tok == "x":
                walls.add((r, c))
            elif is_number(tok):
                numbers[(r, c)] = parse_number(NAME, tok, "clue", n, col)
            else:
                expected = "'-', 'x' or 0..4" if family is Family.LIGHTUP else "'-' or a positive integer"
                raise ParseError(NAME, f"bad {family.value} problem token {tok!r}, expected {expected}", n, col)
    if family is Family.LIGHTUP:
        return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers)
    return Kuromasu(rows, cols, numbers=numbers)


def _problem_tokens(puzzle: Puzzle) -> list[list[str]]:
    if isinstance(puzzle, LightUp):
        return [[str(puzzle.numbers[(r, c)]) if (r, c) in puzzle.numbers else "x" if (r, c) in puzzle.walls else "-"
                 for c in range(puzzle.cols)] for r in range(puzzle.rows)]
    assert isinstance(puzzle, Kuromasu)
    return [[str(puzzle.numbers.get((r, c), "-")) for c in range(puzzle.cols)] for r in range(puzzle.rows)]


def _join(puzzle: Puzzle, rows: list[list[str]]) -> str:
    return "\n".join([f"{puzzle.rows} {puzzle.cols}"] + [" ".join(row) for row in rows])


def write(puzzle: Puzzle) -> str:
    FORMAT.check_writable(puzzle)
    return _join(puzzle, _problem_tokens(puzzle))


def write_solution(puzzle: Puzzle, solution: Solution) -> str:
    """Akari: the problem with ``o`` on bulbs; Kuromasu: ``x`` black, ``-`` white."""
    FORMAT.check_writable(puzzle)
    if isinstance(puzzle, LightUp):
        board = _problem_tokens(puzzle)
        rows = [["o" if (r, c) in solution.cells else t for c, t in enumerate(row)] for r, row in enumerate(board)]
    else:
        rows = [["x" if (r, c) in solution.cells else "-" for c in range(puzzle.cols)] for r in range(puzzle.rows)]
    return _join(puzzle, rows)


def read_solution(text: str, puzzle: Puzzle) -> Solution:
    """The answer in a janko solution text, checked against ``puzzle``'s size and clues."""
    if not isinstance(puzzle, (LightUp, Kuromasu)):
        raise ParseError(NAME, f"holds Akari or Kuromasu answers, not {puzzle.family.value}")
    rows, cols, table = _table(text)
    if (rows, cols) != puzzle.shape:
        raise ParseError(NAME, f"solution is {rows}x{cols}, puzzle is {puzzle.rows}x{puzzle.cols}", 1, 1)
    board = _problem_tokens(puzzle)
    mark = "o" if isinstance(puzzle, LightUp) else "x"
    cells = []
    for r, (n, tokens) in enumerate(table):
        for c, (col, tok) in enumerate(tokens):
            if tok == mark:
                cells.append((r, c))
            elif tok == "-":  # some published answers blank out the clues
                continue
            elif not _same_kind(tok, board[r][c]):
                raise ParseError(NAME, f"solution token {tok!r} disagrees with the puzzle's {board[r][c]!r}", n, col)
    return puzzle.solution(cells)


def _same_kind(token: str, clue: str) -> bool:
    """Whether an answer's copy of a clue fits the board: walls stay walls, numbers stay numbers.

    (Published answers sometimes write a numbered wall as a plain ``x``.)
    """
    if clue == "-":
        return False
    walls = ("x", "0", "1", "2", "3", "4")
    return token == clue or (token in walls and clue in walls)


def detect(text: str) -> bool:
    first = strip_bom(text).lstrip().split("\n", 1)[0].split()
    return len(first) == 2 and all(is_number(t) for t in first)


def _limits(puzzle: Puzzle) -> str | None:
    if isinstance(puzzle, Kuromasu) and puzzle.unknown:
        return f"'?' clue at {min(puzzle.unknown)} (janko Kuromasu has numbers only)"
    return None


def _shape(record: object) -> str:
    """What a corpus record holds, in a few words (for an error message)."""
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}"
    kinds = ", ".join(f"{k}: {type(record[k]).__name__}" for k in ("problem", "solution") if k in record)
    return "{" + kinds + "}"


@dataclass(frozen=True)
class JankoEntry:
    """One corpus record: its id, the puzzle (named by the id) and the published solution."""

    id: str
    puzzle: Puzzle
    solution: Solution
    source: str = ""

    def __iter__(self):  # unpacks as (id, puzzle, solution)
        return iter((self.id, self.puzzle, self.solution))


def iter_janko(path: str | Path, family: Family | None = None) -> Iterator[JankoEntry]:
    """Every puzzle of a puzzlekit-dataset JSON file (``{"name", "data": {ID: {problem, solution}}}``).

    Puzzles are named by their id and carry ``meta`` with ``source`` and ``corpus``.
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
        raise ParseError(fmt, f"{path.name}: not readable JSON ({str(exc)[:80]})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("data"), dict):
        raise ParseError(fmt, f"{path.name}: expected an object with a 'data' object of puzzles")
    if family is None:
        family = DATASET_FAMILY.get(str(doc.get("name", "")).lower())
        if family is None:
            family = next((f for key, f in DATASET_FAMILY.items() if key in path.name.lower()), None)
    for pid, record in doc["data"].items():
        problem = record.get("problem") if isinstance(record, dict) else None
        answer = record.get("solution") if isinstance(record, dict) else None
        if not isinstance(problem, str) or not (answer is None or isinstance(answer, str)):
            raise ParseError(fmt, f"{path.name} puzzle {pid!r}: expected 'problem' and 'solution' texts "
                                  f"(strings), got {_shape(record)}")
        try:
            puzzle = read(problem, family)
            solution = read_solution(answer, puzzle) if answer else None
        except ParseError as exc:
            raise ParseError(exc.format, f"{path.name} puzzle {pid!r}: {exc.reason}", exc.line, exc.column) from None
        except PuzzleError as exc:
            raise ParseError(fmt, f"{path.name} puzzle {pid!r}: {exc}") from None
        source = str(record.get("source", ""))
        puzzle = puzzle.with_meta(name=str(pid), source=source, corpus=str(doc.get("name", path.stem)))
        yield JankoEntry(str(pid), puzzle, solution, source)


FORMAT = Format(
    name=NAME,
    description="janko.at / puzzlekit text: 'ROWS COLS' then rows of tokens (- x 0-4 o; - numbers)",
    families=FAMILIES,
    extensions=(".janko",),
    read=read,
    write=write,
    detect=detect,
    limits=_limits,
    read_solution=read_solution,
    write_solution=write_solution,
)
