"""A small incremental CNF toolkit for the generators' clue-removal oracles.

Removing clues one at a time asks thousands of "is the planted answer still the only one?"
questions about one board. Rebuilding an encoding for each question would dominate the run, so
each generator keeps one incremental SAT solver per board in which every clue is guarded by a
selector literal: dropping a clue is dropping its selector from the assumptions, and learnt
clauses carry over from question to question. The proof of record for a finished puzzle is still
:func:`puzzlebench.solve` with ``count=2`` in a registered paradigm (see ``common.Prover``).

By default every clause is also guarded by one activation literal, so nothing is fixed at the
root level and :meth:`Cnf.propagated` can report *every* literal unit propagation derives from the
clues. An oracle that only asks questions passes ``guarded=False``: its clauses then hold at the
root level, where the solver propagates them once instead of on every call.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from pysat.formula import IDPool
from pysat.solvers import Solver

#: Minisat 2.2 supports ``propagate`` (needed for the unit-propagation difficulty figure).
ORACLE_SOLVER = "m22"

K = TypeVar("K", bound=Hashable)


class Undecided(Exception):
    """The oracle ran out of its conflict budget (the question stays open)."""


class Cnf:
    """One incremental solver with named variables (``IDPool`` keyed by meaningful tuples)."""

    def __init__(self, guarded: bool = True) -> None:
        self.pool = IDPool()
        self.solver = Solver(name=ORACLE_SOLVER)
        self.on = self.var(("on",))
        self.guarded = guarded
        if not guarded:
            self.solver.add_clause([self.on])  # assumed on every call all the same
        self.calls = 0
        self.undecided = 0
        self.questions = 0

    def var(self, key: Hashable) -> int:
        return self.pool.id(key)

    def clause(self, lits: Iterable[int]) -> None:
        """Add a clause (guarded by the activation literal unless the oracle is unguarded)."""
        self.solver.add_clause([*lits, -self.on] if self.guarded else list(lits))

    def equiv_and(self, out: int, lits: Sequence[int]) -> None:
        """out <-> AND(lits)."""
        for x in lits:
            self.clause([-out, x])
        self.clause([out, *(-x for x in lits)])

    def equiv_or(self, out: int, lits: Sequence[int]) -> None:
        """out <-> OR(lits)."""
        for x in lits:
            self.clause([out, -x])
        self.clause([-out, *lits])

    def merge(self, key: Hashable, a: Sequence[int], b: Sequence[int], top: int) -> list[int]:
        """Sum of two unary numbers (sorted: ``a[i]`` means "at least i+1"), truncated at ``top``.

        Totalizer merge (Bailleux & Boufkhad, CP 2003) with both directions of every equivalence,
        so ``out[k]`` <-> the sum is at least k+1; a sum above ``top`` reads as ``top``.
        """
        size = min(top, len(a) + len(b))
        out = [self.var((key, "sum", k)) for k in range(size)]

        def at(v: Sequence[int], i: int) -> int | None:
            # "at least i" for i = 0 is true (None), beyond the vector false (0)
            return None if i == 0 else (v[i - 1] if i <= len(v) else 0)

        for i in range(len(a) + 1):
            for j in range(len(b) + 1):
                # at least i in a and at least j in b -> at least i+j in the sum
                if 1 <= i + j <= size:
                    self.clause([out[i + j - 1], *(-x for x in (at(a, i), at(b, j)) if x)])
                # at most i in a and at most j in b -> at most i+j in the sum
                if i + j < size:
                    ai, bj = at(a, i + 1), at(b, j + 1)
                    self.clause([-out[i + j], *(x for x in (ai, bj) if x)])
        return out

    def sum_equals(
        self, key: Hashable, guard: int, numbers: Sequence[Sequence[int]], total: int, direct: int = 3
    ) -> None:
        """guard -> the unary numbers (each sorted: ``x[i]`` means "at least i+1") sum to ``total``.

        The two shortest numbers are merged (:meth:`merge`, capped at ``total + 1``; unguarded, as
        definitions) until at most ``direct`` remain, which are then compared directly: for
        every way to split ``total + 1`` among them, not all those lower bounds at once, and for
        every way to split ``total - 1``, not all those upper bounds at once. Unit propagation
        on these clauses bounds every number by the others' bounds, as a totalizer's outputs
        would, with far fewer auxiliary variables (a clue's count is asked about again in every
        question, so every variable it adds is derived again each time).
        """
        level = sorted((list(x[: total + 1]) for x in numbers if x), key=len)
        merges = 0
        while len(level) > max(1, direct):
            a, b = level[0], level[1]
            merges += 1
            level = sorted([self.merge((key, merges), a, b, total + 1), *level[2:]], key=len)
        if sum(map(len, level)) < total:
            self.clause([-guard])
            return
        if not level:
            return  # nothing to count and nothing to reach
        sizes = [len(x) for x in level]

        def splits(rest: int):
            # Every (i_1, ..., i_last) with 0 <= i <= size and the given sum.
            for head in itertools.product(*(range(min(rest, size) + 1) for size in sizes[:-1])):
                last = rest - sum(head)
                if 0 <= last <= sizes[-1]:
                    yield (*head, last)

        # At most total: no split of total + 1 has all its lower bounds met.
        for split in splits(total + 1):
            self.clause([-guard, *(-x[i - 1] for x, i in zip(level, split) if i)])
        # At least total: no split of total - 1 has all its upper bounds met.
        if total > 0:
            for split in splits(total - 1):
                self.clause([-guard, *(x[i] for x, i in zip(level, split) if i < len(x))])

    def at_most_one(self, key: Hashable, lits: Sequence[int]) -> None:
        """At most one of ``lits``: pairwise when short, else a ladder of "some earlier one is true"."""
        if len(lits) <= 5:
            for i, x in enumerate(lits):
                for y in lits[i + 1 :]:
                    self.clause([-x, -y])
            return
        prev = None
        for i, x in enumerate(lits):
            if prev is not None:
                self.clause([-prev, -x])
            if i < len(lits) - 1:
                cur = self.var((key, "amo", i))
                self.clause([-x, cur])
                if prev is not None:
                    self.clause([-prev, cur])
                prev = cur

    def totalizer(self, key: Hashable, lits: Sequence[int], top: int) -> list[int]:
        """Unary count of arbitrary literals (a balanced tree of merges), truncated at ``top``."""
        if len(lits) <= 1:
            return list(lits[:top])
        half = len(lits) // 2
        left = self.totalizer((key, "l"), lits[:half], top)
        right = self.totalizer((key, "r"), lits[half:], top)
        return self.merge(key, left, right, top)

    def exactly(self, guard: int, outs: Sequence[int], n: int) -> None:
        """guard -> (the counted sum equals n), given unary outputs truncated at n + 1 or more."""
        if n > len(outs):
            self.clause([-guard])
            return
        if n > 0:
            self.clause([-guard, outs[n - 1]])
        if n < len(outs):
            self.clause([-guard, -outs[n]])

    def question(self, lits: Sequence[int]) -> int:
        """A fresh literal that, assumed, asks for some of ``lits`` to be true (retire it after use)."""
        self.questions += 1
        q = self.var(("question", self.questions))
        self.clause([-q, *lits])
        return q

    def fix(self, lit: int) -> None:
        """Make ``lit`` true for good (a root-level unit, unlike assumptions)."""
        self.solver.add_clause([lit])

    def retire(self, q: int) -> None:
        """Switch a question literal off for good (its clause is then satisfied forever)."""
        self.solver.add_clause([-q])

    def block(self, guard: int, true_lits: Iterable[int], false_lits: Iterable[int]) -> None:
        """guard -> not (all of true_lits true and all of false_lits false)."""
        self.clause([-guard, *(-x for x in true_lits), *false_lits])

    def solve(self, assumptions: Iterable[int], conflicts: int | None = None) -> list[int] | None:
        """A model under the assumptions (plus activation), or None when there is none.

        With a ``conflicts`` budget an undecided question raises :class:`Undecided`.
        """
        self.calls += 1
        if conflicts is None:
            found = self.solver.solve(assumptions=[self.on, *assumptions])
        else:
            self.solver.conf_budget(conflicts)
            found = self.solver.solve_limited(assumptions=[self.on, *assumptions])
            if found is None:
                self.undecided += 1
                raise Undecided(f"no answer within {conflicts} conflicts")
        return self.solver.get_model() if found else None

    @staticmethod
    def true_keys(model: Sequence[int], variables: Mapping[K, int]) -> frozenset[K]:
        """The keys of ``variables`` whose variable is true in ``model`` (literal v sits at index v-1)."""
        size = len(model)
        return frozenset(k for k, v in variables.items() if v <= size and model[v - 1] > 0)

    def propagated(self, assumptions: Iterable[int]) -> set[int] | None:
        """Every literal unit propagation derives from the assumptions, or None on a conflict."""
        if not self.guarded:
            raise ValueError(
                "propagated() needs a guarded Cnf: an unguarded one hides what holds at the root"
            )
        ok, lits = self.solver.propagate(assumptions=[self.on, *assumptions])
        return set(lits) if ok else None

    def stats(self) -> dict[str, int]:
        return {
            "oracle_calls": self.calls,
            "oracle_undecided": self.undecided,
            **{k: int(v) for k, v in self.solver.accum_stats().items()},
        }

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> Cnf:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
