"""How an encoding is described: a named builder with named options.

An encoding turns a puzzle into the artefact its paradigm's backend consumes (an ASP program
and facts, a CNF, z3 assertions, a CP-SAT model). Variants are values of options of one
encoding, never copies: ``connectivity=rank`` and ``connectivity=lazy`` are the same encoding.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from ..errors import EncodingError
from ..model import Cell, Family, Puzzle

#: the family's own puzzle type, which an encoding's builder takes
P = TypeVar("P", bound=Puzzle)


@dataclass(frozen=True)
class Option:
    """One ablation axis: a named option, its default and its allowed values.

    ``relaxing`` lists values that drop a rule, making the encoding incomplete (it may accept
    answers the rules reject).
    """

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    description: str = ""
    relaxing: tuple[Any, ...] = ()

    def parse(self, value: Any) -> Any:
        """Coerce a command-line string to the default's type and check it is allowed."""
        if isinstance(value, str) and not isinstance(self.default, str):
            try:
                if isinstance(self.default, bool):
                    lowered = value.lower()
                    if lowered not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                        raise ValueError(value)
                    value = lowered in ("1", "true", "yes", "on")
                elif isinstance(self.default, int):
                    value = int(value)
                elif isinstance(self.default, float):
                    value = float(value)
            except ValueError:
                raise EncodingError(
                    f"option {self.name}: {value!r} is not a {type(self.default).__name__}"
                ) from None
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise EncodingError(f"option {self.name}: {value!r} is not one of {allowed}")
        return value


