"""OR-Tools CP-SAT behind the backend interface (paradigm ``cp``).

Enumeration blocks on the decision Booleans only, in one of two ways (backend option
``enumeration``):

* ``resolve`` — solve, report the answer, add a clause excluding its decision assignment
  (``AddBoolOr`` over the negated decision literals), solve again; INFEASIBLE proves the list
  complete. Correct whatever auxiliary variables the encoding has.
* ``callback`` — one search with ``enumerate_all_solutions`` and a solution callback. Only
  sound when every variable is determined by the decisions (the artefact's ``functional``);
  otherwise auxiliary variables would multiply the count, so it is refused.

``auto`` picks ``callback`` for functional encodings without lazy rules, else ``resolve``.
In ``resolve`` mode the harness owns the loop (blocking clauses and lazy cuts come back here as
cell literals); ``callback`` is this backend's native enumeration. An artefact with an
``escalation`` is swapped for its larger model after that many searches of the loop, with the
clauses added so far (a lazy encoding that needs hundreds of cheap rounds then gets the model
that needs a few), or once the loop has taken the artefact's ``escalation_time`` CPU seconds
(searches and cuts). An artefact with ``carry_fixings`` gets, before its first search, one CP-SAT
run stopped after the root propagation and probing, and every variable that run fixed is fixed
in the model for the searches that follow (CP-SAT would re-derive them in each).

CP-SAT runs single-threaded unless ``num_workers`` says otherwise (comparable measurements);
the harness's deadline becomes ``max_time_in_seconds`` of each search.
"""

from __future__ import annotations

import importlib.util
import queue
import threading
import time
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, ClassVar

from ..encodings.base import CellClause, Option
from ..errors import EncodingError
from ..model import Cell
from .base import Backend

_ENUMERATION = ("auto", "resolve", "callback")


