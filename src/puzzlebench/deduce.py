"""The deduction stage: what follows from a puzzle's rules before any solver is called.

A deduction reads the puzzle and returns :class:`Deductions`: the cells it settled (marked or
not in every answer), the family's derived facts (Nurikabe's island plan, each Kuromasu number's
feasible views), or a contradiction (no answer exists). It runs between reading a puzzle and
encoding it, on the harness's clock as a stage of its own, and every paradigm's encoding gets
its result alike: the harness states the settled cells in the encoding's artefact (unit clauses,
fixed Booleans, fixed columns, integrity constraints; :meth:`Artifact.fix`), and an encoding that
can use a derived fact reads it with :func:`current`. ``deduce="none"`` hands every encoding the
bare puzzle. A family registers its deductions in one place (:func:`register_deducer`); the
first one it registers with ``default=True`` is what every paradigm of the family gets unless the
user asks otherwise.

The stage is called deduction, not presolve: CP-SAT's, HiGHS's and clasp's own preprocessing
stay options of those solvers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from .errors import EncodingError
from .model import Cell, Family, Puzzle

__all__ = [
    "AUTO",
    "NONE",
    "Deducer",
    "Deductions",
    "current",
    "deduce",
    "deducer",
    "deducers",
    "default_deduction",
    "register_deducer",
]

#: The bare puzzle: no deduction at all.
NONE = "none"
#: The family's default deduction (the same for every paradigm of the family).
AUTO = "auto"


@dataclass(frozen=True)
class Deductions:
    """What one deduction found on one puzzle.

    ``settled`` maps a cell to whether it is marked (bulb, black, shaded, lit, wall) in every
    answer; ``facts`` holds the family's derived facts, keyed by name; ``contradiction`` says why
    the puzzle has no answer, when the deduction proved that.
    """

    name: str = NONE
    settled: Mapping[Cell, bool] = field(default_factory=dict)
    facts: Mapping[str, Any] = field(default_factory=dict)
    contradiction: str | None = None

    @property
    def marked(self) -> frozenset[Cell]:
        return frozenset(cell for cell, on in self.settled.items() if on)

    @property
    def unmarked(self) -> frozenset[Cell]:
        return frozenset(cell for cell, on in self.settled.items() if not on)


#: What ``deduce="none"`` yields.
BARE = Deductions()


@dataclass(frozen=True)
class Deducer:
    """One registered deduction of a family: a function of the puzzle alone."""

    family: Family
    name: str
    run: Callable[[Puzzle], Deductions]
    description: str
    reference: str = ""
    #: Loads what the deduction runs besides Python (a compiled engine from numba's cache), before
    #: the solve's clock starts, as an encoding's ``load`` does.
    load: Callable[[], None] | None = None


_DEDUCERS: dict[Family, dict[str, Deducer]] = {}
_DEFAULTS: dict[Family, str] = {}


def register_deducer(
    family: Family | str,
    name: str,
    run: Callable[[Puzzle], Deductions],
    description: str,
    reference: str = "",
    default: bool = False,
    load: Callable[[], None] | None = None,
) -> Deducer:
    """Add a deduction to ``family``; ``default=True`` makes it what every paradigm gets by default."""
    fam = Family(family)
    if name in (NONE, AUTO):
        raise EncodingError(f"a deduction may not be called {name!r}")
    spec = Deducer(fam, name, run, description, reference, load)
    _DEDUCERS.setdefault(fam, {})[name] = spec
    if default:
        _DEFAULTS[fam] = name
    return spec


def _load() -> None:
    from . import deductions  # noqa: F401  (the built-in families' deductions register on import)


def deducers(family: Family | str) -> list[Deducer]:
    """The deductions registered for ``family``."""
    _load()
    return list(_DEDUCERS.get(Family(family), {}).values())


def default_deduction(family: Family | str) -> str:
    """The name of ``family``'s default deduction (``none`` when it has none)."""
    _load()
    return _DEFAULTS.get(Family(family), NONE)


def deducer(family: Family | str, name: str | None) -> str:
    """The deduction ``name`` resolves to for ``family`` (``None`` and ``auto``: the default),
    checked to exist."""
    name = AUTO if name is None else str(name)
    if name == AUTO:
        return default_deduction(family)
    if name == NONE:
        return NONE
    known = {d.name for d in deducers(family)}
    if name not in known:
        valid = ", ".join([AUTO, NONE, *sorted(known)])
        raise EncodingError(f"deduce: {name!r} is not a deduction of {Family(family).value} (valid: {valid})")
    return name


def load(family: Family | str, name: str) -> None:
    """Load what the deduction ``name`` (already resolved) runs besides Python."""
    spec = _DEDUCERS.get(Family(family), {}).get(name)
    if spec is not None and spec.load is not None:
        spec.load()


def deduce(puzzle: Puzzle, name: str | None = AUTO) -> Deductions:
    """Run the deduction ``name`` (resolved by :func:`deducer`) on ``puzzle``."""
    resolved = deducer(puzzle.family, name)
    if resolved == NONE:
        return BARE
    found = _DEDUCERS[puzzle.family][resolved].run(puzzle)
    return (
        found
        if found.name == resolved
        else Deductions(resolved, found.settled, found.facts, found.contradiction)
    )


#: The deductions of the solve in progress, for the encodings that use a derived fact.
_CURRENT: ContextVar[Deductions] = ContextVar("puzzlebench_deductions", default=BARE)


def current() -> Deductions:
    """The deductions handed to the encoding being built (``none``'s when there are none)."""
    return _CURRENT.get()


@contextmanager
def stage() -> Iterator[Callable[[Deductions], None]]:
    """A solve's deduction stage: yields ``hand(found)``, which makes ``found`` what
    :func:`current` returns until the stage ends."""
    tokens = []

    def hand(found: Deductions) -> None:
        tokens.append(_CURRENT.set(found))

    try:
        yield hand
    finally:
        for token in reversed(tokens):
            _CURRENT.reset(token)
