"""puzz.link / pzprjs URLs, for every family that declares a codec (``FamilySpec.puzzlink``).

What is read and written follows pzprjs (github.com/robx/pzprjs, the code behind puzz.link):

* URL forms, after ``pzpr.parser.URLData.parseURLType``/``parseURLData`` (src/pzpr/parser.js):
  ``https://puzz.link/p?PID/COLS/ROWS/BODY`` and the same after any mirror's ``?`` (pzv.jp,
  pzprxs, pzplus, ...); the bare ``PID/COLS/ROWS/BODY`` that pzprjs's own tests open (no ``?``);
  ``NAME=VALUE&`` options before the PID (``?type=player&akari/...``); the PID with an
  ``_edit``/``_play`` suffix (``akari_edit``); a ``v:...`` variant segment, before the PID or
  after it, and a non-numeric flag segment after the PID (both ignored: neither genre has one);
  one trailing ``/``, which pzprjs writes whenever the data would end in a character other than
  ``0-9a-zA-Z`` (so that the last ``.`` survives link shorteners). CR and LF anywhere are
  dropped, as pzprjs does for URLs pasted from a text area. PIDs are those pzprjs maps to these
  genres (``pzpr.variety.toPID``): ``lightup``, ``akari`` and ``bijutsukan``; ``kurodoko``.
* Bodies, after src/variety-common/Encode.js, cell by cell in row-major order; decoding stops
  once the board is full and ignores the rest of the body, as pzprjs does.
  Light Up (``decode4Cell``/``encode4Cell``): ``0``-``4`` a numbered wall; ``5``-``9`` a numbered
  wall (n+5) followed by 1 empty cell; ``a``-``e`` a numbered wall (n+10) followed by 2 empty
  cells; ``.`` a wall without number; ``g``-``z`` a run of 1..20 empty cells.
  Kurodoko (``decodeNumber16``/``encodeNumber16``): ``0``-``f`` a one-hex-digit number; ``-`` + 2
  hex digits; ``+`` + 3 hex digits; ``=``/``%`` + 3 hex digits (+4096/+8192); ``*`` + 4 hex digits
  (+12240); ``$`` + 5 hex digits (+77776); ``.`` a "?" cell; ``g``-``z`` a run of 1..20 empty cells.
* Writing, after ``Encode.encodeURL`` and ``URLData.outputURLType``/``outputURLData``: the URL id
  pzprjs writes (``akari`` for Light Up -- its ``pzprurl`` alias -- and ``kurodoko``) after
  ``https://puzz.link/p?`` (the address puzz.link's build writes; under node pzprjs writes
  ``http://pzv.jp/p.html?``), then ``COLS/ROWS/BODY`` and the trailing ``/`` rule above.

Deliberately stricter than pzprjs: a character that is not part of the body alphabet, met before
the board is full, is a ParseError here (pzprjs skips it: one empty cell in an akari body, nothing
in a kurodoko body); so is a wide Kurodoko number cut short. Kanpen, Heyawake-applet and
``pzprv3`` file URLs, which pzprjs also opens, are other formats and are refused.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Cell, Family, Puzzle, family_spec, family_specs
from ..model.family import BadBody, FamilySpec
from .base import Format, check_grid_size

NAME = "puzzlink"
BASE = "https://puzz.link/p?"
#: Number16 prefixes: (prefix, hex digits, offset, first number written this way).
_WIDE = (
    ("-", 2, 0, 16),
    ("+", 3, 0, 256),
    ("=", 3, 4096, 4096),
    ("%", 3, 8192, 8192),
    ("*", 4, 12240, 12240),
    ("$", 5, 77776, 77776),
)
_OPTION = re.compile(r"(\w+)=(\w+)&", re.ASCII)  # parseURLType: /^(\w+)\=(\w+)\&/
_MODE = re.compile(r"_(?:edit|play)$")
_DIGITS = re.compile(r"[0-9]+")
_HEX = re.compile(r"[0-9a-f]+")
_OTHER_URLS = re.compile(
    r"www\.kanpen\.net|www\.geocities(\.co)?\.jp/(pencil_applet|heyawake)"
    r"|indi\.s58\.xrea\.com/.+/(sa|sc)/"
)


def run_letter(n: int) -> str:
    """A run of 1..20 empty cells: g = 1 ... z = 20 (base-36 digit n + 15)."""
    return "0123456789abcdefghijklmnopqrstuvwxyz"[n + 15]


def _locate(text: str) -> tuple[str, list[str], int, int]:
    """(PID as written, lower case; the ``/``-separated segments after it; 0-based index of the
    first of them in the cleaned text; columns of leading blanks before it).

    The part pzprjs reads starts after the first ``?`` (or at the start, for the bare form), with
    ``NAME=VALUE&`` options and a leading ``v:`` segment skipped."""
    lead = len(text) - len(text.lstrip())
    s = re.sub(r"[\r\n]", "", text.strip())
    start = s.find("?") + 1  # 0 when there is no '?': the bare PID/COLS/ROWS/BODY form
    while m := _OPTION.match(s, start):
        start = m.end()
    segs = s[start:].split("/")
    if len(segs) > 1 and segs[0].startswith("v:"):
        start += len(segs[0]) + 1
        segs = segs[1:]
    return segs[0].lower(), segs[1:], start + len(segs[0]) + 1, lead


def _split(text: str, bounded: bool = True) -> tuple[str, int, int, str, int]:
    """(PID without mode suffix, rows, cols, body, 1-based column of the body); ``bounded``:
    a size past the model's cell bound is refused here, where the URL declares it."""
    if _OTHER_URLS.search(text):
        raise ParseError(
            NAME,
            "Kanpen and applet URLs are not puzz.link URLs; open the puzzle on puzz.link and copy its URL",
            1,
            1,
        )
    pid, rest, at, lead = _locate(text)
    if re.fullmatch(r"pzprv[0-9.]*", pid):
        raise ParseError(
            NAME, "a pzprv3 file inside a URL is not supported; use the ?PID/COLS/ROWS/BODY URL", 1, 1
        )
    consumed = 0
    if rest and rest[0].startswith("v:"):
        consumed += 1  # a variant segment after the PID
    if len(rest) > consumed and rest[consumed] and not _DIGITS.fullmatch(rest[consumed]):
        consumed += 1  # pzprjs's "pflag": any non-numeric segment before the size
    size = rest[consumed : consumed + 2]
    column = lead + at + sum(len(seg) + 1 for seg in rest[:consumed]) + 1
    # Rule: ASCII digits only (str.isdigit would take '²'), and leading zeros stripped before int(),
    # whose digit limit counts them (a size of 5,000 zeros and a 7 is 7)
    numbers = [x.lstrip("0") for x in size]
    if len(size) < 2 or not all(_DIGITS.fullmatch(x) and 0 < len(n) <= 18 for x, n in zip(size, numbers)):
        raise ParseError(NAME, "expected PID/COLS/ROWS/BODY after '?' (e.g. ?akari/10/10/...)", 1, column)
    body_parts = rest[consumed + 2 :]
    if body_parts and not body_parts[-1]:
        body_parts.pop()  # the '/' pzprjs appends after a body ending in '.'
    if bounded:  # Rule: the model's cell bound holds where the URL declares its size, before any body is read
        check_grid_size(NAME, int(numbers[1]), int(numbers[0]), 1, column)
    column += len(size[0]) + len(size[1]) + 2
    return _MODE.sub("", pid), int(numbers[1]), int(numbers[0]), "/".join(body_parts), column


