"""What every SAT encoding shares: the CNF artefact and cardinality constraints as a parameter.

Cardinality constraints come from :mod:`pysat.card` (``EncType``), whose docstrings cite the paper
behind each encoding (Sinz 2005 for the sequential counter, Bailleux and Boufkhad 2003 for the
totalizer, Een and Soerensson 2006 for sorting networks, Asin et al. 2011 for cardinality
networks, Frisch and Giannaros 2010 for the bitwise and ladder encodings, Ogawa et al. 2013 for
the modulo totalizer, Morgado et al. 2014 for the k-modulo totalizer). ``binomial`` is the
auxiliary-free encoding written out here: one clause per forbidden subset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ...errors import EncodingError
from ...model import Cell
from ..base import Artifact, Option

if TYPE_CHECKING:  # pragma: no cover
    from pysat.engines import Propagator
    from pysat.formula import IDPool

#: A clause: a list or (in the generated hot paths, as the garbage collector ignores them) a tuple.
Clause = list[int] | tuple[int, ...]

#: pysat ``EncType`` names usable from Python (``native`` needs a cardinality-aware solver).
PYSAT_ENCODINGS: tuple[str, ...] = (
    "pairwise", "seqcounter", "sortnetwrk", "cardnetwrk", "bitwise", "ladder",
    "totalizer", "mtotalizer", "kmtotalizer",
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

    ``decision`` maps each markable cell to its variable (true = marked). ``refine``, when set,
    receives the marked cells of a candidate model and returns clauses cutting it off (empty when
    the candidate is accepted): the backend re-solves until no cut is returned. ``propagator``,
    when set, builds an IPASIR-UP engine (:class:`pysat.engines.Propagator`) for CaDiCaL 1.9.5,
    together with the variables it observes.
    """

    pool: "IDPool" = None  # type: ignore[assignment]
    clauses: list[Clause] = field(default_factory=list)
    refine: Callable[[frozenset[Cell]], list[Clause]] | None = None
    propagator: Callable[[], tuple["Propagator", Sequence[int]]] | None = None

    def var(self, *key: Any) -> int:
        """The variable named by ``key`` (created on first use)."""
        return self.pool.id(key)

    def add(self, clause: Clause) -> None:
        self.clauses.append(clause)

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

    def count_if(self, guard: list[int], lits: Sequence[int], k: int, relation: str, enc: str) -> None:
        """``all(guard) -> sum(lits) <relation> k``: each clause of the encoding is weakened by the
        negated guard, so the auxiliary variables are free when the guard fails."""
        relax = [-g for g in guard]
        self.extend([relax + cl for cl in cardinality(self.pool, lits, k, relation, enc)])

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


def cardinality(pool: "IDPool", lits: Sequence[int], k: int, relation: str, enc: str) -> list[Clause]:
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


def seqcounter_amo(pool: "IDPool", lits: Sequence[int]) -> list[Clause]:
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


#: (n, k) -> clause patterns of "exactly k of n" over positions (binomial), built once.
_EXACTLY: dict[tuple[int, int], list[list[tuple[int, bool]]]] = {}


def exactly_binomial(lits: Sequence[int], k: int) -> list[Clause]:
    """Exactly k of ``lits`` without auxiliaries (for the few literals around a clue): no k+1
    true together, no n-k+1 false together. Patterns are cached per (n, k)."""
    n = len(lits)
    patterns = _EXACTLY.get((n, k))
    if patterns is None:
        if k < 0 or k > n:
            patterns = [[]]
        else:
            patterns = [[(i, False) for i in sub] for sub in combinations(range(n), k + 1)]
            patterns += [[(i, True) for i in sub] for sub in combinations(range(n), n - k + 1)]
        _EXACTLY[(n, k)] = patterns
    return [tuple([lits[i] if positive else -lits[i] for i, positive in pattern]) for pattern in patterns]


def binomial(lits: list[int], k: int, relation: str) -> list[Clause]:
    """Auxiliary-free: at most k = no k+1 literals together; at least k = no n-k+1 all false."""
    if relation == "atmost":
        return [[-x for x in sub] for sub in combinations(lits, k + 1)]
    return [list(sub) for sub in combinations(lits, len(lits) - k + 1)]
