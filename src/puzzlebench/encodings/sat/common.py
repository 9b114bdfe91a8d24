"""What every SAT encoding shares: the CNF artefact and cardinality constraints as a parameter.

Cardinality constraints come from :mod:`pysat.card` (``EncType``), whose docstrings cite the paper
behind each encoding (Sinz 2005 for the sequential counter, Bailleux and Boufkhad 2003 for the
totalizer, Een and Soerensson 2006 for sorting networks, Asin et al. 2011 for cardinality
networks, Frisch and Giannaros 2010 for the bitwise and ladder encodings, Ogawa et al. 2013 for
the modulo totalizer, Morgado et al. 2014 for the k-modulo totalizer). ``binomial`` is the
auxiliary-free encoding written out here: one clause per forbidden subset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, repeat
from math import comb
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ...errors import EncodingError
from ..base import Artifact, Option

if TYPE_CHECKING:  # pragma: no cover
    from pysat.engines import Propagator
    from pysat.formula import IDPool

#: A clause: a list or (in the generated hot paths, as the garbage collector ignores them) a tuple.
Clause = list[int] | tuple[int, ...]

#: pysat ``EncType`` names usable from Python (``native`` needs a cardinality-aware solver).
PYSAT_ENCODINGS: tuple[str, ...] = (
    "pairwise",
    "seqcounter",
    "sortnetwrk",
    "cardnetwrk",
    "bitwise",
    "ladder",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
)
#: Every value of the ``amo``/``card`` options: ``auto``, the auxiliary-free binomial encoding,
#: then pysat's. ``auto`` is binomial up to ``AUTO_BINOMIAL`` literals, the sequential counter
#: beyond (whose clause count grows linearly rather than quadratically).
CARD_CHOICES: tuple[str, ...] = ("auto", "binomial") + PYSAT_ENCODINGS
AUTO_BINOMIAL = 6


def amo_option(default: str, what: str) -> Option:
    return Option("amo", default, CARD_CHOICES, f"cardinality encoding of at-most-one over {what}")


def card_option(default: str, what: str) -> Option:
    return Option("card", default, CARD_CHOICES, f"cardinality encoding of the counts of {what}")


@dataclass
class CnfModel(Artifact):
    """A CNF over an ``IDPool`` keyed by meaningful tuples, e.g. ``("bulb", r, c)``.

    ``decision`` maps each markable cell to its variable (true = marked). ``propagator``,
    when set, builds an IPASIR-UP engine (:class:`pysat.engines.Propagator`) for CaDiCaL 1.9.5,
    together with the variables it observes. ``escalation``, when set, adds clauses after a
    number of checks (see the field).
    """

    pool: IDPool = None
    clauses: list[Clause] = field(default_factory=list)
    propagator: Callable[[], tuple[Propagator, Sequence[int]]] | None = None
    #: Native cardinality constraints, each ``(lits, k)`` for "at most k of lits" (python-sat's
    #: CNF+ items), for the solvers that take them (Minicard, Gluecard 3 and 4: the backend
    #: refuses the others); empty for every encoding that does not ask (:meth:`native_equals`).
    native: list[tuple[Sequence[int], int]] = field(default_factory=list)
    #: ``(checks, more)``: after that many checks the backend adds the clauses ``more(cpu_seconds)``
    #: returns (given the CPU seconds it may take) to the running solver, keeping what it learnt
    #: and the clauses added so far; sound only if every answer satisfies them. None: never.
    escalation: tuple[int, Callable[[float], list[Clause]]] | None = None
    #: The CPU seconds the checks must also have taken (since the first) before the escalation.
    escalation_cpu: float = 0.0

    def var(self, *key: Any) -> int:
        """The variable named by ``key`` (created on first use)."""
        return self.pool.id(key)

    def add(self, clause: Clause) -> None:
        self.clauses.append(clause)

    def fix_cell(self, handle: Any, on: bool) -> None:
        self.clauses.append([handle if on else -handle])  # a unit clause

    def fix_false(self) -> None:
        self.clauses.append([])

    def extend(self, clauses: Sequence[Clause]) -> None:
        self.clauses.extend(clauses)

    # -- cardinality ----------------------------------------------------------------------------
    def atmost(self, lits: Sequence[int], k: int, enc: str) -> None:
        """sum(lits) <= k."""
        if k == 1 and (enc == "binomial" or (enc == "auto" and len(lits) <= AUTO_BINOMIAL)):
            self.extend([[-a, -b] for a, b in combinations(lits, 2)])  # the common case, inline
            return
        self.extend(cardinality(self.pool, lits, k, "atmost", enc))

    def atleast(self, lits: Sequence[int], k: int, enc: str) -> None:
        """sum(lits) >= k."""
        self.extend(cardinality(self.pool, lits, k, "atleast", enc))

    def equals(self, lits: Sequence[int], k: int, enc: str) -> None:
        """sum(lits) == k."""
        self.extend(cardinality(self.pool, lits, k, "equals", enc))

    def native_equals(self, lits: Sequence[int], k: int) -> None:
        """sum(lits) == k as two native constraints, at most k of ``lits`` and at most
        len(lits) - k of their negations; bounds that fix every literal (or none can meet) become
        unit (or empty) clauses, and a bound that cannot bind is left out."""
        n = len(lits)
        if k < 0 or k > n:
            self.clauses.append(())
        elif k == 0 or k == n:
            self.clauses.extend([(x,) if k else (-x,) for x in lits])
        else:
            self.native += ((lits, k), ([-x for x in lits], n - k))

    def clausal(self, reader: str) -> None:
        """Refuse ``reader``, which takes no native constraint, when :attr:`native` holds any: the
        solver is the user's choice, and an encoding never swaps in another statement of its rules."""
        if self.native:
            raise EncodingError(
                f"this encoding states native cardinality constraints (card=native or amo=native), which "
                f"{reader} cannot take: python-sat takes them on minicard, gluecard3 and gluecard4; or "
                "choose a clausal cardinality encoding"
            )

    def count_if(self, guard: list[int], lits: Sequence[int], k: int, relation: str, enc: str) -> None:
        """``all(guard) -> sum(lits) <relation> k``: each clause of the encoding is weakened by the
        negated guard, so the auxiliary variables are free when the guard fails."""
        relax = [-g for g in guard]
        self.extend([[*relax, *cl] for cl in cardinality(self.pool, lits, k, relation, enc)])

    def count_differs_if(self, guard: list[int], lits: Sequence[int], k: int, enc: str, tag: tuple) -> None:
        """``all(guard) -> sum(lits) != k`` as ``sum <= k-1`` or ``sum >= k+1`` under a fresh
        selector ``("side",) + tag`` (free when the guard fails, so it never multiplies counts)."""
        n = len(lits)
        if k < 0 or k > n:
            return  # the sum can never equal k
        if k == 0:
            self.count_if(guard, lits, 1, "atleast", enc)
            return
        if k == n:
            self.count_if(guard, lits, n - 1, "atmost", enc)
            return
        side = self.var("side", *tag)
        self.count_if(guard + [side], lits, k - 1, "atmost", enc)
        self.count_if(guard + [-side], lits, k + 1, "atleast", enc)


