"""MiniZinc data for seed 001's Light Up model: ``h``, ``w`` and the matrix ``b``.

``b[i,j]`` is -1 for a white cell, 0..4 for a numbered black cell and 5 for a black cell
without number (the model's ``E = -1`` and ``F = 5``)::

    h = 2;
    w = 3;
    b = [| -1, 5,-1
         |  1,-1,-1 |];
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Family, LightUp, Puzzle
from .base import Format, check_grid_size, end_of, expect_family, parse_number, safe_name, strip_bom

NAME = "mzn"
WHITE, PLAIN = -1, 5
_ASSIGN = re.compile(r"\s*([A-Za-z_]\w*)\s*=\s*", re.S)
_NAME = re.compile(r"^%\s*name:\s*(.*?)\s*$", re.M)


def _where(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def read(text: str, family: Family | None = None) -> Puzzle:
    expect_family(NAME, family, (Family.LIGHTUP,))
    text = strip_bom(text)
    body = re.sub(r"%[^\n]*", lambda m: " " * len(m.group()), text)
    values: dict[str, tuple[str, int]] = {}
    i = 0
    while body[i:].strip():
        m = _ASSIGN.match(body, i)
        if not m:
            start = i + len(body[i:]) - len(body[i:].lstrip())
            raise ParseError(NAME, "expected an assignment 'name = value;'", *_where(text, start))
        key = m.group(1)
        if key not in ("h", "w", "b"):
            raise ParseError(NAME, f"unknown parameter {key!r} (expected h, w, b)", *_where(text, m.start(1)))
        end = body.find(";", m.end())
        if end < 0:
            raise ParseError(NAME, f"assignment to {key} has no closing ';'", *_where(text, m.start(1)))
        values[key] = (body[m.end() : end], m.end())
        i = end + 1
    for key in ("h", "w", "b"):
        if key not in values:
            raise ParseError(NAME, f"missing '{key} = ...;'", *end_of(text))
    size = {}
    for key in ("h", "w"):
        value, at = values[key]
        number = parse_number(NAME, value.strip(), key, *_where(text, at))
        if number < 1:
            raise ParseError(
                NAME, f"{key} must be a positive integer, got {value.strip()[:20]!r}", *_where(text, at)
            )
        size[key] = number
    rows, cols = size["h"], size["w"]
    check_grid_size(NAME, rows, cols, *_where(text, values["h"][1]))
    matrix, at = values["b"]
    inner = matrix.strip()
    if not (inner.startswith("[|") and inner.endswith("|]")):
        raise ParseError(NAME, "b must be a 2-d array literal [| ... | ... |]", *_where(text, at))
    start = at + matrix.index("[|") + 2
    row_texts = inner[2:-2].split("|")
    if len(row_texts) != rows:
        raise ParseError(NAME, f"b has {len(row_texts)} row(s), h = {rows}", *_where(text, start))
    walls, numbers = set(), {}
    offset = start
    for r, row_text in enumerate(row_texts):
        items = row_text.split(",")
        if len(items) != cols:
            raise ParseError(
                NAME, f"b row {r + 1} has {len(items)} value(s), w = {cols}", *_where(text, offset)
            )
        item_at = offset
        for c, item in enumerate(items):
            value = item.strip()
            if not re.fullmatch(r"-?[0-9]{1,9}", value) or not WHITE <= int(value) <= PLAIN:
                where = _where(text, item_at + len(item) - len(item.lstrip()))
                raise ParseError(
                    NAME,
                    f"b[{r + 1},{c + 1}] must be -1 (white), 0..4 (numbered) or 5 (black), got {value[:10]!r}",
                    *where,
                )
            if int(value) == PLAIN:
                walls.add((r, c))
            elif int(value) >= 0:
                numbers[(r, c)] = int(value)
            item_at += len(item) + 1
        offset += len(row_text) + 1
    name = _NAME.search(text)
    return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers, name=name.group(1) if name else "")


def write(puzzle: Puzzle) -> str:
    FORMAT.check_writable(puzzle)
    assert isinstance(puzzle, LightUp)

    def value(cell) -> int:
        if cell in puzzle.numbers:
            return puzzle.numbers[cell]
        return PLAIN if cell in puzzle.walls else WHITE

    rows = [",".join(f"{value((r, c)):2d}" for c in range(puzzle.cols)) for r in range(puzzle.rows)]
    name = safe_name(puzzle.name)
    lines = [f"% name: {name}"] if name else []
    lines += [f"h = {puzzle.rows};", f"w = {puzzle.cols};", f"b = [| {rows[0]}"]
    lines += [f"     | {row}" for row in rows[1:]]
    lines[-1] += " |];"
    return "\n".join(lines) + "\n"


def detect(text: str) -> bool:
    return re.search(r"\bb\s*=\s*\[\|", text) is not None and re.search(r"\bh\s*=", text) is not None


FORMAT = Format(
    name=NAME,
    description="seed 001's MiniZinc data: h, w, b (-1 white, 0..4 numbered black, 5 black)",
    families=(Family.LIGHTUP,),
    extensions=(".dzn", ".mzn"),
    read=read,
    write=write,
    detect=detect,
)
