"""Run-length strings: Puzzle Team's compact Light Up boards and Simon Tatham's game ids.

- ``puzzleteam`` (seed 002): ``B`` wall, ``0``-``4`` numbered wall, ``a``-``z`` a run of 1..26
  empty cells, row after row with no separator; the grid is square, its side inferred.
- ``tatham``: ``WxH:`` (W = columns) and a description. Light Up (``sgt-lightup``) uses the
  Puzzle Team alphabet; Range (Kuromasu, ``sgt-range``) writes numbers in decimal, runs of
  empty cells as ``a``-``z``, and ``_`` between two numbers that follow each other.
"""

from __future__ import annotations

import math
import re

from ..errors import ParseError
from ..model import Family, Kuromasu, LightUp, Puzzle
from .base import Format, encode_runs, expect_family, letter_run, parse_grid_size, parse_number, strip_bom

_TATHAM = re.compile(r"^\s*(?:(lightup|range):)?([0-9]+x[0-9]+)([^:\s]*):(\S*)\s*$")


def _lightup_cells(fmt: str, desc: str, column0: int) -> list[str | None]:
    """Cells of a Light Up description: None = empty, 'B' = wall, '0'-'4' = numbered wall."""
    cells: list[str | None] = []
    for i, ch in enumerate(desc):
        if "a" <= ch <= "z":
            cells += [None] * letter_run(ch)
        elif ch == "B" or "0" <= ch <= "4":
            cells.append(ch)
        else:
            raise ParseError(fmt, f"unexpected {ch!r}, expected B, 0-4 or a run letter a-z", 1, column0 + i)
    return cells


def _lightup_from(cells: list[str | None], rows: int, cols: int, name: str = "") -> LightUp:
    walls, numbers = set(), {}
    for k, tok in enumerate(cells):
        if tok == "B":
            walls.add(divmod(k, cols))
        elif tok is not None:
            numbers[divmod(k, cols)] = int(tok)
    return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers, name=name)


def _lightup_tokens(puzzle: LightUp) -> list[str | None]:
    return [
        str(puzzle.numbers[cell]) if cell in puzzle.numbers else "B" if cell in puzzle.walls else None
        for cell in puzzle.grid.cells()
    ]


def _range_cells(fmt: str, desc: str, column0: int) -> list[int | None]:
    """Cells of a Range description: None = empty, int = numbered."""
    cells: list[int | None] = []
    for m in re.finditer(r"([0-9]+)|([a-z])|(_)|(.)", desc, re.S):
        if m.group(1):
            cells.append(parse_number(fmt, m.group(1), "clue", 1, column0 + m.start()))
        elif m.group(2):
            cells += [None] * letter_run(m.group(2))
        elif m.group(4):
            raise ParseError(
                fmt,
                f"unexpected {m.group(4)!r}, expected a number, '_' or a run letter a-z",
                1,
                column0 + m.start(),
            )
    return cells


# -- puzzleteam ---------------------------------------------------------------------------------
def read_puzzleteam(text: str, family: Family | None = None) -> Puzzle:
    expect_family("puzzleteam", family, (Family.LIGHTUP,))
    text = strip_bom(text)
    desc = text.strip()
    if not desc:
        raise ParseError("puzzleteam", "empty text, expected a board string", 1, 1)
    lead = len(text) - len(text.lstrip())
    cells = _lightup_cells("puzzleteam", desc, lead + 1)
    side = math.isqrt(len(cells))
    if side * side != len(cells) or side == 0:
        raise ParseError("puzzleteam", f"{len(cells)} cells do not make a square grid", 1, lead + len(desc))
    return _lightup_from(cells, side, side)


def write_puzzleteam(puzzle: Puzzle) -> str:
    PUZZLETEAM.check_writable(puzzle)
    assert isinstance(puzzle, LightUp)
    return encode_runs(_lightup_tokens(puzzle))