def cardinality(pool: IDPool, lits: Sequence[int], k: int, relation: str, enc: str) -> list[Clause]:
    """Clauses for ``sum(lits) <relation> k`` (relation: atmost, atleast, equals).

    Trivial bounds are settled here without auxiliaries; pysat's ``UnsupportedBound`` (e.g.
    pairwise, bitwise or ladder beyond at-most-one) becomes an :class:`EncodingError`.
    """
    lits = list(lits)
    n = len(lits)
    if enc == "auto":
        enc = "binomial" if n <= AUTO_BINOMIAL else "seqcounter"
    if relation == "equals":
        return cardinality(pool, lits, k, "atmost", enc) + cardinality(pool, lits, k, "atleast", enc)
    if relation == "atmost":
        if k >= n:
            return []
        if k < 0:
            return [[]]
        if k == 0:
            return [[-x] for x in lits]
    elif relation == "atleast":
        if k <= 0:
            return []
        if k > n:
            return [[]]
        if k == 1:
            return [lits]
        if k == n:
            return [[x] for x in lits]
    else:
        raise EncodingError(f"unknown cardinality relation {relation!r}")
    if enc == "binomial":
        return binomial(lits, k, relation)
    if enc not in PYSAT_ENCODINGS:
        raise EncodingError(f"unknown cardinality encoding {enc!r} (choose from {', '.join(CARD_CHOICES)})")
    from pysat.card import CardEnc, EncType, UnsupportedBound

    fn = CardEnc.atmost if relation == "atmost" else CardEnc.atleast
    try:
        return fn(lits, bound=k, vpool=pool, encoding=getattr(EncType, enc)).clauses
    except UnsupportedBound:
        raise EncodingError(
            f"cardinality encoding {enc!r} cannot express {relation} {k} of {n} literals "
            "(pairwise, bitwise and ladder only encode at-most-one)"
        ) from None


