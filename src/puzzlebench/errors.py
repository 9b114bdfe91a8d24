"""Exceptions raised by puzzlebench.

Every error a user can provoke with bad input is a :class:`PuzzleError`; its message names
the offending cell, line or option, so the command line can print it and exit with status 2.
"""

from __future__ import annotations


class PuzzleError(ValueError):
    """A puzzle, solution or input that breaks the model's rules."""


class GridShapeError(PuzzleError):
    """An empty or non-rectangular grid."""


class CellError(PuzzleError):
    """A fault at one cell; ``cell`` is its 0-based (row, col) when known, so that a reader can
    name the line and column of the text that put it there."""

    def __init__(self, message: str, cell: tuple[int, int] | None = None):
        super().__init__(message)
        self.cell = cell


class CellOutOfBounds(CellError):
    """A coordinate outside the grid."""


class ClueOutOfRange(CellError):
    """A number that the family does not allow at that cell."""


class ClueOnWall(CellError):
    """A clue placed where the family forbids one (e.g. a Kuromasu clue on a black cell)."""


class RequestError(PuzzleError):
    """A request the formats cannot serve whatever the text says: an unknown format, a format
    without answers, a family a format does not hold, a file that does not exist."""


class ParseError(PuzzleError):
    """Malformed text in some format, with the format, line and column (1-based) of the fault."""

    def __init__(self, fmt: str, message: str, line: int | None = None, column: int | None = None):
        self.format = fmt
        self.reason = message
        self.line = line
        self.column = column
        where = ""
        if line is not None:
            where = f" at line {line}" + (f", column {column}" if column is not None else "")
        super().__init__(f"{fmt}: {message}{where}")


class EncodingError(PuzzleError):
    """An unknown encoding or option, or an option value out of its range."""


class SolverUnavailable(RuntimeError):
    """A backend whose library or binary is not installed."""


class VerificationError(AssertionError):
    """A solver returned an answer that the independent verifier rejects: a bug, never a pass."""
