"""What every format module provides, and small parsing helpers they share."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..errors import GridShapeError, ParseError, PuzzleError
from ..model import Family, Puzzle, Solution
from ..model.base import check_size

Reader = Callable[[str, "Family | None"], Puzzle]
Writer = Callable[[Puzzle], str]
SolutionReader = Callable[[str, Puzzle], Solution]
SolutionWriter = Callable[[Puzzle, Solution], str]
_TOKEN = re.compile(r"\S+")
_ASCII_INT = re.compile(r"[0-9]+")
#: Longest run of significant digits a number in a puzzle text may have (sizes and clues are far
#: smaller; Python's int() refuses strings past 4300 digits, and nobody needs more than this).
MAX_DIGITS = 18
BOM = "\ufeff"


@dataclass(frozen=True)
class Format:
    """One text format: which families it carries, how to recognise, read and write it.

    ``families`` are the families it carries, or a function listing them from the family
    registry (formats whose codecs the families declare); :meth:`carries` reads either.
    ``read(text, family)`` takes an optional family hint for formats that cannot tell the
    families apart on their own. ``limits(puzzle)`` says why a puzzle cannot be written
    (``None`` when it can). Formats that can carry an answer set the two solution callables.
    """

    name: str
    description: str
    families: tuple[Family, ...] | Callable[[], tuple[Family, ...]]
    extensions: tuple[str, ...]
    read: Reader
    write: Writer
    detect: Callable[[str], bool]
    limits: Callable[[Puzzle], str | None] = lambda puzzle: None
    read_solution: SolutionReader | None = None
    write_solution: SolutionWriter | None = None
    literal: bool = False  # a one-line literal (URL, game id) rather than a file body

    def carries(self) -> tuple[Family, ...]:
        """The families this format holds."""
        return self.families() if callable(self.families) else self.families

    def can_write(self, puzzle: Puzzle) -> bool:
        return puzzle.family in self.carries() and self.limits(puzzle) is None

    def check_writable(self, puzzle: Puzzle) -> None:
        """Raise a PuzzleError naming what this format cannot express about ``puzzle``."""
        if puzzle.family not in self.carries():
            families = ", ".join(f.value for f in self.carries())
            raise PuzzleError(f"format {self.name} holds {families} puzzles, not {puzzle.family.value}")
        reason = self.limits(puzzle)
        if reason:
            raise PuzzleError(f"format {self.name} cannot express this puzzle: {reason}")


def is_number(token: str) -> bool:
    """Whether ``token`` is a plain non-negative decimal number in ASCII digits.

    (``str.isdigit`` is not this test: it accepts superscripts such as ``²``, which ``int``
    then refuses, and other scripts' digits, which ``int`` reads.)
    """
    return _ASCII_INT.fullmatch(token) is not None


def parse_number(
    fmt: str, token: str, what: str = "number", line: int | None = None, column: int | None = None
) -> int:
    """``token`` as a non-negative int, or a ParseError (not ASCII digits, or absurdly long)."""
    if not is_number(token):
        raise ParseError(
            fmt, f"{what} must be a non-negative integer in digits 0-9, got {token[:20]!r}", line, column
        )
    significant = token.lstrip("0") or "0"
    if len(significant) > MAX_DIGITS:
        raise ParseError(
            fmt, f"{what} has {len(significant)} digits, more than the {MAX_DIGITS} allowed", line, column
        )
    return int(significant)


def end_of(text: str) -> tuple[int, int]:
    """The 1-based (line, column) just past the end of ``text``: where an error about something
    missing points (the place it was looked for last)."""
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


def position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based (line, column) of character ``offset`` of ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def check_grid_size(
    fmt: str, rows: int, cols: int, line: int | None = None, column: int | None = None
) -> None:
    """The model's size bound applied where a text declares its size, so the error points there."""
    try:
        check_size(rows, cols)
    except GridShapeError as exc:
        raise ParseError(fmt, str(exc), line, column) from None


def strip_bom(text: str) -> str:
    """``text`` without a leading UTF-8 byte-order mark."""
    return text[1:] if text.startswith(BOM) else text


def decode_text(data: bytes, fmt: str, what: str) -> str:
    """UTF-8 bytes as text (a leading byte-order mark dropped), or a ParseError naming the first
    byte that is not UTF-8, with its line and column."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = exc.start
        line_start = data.rfind(b"\n", 0, start) + 1
        line = data.count(b"\n", 0, start) + 1
        column = len(data[line_start:start].decode("utf-8", "replace")) + 1
        raise ParseError(
            fmt,
            f"{what} is not UTF-8 text: byte 0x{data[start]:02x} at offset {start} ({exc.reason})",
            line,
            column,
        ) from None


def safe_name(name: object) -> str:
    """A puzzle name fit for one line of a file: control characters and line or paragraph
    separators (anything ``str.splitlines`` breaks at, NUL, lone surrogates) become spaces, and
    the ends are trimmed, so a name cannot add lines to what a writer produces."""
    text = str(name)
    out = "".join(" " if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") else ch for ch in text)
    return out.strip()


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` for each line of ``text`` (1-based)."""
    yield from enumerate(text.splitlines(), 1)


def split_tokens(line: str) -> list[tuple[int, str]]:
    """Whitespace-separated tokens of a line with their 1-based columns."""
    return [(m.start() + 1, m.group()) for m in _TOKEN.finditer(line)]


def run_letter(n: int) -> str:
    """A run of ``n`` (1..26) empty cells as one letter: a = 1 ... z = 26."""
    return chr(ord("a") + n - 1)


def letter_run(ch: str) -> int:
    return ord(ch) - ord("a") + 1


def encode_runs(tokens: list[str | None], separate: bool = False) -> str:
    """Join cell tokens, writing runs of empty cells (``None``) as letters a-z (runs over 26 split).

    With ``separate``, two tokens that follow each other directly get a ``_`` between them
    (Tatham's Range writes numbers that way, since a number may have several digits).
    """
    out: list[str] = []
    run = 0
    last_was_token = False
    for tok in tokens:
        if tok is None:
            run += 1
            if run == 26:
                out.append("z")
                run = 0
            last_was_token = False
            continue
        if run:
            out.append(run_letter(run))
            run = 0
        elif separate and last_was_token:
            out.append("_")
        out.append(tok)
        last_was_token = True
    if run:
        out.append(run_letter(run))
    return "".join(out)


def parse_grid_size(fmt: str, text: str, line: int = 1, column: int = 1) -> tuple[int, int]:
    """``WxH`` -> (rows, cols), with a ParseError for anything else."""
    w, sep, h = text.partition("x")
    if not sep or not is_number(w) or not is_number(h):
        raise ParseError(fmt, f"expected a size WxH (columns x rows), got {text[:40]!r}", line, column)
    cols, rows = parse_number(fmt, w, "width", line, column), parse_number(fmt, h, "height", line, column)
    if rows < 1 or cols < 1:
        raise ParseError(fmt, f"expected a size WxH (columns x rows), got {text[:40]!r}", line, column)
    check_grid_size(fmt, rows, cols, line, column)
    return rows, cols


def expect_family(fmt: str, family: Family | None, allowed: tuple[Family, ...]) -> None:
    if family is not None and Family(family) not in allowed:
        raise ParseError(
            fmt, f"holds {', '.join(f.value for f in allowed)} puzzles, not {Family(family).value}"
        )
