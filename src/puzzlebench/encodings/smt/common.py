"""What every SMT encoding shares: the z3 artefact, named variables and counting constraints.

Each puzzle gets its own :class:`z3.Context`, so that interrupting one search (a timer firing at
the deadline) never touches another puzzle's solver, and so that the expressions of a finished
puzzle are freed with its context.

Counting constraints ("exactly n of these cells") are an option of every encoding: ``pb`` uses
z3's pseudo-Boolean atoms (``PbEq``/``AtMost``/``AtLeast``), which its SAT core handles natively
with cardinality reasoning; ``sum`` writes the textbook linear form ``Sum(If(b, 1, 0)) == n``,
which goes through the arithmetic solver (or is bit-blasted, depending on the logic).

Building terms: z3's Python operators (``Or``, ``Implies``, ``x > 3``) type-check and coerce
every argument, which dominates the build time of all but the smallest boards. The helpers
:meth:`SmtModel.neg`, :meth:`~SmtModel.any`, :meth:`~SmtModel.all`,
:meth:`~SmtModel.implies`, :meth:`~SmtModel.iff` and :meth:`~SmtModel.rel` make the same terms
through z3's C API directly (arguments must already be terms of the model's context), many
times faster; encodings use them on their hot paths and the plain operators elsewhere.

An encoding may name the z3 logic that suits it (``logic``): the backend's ``logic=auto`` then
picks it. Bit-blasting (QF_FD) suits Boolean and counting encodings; integer ranks compared
with ``<`` need the arithmetic solver (QF_LIA).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

import z3
from z3.z3types import Ast

from ...errors import EncodingError
from ..base import Artifact, Option

if TYPE_CHECKING:
    from ..sat.common import Clause

#: Values of the ``card`` option of every SMT encoding.
CARD_CHOICES: tuple[str, ...] = ("pb", "sum")


def ite_sum(vars_: Sequence[z3.BoolRef]) -> z3.ArithRef:
    """The count the seeds' models write (002's ``v.ite(1, 0)``, 003's CLP(FD) sum): ``Sum(If(v, 1, 0))``."""
    return z3.Sum([z3.If(v, 1, 0) for v in vars_])


def card_option(what: str, default: str = "pb") -> Option:
    return Option(
        "card",
        default,
        CARD_CHOICES,
        f"how counts of {what} are written: pb = PbEq/AtMost/AtLeast, sum = Sum(If(b, 1, 0)) compared to n",
    )


