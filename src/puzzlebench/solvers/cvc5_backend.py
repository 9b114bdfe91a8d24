"""The second SMT backend: cvc5's Python base API, in process, on the SMT encodings' z3 terms.

The SMT encodings build z3 assertions (:class:`~puzzlebench.encodings.smt.SmtModel`); this
backend hands the *same* assertions to cvc5, so that z3 and cvc5 answer one and the same
formula and any difference between them is the solver's.

How the z3 terms reach cvc5: a direct translator walks each z3 AST through z3's C API and
builds the cvc5 term of the same operator (:class:`Translator`, memoised per AST id, so a
subterm shared in z3 is shared in cvc5 and a variable stays one constant, named as in z3:
``black_3_4``). Why not SMT-LIB2, the field's exchange format: z3 prints its pseudo-Boolean
atoms, which every encoding writes by default (``card=pb``: ``PbEq``/``AtMost``/``AtLeast``),
as the z3-only ``((_ pbeq k c1 .. cn) ..)``, ``((_ at-most k) ..)`` and ``((_ at-least k) ..)``,
which cvc5's parser rejects, and a one-term sum as ``(+ t)``, which cvc5 rejects too (its ``+``
takes two or more); rewriting these takes an AST walk anyway, and printing plus parsing is no
faster than translating. The tests check the
translator against cvc5's own SMT-LIB2 parser on z3's printout of the ``card=sum`` encodings
(pure SMT-LIB): both give the same answers.

What changes on the way: each pseudo-Boolean atom becomes the linear constraint it denotes,
``sum(ite(b_i, c_i, 0)) <rel> k`` (cvc5 has no pseudo-Boolean atoms, so ``card=pb`` and
``card=sum`` reach cvc5 as the very same formula), and a one-argument ``and`` /
``or`` / ``+`` is its argument (cvc5 wants two). Nothing else is rewritten; an operator outside
the encodings' repertoire (Boolean connectives, ``=``, ``distinct``, ``ite``, integer ``+ - *``
and comparisons, pseudo-Boolean atoms, Bool/Int constants) raises :class:`EncodingError`.

Logic (``logic`` option): ``auto`` takes the encoding's ``SmtModel.logic`` unless it is
z3-only (``QF_FD``), else QF_LIA when the formula has integers (pseudo-Boolean atoms included),
else QF_UF. The solver is incremental (``incremental``, ``produce-models``): blocking clauses and
lazy cuts are asserted into it and ``checkSat()`` asked again.

Deadlines: cvc5's API has no asynchronous interrupt, and ``checkSat()`` keeps Python's GIL, so
the harness's watchdog cannot even run during a check. Each check therefore gets the time left
as cvc5's per-check limit ``tlimit-per`` (milliseconds); an ``unknown`` answer means stopped
(None). The limit is polled by the search, not by preprocessing: the first check of a large
board may overrun it by its preprocessing time.
:meth:`Cvc5Backend.interrupt` is best effort: it makes every later check answer None at once.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..encodings.base import CellClause, Option
from ..errors import EncodingError
from ..model import Cell
from .base import Backend

#: Values of the ``logic`` option: the encoding's (or the formula's) logic, or one logic.
LOGICS: tuple[str, ...] = ("auto", "QF_LIA", "ALL")
#: Logics an encoding may name that only z3 knows; ``auto`` then decides from the formula.
_Z3_ONLY_LOGICS: frozenset[str] = frozenset({"QF_FD"})
#: cvc5 statistics (internal ones) mapped onto the normalised search keys. MiniSat's ``starts``
#: counts every search start, the first of each check included.
_SEARCH_KEYS: dict[str, str] = {
    "sat::decisions": "choices",
    "sat::conflicts": "conflicts",
    "sat::propagations": "propagations",
    "sat::starts": "restarts",
}
#: How many assertions are translated between two looks at the clock.
_CLOCK_EVERY = 64


class Translator:
    """z3 ASTs of one context -> cvc5 terms of one term manager, memoised per z3 AST id.

    The memo also keeps variables unique: z3 hash-conses a constant, so every occurrence of
    ``black_3_4`` has one AST id and becomes one cvc5 constant (cvc5's ``mkConst`` would make
    a new one at each call). Ids are stable while the ASTs live, which the artefact ensures.
    """

    def __init__(self, ctx: Any, tm: Any):
        import cvc5
        import z3

        self._z3 = z3
        self._kinds = cvc5.Kind
        self._ref = ctx.ref()
        self._tm = tm
        self._memo: dict[int, Any] = {}
        self._bool = tm.getBooleanSort()
        self._int = tm.getIntegerSort()
        self._zero = tm.mkInteger(0)
        K = cvc5.Kind
        #: z3 operators that map one to one onto a cvc5 kind.
        self._direct: dict[int, Any] = {
            z3.Z3_OP_AND: K.AND,
            z3.Z3_OP_OR: K.OR,
            z3.Z3_OP_NOT: K.NOT,
            z3.Z3_OP_IMPLIES: K.IMPLIES,
            z3.Z3_OP_XOR: K.XOR,
            z3.Z3_OP_EQ: K.EQUAL,
            z3.Z3_OP_IFF: K.EQUAL,
            z3.Z3_OP_DISTINCT: K.DISTINCT,
            z3.Z3_OP_ITE: K.ITE,
            z3.Z3_OP_ADD: K.ADD,
            z3.Z3_OP_SUB: K.SUB,
            z3.Z3_OP_UMINUS: K.NEG,
            z3.Z3_OP_MUL: K.MULT,
            z3.Z3_OP_LE: K.LEQ,
            z3.Z3_OP_LT: K.LT,
            z3.Z3_OP_GE: K.GEQ,
            z3.Z3_OP_GT: K.GT,
        }
        #: What an n-ary operator with no argument means (z3 allows it, cvc5 does not).
        self._empty: dict[int, Any] = {
            z3.Z3_OP_AND: tm.mkTrue(),
            z3.Z3_OP_OR: tm.mkFalse(),
            z3.Z3_OP_ADD: self._zero,
        }
        self._unary_is_arg = frozenset({z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_ADD, z3.Z3_OP_MUL})
        #: Pseudo-Boolean atoms: the relation of their sum to the bound.
        self._pb: dict[int, Any] = {
            z3.Z3_OP_PB_EQ: K.EQUAL,
            z3.Z3_OP_PB_LE: K.LEQ,
            z3.Z3_OP_PB_GE: K.GEQ,
            z3.Z3_OP_PB_AT_MOST: K.LEQ,
            z3.Z3_OP_PB_AT_LEAST: K.GEQ,
        }
        self._cardinality = frozenset({z3.Z3_OP_PB_AT_MOST, z3.Z3_OP_PB_AT_LEAST})  # all weights 1
        #: Whether the formula has integer terms (for the ``auto`` logic).
        self.arithmetic = False
        #: Pseudo-Boolean atoms rewritten as sums of ite terms.
        self.pb_atoms = 0

    @property
    def terms(self) -> int:
        """Distinct z3 ASTs translated so far."""
        return len(self._memo)

    def term(self, expr: Any) -> Any:
        """The cvc5 term of a z3 expression (a Python bool is the Boolean constant)."""
        if isinstance(expr, bool):
            return self._tm.mkBoolean(expr)
        return self._translate(expr.as_ast())

    def _translate(self, root: Any) -> Any:
        z3, ref, memo = self._z3, self._ref, self._memo
        root_id = z3.Z3_get_ast_id(ref, root)
        done = memo.get(root_id)
        if done is not None:
            return done
        # Post-order walk with an explicit stack: a sum built with Python's sum() nests one
        # level per term, deeper than Python's recursion limit on a large board.
        stack: list[tuple[Any, int, list[int] | None]] = [(root, root_id, None)]
        while stack:
            ast, ast_id, kids = stack[-1]
            if ast_id in memo:  # reached twice before its first visit finished
                stack.pop()
                continue
            if kids is None:
                if z3.Z3_get_ast_kind(ref, ast) not in (z3.Z3_APP_AST, z3.Z3_NUMERAL_AST):
                    raise EncodingError(
                        f"cvc5 backend: cannot translate z3 term {self._show(ast)} (not an application)"
                    )
                args = [z3.Z3_get_app_arg(ref, ast, i) for i in range(z3.Z3_get_app_num_args(ref, ast))]
                kids = [z3.Z3_get_ast_id(ref, a) for a in args]
                stack[-1] = (ast, ast_id, kids)
                stack.extend((a, i, None) for a, i in zip(args, kids) if i not in memo)
                continue
            stack.pop()
            memo[ast_id] = self._make(ast, [memo[i] for i in kids])
        return memo[root_id]

    def _make(self, ast: Any, args: Sequence[Any]) -> Any:
        """The cvc5 term of one z3 application whose arguments are already translated."""
        z3, ref, tm = self._z3, self._ref, self._tm
        decl = z3.Z3_get_app_decl(ref, ast)
        op = z3.Z3_get_decl_kind(ref, decl)
        kind = self._direct.get(op)
        if kind is not None:
            if not args and op in self._empty:
                return self._empty[op]
            if len(args) == 1 and op in self._unary_is_arg:
                return args[0]
            if op in (z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_MUL, z3.Z3_OP_UMINUS):
                self.arithmetic = True
            return tm.mkTerm(kind, *args)
        if op == z3.Z3_OP_TRUE:
            return tm.mkTrue()
        if op == z3.Z3_OP_FALSE:
            return tm.mkFalse()
        if op == z3.Z3_OP_ANUM:
            if z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, ast)) != z3.Z3_INT_SORT:
                raise EncodingError(
                    f"cvc5 backend: only integer numerals are translated, not {self._show(ast)}"
                )
            self.arithmetic = True
            return tm.mkInteger(int(z3.Z3_get_numeral_string(ref, ast)))
        if op == z3.Z3_OP_UNINTERPRETED and not args:
            return self._constant(ast, decl)
        relation = self._pb.get(op)
        if relation is not None:
            return self._pseudo_boolean(decl, op, relation, args)
        raise EncodingError(
            f"cvc5 backend: z3 operator {z3.Z3_get_symbol_string(ref, z3.Z3_get_decl_name(ref, decl))!r} "
            f"is not translated (in {self._show(ast)})"
        )

    def _constant(self, ast: Any, decl: Any) -> Any:
        """A free Bool or Int constant, named as in z3."""
        z3, ref = self._z3, self._ref
        name = z3.Z3_get_symbol_string(ref, z3.Z3_get_decl_name(ref, decl))
        sort = z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, ast))
        if sort == z3.Z3_BOOL_SORT:
            return self._tm.mkConst(self._bool, name)
        if sort == z3.Z3_INT_SORT:
            self.arithmetic = True
            return self._tm.mkConst(self._int, name)
        raise EncodingError(f"cvc5 backend: variable {name!r} has a sort other than Bool or Int")

    def _pseudo_boolean(self, decl: Any, op: int, relation: Any, args: Sequence[Any]) -> Any:
        """``sum(ite(b_i, c_i, 0)) <relation> k``: z3's parameters are k, then the weights."""
        z3, ref, tm = self._z3, self._ref, self._tm
        bound = z3.Z3_get_decl_int_parameter(ref, decl, 0)
        if op in self._cardinality:
            weights = [1] * len(args)
        else:
            weights = [z3.Z3_get_decl_int_parameter(ref, decl, i + 1) for i in range(len(args))]
        one = tm.mkInteger(1)
        parts = [
            tm.mkTerm(self._kinds.ITE, arg, one if w == 1 else tm.mkInteger(w), self._zero)
            for arg, w in zip(args, weights)
        ]
        total = (
            self._zero if not parts else parts[0] if len(parts) == 1 else tm.mkTerm(self._kinds.ADD, *parts)
        )
        self.arithmetic = True
        self.pb_atoms += 1
        return tm.mkTerm(relation, total, tm.mkInteger(bound))

    def _show(self, ast: Any, limit: int = 80) -> str:
        text = self._z3.Z3_ast_to_string(self._ref, ast)
        return text if len(text) <= limit else text[: limit - 3] + "..."


