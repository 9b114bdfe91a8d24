"""The SMT backend: z3's Python API, in process, one context per puzzle.

The ``logic`` option picks the solver: ``auto`` (default) takes the logic the encoding names
(``SmtModel.logic``; QF_FD when it names none), ``default`` is z3's own strategy selection,
``QF_FD`` / ``QF_LIA`` force a solver for that logic.

z3's own timeout is soft (checked between steps), so each check gets the ``timeout``
parameter (the milliseconds left) and the harness's watchdog interrupts the context at the
deadline; an ``unknown`` answer means the deadline was reached. The harness owns enumeration and
lazy cuts; this adapter turns cell literals into disjunctions of the decision Booleans. An
artefact's ``escalation`` (``SmtModel.escalation``: a number of checks and the terms to add then,
made within the time left) is asserted into the running solver when the loop reaches that many
checks, so that what z3 learnt and every cut stay.
"""

from __future__ import annotations

import importlib.util
from typing import Any, ClassVar

from ..encodings.base import CellClause, Option
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
            "logic",
            "auto",
            LOGICS,
            "z3 solver: auto (the encoding's logic, else QF_FD), default strategy, or SolverFor(QF_FD / QF_LIA)",
        ),
        Option("seed", 0, description="z3 random seed (smt.random_seed and sat.random_seed)"),
    )

    def __init__(self, options, settings=None):
        super().__init__(options, settings)
        self._artifact: Any = None
        self._solver: Any = None
        self._checks = 0
        self._model: Any = None
        self._logic: str | None = None
        self._assertions = 0
        #: Each decision cell's literal and its negation as raw ASTs (their BoolRefs kept alive in
        #: ``_negations``), so that a cut costs a few C calls rather than a Python term per literal.
        self._lits: dict[Cell, tuple[Any, Any]] = {}
        #: The same keyed by a clause's literal, (cell, True) or (cell, False).
        self._literal: dict[tuple[Cell, bool], Any] = {}
        self._negations: list[Any] = []
        #: Each decision cell's declaration, read from the model by one C call per cell.
        self._decls: list[tuple[Cell, Any]] = []
        self._true: int | None = None
        self._false: int | None = None
        #: Whether the solver's ``timeout`` parameter is set (once: see :meth:`check`).
        self._timeout_set = False
        self._extra: dict[str, Any] = {}

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
        self._negations = [artifact.neg(var) for var in artifact.decision.values()]
        self._lits = {
            cell: (var.as_ast(), neg.as_ast())
            for (cell, var), neg in zip(artifact.decision.items(), self._negations)
        }
        self._literal = {
            (cell, positive): pair[0 if positive else 1]
            for cell, pair in self._lits.items()
            for positive in (True, False)
        }
        self._decls = [
            (cell, z3.Z3_get_app_decl(ref, var.as_ast())) for cell, var in artifact.decision.items()
        ]
        # z3 shares its terms: a model's value "true" is this very AST.
        self._true, self._false = (z3.BoolVal(value, ctx).as_ast().value for value in (True, False))
        if self.remaining(deadline) == 0.0:
            self.timed_out = True

    def check(self, deadline: float | None) -> bool | None:
        import z3

        self._checks += 1
        escalation = getattr(self._artifact, "escalation", None)
        if escalation is not None and self._checks > escalation[0] and "escalated_at" not in self._extra:
            self._escalate(escalation[1], self.remaining(deadline))
        left = self.remaining(deadline)
        if left is not None:
            if left <= 0:
                return None
            # Once: a check never outlasts the time left at the first one, and the harness's
            # watchdog interrupts at the deadline. Setting parameters before every check re-reads
            # them into the SAT core each time (and re-seeds its random generator), a cost on
            # boards that take thousands of lazy rounds.
            if not self._timeout_set:
                self._solver.set("timeout", max(1, int(left * 1000)))
                self._timeout_set = True
        outcome = self._solver.check()
        if outcome == z3.sat:
            self._model = self._uncompacted_model()
            return True
        return False if outcome == z3.unsat else None

    def _uncompacted_model(self) -> Any:
        """The solver's model without z3's compaction (``model.compact``, read from the global
        parameters only), restored right after. Compaction rewrites the whole model, every
        auxiliary Boolean included (once a board's levels are added, most of each round's model
        time); the harness reads the decision cells only."""
        import z3

        previous = z3.get_param("model.compact")
        z3.set_param("model.compact", False)
        try:
            return self._solver.model()
        finally:
            z3.set_param("model.compact", previous)

    def _escalate(self, more: Any, left: float | None) -> None:
        """Assert the escalation's terms (made within ``left`` seconds) into the running solver:
        its learnt clauses, the cuts and the blocking clauses added so far all stay."""
        import z3

        ref, handle = self._artifact.ctx.ref(), self._solver.solver
        for term in more(left):
            z3.Z3_solver_assert(ref, handle, term.as_ast())
        self._extra["escalated_at"] = self._checks - 1

    def marked(self) -> frozenset[Cell]:
        import z3

        # One raw C call per cell: the value the model gives the cell's declaration, compared with
        # the term "true" (Model.eval wraps and re-checks each value, dear on a 100x100 board, and
        # Z3_model_eval sets up an evaluation per call); a decision Boolean the model
        # leaves open reads as unmarked, as with model completion.
        ref, handle = self._artifact.ctx.ref(), self._model.model
        interp, true, false = _raw("Z3_model_get_const_interp"), self._true, self._false
        marked = []
        for cell, decl in self._decls:
            value = interp(ref, handle, decl).value
            if value == true:
                marked.append(cell)
            elif value is not None and value != false:
                # a term rather than a value (an uncompacted model): evaluated with completion
                if z3.is_true(self._model.eval(self._artifact.decision[cell], True)):
                    marked.append(cell)
        return frozenset(marked)

    def add_clause(self, clause: CellClause) -> None:
        from z3.z3types import Ast

        # Built from the decision literals' ASTs made once at build time, by raw C calls: a
        # blocking clause holds every decision cell, and a round of lazy cuts tens of thousands of
        # literals (z3.Or coerces each argument, a fresh Not per literal costs its Python wrapping,
        # and each checked call its error check); an empty clause is False.
        art = self._artifact
        asts = list(map(self._literal.__getitem__, clause))
        ref, handle = art.ctx.ref(), self._solver.solver
        assert_ = _raw("Z3_solver_assert")
        if len(asts) == 1:
            assert_(ref, handle, asts[0])
        elif asts:
            # The solver holds the new disjunction from here on (reference counts are its own).
            assert_(ref, handle, _raw("Z3_mk_or")(ref, len(asts), (Ast * len(asts))(*asts)))
        else:
            assert_(ref, handle, art.any([]).as_ast())
        _check(ref)

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
            "bool_vars": len(art.bools) + getattr(art, "text_bools", 0),
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
        rest: dict[str, Any] = {k: v for k, v in self._stats().items() if k not in _SEARCH_KEYS}
        rest["checks"] = self._checks
        rest.update(self._extra)
        rest["logic"] = self._logic or self.options.get("logic", "auto")
        return rest

    def close(self) -> None:
        self._model = None
        self._solver = None
        self._artifact = None
        self._lits, self._literal, self._negations, self._decls = {}, {}, [], []


def _check(ref: Any) -> None:
    """Raise z3's error, if any, after raw C calls (the checked wrappers test after every call)."""
    import z3

    z3.z3core.Z3_get_error_code.__defaults__[-1].Check(ref)


def _raw(name: str) -> Any:
    """z3's C function ``name`` without its Python wrapper's error check (each generated wrapper
    keeps the ctypes function as its last default argument)."""
    import z3

    return getattr(z3.z3core, name).__defaults__[-1].f
