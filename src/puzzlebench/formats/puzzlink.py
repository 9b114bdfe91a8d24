"""puzz.link / pzprjs URLs for Light Up (``akari``) and Kurodoko (``kurodoko``).

A URL is ``https://puzz.link/p?PID/COLS/ROWS/BODY``; mirrors (pzv.jp/p.html?, pzprxs, pzplus,
...) put the same ``PID/COLS/ROWS/BODY`` after their ``?``. The bodies follow pzprjs's
``Encode`` routines (robx/pzprjs, src/puzzle/Encode.js):

Light Up (``encode4Cell``), cell by cell in row-major order:
  ``0``-``4`` a numbered wall; ``5``-``9`` a numbered wall (n+5) followed by 1 empty cell;
  ``a``-``e`` a numbered wall (n+10) followed by 2 empty cells; ``.`` a wall without number;
  ``g``-``z`` a run of 1..20 empty cells.
Kurodoko (``encodeNumber16``): ``0``-``f`` a one-hex-digit number; ``-`` + 2 hex digits;
  ``+`` + 3 hex digits; ``=``/``%`` + 3 hex digits (+4096/+8192); ``*`` + 4 hex digits (+12240);
  ``$`` + 5 hex digits (+77776); ``.`` a "?" cell; ``g``-``z`` a run of 1..20 empty cells.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Family, Kuromasu, LightUp, Puzzle
from .base import Format

NAME = "puzzlink"
LIGHTUP_PIDS = ("akari", "lightup", "bijutsukan")
KURODOKO_PIDS = ("kurodoko",)
_URL = re.compile(r"^\s*(?:https?://)?[^?\s]*\?([^\s]*)\s*$")
#: Number16 prefixes: (prefix, hex digits, offset, first number written this way).
_WIDE = (("-", 2, 0, 16), ("+", 3, 0, 256), ("=", 3, 4096, 4096), ("%", 3, 8192, 8192),
         ("*", 4, 12240, 12240), ("$", 5, 77776, 77776))


def _run_letter(n: int) -> str:
    """A run of 1..20 empty cells: g = 1 ... z = 20 (base-36 digit n + 15)."""
    return "0123456789abcdefghijklmnopqrstuvwxyz"[n + 15]


def _split(text: str) -> tuple[str, int, int, str, int]:
    """(pid, rows, cols, body, column of body) from a URL or its query part."""
    m = _URL.match(text)
    query = m.group(1) if m else text.strip()
    offset = (m.start(1) if m else len(text) - len(text.lstrip())) + 1
    parts = query.split("/")
    # pzprjs URLs may carry a mode flag before the size ("v:" or "edit"); skip it.
    if len(parts) > 1 and not parts[1].isdigit():
        offset += len(parts[1]) + 1
        parts = [parts[0]] + parts[2:]
    if len(parts) < 3 or not parts[1].isdigit() or not parts[2].isdigit() or int(parts[1]) < 1 or int(parts[2]) < 1:
        raise ParseError(NAME, "expected PID/COLS/ROWS/BODY after '?' (e.g. ?akari/10/10/...)", 1, offset)
    pid, cols, rows = parts[0].lower(), int(parts[1]), int(parts[2])
    body = "/".join(parts[3:])
    column = offset + len(parts[0]) + len(parts[1]) + len(parts[2]) + 3
    return pid, rows, cols, body, column


def read(text: str, family: Family | None = None) -> Puzzle:
    pid, rows, cols, body, column = _split(text)
    if pid in LIGHTUP_PIDS:
        found = Family.LIGHTUP
    elif pid in KURODOKO_PIDS:
        found = Family.KUROMASU
    else:
        raise ParseError(NAME, f"puzzle type {pid!r} is not akari/lightup or kurodoko", 1, 1)
    if family is not None and Family(family) is not found:
        raise ParseError(NAME, f"URL holds {pid}, not {Family(family).value}", 1, 1)
    if found is Family.LIGHTUP:
        return _decode_lightup(body, rows, cols, column)
    return _decode_kurodoko(body, rows, cols, column)


def _decode_lightup(body: str, rows: int, cols: int, column: int) -> LightUp:
    size = rows * cols
    walls, numbers = set(), {}
    c = 0
    for i, ch in enumerate(body):
        if c >= size:
            raise ParseError(NAME, "body continues past the last cell", 1, column + i)
        if "0" <= ch <= "4":
            numbers[divmod(c, cols)] = int(ch)
        elif "5" <= ch <= "9":
            numbers[divmod(c, cols)] = int(ch) - 5
            c += 1
        elif "a" <= ch <= "e":
            numbers[divmod(c, cols)] = int(ch, 16) - 10
            c += 2
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        elif ch == ".":
            walls.add(divmod(c, cols))
        else:
            raise ParseError(NAME, f"unexpected {ch!r} in an akari body (0-9, a-e, g-z or '.')", 1, column + i)
        c += 1
    return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers)


def _decode_kurodoko(body: str, rows: int, cols: int, column: int) -> Kuromasu:
    size = rows * cols
    numbers, unknown = {}, set()
    c = i = 0
    while i < len(body):
        if c >= size:
            raise ParseError(NAME, "body continues past the last cell", 1, column + i)
        ch = body[i]
        wide = next((w for w in _WIDE if w[0] == ch), None)
        if ch in "0123456789abcdef":
            numbers[divmod(c, cols)] = int(ch, 16)
            i += 1
        elif wide:
            _, digits, base, _ = wide
            chunk = body[i + 1:i + 1 + digits]
            if len(chunk) != digits or not re.fullmatch(r"[0-9a-f]+", chunk):
                raise ParseError(NAME, f"{ch!r} must be followed by {digits} hex digits", 1, column + i)
            numbers[divmod(c, cols)] = int(chunk, 16) + base
            i += 1 + digits
        elif ch == ".":
            unknown.add(divmod(c, cols))
            i += 1
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
            i += 1
        else:
            raise ParseError(NAME, f"unexpected {ch!r} in a kurodoko body", 1, column + i)
        c += 1
    return Kuromasu(rows, cols, numbers=numbers, unknown=frozenset(unknown))


def _encode_lightup(puzzle: LightUp) -> str:
    cells = [puzzle.numbers.get(cell, "." if cell in puzzle.walls else None) for cell in puzzle.grid.cells()]
    out, count, c = [], 0, 0
    while c < len(cells):
        qn, token = cells[c], ""
        if isinstance(qn, int):
            # A number absorbs up to two empty cells after it (pzprjs's encode4Cell).
            if c + 1 < len(cells) and cells[c + 1] is not None:
                token = str(qn)
            elif c + 2 < len(cells) and cells[c + 2] is not None:
                token, c = str(qn + 5), c + 1
            else:
                token, c = "abcde"[qn], c + 2
        elif qn == ".":
            token = "."
        else:
            count += 1
        if count and (token or count == 20):
            out.append(_run_letter(count))
            count = 0
        out.append(token)
        c += 1
    if count:
        out.append(_run_letter(count))
    return "".join(out)


def _number16(n: int) -> str:
    if n < 16:
        return format(n, "x")
    prefix, digits, base, _ = [w for w in _WIDE if n >= w[3]][-1]
    return prefix + format(n - base, "x").zfill(digits)


def _encode_kurodoko(puzzle: Kuromasu) -> str:
    out, count = [], 0
    for cell in puzzle.grid.cells():
        token = _number16(puzzle.numbers[cell]) if cell in puzzle.numbers else "." if cell in puzzle.unknown else ""
        if not token:
            count += 1
        if count and (token or count == 20):
            out.append(_run_letter(count))
            count = 0
        out.append(token)
    if count:
        out.append(_run_letter(count))
    return "".join(out)


def write(puzzle: Puzzle) -> str:
    FORMAT.check_writable(puzzle)
    if isinstance(puzzle, LightUp):
        return f"https://puzz.link/p?lightup/{puzzle.cols}/{puzzle.rows}/{_encode_lightup(puzzle)}"
    assert isinstance(puzzle, Kuromasu)
    return f"https://puzz.link/p?kurodoko/{puzzle.cols}/{puzzle.rows}/{_encode_kurodoko(puzzle)}"


def detect(text: str) -> bool:
    m = _URL.match(text)
    return bool(m) and m.group(1).split("/", 1)[0].lower() in LIGHTUP_PIDS + KURODOKO_PIDS


FORMAT = Format(
    name=NAME,
    description="puzz.link / pzprjs URLs (?akari/W/H/... and ?kurodoko/W/H/...), mirrors accepted",
    families=(Family.LIGHTUP, Family.KUROMASU),
    extensions=(".url",),
    read=read,
    write=write,
    detect=detect,
    literal=True,
)
