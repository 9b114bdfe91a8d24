"""What every MIP encoding shares: the artefact handed to HiGHS and affine expressions to fill it.

A MIP encoding states the rules as linear rows over bounded columns, most of them binaries
keyed by cell. The artefact is plain data, independent of any solver object: column bounds and
integrality, and the rows in compressed sparse row form (``starts``, ``index``, ``value``), so
that the backend loads the whole model with two bulk calls (``addVars``/``addRows``). There is
no objective: every encoding is a pure feasibility problem (objective 0).

Expressions are :class:`Linear` (coefficients by column plus a constant), written with ``+``,
``-`` and scalar ``*``; :meth:`MipModel.add` moves the constant into the row's bounds. A row
without columns is decided on the spot: kept out of the model when its bounds hold, recorded in
:attr:`MipModel.contradiction` when they fail (HiGHS reports an empty model as solved even with
an infeasible empty row, so such a row must not reach it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...model import Cell
from ..base import Artifact

INF = math.inf


class Linear:
    """An affine expression: ``sum(coefficient * column) + constant``."""

    __slots__ = ("terms", "constant")

    def __init__(self, terms: Mapping[int, float] | None = None, constant: float = 0.0):
        self.terms: dict[int, float] = dict(terms) if terms else {}
        self.constant = float(constant)

    def copy(self) -> Linear:
        return Linear(self.terms, self.constant)

    def iadd(self, other: Term, scale: float = 1.0) -> Linear:
        """Add ``scale * other`` in place (sums of many terms stay linear in time)."""
        if isinstance(other, Linear):
            terms = self.terms
            for col, coef in other.terms.items():
                terms[col] = terms.get(col, 0.0) + scale * coef
            self.constant += scale * other.constant
        else:
            self.constant += scale * float(other)
        return self

    def __add__(self, other: Term) -> Linear:
        return self.copy().iadd(other)

    __radd__ = __add__

    def __sub__(self, other: Term) -> Linear:
        return self.copy().iadd(other, -1.0)

    def __rsub__(self, other: float) -> Linear:  # a number minus this (Python tries Linear's own first)
        return Linear(constant=float(other)).iadd(self, -1.0)

    def __neg__(self) -> Linear:
        return Linear().iadd(self, -1.0)

    def __mul__(self, scale: float) -> Linear:
        return Linear().iadd(self, float(scale))

    __rmul__ = __mul__

    def __repr__(self) -> str:
        parts = [f"{coef:+g}*c{col}" for col, coef in self.terms.items()]
        return " ".join(parts + [f"{self.constant:+g}"])


class Var(Linear):
    """One column, as the expression ``1 * column``."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        super().__init__({index: 1.0})
        self.index = index


#: What expressions are built from: expressions, columns and numbers.
Term = Linear | float | int


def total(items: Iterable[Term]) -> Linear:
    """The sum of ``items`` (columns, expressions, numbers), built in one pass."""
    out = Linear()
    for item in items:
        out.iadd(item)
    return out


@dataclass(frozen=True)
class Cut:
    """A lazy cut that is a linear row, ``lower <= expr <= upper``, where a clause over cells is
    too weak: a MIP encoding's lazy rule may return these among its clauses (the HiGHS backend
    adds them as rows), e.g. a cut over auxiliary columns that name no cell."""

    expr: Linear
    lower: float = -INF
    upper: float = INF


