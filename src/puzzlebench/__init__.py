"""puzzlebench: compare ASP, SMT, SAT and CP encodings of grid logic puzzles.

>>> import puzzlebench as pb
>>> puzzle = pb.load("puzzles/seed001/lightup1.txt")          # any supported format
>>> result = pb.solve(puzzle, "sat", count=2)                 # count=2 proves uniqueness
>>> report = pb.crosscheck(puzzle)                            # all four paradigms agree?
"""

from __future__ import annotations

from .errors import EncodingError, ParseError, PuzzleError, SolverUnavailable, VerificationError
from .model import (
    Family,
    Kuromasu,
    KuromasuSolution,
    LightBulbs,
    LightBulbsSolution,
    LightUp,
    LightUpSolution,
    Puzzle,
    Rule,
    Solution,
    Violation,
    verify,
)
from .result import Result, Status, Timings
from .crosscheck import crosscheck  # noqa: E402  (binds the function over the submodule name)

__version__ = "0.1.0"


def load(source, format: str | None = None):
    """Read a puzzle from a file path, a literal (Tatham id, puzz.link URL) or text."""
    from .formats import load as _load

    return _load(source, format)


def solve(puzzle, paradigm: str = "sat", encoding: str = "default", count: int = 1, timeout=None, **options) -> Result:
    """Solve ``puzzle`` in one paradigm; see :func:`puzzlebench.solvers.solve`."""
    from .solvers import solve as _solve

    return _solve(puzzle, paradigm, encoding, count, timeout, **options)


__all__ = [
    "EncodingError", "Family", "Kuromasu", "KuromasuSolution", "LightBulbs", "LightBulbsSolution",
    "LightUp", "LightUpSolution", "ParseError", "Puzzle", "PuzzleError", "Result", "Rule",
    "Solution", "SolverUnavailable", "Status", "Timings", "VerificationError", "Violation",
    "crosscheck", "load", "solve", "verify",
]
