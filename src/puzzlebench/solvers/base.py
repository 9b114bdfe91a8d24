"""The interface every backend implements: a thin adapter between the harness and one solver.

The harness (:func:`puzzlebench.solve`) owns the clock, the deadline (one watchdog, see
:mod:`.watchdog`), the enumeration loop, blocking, uniqueness and the lazy rules' cuts. A
backend only translates: it loads the encoding's artefact (:meth:`Backend.build`), answers one
satisfiability question (:meth:`Backend.check`), reads the current model on the puzzle's cells
(:meth:`Backend.marked`), adds a clause over cell literals (:meth:`Backend.add_clause`: blocking
clauses and lazy cuts alike), and reports sizes and search figures.

A backend whose solver enumerates better by itself (clingo's projective enumeration, CP-SAT's
solution callback, MiniZinc) says so in :meth:`Backend.native_enumeration` and implements
:meth:`Backend.enumerate`; the harness still arms the watchdog around it and verifies every
answer.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, overload

from ..encodings.base import CellClause, Option
from ..model import Cell


class Backend(ABC):
    """One paradigm's solver behind the common interface (CPMpy-style)."""

    paradigm: ClassVar[str]
    name: ClassVar[str]
    #: Options of the backend itself (workers, seeds, heuristics), as opposed to the encoding.
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None):
        self.options = dict(options)
        #: What the registered solver fixes (e.g. ``{"solver": "glucose4"}`` for python-sat).
        self.settings = dict(settings or {})
        #: Set by :meth:`solutions` when the search space was fully explored.
        self.exhausted = False
        #: Set when a deadline stopped building or search.
        self.timed_out = False

    # -- availability -------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def supported(cls) -> bool:
        """Whether the library or binary is installed."""

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why :meth:`supported` is False (for skip messages), or None."""
        return None if cls.supported() else f"{cls.name} is not installed"

    @classmethod
    @abstractmethod
    def version(cls) -> str:
        """The backend's version string."""

    @classmethod
    def unavailable_reason_for(cls, settings: Mapping[str, Any]) -> str | None:
        """Why the solver these settings name cannot run (default: the backend's own reason)."""
        return cls.unavailable_reason()

    @classmethod
    def solver_version(cls, settings: Mapping[str, Any]) -> str:
        """The version of the solver these settings name (default: the backend's version)."""
        return cls.version()

    @classmethod  # noqa: B027  (an optional hook: a no-op unless overridden)
    def load(cls) -> None:
        """Import the backend's library; :func:`puzzlebench.solve` calls it before starting the
        clock, so a first solve in a fresh process is not billed for the import."""

    # -- the work -----------------------------------------------------------------------------
    @abstractmethod
    def build(self, artifact: Any, deadline: float | None) -> None:
        """Load/ground the encoding's artefact; stop early (``timed_out``) past ``deadline``."""

    def check(self, deadline: float | None) -> bool | None:
        """One satisfiability question on everything added so far: True (a model), False (none),
        None (stopped: interrupted or out of time). ``deadline`` is for solvers with a time
        limit of their own; the harness's watchdog calls :meth:`interrupt` at it regardless."""
        raise NotImplementedError(f"{type(self).__name__} enumerates natively only")

    def marked(self) -> frozenset[Cell]:
        """The decision cells the current model marks (after ``check()`` returned True)."""
        raise NotImplementedError(f"{type(self).__name__} enumerates natively only")

    def add_clause(self, clause: CellClause) -> None:
        """Add "at least one of these cell literals holds": ``(cell, True)`` = the cell is
        marked, ``(cell, False)`` = it is not. Blocking clauses and lazy cuts both come here."""
        raise NotImplementedError(f"{type(self).__name__} enumerates natively only")

    def block(self, cells: frozenset[Cell], decision: Sequence[Cell]) -> None:
        """Block the answer ``cells`` (after ``check()`` returned it): some cell of ``decision``
        differs. By default the clause of :meth:`add_clause`; a backend may state it faster."""
        self.add_clause([(cell, cell not in cells) for cell in decision])

    def native_enumeration(self) -> bool:
        """Whether the harness should call :meth:`enumerate` instead of its check/block loop."""
        return False

    def enumerate(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        """Native enumeration: yield up to ``limit`` answers (0 = all); set ``exhausted`` or
        ``timed_out`` when it ends."""
        raise NotImplementedError(f"{type(self).__name__} has no native enumeration")

    def interrupt(self) -> None:  # noqa: B027  (an optional hook: a no-op unless overridden)
        """Ask a running search to stop (called from the watchdog's thread)."""

    def size(self) -> dict[str, int]:
        """Encoding size as the paradigm counts it."""
        return {}

    def search(self) -> dict[str, float]:
        """Search figures: choices, conflicts, propagations, restarts (when the backend has them)."""
        return {}

    def extra(self) -> dict[str, Any]:
        """Backend-reported extras (its own timers, ...), kept apart from the harness's clock."""
        return {}

    def close(self) -> None:  # noqa: B027  (an optional hook: a no-op unless overridden)
        """Release native resources."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers ------------------------------------------------------------------------------
    @overload
    @staticmethod
    def remaining(deadline: float) -> float: ...
    @overload
    @staticmethod
    def remaining(deadline: None) -> None: ...
    @overload
    @staticmethod
    def remaining(deadline: float | None) -> float | None: ...
    @staticmethod
    def remaining(deadline: float | None) -> float | None:
        """Seconds left until ``deadline`` on the harness clock (None = no limit, floor 0)."""
        if deadline is None:
            return None
        return max(0.0, deadline - time.perf_counter())