def seqcounter_amo(pool: IDPool, lits: Sequence[int]) -> list[Clause]:
    """At most one of ``lits`` by Sinz's sequential counter for k = 1 (3n - 4 clauses, n - 1
    auxiliaries s_i = "some of the first i literals is true"), written out without pysat's
    general machinery; the auxiliaries are taken from ``pool``."""
    n = len(lits)
    if n <= 1:
        return []
    first = pool.top + 1
    pool.top += n - 1
    out: list[Clause] = [(-lits[0], first)]
    for i in range(1, n - 1):
        x, s, prev = lits[i], first + i, first + i - 1
        out += ((-x, s), (-prev, s), (-x, -prev))
    out.append((-lits[-1], -(first + n - 2)))
    return out


#: (n, k) -> how to cut the clauses of "exactly k of n" out of the literals followed by their
#: negations: item getters for the longer clauses, positions for the unit ones (built once).
_EXACTLY: dict[tuple[int, int], tuple[list[Callable], list[int]]] = {}


def exactly_binomial(lits: Sequence[int], k: int) -> list[Clause]:
    """Exactly k of ``lits`` without auxiliaries (for the few literals around a clue): no k+1
    true together, no n-k+1 false together."""
    n = len(lits)
    if k < 0 or k > n:
        return [()]
    plan = _EXACTLY.get((n, k))
    if plan is None:
        # positions 0..n-1 are the literals, n..2n-1 their negations
        patterns = [tuple(n + i for i in sub) for sub in combinations(range(n), k + 1)]
        patterns += list(combinations(range(n), n - k + 1))
        plan = ([itemgetter(*p) for p in patterns if len(p) > 1], [p[0] for p in patterns if len(p) == 1])
        _EXACTLY[(n, k)] = plan
    signed = (*lits, *[-x for x in lits])
    getters, units = plan
    return [g(signed) for g in getters] + [(signed[i],) for i in units]