@dataclass
class MipModel(Artifact):
    """A mixed-integer feasibility model: bounded columns and ranged rows, no objective (but,
    optionally, a ``guide`` for HiGHS's LPs).

    ``decision`` maps each markable cell to the column index of its binary ("bulb", "black",
    "lit"); enumeration blocks on these columns only. Rows are ``lower <= a.x <= upper`` with
    ``a`` stored row-wise: row ``i`` owns ``index``/``value`` entries ``starts[i]:starts[i+1]``.
    ``contradiction`` names the first row found false without any column (the model has no
    answer; the backend reports infeasible without running HiGHS).
    """

    col_lower: list[float] = field(default_factory=list)
    col_upper: list[float] = field(default_factory=list)
    integer: list[bool] = field(default_factory=list)
    row_lower: list[float] = field(default_factory=list)
    row_upper: list[float] = field(default_factory=list)
    starts: list[int] = field(default_factory=lambda: [0])
    index: list[int] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    contradiction: str | None = None
    #: HiGHS presolve rules the model is best solved with (backend option ``presolve_rules=auto``):
    #: ``all``, or ``lean`` for a model re-presolved round after round as lazy cut rows pile up
    presolve_rules: str = "all"
    #: Every answer marks as many decision cells (Nurikabe without '?': the wall is the cells the
    #: numbers leave over). Another answer then turns one of this answer's marked cells unmarked,
    #: and the backend blocks an answer with that clause over one side (backend option ``block``):
    #: where the rows imply the count, its LP relaxation is twice as tight as the full no-good's
    fixed_marks: bool = False
    #: Presolve in the runs after the first answer (backend option ``proof_presolve=auto``): ``off``,
    #: or ``same`` for a model whose proof goes through lazy rounds (runs ending on a candidate)
    proof_presolve: str = "off"
    #: How an infeasible verdict under presolve is confirmed (backend option ``confirm=auto``):
    #: ``unpresolved``, or ``reseeded`` for a model whose runs without presolve take many times
    #: the presolved ones (a weaker guarantee, which the record states)
    confirm: str = "unpresolved"
    #: The cell an auxiliary column speaks of (Nurikabe's owner columns), beside ``decision``: the
    #: backend's ``start=repair`` frees the cells a lazy round's cut rows name through either
    cells_of: dict[int, Cell] = field(default_factory=dict)
    #: ``(runs, cpu, more)``: once the backend has made more than ``runs`` runs and they have taken
    #: ``cpu`` CPU seconds (counted from the first), it calls ``more(seconds_left)`` once and fixes
    #: the columns it gets back, ``(column, value)`` pairs, by their bounds for every later run.
    #: Each fixing must hold in every answer (Nurikabe: the cells the failed-literal probe settles).
    escalation: tuple[int, float, Callable[[float], list[tuple[int, float]]]] | None = None
    #: An objective that only steers HiGHS's LPs (column -> cost, minimised): the model stays a
    #: feasibility question, the backend stops each run at its first feasible point
    #: (``mip_max_improving_sols=1``), so that any answer is as good as another
    guide: dict[int, float] = field(default_factory=dict)
    #: The runs the guide steers (backend option ``guide_runs=auto``): ``always``, or ``search`` (the
    #: runs before the first answer; a uniqueness proof's runs then have the zero objective)
    guide_runs: str = "always"

    # -- columns --------------------------------------------------------------------------------
    def column(self, lower: float, upper: float, integer: bool) -> Var:
        self.col_lower.append(float(lower))
        self.col_upper.append(float(upper))
        self.integer.append(integer)
        return Var(len(self.col_lower) - 1)

    def binary(self) -> Var:
        return self.column(0, 1, True)

    def binaries(self, cells: Iterable[Cell]) -> dict[Cell, Var]:
        """One binary per cell."""
        return {cell: self.binary() for cell in cells}

    def continuous(self, lower: float, upper: float) -> Var:
        return self.column(lower, upper, False)

    # -- rows -----------------------------------------------------------------------------------
    def add(self, expr: Term, lower: float = -INF, upper: float = INF, why: str | None = None) -> None:
        """The row ``lower <= expr <= upper`` (the expression's constant moves to the bounds).

        ``why`` names the rule for :attr:`contradiction`, should the row be constant and false."""
        if not isinstance(expr, Linear):
            expr = Linear(constant=float(expr))
        lower -= expr.constant
        upper -= expr.constant
        entries = [(col, coef) for col, coef in expr.terms.items() if coef != 0.0]
        if not entries:  # a constant row: true (dropped) or false (no answer)
            if not lower <= 0.0 <= upper and self.contradiction is None:
                self.contradiction = why or f"constant row: 0 not in [{lower:g}, {upper:g}]"
            return
        self.row_lower.append(lower)
        self.row_upper.append(upper)
        for col, coef in entries:
            self.index.append(col)
            self.value.append(coef)
        self.starts.append(len(self.index))

    def fix_cell(self, handle: Any, on: bool) -> None:
        # as a row: the backend's enumeration resets the decision columns' bounds
        self.add_eq(Var(handle), float(on), why="a settled cell")

    def fix_false(self) -> None:
        self.add(Linear(constant=1.0), 0.0, 0.0, why="the deduction stage found no answer")

    def add_le(self, expr: Term, bound: float, why: str | None = None) -> None:
        """``expr <= bound``."""
        self.add(expr, -INF, bound, why)

    def add_ge(self, expr: Term, bound: float, why: str | None = None) -> None:
        """``expr >= bound``."""
        self.add(expr, bound, INF, why)

    def add_eq(self, expr: Term, bound: float, why: str | None = None) -> None:
        """``expr == bound``."""
        self.add(expr, bound, bound, why)

    # -- size -----------------------------------------------------------------------------------
    @property
    def num_cols(self) -> int:
        return len(self.col_lower)

    @property
    def num_rows(self) -> int:
        return len(self.row_lower)

    @property
    def num_nonzeros(self) -> int:
        return len(self.index)