def _by_pid() -> dict[str, FamilySpec]:
    """PID -> family, over every family with a puzz.link codec."""
    return {pid: spec for spec in family_specs() if spec.puzzlink for pid in spec.puzzlink.ids}


def url_ids() -> dict[Family, str]:
    """The PID pzprjs writes for each family (``pzpr.variety(pid).urlid``)."""
    return {spec.family: spec.puzzlink.ids[0] for spec in family_specs() if spec.puzzlink}


def read(text: str, family: Family | None = None) -> Puzzle:
    pid, rows, cols, body, column = _split(text)
    known = _by_pid()
    if pid not in known:
        raise ParseError(NAME, f"puzzle type {pid!r} is not one of {', '.join(known)}", 1, 1)
    spec = known[pid]
    if family is not None and Family(family) is not spec.family:
        raise ParseError(NAME, f"URL holds {pid}, not {Family(family).value}", 1, 1)
    codec = spec.puzzlink
    assert codec is not None  # _by_pid holds the families with a codec
    try:
        return codec.decode(body, rows, cols)
    except BadBody as exc:
        raise ParseError(NAME, f"{exc.message} in a {pid} body", 1, column + exc.index) from None


# Body parts pzprjs shares between genres (src/variety-common/Encode.js).


def decode_number16(body: str, rows: int, cols: int) -> tuple[dict[Cell, int], set[Cell]]:
    """``decodeNumber16``: the numbered cells and the ``.`` ("?") cells of a body."""
    size = rows * cols
    numbers: dict[Cell, int] = {}
    unknown: set[Cell] = set()
    c = i = 0
    while i < len(body) and c < size:  # pzprjs stops once the board is full
        ch = body[i]
        wide = next((w for w in _WIDE if w[0] == ch), None)
        if ch in "0123456789abcdef":
            numbers[divmod(c, cols)] = int(ch, 16)
            i += 1
        elif wide:
            _, digits, base, _ = wide
            chunk = body[i + 1 : i + 1 + digits]
            if len(chunk) != digits or not _HEX.fullmatch(chunk):
                raise BadBody(f"{ch!r} must be followed by {digits} hex digits", i)
            numbers[divmod(c, cols)] = int(chunk, 16) + base
            i += 1 + digits
        elif ch == ".":
            unknown.add(divmod(c, cols))
            i += 1
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
            i += 1
        else:
            raise BadBody(f"unexpected {ch!r}", i)
        c += 1
    return numbers, unknown


