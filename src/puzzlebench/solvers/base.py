"""The interface every backend implements, one adapter class per paradigm.

The harness (:func:`puzzlebench.solve`) owns the clock; a backend only builds, searches and
reports its sizes and search figures. Enumeration yields the set of marked decision cells of
each answer and must block on those cells only, so auxiliary variables never multiply counts.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Iterator, Mapping

from ..encodings.base import Option
from ..model import Cell


class Backend(ABC):
    """One paradigm's solver behind the common interface (CPMpy-style)."""

    paradigm: ClassVar[str]
    name: ClassVar[str]
    #: Options of the backend itself (solver choice, workers, seeds), as opposed to the encoding.
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, options: Mapping[str, Any]):
        self.options = dict(options)
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
    def load(cls) -> None:
        """Import the backend's library; :func:`puzzlebench.solve` calls it before starting the
        clock, so a first solve in a fresh process is not billed for the import."""

    # -- the work -----------------------------------------------------------------------------
    @abstractmethod
    def build(self, artifact: Any, deadline: float | None) -> None:
        """Load/ground the encoding's artefact; stop early (``timed_out``) past ``deadline``."""

    @abstractmethod
    def solutions(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        """Yield up to ``limit`` answers (0 = all) as sets of marked decision cells."""

    def interrupt(self) -> None:
        """Ask a running search to stop (from another thread or a timer)."""

    def size(self) -> dict[str, int]:
        """Encoding size as the paradigm counts it."""
        return {}

    def search(self) -> dict[str, float]:
        """Search figures: choices, conflicts, propagations, restarts (when the backend has them)."""
        return {}

    def extra(self) -> dict[str, Any]:
        """Backend-reported extras (its own timers, ...), kept apart from the harness's clock."""
        return {}

    def close(self) -> None:
        """Release native resources."""

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers ------------------------------------------------------------------------------
    @staticmethod
    def remaining(deadline: float | None) -> float | None:
        """Seconds left until ``deadline`` on the harness clock (None = no limit, floor 0)."""
        if deadline is None:
            return None
        return max(0.0, deadline - time.perf_counter())