@dataclass(frozen=True)
class EncodingSpec(Generic[P]):
    """One entry of the registry: family x paradigm x name -> builder and metadata."""

    family: Family
    paradigm: str
    name: str
    build: Callable[[P, Mapping[str, Any]], Any]
    description: str
    origin: str = "new"  # "new", or the seed it ports: "seed000" ... "seed004", or a peer's name
    reference: str = ""
    options: tuple[Option, ...] = ()
    #: Values the builder reads besides its options, fixed for every run and recorded with them:
    #: how the encoding is tuned, not how it states a rule (see :func:`axes`).
    settings: Mapping[str, Any] = field(default_factory=dict)
    complete: bool = True  # False when the encoding drops a rule whatever its options
    #: Content hash of the encoding's source, when known up front (file encodings).
    source_hash: str | None = None
    #: Loads what the builder runs besides Python (a compiled engine from numba's cache);
    #: :func:`puzzlebench.solve` calls it before starting the clock, as it loads the backend's
    #: library, so a first solve in a fresh process is not billed for it.
    load: Callable[[], None] | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.family.value, self.paradigm, self.name)

    def content_hash(self) -> str:
        """A short hash of what this encoding runs: its file's content, or the source of the
        module that defines its builder (the builder's code when it has no file, e.g. in a
        notebook cell). Records carry it, and resuming never reuses a result of another one."""
        return self.source_hash or source_hash(self.build)

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)

    def resolve(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``given`` (parsed and checked); unknown names are an error."""
        given = dict(given or {})
        known = {opt.name for opt in self.options}
        unknown = sorted(set(given) - known)
        fixed = [name for name in unknown if name in self.settings]
        if fixed:
            raise EncodingError(
                f"{self.paradigm}/{self.name} for {self.family}: {fixed[0]!r} is a fixed setting of this encoding, "
                f"not an option (options: {', '.join(sorted(known)) or 'none'})"
            )
        if unknown:
            valid = ", ".join(sorted(known)) or "none"
            raise EncodingError(
                f"{self.paradigm}/{self.name} for {self.family}: unknown option {unknown[0]!r} (valid: {valid})"
            )
        return {
            **self.settings,
            **{opt.name: opt.parse(given.get(opt.name, opt.default)) for opt in self.options},
        }

    def is_complete(self, options: Mapping[str, Any]) -> bool:
        """Whether this encoding with these options enforces every rule of the family."""
        if not self.complete:
            return False
        return not any(options.get(opt.name, opt.default) in opt.relaxing for opt in self.options)

    def describe(self) -> dict[str, Any]:
        return {
            "family": self.family.value,
            "paradigm": self.paradigm,
            "encoding": self.name,
            "origin": self.origin,
            "complete": self.complete,
            "description": self.description,
            "reference": self.reference,
            "options": {
                opt.name: {
                    "default": opt.default,
                    "choices": list(opt.choices) if opt.choices is not None else None,
                    "relaxing": list(opt.relaxing),
                    "description": opt.description,
                }
                for opt in self.options
            },
        }


#: Source file hashes by (path, modification time, size).
_FILE_HASHES: dict[tuple[str, int, int], str] = {}


def source_hash(fn: Callable[..., Any]) -> str:
    """sha256 (16 hex digits) of the file defining ``fn``'s module, else of its code object."""
    fn = getattr(fn, "__wrapped__", fn)
    module = sys.modules.get(getattr(fn, "__module__", "") or "")
    path = getattr(module, "__file__", None)
    digest = hashlib.sha256()
    if path and module is not None and module.__name__ != "__main__":
        try:
            # Every solve records this hash: read the file again only when it has changed.
            stat = os.stat(path)
            key = (path, stat.st_mtime_ns, stat.st_size)
            if key not in _FILE_HASHES:
                with open(path, "rb") as fh:
                    digest.update(fh.read())
                _FILE_HASHES[key] = digest.hexdigest()[:16]
            return _FILE_HASHES[key]
        except OSError:
            pass
    _hash_code(getattr(fn, "__code__", None), digest)
    if getattr(fn, "__code__", None) is None:
        digest.update(repr(fn).encode())
    return digest.hexdigest()[:16]


def _hash_code(code: Any, digest: Any) -> None:
    if code is None:
        return
    digest.update(code.co_code)
    digest.update(repr(code.co_names).encode())
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            _hash_code(const, digest)
        else:
            digest.update(repr(const).encode())


def axes(spec: EncodingSpec, *names: str, **values: Any) -> EncodingSpec:
    """``spec`` offering only the options ``names`` (each a way of stating one rule); its other
    options become fixed settings, at their defaults or at ``values``."""
    missing = (set(names) | set(values)) - {opt.name for opt in spec.options}
    if missing:
        raise ValueError(f"{spec.key}: no option {sorted(missing)[0]!r}")
    kept = tuple(opt for opt in spec.options if opt.name in names)
    fixed = {
        opt.name: opt.parse(values.get(opt.name, opt.default))
        for opt in spec.options
        if opt.name not in names
    }
    return replace(spec, options=kept, settings={**spec.settings, **fixed})


def encoding(family: Family, paradigm: str, name: str, description: str, **kw: Any) -> Callable:
    """Decorator form: ``@encoding(Family.LIGHTUP, "sat", "default", "...", options=(...))``.

    The decorated builder is returned wrapped in an :class:`EncodingSpec`.
    """

    def wrap(build: Callable[[Puzzle, Mapping[str, Any]], Any]) -> EncodingSpec:
        return EncodingSpec(
            family=family, paradigm=paradigm, name=name, build=build, description=description, **kw
        )

    return wrap


@dataclass
class Artifact:
    """Common part of what encodings hand to backends: the decision cells, a lazy rule, notes.

    ``decision`` maps each cell that may be marked (bulb/black/lit) to the paradigm's handle for
    "this cell is marked"; enumeration blocks on these handles only. ``lazy``, when set, is a
    rule checked outside the solver: given a candidate's marked cells it returns the
    :data:`CellClause` cuts the candidate violates (``[]`` accepts it); the harness adds them and
    asks again. Each paradigm subclasses it with what its backend needs.
    """

    decision: dict = field(default_factory=dict)
    notes: dict[str, Any] = field(default_factory=dict)
    lazy: LazyRule | None = None

    def fix(self, settled: Mapping[Cell, bool]) -> int:
        """State the deduction stage's settled cells (cell -> marked) in this artefact, each as the
        paradigm states a fixed cell; returns how many were stated. A cell without a decision
        handle cannot be marked: a cell settled unmarked there needs nothing, and one settled
        marked is stated as a contradiction, should a deduction ever claim it."""
        stated = 0
        for cell, on in sorted(settled.items()):
            handle = self.decision.get(cell)
            if handle is None:
                if on:
                    self.fix_false()
                    stated += 1
                continue
            self.fix_cell(handle, on)
            stated += 1
        return stated

    def fix_cell(self, handle: Any, on: bool) -> None:
        """State that the cell whose decision handle is ``handle`` is marked (``on``) or not."""
        raise EncodingError(f"{type(self).__name__} cannot state the deduction stage's cells")

    def fix_false(self) -> None:
        """State a contradiction (the artefact then has no answer)."""
        raise EncodingError(f"{type(self).__name__} cannot state the deduction stage's cells")


#: A literal over the puzzle's cells: ``(cell, True)`` = "cell is marked", ``(cell, False)`` = not.
CellLiteral = tuple[Cell, bool]
#: A clause over cell literals: at least one holds (blocking clauses, lazy cuts).
CellClause = list[CellLiteral]
#: A lazy rule: the cuts a candidate (its marked cells) violates, ``[]`` when it is accepted.
LazyRule = Callable[[frozenset[Cell]], list[CellClause]]


# -- building against the clock -------------------------------------------------------------------
#: The deadline of the solve whose encoding is being built (set by :func:`puzzlebench.solve`).
BUILD_DEADLINE: ContextVar[float | None] = ContextVar("build_deadline", default=None)


class BuildTimeout(Exception):
    """The solve's deadline passed while its encoding was still being built in Python."""


def check_deadline() -> None:
    """Raise :class:`BuildTimeout` when the current solve's deadline has passed; builders whose
    size grows faster than the board (e.g. SAT's unary ranks) call it between passes."""
    deadline = BUILD_DEADLINE.get()
    if deadline is not None and time.perf_counter() > deadline:
        raise BuildTimeout