def detect_puzzleteam(text: str) -> bool:
    desc = strip_bom(text).strip()
    if not re.fullmatch(r"[B0-4a-z]+", desc):
        return False
    cells = sum(letter_run(ch) if ch.islower() else 1 for ch in desc)
    return math.isqrt(cells) ** 2 == cells


def _square(puzzle: Puzzle) -> str | None:
    return (
        None
        if puzzle.rows == puzzle.cols
        else f"grid is {puzzle.rows}x{puzzle.cols}; the format infers a square"
    )


# -- tatham -------------------------------------------------------------------------------------
def read_tatham(text: str, family: Family | None = None) -> Puzzle:
    text = strip_bom(text)
    m = _TATHAM.match(text)
    if not m:
        raise ParseError("tatham", "expected a game id 'WxH:description' (e.g. 7x7:c0a1bBe1f...)", 1, 1)
    game, size, _params, desc = m.groups()
    rows, cols = parse_grid_size("tatham", size, 1, m.start(2) + 1)
    column0 = m.start(4) + 1
    wanted = rows * cols
    if game:
        named = Family.LIGHTUP if game == "lightup" else Family.KUROMASU
        if family is not None and Family(family) is not named:
            raise ParseError("tatham", f"game id is for {game}, not {Family(family).value}", 1, 1)
        family = named
    candidates = [Family(family)] if family is not None else [Family.LIGHTUP, Family.KUROMASU]
    fits: list[tuple[Family, list]] = []
    errors: list[ParseError] = []
    for fam in candidates:
        try:
            cells = (_lightup_cells if fam is Family.LIGHTUP else _range_cells)("tatham", desc, column0)
        except ParseError as exc:
            errors.append(exc)
            continue
        if len(cells) == wanted:
            fits.append((fam, cells))
        else:
            errors.append(
                ParseError(
                    "tatham",
                    f"description has {len(cells)} cells as {fam.value}, {size} needs {wanted}",
                    1,
                    column0,
                )
            )
    if not fits:
        raise errors[-1] if len(errors) == 1 or family else errors[0]
    if len(fits) > 1:
        raise ParseError(
            "tatham",
            "the id reads as both Light Up and Range; give the family (or prefix 'lightup:'/'range:')",
            1,
            1,
        )
    fam, found = fits[0]
    if fam is Family.LIGHTUP:
        return _lightup_from(found, rows, cols)
    return Kuromasu(rows, cols, numbers={divmod(k, cols): n for k, n in enumerate(found) if n is not None})


def write_tatham(puzzle: Puzzle) -> str:
    TATHAM.check_writable(puzzle)
    if isinstance(puzzle, LightUp):
        desc = encode_runs(_lightup_tokens(puzzle))
    else:
        assert isinstance(puzzle, Kuromasu)
        desc = encode_runs(
            [str(puzzle.numbers[c]) if c in puzzle.numbers else None for c in puzzle.grid.cells()],
            separate=True,
        )
    return f"{puzzle.cols}x{puzzle.rows}:{desc}"


def detect_tatham(text: str) -> bool:
    return _TATHAM.match(strip_bom(text)) is not None


def _tatham_limits(puzzle: Puzzle) -> str | None:
    if isinstance(puzzle, Kuromasu) and puzzle.unknown:
        return f"'?' clue at {min(puzzle.unknown)} (Range has numbers only)"
    return None


PUZZLETEAM = Format(
    name="puzzleteam",
    description="Puzzle Team's compact Light Up string (seed 002): B, 0-4, a-z runs; square grid",
    families=(Family.LIGHTUP,),
    extensions=(".pt",),
    read=read_puzzleteam,
    write=write_puzzleteam,
    detect=detect_puzzleteam,
    limits=_square,
    literal=True,
)

TATHAM = Format(
    name="tatham",
    description="Simon Tatham's game ids 'WxH:...' for sgt-lightup and sgt-range (Kuromasu)",
    families=(Family.LIGHTUP, Family.KUROMASU),
    extensions=(".sgt",),
    read=read_tatham,
    write=write_tatham,
    detect=detect_tatham,
    limits=_tatham_limits,
    literal=True,
)
