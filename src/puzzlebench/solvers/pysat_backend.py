"""SAT backend: every python-sat solver behind the common interface.

The registry names each python-sat solver (``cadical195``, ``glucose4``, ``minisat22``, ...) as a
solver of the SAT paradigm; this adapter loads the CNF, answers ``check`` with
``solve_limited(expect_interrupt=True)`` (the harness's watchdog calls :meth:`interrupt` at the
deadline), reads the model on the decision variables and adds clauses over them. python-sat
cannot interrupt CaDiCaL (its ``interrupt`` raises NotImplementedError), so CaDiCaL is asked in
slices of a conflict budget sized from its conflict rate, the deadline looked at between slices
(:meth:`PysatBackend._sliced_check`). Solvers whose python-sat binding can be neither interrupted
nor budgeted (Lingeling, Kissat) are asked with ``solve()``: their deadline holds between calls
only, and the isolated benchmark runner enforces it hard. An encoding may attach an IPASIR-UP
propagator (CaDiCaL 1.9.5 only), and an escalation (``CnfModel.escalation``: clauses added
after a number of checks, the solver keeping what it learnt).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from itertools import compress, repeat
from typing import Any, ClassVar

from ..encodings.base import CellClause
from ..errors import EncodingError
from ..model import Cell
from .base import Backend

#: The solver python-sat runs by default: CaDiCaL 1.9.5 (the one with IPASIR-UP support).
DEFAULT_SOLVER = "cadical195"
#: Solvers whose python-sat binding lacks an interruptible ``solve_limited``.
_NOT_INTERRUPTIBLE = frozenset({"lingeling", "lgl", "kissat404", "kissat"})
#: CaDiCaL in slices: the first slice's conflicts, and the seconds a later slice aims at (its
#: budget is the conflict rate so far times this, or times the time left if that is less).
SLICE_FIRST = 2000
SLICE_SECONDS = 0.25


#: python-sat solver classes whose clauses are loaded straight through their C entry point:
#: class name -> (attribute holding the native handle, name of the entry in ``pysolvers``).
_DIRECT_ADD: dict[str, tuple[str, str]] = {
    "Cadical195": ("cadical", "cadical195_add_cl"),
    "Minisat22": ("minisat", "minisat22_add_cl"),
    "Glucose4": ("glucose", "glucose41_add_cl"),
    "Glucose42": ("glucose", "glucose421_add_cl"),
    "Minicard": ("minicard", "minicard_add_cl"),
    "Gluecard3": ("gluecard", "gluecard3_add_cl"),
    "Gluecard4": ("gluecard", "gluecard41_add_cl"),
}
#: The same for native "at most k" constraints (the solvers that take them).
_DIRECT_ATMOST: dict[str, tuple[str, str]] = {
    "Minicard": ("minicard", "minicard_add_am"),
    "Gluecard3": ("gluecard", "gluecard3_add_am"),
    "Gluecard4": ("gluecard", "gluecard41_add_am"),
}


def _append(solver: Any, clauses: list[list[int]]) -> None:
    """Load the clauses: CaDiCaL 1.9.5 and MiniSat 2.2 straight through their C entry points,
    one call per clause.

    python-sat's ``append_formula`` checks each item for a native cardinality constraint and
    goes through two Python calls per clause; for the many small formulas of a corpus that
    loop costs as much as the search. Other solvers keep ``append_formula``.
    """
    inner: Any = getattr(solver, "solver", None)
    direct = _DIRECT_ADD.get(type(inner).__name__)
    handle = getattr(inner, direct[0], None) if direct else None
    if direct is None or handle is None:
        solver.append_formula(clauses)
        return
    from pysat.solvers import pysolvers  # python-sat's C extension, as pysat.solvers uses it

    if False in map(getattr(pysolvers, direct[1]), repeat(handle, len(clauses)), clauses):
        inner.status = False  # an empty clause, as pysat's own add_clause records it


def _append_atmost(solver: Any, constraints: list[tuple[Sequence[int], int]]) -> None:
    """Load native "at most k of lits" constraints (the solver takes them: ``supports_atmost``),
    through the C entry point where :data:`_DIRECT_ATMOST` names one, else ``add_atmost``."""
    inner: Any = getattr(solver, "solver", None)
    direct = _DIRECT_ATMOST.get(type(inner).__name__)
    handle = getattr(inner, direct[0], None) if direct else None
    if direct is None or handle is None:
        for lits, k in constraints:
            solver.add_atmost(list(lits), k)
        return
    from pysat.solvers import pysolvers

    add = getattr(pysolvers, direct[1])
    if False in [add(handle, lits, k) for lits, k in constraints]:
        inner.status = False  # unsatisfiable on loading, as pysat's own add_atmost records it


#: Whether a model's literal is true.
_POSITIVE = (0).__lt__


class PysatBackend(Backend):
    paradigm: ClassVar[str] = "sat"
    name: ClassVar[str] = "pysat"
    #: Takes a CnfModel's native cardinality constraints (on the solvers that support them; the
    #: others get their clauses, see :meth:`CnfModel.clausal`).
    native_cardinality: ClassVar[bool] = True

    def __init__(self, options, settings=None):
        super().__init__(options, settings)
        self.solver_name: str = self.settings.get("solver", DEFAULT_SOLVER)
        self._solver: Any = None  # a pysat Solver once built
        self._artifact: Any = None  # the built artefact (a CnfModel, or a plugin's own with its fields)
        self._engine: Any = None
        self._model: list[int] = []
        self._first_n: int | None = None
        self._lock = threading.Lock()
        self._sliced = False
        self._stop = False
        self._checks = 0
        self._first_check = 0.0
        self._figures: dict[str, Any] = {}

    @classmethod
    def supported(cls) -> bool:
        try:
            import pysat.solvers  # noqa: F401  (whether it imports is the answer)
        except ImportError:
            return False
        return True

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return None if cls.supported() else "python-sat is not installed (pip install python-sat)"

    @classmethod
    def unavailable_reason_for(cls, settings: Mapping[str, Any]) -> str | None:
        reason = cls.unavailable_reason()
        if reason:
            return reason
        from pysat.solvers import SolverNames

        name = settings.get("solver", DEFAULT_SOLVER)
        if not any(
            name == key or name in aliases
            for key, aliases in vars(SolverNames).items()
            if not key.startswith("_")
        ):
            return f"python-sat {cls.version()} has no solver {name!r}"
        return None

    @classmethod
    def version(cls) -> str:
        import pysat

        return f"python-sat {pysat.__version__}"

    @classmethod
    def solver_version(cls, settings: Mapping[str, Any]) -> str:
        return f"{settings.get('solver', DEFAULT_SOLVER)} ({cls.version()})"

    @classmethod
    def load(cls) -> None:
        import pysat.solvers  # noqa: F401  (the import is the point: not billed to the first solve)

    # -- the work -----------------------------------------------------------------------------
    def build(self, artifact: Any, deadline: float | None) -> None:
        from pysat.solvers import Solver

        if artifact.propagator is not None and self.solver_name != "cadical195":
            raise EncodingError(
                f"this encoding attaches an external propagator, which python-sat supports only on cadical195 "
                f"(got solver={self.solver_name!r})"
            )
        self._artifact = artifact
        self._solver = Solver(name=self.solver_name)
        self._sliced = type(getattr(self._solver, "solver", None)).__name__.startswith("Cadical")
        native = getattr(artifact, "native", None)
        if native and not self._solver.supports_atmost():
            artifact.clausal(f"solver={self.solver_name!r}")  # their clauses instead, or refused
            native = None
        _append(self._solver, artifact.clauses)
        if native:
            _append_atmost(self._solver, native)
        if not artifact.clauses:  # MapleSAT's binding crashes solving a formula with no variable
            self._solver.add_clause([artifact.pool.top + 1, -(artifact.pool.top + 1)])
        if artifact.propagator is not None:
            engine, observed = artifact.propagator()
            if hasattr(engine, "deadline"):  # a TimedPropagator ends the search at the deadline
                engine.deadline = deadline
            self._solver.connect_propagator(engine)
            for var in observed:
                self._solver.observe(var)
            self._engine = engine
        if deadline is not None and self.remaining(deadline) <= 0:
            self.timed_out = True

    def check(self, deadline: float | None) -> bool | None:
        self._checks += 1
        if self._checks == 1:
            self._first_check = time.process_time()
        escalation = getattr(self._artifact, "escalation", None)
        if (
            escalation is not None
            and self._checks > escalation[0]
            and "escalated_at" not in self._figures
            and time.process_time() - self._first_check >= getattr(self._artifact, "escalation_cpu", 0.0)
        ):
            self._escalate(escalation[1], deadline)
            if deadline is not None and self.remaining(deadline) <= 0:
                return None
        if self.solver_name in _NOT_INTERRUPTIBLE:
            outcome = self._solver.solve()
        elif self._sliced:
            outcome = self._sliced_check(deadline)
        else:
            outcome = self._solver.solve_limited(expect_interrupt=True)
            if outcome is None:
                self._solver.clear_interrupt()
        if getattr(self._engine, "gave_up", False):  # the propagator ended the search: unknown
            self.timed_out = True
            return None
        if outcome:
            self._model = self._solver.get_model() or []
        return outcome

    def _escalate(self, more: Any, deadline: float | None) -> None:
        """Add the escalation's clauses to the running solver, given the seconds left as its
        CPU allowance (CPU time runs no faster than the clock): the learnt clauses, the cuts and
        the blocking clauses added so far all stay."""
        left = self.remaining(deadline)
        start = time.process_time()
        clauses = more(float("inf") if left is None else left)
        _append(self._solver, [list(c) for c in clauses])
        self._figures.update(
            escalated_at=self._checks - 1,
            escalation_clauses=len(clauses),
            escalation_cpu=round(time.process_time() - start, 3),
        )

    def _sliced_check(self, deadline: float | None) -> bool | None:
        """CaDiCaL's answer, asked in slices of a conflict budget until it answers or the
        deadline passes (None then). The solver is incremental: a slice ends like a restart,
        keeping the learnt clauses. Without a deadline, one call without a budget."""
        solver = self._solver
        if deadline is None:
            return solver.solve_limited()
        self._stop = False
        budget = SLICE_FIRST
        start, done = time.perf_counter(), solver.accum_stats().get("conflicts", 0)
        while True:
            solver.conf_budget(budget)
            outcome = solver.solve_limited()
            left = self.remaining(deadline)
            if outcome is not None or self._stop or not left:
                return outcome
            rate = (solver.accum_stats().get("conflicts", 0) - done) / max(time.perf_counter() - start, 1e-3)
            budget = max(100, int(rate * min(SLICE_SECONDS, left)))

    def _ordered(self) -> int:
        """n when the decision variables are 1..n in the order of the decision cells (every
        default encoding numbers them so): the model's first n values are then theirs. 0 if not."""
        if self._first_n is None:
            decision = self._artifact.decision
            n = len(decision)
            self._first_n = n if list(decision.values()) == list(range(1, n + 1)) else 0
        return self._first_n

    def marked(self) -> frozenset[Cell]:
        model, size = self._model, len(self._model)
        n = self._ordered()
        if n and n <= size:
            return frozenset(compress(self._artifact.decision, map(_POSITIVE, model[:n])))
        return frozenset(
            cell for cell, v in self._artifact.decision.items() if v <= size and model[v - 1] > 0
        )

    def block(self, cells: frozenset[Cell], decision: Sequence[Cell]) -> None:
        """Some decision cell differs from the answer just read (``marked``): the model's
        literals on the decision variables, negated."""
        model, size = self._model, len(self._model)
        n = self._ordered()
        if n and n <= size and len(decision) == n:
            self._solver.add_clause([-x for x in model[:n]])
        else:
            super().block(cells, decision)

    def add_clause(self, clause: CellClause) -> None:
        var = self._artifact.decision
        self._solver.add_clause([var[cell] if positive else -var[cell] for cell, positive in clause])

    def interrupt(self) -> None:
        with self._lock:
            if self._solver is None or self.solver_name in _NOT_INTERRUPTIBLE:
                return
            if self._sliced:
                self._stop = True  # the slice running ends by its budget; no next slice
            else:
                self._solver.interrupt()

    # -- figures ------------------------------------------------------------------------------
    def size(self) -> dict[str, int]:
        art = self._artifact
        if art is None:
            return {}
        out = {
            "variables": art.pool.top,
            "clauses": len(art.clauses),
            "literals": sum(map(len, art.clauses)),
        }
        native = getattr(art, "native", None)
        if native:
            out["cardinality"] = len(native)  # native "at most k" constraints loaded
        return out

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
        out: dict[str, Any] = {"solver": self.solver_name}
        out.update(self._figures)
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
