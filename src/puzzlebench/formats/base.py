"""What every format module provides, and small parsing helpers they share."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

from ..errors import ParseError, PuzzleError
from ..model import Family, Puzzle, Solution

Reader = Callable[[str, "Family | None"], Puzzle]
Writer = Callable[[Puzzle], str]
SolutionReader = Callable[[str, Puzzle], Solution]
SolutionWriter = Callable[[Puzzle, Solution], str]
_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Format:
    """One text format: which families it carries, how to recognise, read and write it.

    ``read(text, family)`` takes an optional family hint for formats that cannot tell the
    families apart on their own. ``limits(puzzle)`` says why a puzzle cannot be written
    (``None`` when it can). Formats that can carry an answer set the two solution callables.
    """

    name: str
    description: str
    families: tuple[Family, ...]
    extensions: tuple[str, ...]
    read: Reader
    write: Writer
    detect: Callable[[str], bool]
    limits: Callable[[Puzzle], str | None] = lambda puzzle: None
    read_solution: SolutionReader | None = None
    write_solution: SolutionWriter | None = None
    literal: bool = False  # a one-line literal (URL, game id) rather than a file body

    def can_write(self, puzzle: Puzzle) -> bool:
        return puzzle.family in self.families and self.limits(puzzle) is None

    def check_writable(self, puzzle: Puzzle) -> None:
        """Raise a PuzzleError naming what this format cannot express about ``puzzle``."""
        if puzzle.family not in self.families:
            families = ", ".join(f.value for f in self.families)
            raise PuzzleError(f"format {self.name} holds {families} puzzles, not {puzzle.family.value}")
        reason = self.limits(puzzle)
        if reason:
            raise PuzzleError(f"format {self.name} cannot express this puzzle: {reason}")


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` for each line of ``text`` (1-based)."""
    for i, line in enumerate(text.splitlines(), 1):
        yield i, line


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
    if not sep or not w.isdigit() or not h.isdigit() or int(w) < 1 or int(h) < 1:
        raise ParseError(fmt, f"expected a size WxH (columns x rows), got {text!r}", line, column)
    return int(h), int(w)


def expect_family(fmt: str, family: Family | None, allowed: tuple[Family, ...]) -> None:
    if family is not None and Family(family) not in allowed:
        raise ParseError(fmt, f"holds {', '.join(f.value for f in allowed)} puzzles, not {Family(family).value}")
