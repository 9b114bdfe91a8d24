"""puzzlebench: compare ASP, SMT, SAT and CP encodings of grid logic puzzles.

>>> import puzzlebench as pb
>>> puzzle = pb.load("puzzles/seed001/lightup1.txt")          # any supported format
>>> result = pb.solve(puzzle, "sat", count=2)                 # count=2 proves uniqueness
>>> report = pb.crosscheck(puzzle)                            # every paradigm agrees?
>>> pb.solve(puzzle, "sat", solver="glucose4")                 # another solver of the paradigm
>>> pb.solve(puzzle, "asp", encoding="my_lightup.lp")          # a researcher's own encoding file
"""

from __future__ import annotations

# The package's import order, kept: the model and its families first.
# isort: off
from .errors import EncodingError, ParseError, PuzzleError, SolverUnavailable, VerificationError
from .model import (
    Family,
    Hitori,
    HitoriSolution,
    Kuromasu,
    KuromasuSolution,
    LightBulbs,
    LightBulbsSolution,
    LightUp,
    LightUpSolution,
    Nurikabe,
    NurikabeSolution,
    Puzzle,
    Rule,
    Solution,
    Violation,
    verify,
)
from .result import Result, Status, Timings
from .crosscheck import crosscheck  # binds the function over the submodule name
from .encodings.base import Option
from .registry import register_encoding, register_paradigm, register_solver
from .deduce import Deductions, register_deducer

# isort: on

__version__ = "0.1.0"


def load(source, format: str | None = None):
    """Read a puzzle from a file path, a literal (Tatham id, puzz.link URL) or text."""
    from .formats import load as _load

    return _load(source, format)


def solve(
    puzzle,
    paradigm: str = "sat",
    encoding: str = "default",
    count: int = 1,
    timeout=None,
    *,
    solver: str | None = None,
    deduce: str | None = None,
    **options,
) -> Result:
    """Solve ``puzzle`` in one paradigm on one of its solvers, after the deduction stage
    ``deduce`` (the family's default; ``"none"``: the bare puzzle); see
    :func:`puzzlebench.solvers.solve`."""
    from .solvers import solve as _solve

    return _solve(puzzle, paradigm, encoding, count, timeout, solver=solver, deduce=deduce, **options)


def load_plugin(name: str) -> None:
    """Import a plugin module (see :mod:`puzzlebench.plugins`); isolated workers load it too."""
    from .plugins import load as _load

    _load(name)


__all__ = [
    "Deductions",
    "EncodingError",
    "Family",
    "Hitori",
    "HitoriSolution",
    "Kuromasu",
    "KuromasuSolution",
    "LightBulbs",
    "LightBulbsSolution",
    "LightUp",
    "LightUpSolution",
    "Nurikabe",
    "NurikabeSolution",
    "Option",
    "ParseError",
    "Puzzle",
    "PuzzleError",
    "Result",
    "Rule",
    "Solution",
    "SolverUnavailable",
    "Status",
    "Timings",
    "VerificationError",
    "Violation",
    "crosscheck",
    "load",
    "load_plugin",
    "register_deducer",
    "register_encoding",
    "register_paradigm",
    "register_solver",
    "solve",
    "verify",
]
