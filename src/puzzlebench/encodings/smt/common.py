"""What every SMT encoding shares: the z3 artefact, named variables and counting constraints.

Each puzzle gets its own :class:`z3.Context`, so that interrupting one search (a timer firing at
the deadline) never touches another puzzle's solver, and so that the expressions of a finished
puzzle are freed with its context.

Counting constraints ("exactly n of these cells") are an option of every encoding: ``pb`` uses
z3's pseudo-Boolean atoms (``PbEq``/``AtMost``/``AtLeast``), which its SAT core handles natively
with cardinality reasoning; ``sum`` writes the textbook linear form ``Sum(If(b, 1, 0)) == n``,
which goes through the arithmetic solver (or is bit-blasted, depending on the logic).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Sequence

import z3

from ...errors import EncodingError
from ...model import Cell
from ..base import Artifact, Option

#: Values of the ``card`` option of every SMT encoding.
CARD_CHOICES: tuple[str, ...] = ("pb", "sum")


def card_option(what: str, default: str = "pb") -> Option:
    return Option(
        "card", default, CARD_CHOICES,
        f"how counts of {what} are written: pb = PbEq/AtMost/AtLeast, sum = Sum(If(b, 1, 0)) compared to n",
    )


@dataclass
class SmtModel(Artifact):
    """z3 assertions in one context, plus the decision Booleans of the puzzle's cells.

    ``decision`` maps each markable cell to the BoolRef "this cell is marked"; enumeration blocks
    on these only. ``refine``, when set, receives the marked cells of a candidate model and
    returns assertions cutting it off (empty when the candidate is accepted): the backend adds
    them and re-solves. Variables made through :meth:`bool`/:meth:`int` are named after their
    key, e.g. ``bulb_3_4``, and counted by sort for the size figures.
    """

    ctx: z3.Context = field(default_factory=z3.Context)
    assertions: list[z3.BoolRef] = field(default_factory=list)
    refine: Callable[[frozenset[Cell]], list[z3.BoolRef]] | None = None
    bools: dict[Hashable, z3.BoolRef] = field(default_factory=dict)
    ints: dict[Hashable, z3.ArithRef] = field(default_factory=dict)

    # -- variables ------------------------------------------------------------------------------
    def bool(self, *key: Any) -> z3.BoolRef:
        """The Boolean named by ``key`` (created on first use)."""
        var = self.bools.get(key)
        if var is None:
            var = self.bools[key] = z3.Bool(_name(key), self.ctx)
        return var

    def int(self, *key: Any, lo: int | None = None, hi: int | None = None) -> z3.ArithRef:
        """The integer named by ``key`` (created on first use, with bounds asserted then)."""
        var = self.ints.get(key)
        if var is None:
            var = self.ints[key] = z3.Int(_name(key), self.ctx)
            if lo is not None:
                self.add(var >= lo)
            if hi is not None:
                self.add(var <= hi)
        return var

    @property
    def true(self) -> z3.BoolRef:
        return z3.BoolVal(True, self.ctx)

    @property
    def false(self) -> z3.BoolRef:
        return z3.BoolVal(False, self.ctx)

    def add(self, *constraints: z3.BoolRef) -> None:
        self.assertions.extend(constraints)

    # -- Boolean helpers that accept empty and singleton lists -----------------------------------
    def any(self, lits: Sequence[z3.BoolRef]) -> z3.BoolRef:
        if not lits:
            return self.false
        return lits[0] if len(lits) == 1 else z3.Or(list(lits))

    def all(self, lits: Sequence[z3.BoolRef]) -> z3.BoolRef:
        if not lits:
            return self.true
        return lits[0] if len(lits) == 1 else z3.And(list(lits))

    # -- counting -------------------------------------------------------------------------------
    def count(self, lits: Sequence[z3.BoolRef], relation: str, k: int, card: str) -> z3.BoolRef:
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


def _name(key: tuple) -> str:
    return "_".join(str(part) for part in key)