def unary_add(pool: IDPool, clauses: list[Clause], a: Sequence[int], b: Sequence[int], cap: int) -> list[int]:
    """Unary sum of two unary numbers (the totalizer's merge, on inputs that are already sorted).

    ``a[i-1]`` means "A >= i" (so ``a[i]`` implies ``a[i-1]``), likewise ``b``. Returns fresh
    literals ``o`` with ``o[k-1] <-> A + B >= k`` for k up to ``cap`` (enough to tell every sum
    up to ``cap - 1`` apart from "more"), adding both directions' clauses to ``clauses``.

    For each ``i`` the clauses over ``j`` are zipped together rather than appended one by one
    (a Kuromasu board merges tens of thousands of these).
    """
    p, q = len(a), len(b)
    if not p or not q:
        return list((a or b)[:cap])
    m = min(p + q, cap)
    first = pool.top + 1
    pool.top += m
    o = range(first, first + m)
    not_o = range(-first, -first - m, -1)
    not_b = [-x for x in b]
    # A >= i and B >= j  ->  sum >= i + j: for i = 0, B >= j alone; for i > 0, A >= i alone
    # (j = 0), then with each B >= j.
    clauses += zip(not_b[: min(q, m)], o)
    for i in range(1, min(p, m) + 1):
        x, top = -a[i - 1], min(q, m - i)
        clauses.append((x, o[i - 1]))
        clauses += zip(repeat(x, top), not_b[:top], o[i : i + top])
    # A <= i and B <= j  ->  sum <= i + j, for j up to m - i - 1 (b[j] says "B > j"; past B's
    # last literal, A <= i alone).
    for i in range(p):
        top = min(q, m - i - 1)
        clauses += zip(repeat(a[i], top + 1), b[: top + 1], not_o[i : i + top + 1])
        if top == q:
            clauses.append((a[i], not_o[i + q]))
    top = min(q, m - p - 1)  # i = p: B <= j alone (top < q, since m <= p + q)
    clauses += zip(b[: top + 1], not_o[p : p + top + 1])
    return list(o)


def unary_sum_equals(
    pool: IDPool, clauses: list[Clause], numbers: Sequence[Sequence[int]], total: int
) -> None:
    """The unary numbers ``numbers`` (each as in :func:`unary_add`) sum to exactly ``total``.

    Pairs are merged by :func:`unary_add` (outputs capped at ``total + 1``) until two remain,
    which are then compared directly: ``X >= i -> Y <= total - i`` and ``X <= i -> Y >= total - i``.
    """
    if total < 0 or sum(map(len, numbers)) < total:
        clauses.append(())
        return
    # A number beyond total + 1 already breaks the sum: its higher literals need not be merged.
    # Pairing the longest with the shortest keeps the merges (quadratic in their inputs) small.
    level = sorted((list(n[: total + 1]) for n in numbers if n), key=len)
    if len(level) > 2:
        level = [x for pair in zip(level, reversed(level)) for x in pair][: len(level)]
    while len(level) > 2:
        level = [
            unary_add(pool, clauses, level[k], level[k + 1], total + 1) if k + 1 < len(level) else level[k]
            for k in range(0, len(level), 2)
        ]
    x, y = (level + [[], []])[:2]
    p, q = len(x), len(y)
    for i in range(p + 1):  # X >= i  ->  Y <= total - i
        if i > total:
            clauses.append((-x[i - 1],))
            break
        k = total - i + 1
        if k <= q:
            clauses.append((-x[i - 1], -y[k - 1]) if i else (-y[k - 1],))
    for i in range(p + 1):  # X <= i  ->  Y >= total - i
        k = total - i
        if k <= 0:
            break
        if k <= q:
            clauses.append((x[i], y[k - 1]) if i < p else (y[k - 1],))
        else:
            clauses.append((x[i],) if i < p else ())


#: The most clauses ``card=binomial`` writes for one count (beyond it, gigabytes of clauses).
BINOMIAL_LIMIT = 1_000_000


def binomial(lits: list[int], k: int, relation: str) -> list[Clause]:
    """Auxiliary-free: at most k = no k+1 literals together; at least k = no n-k+1 all false."""
    n = len(lits)
    size = comb(n, k + 1) if relation == "atmost" else comb(n, n - k + 1)
    if size > BINOMIAL_LIMIT:
        raise EncodingError(
            f"card=binomial cannot express {relation} {k} of {n} literals within "
            f"{BINOMIAL_LIMIT:,} clauses (it needs {size:,}); choose another card"
        )
    if relation == "atmost":
        return [[-x for x in sub] for sub in combinations(lits, k + 1)]
    return [list(sub) for sub in combinations(lits, len(lits) - k + 1)]