class CpSatBackend(Backend):
    """CP-SAT (``ortools.sat.python.cp_model``) solving a :class:`CpModelArtifact`."""

    paradigm: ClassVar[str] = "cp"
    name: ClassVar[str] = "cpsat"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "num_workers",
            1,
            description="CP-SAT search workers (1 = single-threaded, comparable across "
            "paradigms; 0 = CP-SAT's choice)",
        ),
        Option("seed", 0, description="CP-SAT random_seed"),
        Option("presolve", True, description="run CP-SAT's presolve"),
        Option(
            "hints",
            True,
            description="in resolve mode, hint each search with the previous candidate's "
            "decision values (AddHint): after a lazy cut or a blocking clause the next search starts "
            "from the last answer instead of from scratch",
        ),
        Option(
            "enumeration",
            "auto",
            _ENUMERATION,
            "resolve (block each answer and search again), callback (one search enumerating all "
            "solutions; functional encodings only), auto (callback when sound, else resolve)",
        ),
    )

    def __init__(self, options, settings=None):
        super().__init__(options, settings)
        self._artifact: Any = None
        self._solver: Any = None
        self._cells: list[Cell] = []
        self._indices: list[int] = []
        self._size: dict[str, int] = {}
        self._search: dict[str, float] = {"choices": 0, "conflicts": 0, "propagations": 0, "restarts": 0}
        self._extra: dict[str, Any] = {"wall_time": 0.0, "solves": 0}
        self._stop = threading.Event()
        self._last: list[int] | None = None  # the previous candidate's decision values (for hints)
        self._clauses: list[CellClause] = []  # every clause added (kept for an escalation)
        self._user_time = 0.0  # CP-SAT's user_time summed over the searches so far
        self._fixed = False  # the root fixings of the model searched are in it (carry_fixings)
        self._fixed_at = 0  # the search count when the last root fixings were taken
        self._unfixed: dict[str, Any] = {}  # the parameters fixed_parameters replaced
        self._first_check: float | None = None  # the process's CPU clock at the first search

    # -- availability -------------------------------------------------------------------------
    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("ortools") is not None

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return None if cls.supported() else "ortools is not installed (pip install ortools)"

    @classmethod
    def version(cls) -> str:
        import ortools

        return ortools.__version__  # type: ignore[attr-defined]  # not in ortools's py.typed

    # -- the work -----------------------------------------------------------------------------
    def build(self, artifact: Any, deadline: float | None) -> None:
        """Take the encoding's model, record its size and configure the solver."""
        from ortools.sat.python import cp_model

        from ..encodings.cp.common import CpModelArtifact

        if not isinstance(artifact, CpModelArtifact):
            raise EncodingError(f"the cp backend needs a CpModelArtifact, got {type(artifact).__name__}")
        self._artifact = artifact
        self._cells = list(artifact.decision)
        self._take(artifact)
        proto = artifact.model.proto
        self._size = {"variables": len(proto.variables), "constraints": len(proto.constraints)}

        workers = int(self.options.get("num_workers", 1))
        if workers < 0:
            raise EncodingError(f"num_workers must be >= 1 (or 0 to let CP-SAT choose), got {workers}")
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = workers
        params.random_seed = int(self.options.get("seed", 0))
        if not self.options.get("presolve", True):
            params.cp_model_presolve = False
        for key, value in artifact.parameters.items():
            setattr(params, key, value)
        self._solver = solver
        self._extra["num_workers"] = params.num_workers
        if self.remaining(deadline) == 0.0:
            self.timed_out = True

    @classmethod
    def load(cls) -> None:
        from ortools.sat.python import cp_model  # noqa: F401  (the import is the point: not billed to the first solve)

    def native_enumeration(self) -> bool:
        mode = self._mode()
        self._extra["enumeration"] = mode
        return mode == "callback"

    def interrupt(self) -> None:
        self._stop.set()
        if self._solver is not None:
            self._solver.stop_search()

    def _mode(self) -> str:
        asked = self.options.get("enumeration", "auto")
        functional = self._artifact.functional
        if asked == "callback" and (not functional or self._artifact.lazy is not None):
            raise EncodingError(
                "enumeration=callback needs an encoding whose variables are all determined by its decision "
                "cells and which has no lazy rules; use enumeration=resolve"
            )
        if asked == "auto":
            return "callback" if functional and self._artifact.lazy is None else "resolve"
        return asked

    # -- resolve: the harness's loop; each check is a fresh CP-SAT search ---------------------
    def check(self, deadline: float | None) -> bool | None:
        from ortools.sat.python import cp_model

        solver = self._solver
        left = self.remaining(deadline)
        if left == 0.0 or self._stop.is_set():
            return None
        escalation = self._artifact.escalation
        if self._first_check is None:
            self._first_check = time.process_time()
        spent = self._artifact.escalation_time
        if escalation is not None and (
            self._extra["solves"] >= escalation[0]
            or (spent is not None and time.process_time() - self._first_check >= spent)
        ):
            self._artifact.escalation_left = left
            self._escalate(escalation[1])
            left = self.remaining(deadline)
            if left == 0.0 or self._stop.is_set():
                return None
        refix = self._artifact.refix_every
        if self._fixed and refix and self._extra["solves"] - self._fixed_at >= refix:
            self._fixed = False  # the cuts since the last root run imply more: take its fixings anew
        if self._artifact.carry_fixings and not self._fixed:
            solver.parameters.max_time_in_seconds = left if left is not None else float("inf")
            self._root_fixings()
            left = self.remaining(deadline)
            if left == 0.0 or self._stop.is_set():
                return None
        solver.parameters.max_time_in_seconds = left if left is not None else float("inf")
        model = self._artifact.model
        if self._last is not None and self.options.get("hints", True):
            # Start from the previous candidate: a lazy cut or a blocking clause usually changes
            # few cells of it, and CP-SAT keeps no learnt clauses between searches.
            # (written to the proto in bulk: add_hint per Boolean is a Python call per variable,
            # a noticeable share of a large board's solve)
            model.clear_hints()
            hint = model.proto.solution_hint
            hint.vars.extend(self._indices)
            hint.values.extend(self._last)
        status = solver.solve(model)
        self._record(solver)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            values = solver.response_proto.solution
            self._last = [values[i] for i in self._indices]
            return True
        if status == cp_model.INFEASIBLE:
            return False
        if status == cp_model.UNKNOWN:
            return None
        raise RuntimeError(f"CP-SAT returned {solver.status_name(status)}: {solver.solution_info()}")

    def marked(self) -> frozenset[Cell]:
        values = self._solver.response_proto.solution
        return frozenset(cell for cell, i in zip(self._cells, self._indices) if values[i])

    def add_clause(self, clause: CellClause) -> None:
        if self._artifact.escalation is not None:
            self._clauses.append(clause)
        var = self._artifact.decision
        self._artifact.model.add_bool_or([var[cell] if positive else ~var[cell] for cell, positive in clause])

    def _take(self, artifact: Any) -> None:
        """Search ``artifact``'s model: its decision Booleans in the order of ``_cells``."""
        self._artifact = artifact
        self._indices = [artifact.decision[cell].index for cell in self._cells]
        if min(self._indices, default=0) < 0:  # (their values are read by index from the response)
            raise EncodingError("a CP-SAT decision must be a Boolean variable, not a negated literal")

    def _escalate(self, build: Any) -> None:
        """Switch to the escalation's model, with every clause added to the current one."""
        artifact = build()
        if set(artifact.decision) != set(self._cells) or artifact.escalation is not None:
            raise EncodingError(
                "an escalation must have the same decision cells and no escalation of its own"
            )
        for key, value in artifact.parameters.items():
            setattr(self._solver.parameters, key, value)
        self._extra["escalated_at"] = self._extra["solves"]
        # CP-SAT's user_time over the searches before the switch
        self._extra["escalated_after"] = round(self._user_time, 3)
        self._extra.update(artifact.notes.get("escalation_stats", {}))  # (what the switch's build did)
        clauses, self._clauses = self._clauses, []
        self._take(artifact)
        self._fixed = False
        self._unfixed = {}
        for clause in clauses:
            self.add_clause(clause)

    def _root_fixings(self) -> None:
        """Fix in the model every variable CP-SAT fixes at the root (``carry_fixings``): one
        search stopped after the root propagation and probing, without hints."""
        from ortools.sat.python import cp_model

        solver, params = self._solver, self._solver.parameters
        for key, value in self._unfixed.items():
            setattr(params, key, value)  # (a later root run probes as the first did)
        # (a presolve must keep every answer, so that the domains it reports exclude none)
        keep = params.keep_all_feasible_solutions_in_presolve
        params.stop_after_root_propagation = params.fill_tightened_domains_in_response = True
        params.keep_all_feasible_solutions_in_presolve = True
        self._artifact.model.clear_hints()
        try:
            status = solver.solve(self._artifact.model)
        finally:
            params.stop_after_root_propagation = params.fill_tightened_domains_in_response = False
            params.keep_all_feasible_solutions_in_presolve = keep
        self._fixed = True
        self._fixed_at = self._extra["solves"]
        self._extra["root_runs"] = self._extra.get("root_runs", 0) + 1
        self._extra["root_fixings_time"] = round(
            self._extra.get("root_fixings_time", 0.0) + solver.response_proto.user_time, 3
        )
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT returned MODEL_INVALID: {solver.solution_info()}")
        if status not in (cp_model.UNKNOWN, cp_model.FEASIBLE, cp_model.OPTIMAL):
            return  # (infeasible at the root: the next search says so)
        variables = self._artifact.model.proto.variables
        response = solver.response_proto
        tightened = response.tightened_variables
        if len(tightened) != len(variables):
            return
        fixed = 0
        # (the repeated fields are read by position: they take no negative index, and copying each
        # of a switched model's domains to a list is dear on the largest boards)
        for var, domain in zip(variables, [v.domain for v in tightened]):
            lo = domain[0]
            if lo == domain[len(domain) - 1] and not (
                len(var.domain) == 2 and var.domain[0] == var.domain[1]
            ):
                var.domain.clear()
                var.domain.extend([lo, lo])
                fixed += 1
        self._extra["root_fixings"] = self._extra.get("root_fixings", 0) + fixed
        self._unfixed = {key: getattr(params, key) for key in self._artifact.fixed_parameters}
        for key, value in self._artifact.fixed_parameters.items():
            setattr(params, key, value)

    # -- callback: one search enumerating every solution (functional encodings only) -----------
    def enumerate(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        from ortools.sat.python import cp_model

        solver = self._solver
        left = self.remaining(deadline)
        if left == 0.0:
            self.timed_out = True
            return
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.max_time_in_seconds = left if left is not None else float("inf")
        answers: queue.Queue = queue.Queue()
        done = object()
        collector = _collector_class()(self._cells, self._indices, limit, answers)
        outcome: dict[str, Any] = {}

        def run() -> None:
            try:
                outcome["status"] = solver.solve(self._artifact.model, collector)
            except BaseException as exc:  # re-raised in the consuming thread
                outcome["error"] = exc
            finally:
                answers.put(done)

        worker = threading.Thread(target=run, name="cpsat-enumerate", daemon=True)
        worker.start()
        try:
            while (item := answers.get()) is not done:
                yield item
        finally:
            if worker.is_alive():  # the consumer stopped early: end the search before leaving
                solver.stop_search()
            worker.join()
            if "status" in outcome:
                self._record(solver)
        if "error" in outcome:
            raise outcome["error"]
        status = outcome["status"]
        if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            self.exhausted = True  # the search space was fully explored
        elif status == cp_model.FEASIBLE and not collector.reached_limit:
            self.timed_out = True
        elif status == cp_model.UNKNOWN:
            self.timed_out = True
        elif status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT returned MODEL_INVALID: {solver.solution_info()}")

    # -- statistics ---------------------------------------------------------------------------
    def _record(self, solver: Any) -> None:
        response = solver.response_proto
        self._search["choices"] += response.num_branches
        self._search["conflicts"] += response.num_conflicts
        self._search["propagations"] += response.num_binary_propagations + response.num_integer_propagations
        self._search["restarts"] += response.num_restarts
        self._extra["wall_time"] += response.wall_time
        self._user_time += response.user_time
        self._extra["solves"] += 1
        self._extra["num_booleans"] = max(self._extra.get("num_booleans", 0), response.num_booleans)
        self._extra["num_integers"] = max(self._extra.get("num_integers", 0), response.num_integers)

    def size(self) -> dict[str, int]:
        return dict(self._size)

    def search(self) -> dict[str, float]:
        return dict(self._search)

    def extra(self) -> dict[str, Any]:
        return dict(self._extra)

    def close(self) -> None:
        self._solver = None
        self._artifact = None


@lru_cache(maxsize=1)
def _collector_class() -> type:
    """The solution-callback class (defined on first use, so importing this module needs no ortools)."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        """Passes each answer's marked cells on; stops the search at the limit."""

        def __init__(self, cells: list[Cell], indices: list[int], limit: int, out: queue.Queue):
            super().__init__()
            self._cells, self._indices, self._limit, self._out = cells, indices, limit, out
            self.found = 0
            self.reached_limit = False

        def on_solution_callback(self) -> None:
            values = self.response_proto.solution
            self._out.put(frozenset(cell for cell, i in zip(self._cells, self._indices) if values[i]))
            self.found += 1
            if self._limit and self.found >= self._limit:
                self.reached_limit = True
                self.stop_search()

    return Collector
