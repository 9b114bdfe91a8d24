"""SAT backend: python-sat's incremental solvers behind the common interface.

Search runs in ``solve_limited(expect_interrupt=True)`` with a timer that interrupts the solver
at the harness's deadline. Answers are enumerated with blocking clauses over the decision
variables only, so auxiliary variables never multiply counts. An encoding may refine lazily
(``CnfModel.refine`` returns cuts for a candidate, re-solved until none is returned) or attach
an IPASIR-UP propagator (CaDiCaL 1.9.5 only).
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Any, Callable, ClassVar, Iterator

from ..encodings.base import Option
from ..errors import EncodingError
from ..model import Cell
from .base import Backend

#: The solver python-sat runs by default: CaDiCaL 1.9.5 (the one with IPASIR-UP support).
DEFAULT_SOLVER = "cadical195"
#: Solvers whose python-sat binding lacks an interruptible ``solve_limited``.
_NOT_INTERRUPTIBLE = frozenset({"lingeling", "lgl", "kissat404", "kissat"})


class _Watchdog:
    """One daemon thread that calls registered callbacks at their deadlines.

    Starting a ``threading.Timer`` per solver call costs a thread start each time, as much as
    solving a small puzzle; this thread is started once and only woken by new deadlines.
    Cancelling drops the callback at once (it holds the backend and its formula); the heap
    keeps only (deadline, ticket) pairs, dropped lazily.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int]] = []
        self._callbacks: dict[int, Callable[[], None]] = {}
        self._ids = itertools.count()
        self._thread: threading.Thread | None = None

    def schedule(self, deadline: float, callback: Callable[[], None]) -> int:
        with self._cond:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="pysat-watchdog", daemon=True)
                self._thread.start()
            ticket = next(self._ids)
            if len(self._heap) > 64 + 2 * len(self._callbacks):  # mostly cancelled: compact
                self._heap = [entry for entry in self._heap if entry[1] in self._callbacks]
                heapq.heapify(self._heap)
            # The thread sleeps until the earliest deadline in the heap (cancelled ones too, which
            # it drops when it wakes): only a new earliest deadline needs to wake it now. Waking
            # it on every call would cost a thread switch per solver call.
            wake = not self._heap or deadline < self._heap[0][0]
            heapq.heappush(self._heap, (deadline, ticket))
            self._callbacks[ticket] = callback
            if wake:
                self._cond.notify()
            return ticket

    def cancel(self, ticket: int) -> None:
        with self._cond:
            self._callbacks.pop(ticket, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                while self._heap and self._heap[0][1] not in self._callbacks:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._cond.wait()
                    continue
                deadline, ticket = self._heap[0]
                wait = deadline - time.perf_counter()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                heapq.heappop(self._heap)
                callback = self._callbacks.pop(ticket)
                try:
                    callback()
                except Exception:  # an interrupt that fails must not stop the watchdog
                    pass


_WATCHDOG = _Watchdog()


def _append(solver: Any, clauses: list[list[int]]) -> None:
    """Load the clauses: CaDiCaL 1.9.5 straight through its C entry point, one call per clause.

    python-sat's ``append_formula`` checks each item for a native cardinality constraint and
    goes through two Python calls per clause; for the many small formulas of a corpus that
    loop costs as much as the search. Other solvers keep ``append_formula``.
    """
    inner = getattr(solver, "solver", None)
    handle = getattr(inner, "cadical", None)
    if type(inner).__name__ != "Cadical195" or handle is None:
        solver.append_formula(clauses)
        return
    from pysat.solvers import pysolvers  # python-sat's C extension, as pysat.solvers uses it

    if False in map(pysolvers.cadical195_add_cl, itertools.repeat(handle, len(clauses)), clauses):
        inner.status = False  # an empty clause, as pysat's own add_clause records it


def _solver_names() -> tuple[str, ...]:
    try:
        from pysat.solvers import SolverNames
    except ImportError:
        return (DEFAULT_SOLVER,)
    return tuple(sorted(n for n in vars(SolverNames) if not n.startswith("_")))


class PysatBackend(Backend):
    paradigm: ClassVar[str] = "sat"
    name: ClassVar[str] = "pysat"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("solver", DEFAULT_SOLVER, _solver_names(), "python-sat solver (SolverNames), e.g. cadical195, glucose4, minisat22"),
    )

    def __init__(self, options):
        super().__init__(options)
        self.solver_name: str = self.options.get("solver", DEFAULT_SOLVER)
        self._solver = None
        self._artifact = None
        self._rounds = 0  # candidate models rejected by lazy refinement
        self._cuts = 0  # clauses those rejections added
        self._blocked = 0  # blocking clauses added by enumeration
        self._engine = None
        self._lock = threading.Lock()

    @classmethod
    def supported(cls) -> bool:
        try:
            import pysat.solvers  # noqa: F401
        except ImportError:
            return False
        return True

    @classmethod
    def version(cls) -> str:
        import pysat

        return f"python-sat {pysat.__version__} (default solver {DEFAULT_SOLVER})"

    # -- the work -----------------------------------------------------------------------------
    def build(self, artifact: Any, deadline: float | None) -> None:
        from pysat.solvers import Solver

        if self.solver_name in _NOT_INTERRUPTIBLE:
            raise EncodingError(f"solver {self.solver_name!r} cannot be interrupted from python-sat; choose another")
        if artifact.propagator is not None and self.solver_name != "cadical195":
            raise EncodingError(
                f"this encoding attaches an external propagator, which python-sat supports only on cadical195 "
                f"(got solver={self.solver_name!r})"
            )
        self._artifact = artifact
        self._solver = Solver(name=self.solver_name)
        _append(self._solver, artifact.clauses)
        if artifact.propagator is not None:
            engine, observed = artifact.propagator()
            self._solver.connect_propagator(engine)
            for var in observed:
                self._solver.observe(var)
            self._engine = engine
        if deadline is not None and self.remaining(deadline) <= 0:
            self.timed_out = True

    def _solve(self, deadline: float | None) -> bool | None:
        """One interruptible call; None when the deadline stopped it."""
        left = self.remaining(deadline)
        if left is not None and left <= 0:
            return None
        ticket = None if deadline is None else _WATCHDOG.schedule(deadline, self.interrupt)
        try:
            outcome = self._solver.solve_limited(expect_interrupt=True)
        finally:
            if ticket is not None:
                _WATCHDOG.cancel(ticket)
        if outcome is None:
            self._solver.clear_interrupt()
        return outcome

    def solutions(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        solver, art = self._solver, self._artifact
        decision = list(art.decision.items())
        found = 0
        while not limit or found < limit:
            outcome = self._solve(deadline)
            if outcome is None:
                self.timed_out = True
                return
            if not outcome:
                self.exhausted = True
                return
            model = solver.get_model()
            size = len(model)
            marked = frozenset(cell for cell, v in decision if v <= size and model[v - 1] > 0)
            if art.refine is not None:
                cuts = art.refine(marked)
                if cuts:  # the candidate breaks a rule the CNF left out: cut it off, solve again
                    self._rounds += 1
                    self._cuts += len(cuts)
                    solver.append_formula(cuts)
                    continue
            found += 1
            yield marked
            # Block this answer on the decision variables only.
            solver.add_clause([-v if cell in marked else v for cell, v in decision])
            self._blocked += 1

    def interrupt(self) -> None:
        with self._lock:
            if self._solver is not None:
                self._solver.interrupt()

    # -- figures ------------------------------------------------------------------------------
    def size(self) -> dict[str, int]:
        art = self._artifact
        if art is None:
            return {}
        return {
            "variables": art.pool.top,
            "clauses": len(art.clauses),
            "literals": sum(map(len, art.clauses)),
        }

    def search(self) -> dict[str, float]:
        if self._solver is None:
            return {}
        stats = self._solver.accum_stats() or {}
        return {
            "choices": stats.get("decisions", 0),
            "conflicts": stats.get("conflicts", 0),
            "propagations": stats.get("propagations", 0),
            "restarts": stats.get("restarts", 0),
        }

    def extra(self) -> dict[str, Any]:
        out: dict[str, Any] = {"solver": self.solver_name, "blocking_clauses": self._blocked}
        if self._artifact is not None and self._artifact.refine is not None:
            out.update(refinements=self._rounds, cuts=self._cuts)
        engine = self._engine
        if engine is not None and hasattr(engine, "stats"):
            out.update(engine.stats())
        return out

    def close(self) -> None:
        with self._lock:
            if self._solver is not None:
                if self._engine is not None:
                    self._solver.disconnect_propagator()
                self._solver.delete()
                self._solver = None
