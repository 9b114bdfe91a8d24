"""The SMT backend: z3's Python API, in process, one context per puzzle.

The ``logic`` option picks the solver: ``auto`` (default) takes the logic the encoding names
(``SmtModel.logic``; QF_FD when it names none), ``default`` is z3's own strategy selection,
``QF_FD`` / ``QF_LIA`` force a solver for that logic.

z3's own timeout is soft (checked between steps), so the search gets both the ``timeout``
parameter (the milliseconds left) and a :class:`threading.Timer` that interrupts the context at
the deadline; an ``unknown`` answer then means the deadline was reached. Enumeration adds one
blocking clause over the decision Booleans after each answer, and stops with ``exhausted`` when
the solver answers ``unsat``. Encodings with a ``refine`` hook (lazy rules) are solved in a loop:
a candidate the hook cuts off is not an answer; its cuts are added and the solver runs again.
"""

from __future__ import annotations

import importlib.util
import threading
from typing import Any, ClassVar, Iterator

from ..encodings.base import Option
from ..model import Cell
from .base import Backend

#: Values of the ``logic`` option: the encoding's choice, z3's default strategy, or one logic.
LOGICS: tuple[str, ...] = ("auto", "default", "QF_FD", "QF_LIA")
#: What ``auto`` means for an encoding that names no logic.
FALLBACK_LOGIC = "QF_FD"
#: z3 statistics names mapped onto the normalised search keys (the SAT core's and the SMT core's).
_SEARCH_KEYS: dict[str, str] = {
    "sat decisions": "choices",
    "decisions": "choices",
    "sat conflicts": "conflicts",
    "conflicts": "conflicts",
    "sat propagations 2ary": "propagations",
    "sat propagations 3ary": "propagations",
    "sat propagations nary": "propagations",
    "propagations": "propagations",
    "sat restarts": "restarts",
    "restarts": "restarts",
}


class Z3Backend(Backend):
    """z3 behind the common interface: check, block, check again."""

    paradigm: ClassVar[str] = "smt"
    name: ClassVar[str] = "z3"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "logic", "auto", LOGICS,
            "z3 solver: auto (the encoding's logic, else QF_FD), default strategy, or SolverFor(QF_FD / QF_LIA)",
        ),
        Option("seed", 0, description="z3 random seed (smt.random_seed and sat.random_seed)"),
    )

    def __init__(self, options):
        super().__init__(options)
        self._artifact: Any = None
        self._solver: Any = None
        self._checks = 0
        self._cuts = 0
        self._logic: str | None = None
        self._assertions = 0

    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("z3") is not None

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return None if cls.supported() else "z3 is not installed (pip install z3-solver)"

    @classmethod
    def version(cls) -> str:
        import z3

        return z3.get_version_string()

    # -- the work -------------------------------------------------------------------------------
    def build(self, artifact: Any, deadline: float | None) -> None:
        """Create the solver in the artefact's context and add its assertions."""
        import z3

        self._artifact = artifact
        ctx = artifact.ctx
        logic = self.options.get("logic", "auto")
        if logic not in LOGICS:
            raise ValueError(f"unknown z3 logic {logic!r} (choose from {', '.join(LOGICS)})")
        if logic == "auto":
            logic = getattr(artifact, "logic", None) or FALLBACK_LOGIC
        self._logic = logic
        solver = z3.Solver(ctx=ctx) if logic == "default" else z3.SolverFor(logic, ctx=ctx)
        seed = int(self.options.get("seed", 0))
        solver.set("random_seed", seed)
        # Assert through the C API: Solver.add re-checks every term, a cost on large models.
        ref, handle = ctx.ref(), solver.solver
        for term in artifact.assertions:
            if isinstance(term, z3.BoolRef):
                z3.Z3_solver_assert(ref, handle, term.as_ast())
            else:
                solver.add(term)  # a Python bool or a probe: let z3 coerce it
        self._assertions = len(artifact.assertions)
        self._solver = solver
        if self.remaining(deadline) == 0.0:
            self.timed_out = True

    def solutions(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        import z3

        assert self._solver is not None, "build() first"
        solver, decision = self._solver, self._artifact.decision
        refine = getattr(self._artifact, "refine", None)
        found = 0
        while not limit or found < limit:
            outcome = self._check(deadline)
            if outcome == z3.unsat:
                self.exhausted = True
                return
            if outcome != z3.sat:
                self.timed_out = True
                return
            model = solver.model()
            marked = frozenset(
                cell for cell, var in decision.items() if z3.is_true(model.eval(var, model_completion=True))
            )
            if refine is not None:
                cuts = refine(marked)
                if cuts:
                    # Lazy rule: the candidate breaks it; add the cuts and search again.
                    self._cuts += len(cuts)
                    solver.add(cuts)
                    continue
            found += 1
            yield marked
            # Block this answer on the decision cells only, so auxiliaries never multiply counts.
            block = [z3.Not(var) if cell in marked else var for cell, var in decision.items()]
            solver.add(z3.Or(block) if block else z3.BoolVal(False, self._artifact.ctx))

    def _check(self, deadline: float | None) -> Any:
        """One ``check()`` bounded by the deadline: z3's soft timeout plus a hard interrupt.

        An interrupt leaves the context cancelled (later calls in it may fail), so once the timer
        has fired the outcome is ``unknown`` whatever ``check()`` returned; a lock keeps the timer
        from firing after the check has been declared over.
        """
        import z3

        self._checks += 1
        left = self.remaining(deadline)
        if left is None:
            return self._solver.check()
        if left <= 0:
            return z3.unknown
        self._solver.set("timeout", max(1, int(left * 1000)))
        lock = threading.Lock()
        state = {"over": False, "fired": False}

        def ring() -> None:
            with lock:
                if state["over"]:
                    return
                state["fired"] = True
                self.interrupt()

        timer = threading.Timer(left, ring)
        timer.daemon = True
        timer.start()
        try:
            outcome = self._solver.check()
        finally:
            with lock:
                state["over"] = True
            timer.cancel()
        return z3.unknown if state["fired"] else outcome

    def interrupt(self) -> None:
        if self._artifact is not None:
            self._artifact.ctx.interrupt()

    # -- figures --------------------------------------------------------------------------------
    def size(self) -> dict[str, int]:
        if self._solver is None:
            return {}
        art = self._artifact
        # The encoding's assertions as built (refinement cuts and blocking clauses not included).
        return {
            "assertions": self._assertions,
            "bool_vars": len(art.bools),
            "int_vars": len(art.ints),
        }

    def _stats(self) -> dict[str, float]:
        if self._solver is None:
            return {}
        stats = self._solver.statistics()
        return {key: stats.get_key_value(key) for key in stats.keys()}

    def search(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for key, value in self._stats().items():
            norm = _SEARCH_KEYS.get(key)
            if norm is not None:
                out[norm] = out.get(norm, 0) + value
        return out

    def extra(self) -> dict[str, Any]:
        rest = {k: v for k, v in self._stats().items() if k not in _SEARCH_KEYS}
        rest["checks"] = self._checks
        rest["refinement_cuts"] = self._cuts
        rest["logic"] = self._logic or self.options.get("logic", "auto")
        return rest

    def close(self) -> None:
        # A lazy rule's refine hook closes over the model that holds it: break that cycle, or
        # every z3 term of the model waits for a full collection (billed to a later run).
        if getattr(self._artifact, "refine", None) is not None:
            self._artifact.refine = None
        self._solver = None
        self._artifact = None