def _make_solver() -> tuple[Any, Any]:
    """A (term factory, solver) pair: cvc5 >= 1.2 has a TermManager, 1.1 builds terms on the solver."""
    import cvc5

    if hasattr(cvc5, "TermManager"):
        tm = cvc5.TermManager()
        return tm, cvc5.Solver(tm)
    solver = cvc5.Solver()
    return solver, solver


@functools.lru_cache(maxsize=1)
def _version() -> str:
    """cvc5's own version string (asked once: it takes a solver instance)."""
    _, solver = _make_solver()
    version = solver.getVersion()
    return version.decode() if isinstance(version, bytes) else str(version)


class Cvc5Backend(Backend):
    """cvc5 behind the common interface: check, block (or cut), check again, on z3's formula."""

    paradigm: ClassVar[str] = "smt"
    name: ClassVar[str] = "cvc5"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "logic",
            "auto",
            LOGICS,
            "cvc5 logic: auto (the encoding's, unless z3-only; else QF_LIA with integers, QF_UF without), or one logic",
        ),
        Option("seed", 0, description="cvc5 random seed (seed and sat-random-seed)"),
    )

    def __init__(self, options: Mapping[str, Any], settings: Mapping[str, Any] | None = None):
        super().__init__(options, settings)
        self._artifact: Any = None
        self._tm: Any = None
        self._solver: Any = None
        self._decision: dict[Cell, Any] = {}
        self._negated: dict[Cell, Any] = {}
        self._logic: str | None = None
        self._limited = False  # whether tlimit-per is set (to clear it for an unbounded check)
        self._stopped = False
        self._checks = 0
        self._clauses = 0
        self._unknown: str | None = None
        self._figures: dict[str, Any] = {}
        self._translator: Any = None

    # -- availability ---------------------------------------------------------------------------
    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("cvc5") is not None

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return None if cls.supported() else "cvc5 is not installed (pip install cvc5)"

    @classmethod
    def version(cls) -> str:
        return _version()

    @classmethod
    def load(cls) -> None:
        import cvc5  # noqa: F401  (the import is the point: not billed to the first solve)
        import z3  # noqa: F401  (likewise)

    # -- the work -------------------------------------------------------------------------------
    def build(self, artifact: Any, deadline: float | None) -> None:
        """Translate the artefact's assertions and decision Booleans, then assert them."""
        logic = self.options.get("logic", "auto")
        if logic not in LOGICS:
            raise EncodingError(f"unknown cvc5 logic {logic!r} (choose from {', '.join(LOGICS)})")
        self._artifact = artifact
        started = time.perf_counter()
        tm, solver = _make_solver()
        translator = Translator(artifact.ctx, tm)
        formulas = []
        for i, expr in enumerate(artifact.assertions):
            if i % _CLOCK_EVERY == 0 and self.remaining(deadline) == 0.0:
                self.timed_out = True
                return
            formulas.append(translator.term(expr))
        self._decision = {cell: translator.term(var) for cell, var in artifact.decision.items()}
        if logic == "auto":
            named = getattr(artifact, "logic", None)
            if named and named not in _Z3_ONLY_LOGICS:
                logic = named
            else:
                logic = "QF_LIA" if translator.arithmetic else "QF_UF"
        self._logic = logic
        seed = str(int(self.options.get("seed", 0)))
        for option, value in (
            ("incremental", "true"),
            ("produce-models", "true"),
            ("seed", seed),
            ("sat-random-seed", seed),
        ):
            solver.setOption(option, value)
        solver.setLogic(logic)
        for formula in formulas:
            solver.assertFormula(formula)
        self._tm, self._solver, self._translator = tm, solver, translator
        self._figures = {
            "translate_s": time.perf_counter() - started,
            "translated_terms": translator.terms,
            "pb_atoms_as_sums": translator.pb_atoms,
        }
        if self.remaining(deadline) == 0.0:
            self.timed_out = True

    def check(self, deadline: float | None) -> bool | None:
        """``checkSat()`` under the time left as ``tlimit-per``; ``unknown`` (stopped) is None."""
        if self._solver is None or self._stopped:
            return None
        left = self.remaining(deadline)
        if left is not None:
            if left <= 0.0:
                return None
            self._solver.setOption("tlimit-per", str(max(1, math.ceil(left * 1000))))
            self._limited = True
        elif self._limited:
            self._solver.setOption("tlimit-per", "0")  # 0: no limit
            self._limited = False
        escalation = getattr(self._artifact, "escalation", None)
        if escalation is not None and self._checks >= escalation[0] and "escalated_at" not in self._figures:
            # the encoding's stronger statement, added to the running solver (cuts and clauses stay)
            for term in escalation[1](left):
                self._solver.assertFormula(self._translator.term(term))
            self._figures["escalated_at"] = self._checks
        self._checks += 1
        result = self._solver.checkSat()
        if result.isSat():
            return True
        if result.isUnsat():
            return False
        self._unknown = str(result.getUnknownExplanation())
        return None

    def marked(self) -> frozenset[Cell]:
        if not self._decision:
            return frozenset()
        cells = list(self._decision)
        values = self._solver.getValue([self._decision[cell] for cell in cells])
        return frozenset(cell for cell, value in zip(cells, values) if value.getBooleanValue())

    def add_clause(self, clause: CellClause) -> None:
        import cvc5

        tm = self._tm
        lits = [self._decision[cell] if positive else self._negation(cell) for cell, positive in clause]
        if not lits:
            formula = tm.mkFalse()
        elif len(lits) == 1:
            formula = lits[0]
        else:
            formula = tm.mkTerm(cvc5.Kind.OR, *lits)
        self._solver.assertFormula(formula)
        self._clauses += 1

    def _negation(self, cell: Cell) -> Any:
        """``not (decision of cell)``, made once per cell (every blocking clause needs many)."""
        got = self._negated.get(cell)
        if got is None:
            import cvc5

            got = self._negated[cell] = self._tm.mkTerm(cvc5.Kind.NOT, self._decision[cell])
        return got

    def interrupt(self) -> None:
        # No asynchronous interrupt in cvc5's API (and checkSat holds the GIL): the running check
        # ends at its tlimit-per; every later one answers None at once.
        self._stopped = True

    # -- figures --------------------------------------------------------------------------------
    def size(self) -> dict[str, int]:
        art = self._artifact
        if art is None:
            return {}
        # The encoding's assertions as built (blocking clauses and lazy cuts not included).
        return {
            "assertions": len(art.assertions),
            "bool_vars": len(art.bools),
            "int_vars": len(art.ints),
        }

    def _stats(self, internal: bool) -> dict[str, Any]:
        """cvc5's statistics as ``{name: value}``; {} when there are none (never raises)."""
        if self._solver is None:
            return {}
        try:
            stats = self._solver.getStatistics().get(internal, False)
            return {
                name: entry.get("value") if isinstance(entry, dict) else entry
                for name, entry in stats.items()
            }
        except Exception:  # statistics are a courtesy: an API change must not fail a solve
            return {}

    def search(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for name, value in self._stats(internal=True).items():
            key = _SEARCH_KEYS.get(name)
            if key is not None and isinstance(value, (int, float)):
                out[key] = out.get(key, 0) + value
        return out

    def extra(self) -> dict[str, Any]:
        rest: dict[str, Any] = {}
        for name, value in self._stats(internal=False).items():
            if name == "global::totalTime" and isinstance(value, str) and value.endswith("ms"):
                # cvc5's own clock over all checks, as "1234ms": seconds, like the harness's.
                try:
                    rest["total_time"] = float(value[:-2]) / 1000
                except ValueError:
                    pass
            elif isinstance(value, (int, float, str)):
                rest[name] = value
        rest.update(self._figures)
        rest["checks"] = self._checks
        rest["clauses_added"] = self._clauses
        rest["logic"] = self._logic or self.options.get("logic", "auto")
        if self._unknown is not None:
            rest["unknown_reason"] = self._unknown
        return rest

    def close(self) -> None:
        # Terms and the solver before their term manager.
        self._decision, self._negated, self._translator = {}, {}, None
        self._solver = None
        self._tm = None
        self._artifact = None
