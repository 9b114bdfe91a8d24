"""The ASP backend: clingo grounds an :class:`AspProgram` and enumerates its answer sets.

One ``Control`` per puzzle. Rules and facts are added as one text and grounded once (grounding
cannot be interrupted from inside: the deadline is checked before and after it, and the
benchmark runner enforces the hard limit). Answers are enumerated with clasp's projective
enumeration on the shown atoms (``--project=show``; every program shows only its decision
predicate), so auxiliary atoms never multiply the count.
"""

from __future__ import annotations

import heapq
import importlib.util
import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generator, Iterator

from ..encodings.base import Option
from ..model import Cell
from .base import Backend

if TYPE_CHECKING:
    import clingo

    from ..encodings.asp import AspProgram

CONFIGURATIONS = ("auto", "frumpy", "jumpy", "tweety", "trendy", "crafty", "many", "handy")
HEURISTICS = ("auto", "Berkmin", "Vmtf", "Vsids", "Domain", "Unit", "None")


class ClingoBackend(Backend):
    """clingo (Potassco) through its Python API, single-threaded."""

    paradigm: ClassVar[str] = "asp"
    name: ClassVar[str] = "clingo"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("configuration", "auto", CONFIGURATIONS, "clasp's preset configuration (--configuration)"),
        Option("heuristic", "auto", HEURISTICS, "clasp's decision heuristic (--heuristic; auto keeps the preset's)"),
        Option("seed", 0, description="clasp's random seed (--seed)"),
    )

    def __init__(self, options):
        super().__init__(options)
        self._ctl: clingo.Control | None = None
        self._artifact: AspProgram | None = None
        self._stats: dict[str, Any] = {}
        self._times: dict[str, float] = {}
        self._search: Generator[frozenset[Cell], None, None] | None = None

    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("clingo") is not None

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return None if cls.supported() else "clingo is not installed (pip install clingo)"

    @classmethod
    def version(cls) -> str:
        import clingo

        return clingo.__version__

    def _arguments(self, artifact: "AspProgram") -> list[str]:
        args = ["--project=show", "--parallel-mode=1", f"--configuration={self.options.get('configuration', 'auto')}"]
        heuristic = self.options.get("heuristic", "auto")
        if heuristic != "auto":
            args.append(f"--heuristic={heuristic}")
        seed = int(self.options.get("seed", 0))
        if seed:
            args.append(f"--seed={seed}")
        # the encoding's own needs (e.g. --heuristic=Domain for #heuristic directives) come last
        return args + list(artifact.args)

    def build(self, artifact: "AspProgram", deadline: float | None) -> None:
        """Add the program and facts, register the propagator, ground."""
        import clingo

        self._artifact = artifact
        if deadline is not None and time.perf_counter() >= deadline:
            self.timed_out = True
            return
        ctl = clingo.Control(self._arguments(artifact), logger=_quiet)
        self._ctl = ctl
        ctl.add("base", [], artifact.program())
        if artifact.propagator is not None:
            ctl.register_propagator(artifact.propagator)
        t0 = time.perf_counter()
        ctl.ground([("base", [])])
        self._times["ground"] = time.perf_counter() - t0
        if deadline is not None and time.perf_counter() >= deadline:
            self.timed_out = True

    def solutions(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        # kept so that statistics can first close a search the caller stopped early
        self._search = self._enumerate(limit, deadline)
        return self._search

    def _enumerate(self, limit: int, deadline: float | None) -> Generator[frozenset[Cell], None, None]:
        ctl, art = self._ctl, self._artifact
        assert ctl is not None and art is not None, "build() first"
        ctl.configuration.solve.models = str(limit)
        predicate, arity, to_cell = art.predicate, art.arity, art.to_cell

        def cells(model: "clingo.Model") -> frozenset[Cell]:
            # Model objects die after the model callback: copy the cells out now
            return frozenset(to_cell(s) for s in model.symbols(shown=True) if s.match(predicate, arity))

        t0 = time.perf_counter()
        # a shared watchdog thread interrupts the search at the deadline (no thread per solve)
        token = _WATCHDOG.arm(ctl, deadline) if deadline is not None else None
        try:
            with ctl.solve(yield_=True) as handle:
                for model in handle:
                    yield cells(model)
                result = handle.get()
            # stopped by the watchdog or by interrupt(): the search space was not explored
            self.timed_out = bool(result.interrupted)
            self.exhausted = bool(result.exhausted) and not result.interrupted
        finally:
            if token is not None:
                _WATCHDOG.disarm(token)
            self._times["solve_calls"] = time.perf_counter() - t0

    def _statistics(self) -> dict[str, Any]:
        """clingo's statistics of the last solve call, read once (after the harness's clock stops)."""
        if self._search is not None:
            self._search.close()  # ends the solve call (its handle) if the caller stopped early
            self._search = None
        if not self._stats and self._ctl is not None:
            self._stats = self._ctl.statistics
        return self._stats

    def interrupt(self) -> None:
        if self._ctl is not None:
            self._ctl.interrupt()

    def size(self) -> dict[str, int]:
        lp = self._statistics().get("problem", {}).get("lp", {})
        return {key: int(lp[key]) for key in ("atoms", "rules", "bodies") if key in lp}

    def search(self) -> dict[str, float]:
        solvers = self._statistics().get("solving", {}).get("solvers", {})
        return {key: float(solvers[key]) for key in ("choices", "conflicts", "restarts") if key in solvers}

    def extra(self) -> dict[str, Any]:
        stats = self._statistics()
        out: dict[str, Any] = {f"time_{key}": value for key, value in self._times.items()}
        lp = stats.get("problem", {}).get("lp", {})
        out.update({key: int(lp[key]) for key in ("atoms_aux", "eqs", "rules_choice", "rules_acyc") if key in lp})
        summary = stats.get("summary", {})
        out.update({f"clasp_{key}": value for key, value in summary.get("times", {}).items()})
        if "models" in summary:
            out["models_enumerated"] = int(summary["models"]["enumerated"])
        propagator = self._artifact.propagator if self._artifact else None
        if propagator is not None and hasattr(propagator, "stats"):
            out.update(propagator.stats())  # its own counters, as the SAT backend reports its engine's
        return out

    def close(self) -> None:
        if self._search is not None:
            self._search.close()
            self._search = None
        self._ctl = None


def _quiet(code: "clingo.MessageCode", message: str) -> None:
    """Drop clingo's informational warnings (e.g. atoms that never occur in a head)."""


@dataclass(order=True)
class _Alarm:
    deadline: float
    order: int
    ctl: Any = field(compare=False)
    cancelled: bool = field(default=False, compare=False)


class _Watchdog:
    """One daemon thread that calls ``Control.interrupt()`` on searches past their deadline.

    Arming costs a lock and a notify, so timed solves need no thread of their own.
    """

    def __init__(self) -> None:
        self._alarms: list[_Alarm] = []
        self._cond = threading.Condition()
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def arm(self, ctl: Any, deadline: float) -> _Alarm:
        alarm = _Alarm(deadline, next(self._order), ctl)
        with self._cond:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="clingo-watchdog", daemon=True)
                self._thread.start()
            # The thread sleeps until the earliest alarm (cancelled ones too, dropped when it
            # wakes): only a new earliest deadline needs to wake it, not every solve call.
            wake = not self._alarms or alarm < self._alarms[0]
            heapq.heappush(self._alarms, alarm)
            if wake:
                self._cond.notify()
        return alarm

    def disarm(self, alarm: _Alarm) -> None:
        with self._cond:
            alarm.cancelled = True
            alarm.ctl = None

    def _run(self) -> None:
        with self._cond:
            while True:
                while self._alarms and self._alarms[0].cancelled:
                    heapq.heappop(self._alarms)
                if not self._alarms:
                    self._cond.wait()
                    continue
                alarm = self._alarms[0]
                left = alarm.deadline - time.perf_counter()
                if left > 0:
                    self._cond.wait(left)
                    continue
                heapq.heappop(self._alarms)
                alarm.ctl.interrupt()


_WATCHDOG = _Watchdog()
