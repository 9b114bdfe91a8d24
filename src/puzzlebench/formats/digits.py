"""LightBulbs boards as digits: one line per row, one digit 1..9 per cell, no separators."""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Family, LightBulbs, Puzzle
from .base import Format, expect_family, numbered_lines, strip_bom

NAME = "digits"


def read(text: str, family: Family | None = None) -> Puzzle:
    expect_family(NAME, family, (Family.LIGHTBULBS,))
    rows: list[tuple[int, ...]] = []
    width = None
    for n, line in numbered_lines(strip_bom(text)):
        row = line.strip()
        if not row:
            continue
        lead = len(line) - len(line.lstrip())
        bad = re.search(r"[^1-9]", row)
        if bad:
            raise ParseError(
                NAME, f"unexpected {bad.group()!r}, expected a digit 1..9", n, lead + bad.start() + 1
            )
        if width is not None and len(row) != width:
            raise ParseError(NAME, f"row has {len(row)} digits, the first row has {width}", n, lead + 1)
        width = len(row)
        rows.append(tuple(int(ch) for ch in row))
    if not rows:
        raise ParseError(NAME, "no rows of digits", 1, 1)
    return LightBulbs.from_rows(rows)


def write(puzzle: Puzzle) -> str:
    FORMAT.check_writable(puzzle)
    assert isinstance(puzzle, LightBulbs)
    return "\n".join("".join(map(str, row)) for row in puzzle.numbers) + "\n"


def detect(text: str) -> bool:
    lines = [line.strip() for line in strip_bom(text).splitlines() if line.strip()]
    return bool(lines) and all(re.fullmatch(r"[1-9]+", line) for line in lines)


FORMAT = Format(
    name=NAME,
    description="LightBulbs (seed 003) board: one line of digits 1-9 per row",
    families=(Family.LIGHTBULBS,),
    extensions=(".digits",),
    read=read,
    write=write,
    detect=detect,
)