@dataclass
class SmtModel(Artifact):
    """z3 assertions in one context, plus the decision Booleans of the puzzle's cells.

    ``decision`` maps each markable cell to the BoolRef "this cell is marked"; enumeration blocks
    on these only. Variables made through :meth:`bool`/:meth:`int` are named after their
    key, e.g. ``bulb_3_4``, and counted by sort for the size figures.
    """

    ctx: z3.Context = field(default_factory=z3.Context)
    assertions: list[z3.BoolRef] = field(default_factory=list)
    bools: dict[Hashable, z3.BoolRef] = field(default_factory=dict)
    ints: dict[Hashable, z3.ArithRef] = field(default_factory=dict)
    #: The z3 logic this encoding is best solved in (``logic=auto``); None: the backend's default.
    logic: str | None = None
    #: Booleans declared in SMT-LIB text handed to z3's parser (:class:`UnarySums`), not in ``bools``.
    text_bools: int = 0
    #: ``(checks, more)``: after that many checks of the enumeration loop the backend asserts the
    #: terms ``more(left)`` makes within ``left`` seconds (None: no limit; a stronger statement of
    #: rules the lazy cuts check anyway, or facts every answer holds), keeping every clause learnt
    #: and added so far; None: never. A backend without it loses no answer, as the lazy rule still
    #: checks every candidate.
    escalation: tuple[int, Callable[[float | None], list[z3.BoolRef]]] | None = None

    # -- variables ------------------------------------------------------------------------------
    def bool(self, *key: Any) -> z3.BoolRef:
        """The Boolean named by ``key`` (created on first use)."""
        var = self.bools.get(key)
        if var is None:
            # z3.Bool(name, ctx), through the C API: it remakes the sort and re-checks per call
            ref = self.ctx.ref()
            var = self.bools[key] = self._bool(
                z3.Z3_mk_const(ref, z3.Z3_mk_string_symbol(ref, _name(key)), self._bool_sort.ast)
            )
        return var

    def int(self, *key: Any, lo: int | None = None, hi: int | None = None) -> z3.ArithRef:
        """The integer named by ``key`` (created on first use, with bounds asserted then)."""
        var = self.ints.get(key)
        if var is None:
            var = self.ints[key] = z3.Int(_name(key), self.ctx)
            if lo is not None:
                self.add(self.rel(var, ">=", lo))
            if hi is not None:
                self.add(self.rel(var, "<=", hi))
        return var

    @cached_property
    def _bool_sort(self) -> z3.SortRef:
        return z3.BoolSort(self.ctx)

    @cached_property
    def true(self) -> z3.BoolRef:
        return z3.BoolVal(True, self.ctx)

    @cached_property
    def false(self) -> z3.BoolRef:
        return z3.BoolVal(False, self.ctx)

    def add(self, *constraints: z3.BoolRef) -> None:
        self.assertions.extend(constraints)

    def fix_cell(self, handle: Any, on: builtins.bool) -> None:
        self.add(handle if on else self.neg(handle))

    def fix_false(self) -> None:
        self.add(self.false)

    # -- fast term constructors (C API; arguments are terms of this context) ---------------------
    def _bool(self, ast: Any) -> z3.BoolRef:
        return z3.BoolRef(ast, self.ctx)

    def neg(self, x: z3.BoolRef) -> z3.BoolRef:
        """``Not(x)``."""
        return self._bool(z3.Z3_mk_not(self.ctx.ref(), x.as_ast()))

    def any(self, lits: Sequence[z3.BoolRef]) -> z3.BoolRef:
        """``Or(lits)``; False when empty, the literal itself when alone."""
        if not lits:
            return self.false
        if len(lits) == 1:
            return lits[0]
        return self._bool(z3.Z3_mk_or(self.ctx.ref(), len(lits), _ast_array(lits)))

    def all(self, lits: Sequence[z3.BoolRef]) -> z3.BoolRef:
        """``And(lits)``; True when empty, the literal itself when alone."""
        if not lits:
            return self.true
        if len(lits) == 1:
            return lits[0]
        return self._bool(z3.Z3_mk_and(self.ctx.ref(), len(lits), _ast_array(lits)))

    def implies(self, a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
        """``Implies(a, b)``."""
        return self._bool(z3.Z3_mk_implies(self.ctx.ref(), a.as_ast(), b.as_ast()))

    def iff(self, a: z3.BoolRef, b: z3.BoolRef) -> z3.BoolRef:
        """``a == b`` for Booleans."""
        return self._bool(z3.Z3_mk_eq(self.ctx.ref(), a.as_ast(), b.as_ast()))

    def num(self, k: builtins.int) -> z3.ArithRef:
        """The integer constant ``k`` (made once per model)."""
        got = self._nums.get(k)
        if got is None:
            got = self._nums[k] = z3.IntVal(k, self.ctx)
        return got

    def rel(self, x: z3.ArithRef, relation: str, y: z3.ArithRef | builtins.int) -> z3.BoolRef:
        """``x <relation> y`` for integer terms (``y`` may be a Python int)."""
        make = _RELATIONS.get(relation)
        if make is None:
            raise EncodingError(f"unknown relation {relation!r} (choose from {', '.join(_RELATIONS)})")
        other = self.num(y) if isinstance(y, int) else y
        if relation == "!=":
            return self.neg(self.rel(x, "==", other))
        return self._bool(make(self.ctx.ref(), x.as_ast(), other.as_ast()))

    @cached_property
    def _nums(self) -> dict[builtins.int, z3.ArithRef]:
        return {}

    # -- counting -------------------------------------------------------------------------------
    def count(self, lits: Sequence[z3.BoolRef], relation: str, k: builtins.int, card: str) -> z3.BoolRef:
        """``sum(lits) <relation> k`` (relation: ``==``, ``<=``, ``>=``), written the ``card`` way.

        Bounds the literals can never reach are settled here to ``True``/``False``.
        """
        lits = list(lits)
        n = len(lits)
        if n == 0 and relation in ("==", "<=", ">="):
            holds = {"==": k == 0, "<=": k >= 0, ">=": k <= 0}[relation]
            return self.true if holds else self.false
        if relation == "==":
            if k < 0 or k > n:
                return self.false
        elif relation == "<=":
            if k >= n:
                return self.true
            if k < 0:
                return self.false
        elif relation == ">=":
            if k <= 0:
                return self.true
            if k > n:
                return self.false
        else:
            raise EncodingError(f"unknown count relation {relation!r}")
        if card == "pb":
            if relation == "==":
                return z3.PbEq([(x, 1) for x in lits], k)
            if relation == "<=":
                return z3.AtMost(*lits, k)
            return z3.AtLeast(*lits, k)
        if card == "sum":
            total = z3.Sum([z3.If(x, 1, 0) for x in lits])
            if relation == "==":
                return total == k
            return total <= k if relation == "<=" else total >= k
        raise EncodingError(f"unknown counting form {card!r} (choose from {', '.join(CARD_CHOICES)})")

    def unary_sums(self) -> UnarySums:
        """A collector of "these unary numbers sum to exactly n" statements (``card=adder``)."""
        return UnarySums(self)


class UnarySums:
    """``card=adder``: unary numbers (``x[i-1]`` = "X >= i", each literal implying the one
    before) that sum to exactly a total, stated by the SAT paradigm's pairwise merges
    (:func:`~puzzlebench.encodings.sat.common.unary_sum_equals`, a totalizer on inputs that are
    already sorted) over these terms, with one fresh Boolean ``|sum k|`` per merge output. Unlike
    a pseudo-Boolean atom, the partial sums are literals the solver can branch on and learn over.

    The merges write about 200,000 clauses on a 100x100 Kuromasu board: made one by one through
    the Python API that took longer than the search they save, so :meth:`close` hands them to
    z3's SMT-LIB parser as one text and adds the one conjunction it returns (the inputs are
    named constants or their negations, declared in the text under their own names, which z3
    maps to the same constants).
    """

    def __init__(self, model: SmtModel) -> None:
        self.model = model
        self.pool = _Pool(0)
        self.text: list[str] = [""]  # int literal k > 0 -> its term as SMT-LIB text
        self.clauses: list[Clause] = []
        self.known: dict[int, str] = {}  # a term's AST id -> its text
        self.inputs: set[str] = set()  # the named constants the inputs mention
        self.fresh: list[str] = []  # the merge outputs' names, not yet declared

    def equals(self, numbers: Sequence[Sequence[z3.BoolRef]], total: int) -> None:
        from ..sat.common import unary_sum_equals

        ints = []
        for number in numbers:
            ints.append(list(range(self.pool.top + 1, self.pool.top + 1 + len(number))))
            self.pool.top += len(number)
            self.text += [self._text(x) for x in number]
        first = self.pool.top + 1
        unary_sum_equals(self.pool, self.clauses, ints, total)
        # quoted names with a space (no ``SmtModel.bool`` key makes one), numbered across the model
        start = self.model.text_bools
        fresh = [f"|sum {start + k}|" for k in range(self.pool.top + 1 - first)]
        self.model.text_bools += len(fresh)
        self.text += fresh
        self.fresh += fresh

    def _text(self, term: z3.BoolRef) -> str:
        key = term.get_id()
        got = self.known.get(key)
        if got is None:
            got = self.known[key] = term.sexpr()
            name = got[5:-1] if got.startswith("(not ") else got
            if "(" in name:
                raise EncodingError(
                    f"a unary number's literal must be a Boolean constant or its negation, not {got}"
                )
            self.inputs.add(name)
        return got

    def close(self) -> None:
        """Parse the collected clauses and add them to the model as one conjunction."""
        if not self.clauses:
            return
        text = self.text
        neg = [""] + [f"(not {t})" for t in text[1:]]
        parts = [f"(declare-fun {name} () Bool)" for name in (*self.inputs, *self.fresh)]
        parts.append("(assert (and")
        parts += [
            f"(or {' '.join(text[x] if x > 0 else neg[-x] for x in clause)})"
            if len(clause) > 1
            else (text[clause[0]] if clause[0] > 0 else neg[-clause[0]])
            if clause
            else "false"
            for clause in self.clauses
        ]
        parts.append("))")
        model = self.model
        (conjunction,) = z3.parse_smt2_string("\n".join(parts), ctx=model.ctx)
        model.add(conjunction)
        self.clauses, self.fresh = [], []


def add_clauses(model: SmtModel, clauses: Sequence[Sequence[int]], named: Mapping[int, z3.BoolRef]) -> None:
    """Clauses over integer literals (the SAT paradigm's form, e.g. a
    :class:`~puzzlebench.encodings.sat.common.CnfModel`'s) added to ``model`` as one conjunction
    parsed from SMT-LIB text: variable ``v`` is ``named[v]`` (a Boolean constant of the model)
    when named, else a fresh Boolean ``|aux k|`` declared in the text. As with
    :class:`UnarySums`, one parse costs a fraction of making the clauses term by term."""
    if clauses:
        model.add(clauses_term(model, clauses, named))


def clauses_term(
    model: SmtModel, clauses: Sequence[Sequence[int]], named: Mapping[int, z3.BoolRef]
) -> z3.BoolRef:
    """The conjunction :func:`add_clauses` adds, made without adding it (its auxiliaries are
    fresh all the same)."""
    text: dict[int, str] = {}
    declared: list[str] = []
    start = model.text_bools
    for v, term in named.items():
        got = term.sexpr()
        if "(" in got:
            raise EncodingError(f"a clause's named variable must be a Boolean constant, not {got}")
        text[v] = got
        declared.append(got)

    def lit(x: int) -> str:
        name = text.get(abs(x))
        if name is None:
            name = text[abs(x)] = f"|aux {start + len(text) - len(named)}|"
            declared.append(name)
        return name if x > 0 else f"(not {name})"

    body = [
        f"(or {' '.join(map(lit, clause))})" if len(clause) > 1 else lit(clause[0]) if clause else "false"
        for clause in clauses
    ]
    model.text_bools += len(text) - len(named)
    parts = [f"(declare-fun {name} () Bool)" for name in declared]
    parts += ["(assert (and", *body, "true))"]
    (conjunction,) = z3.parse_smt2_string("\n".join(parts), ctx=model.ctx)
    return conjunction


class _Pool:
    """The integer variable counter the SAT paradigm's unary adders draw fresh literals from."""

    def __init__(self, top: int) -> None:
        self.top = top


def _ast_array(terms: Sequence[z3.ExprRef]) -> Any:
    """A C array of the terms' ASTs, as the C API's n-ary constructors take it."""
    return _array_type(len(terms))(*(t.as_ast() for t in terms))


@cache
def _array_type(length: int) -> Any:
    # Each ctypes array type is a cyclic object; made once per length, none is left as garbage.
    return Ast * length


#: C API constructors of the integer relations accepted by :meth:`SmtModel.rel`.
_RELATIONS: dict[str, Callable[..., Any]] = {
    "==": z3.Z3_mk_eq,
    "!=": z3.Z3_mk_eq,  # negated in rel()
    "<=": z3.Z3_mk_le,
    "<": z3.Z3_mk_lt,
    ">=": z3.Z3_mk_ge,
    ">": z3.Z3_mk_gt,
}


def _name(key: tuple) -> str:
    return "_".join(str(part) for part in key)