def encode_number16(
    rows: int, cols: int, numbers: dict[Cell, int], unknown: frozenset[Cell] = frozenset()
) -> str:
    """``encodeNumber16``: numbers, ``.`` for "?" cells, runs of empty cells."""
    out, count = [], 0
    for cell in ((r, c) for r in range(rows) for c in range(cols)):
        token = number16(numbers[cell]) if cell in numbers else "." if cell in unknown else ""
        if not token:
            count += 1
        if count and (token or count == 20):
            out.append(run_letter(count))
            count = 0
        out.append(token)
    if count:
        out.append(run_letter(count))
    return "".join(out)


def number16(n: int) -> str:
    """One number as ``encodeNumber16`` writes it."""
    # pzprjs writes the offset numbers (=, %, * and $) without zero padding, which its own reader
    # cannot read back; they need boards with rows + cols > 4096, so padding here changes nothing real.
    if n < 16:
        return format(n, "x")
    prefix, digits, base, _ = [w for w in _WIDE if n >= w[3]][-1]
    return prefix + format(n - base, "x").zfill(digits)


def write(puzzle: Puzzle) -> str:
    """pzprjs's URL for ``puzzle``, as puzz.link writes it."""
    FORMAT.check_writable(puzzle)
    codec = family_spec(puzzle).puzzlink
    assert codec is not None  # check_writable: the format carries the family
    data = f"{puzzle.cols}/{puzzle.rows}/{codec.encode(puzzle)}"
    if not re.fullmatch(r"[a-zA-Z0-9]", data[-1]):
        data += "/"  # outputURLData: keep a last '.' from being cut off by link shorteners
    return f"{BASE}{codec.ids[0]}/{data}"


def detect(text: str) -> bool:
    """A one-line puzz.link URL or bare PID/COLS/ROWS/BODY naming a genre a family declares."""
    s = text.strip()
    if not s or any(ch.isspace() for ch in s):
        return False
    try:
        pid = _split(s, bounded=False)[0]  # a known PID followed by COLS/ROWS: "lightup/notes.txt" is a path
    except ParseError:
        return False
    return pid in _by_pid()


def limits(puzzle: Puzzle) -> str | None:
    """What the family's puzz.link body cannot hold about ``puzzle`` (None when it can)."""
    codec = family_spec(puzzle).puzzlink
    return codec.limits(puzzle) if codec else None


FORMAT = Format(
    name=NAME,
    description="puzz.link / pzprjs URLs (?akari/W/H/..., ?kurodoko/W/H/..., ...), mirrors and bare PID/W/H/... accepted",
    families=lambda: tuple(spec.family for spec in family_specs() if spec.puzzlink),
    extensions=(".url",),
    read=read,
    write=write,
    detect=detect,
    limits=limits,
    literal=True,
)
