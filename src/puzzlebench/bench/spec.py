"""What a sweep is: suites x configurations x repetitions, expanded into keyed runs.

A sweep is written on the command line or in a TOML file with the same keys::

    suites = ["seed000", "puzzles/mine/"]     # bundled names, folders, janko JSON files, ...
    paradigms = ["asp", "sat"]                # default: every installed paradigm
    encodings = ["default"]
    count = 2
    repeat = 1
    timeout = 20.0
    memory = 2048                              # MB, per run
    out = "results/mine.jsonl"
    [options]
    connectivity = ["rank", "lazy"]           # cartesian product over all option lists

A run is (puzzle, family, paradigm, encoding, options, repetition). Its key hashes the puzzle's
id and content hash, the family, paradigm, encoding, the sorted non-default options, the answer
count and the repetition; resuming a sweep skips keys already stored.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .. import deduce as deduction
from .. import registry
from ..errors import EncodingError, PuzzleError, SolverUnavailable
from ..model import Family, Puzzle, family_spec


# -- puzzles across the process boundary -------------------------------------------------------
def puzzle_to_json(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle's constructor fields as JSON (cell sets and cell maps tagged), for the worker."""
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(puzzle):
        if f.name in ("name", "meta"):
            continue
        value = getattr(puzzle, f.name)
        if isinstance(value, frozenset):
            fields[f.name] = {"cells": sorted([list(c) for c in value])}
        elif isinstance(value, Mapping):
            fields[f.name] = {"map": [[r, c, v] for (r, c), v in value.items()]}
        elif isinstance(value, tuple):
            fields[f.name] = [list(row) for row in value]
        else:
            fields[f.name] = value
    return {"family": puzzle.family.value, "name": puzzle.name, "fields": fields}


def puzzle_from_json(data: Mapping[str, Any]) -> Puzzle:
    """Inverse of :func:`puzzle_to_json`."""
    cls = family_spec(data["family"]).puzzle_type
    kwargs: dict[str, Any] = {}
    for name, value in data["fields"].items():
        if isinstance(value, dict) and "cells" in value:
            kwargs[name] = frozenset(tuple(c) for c in value["cells"])
        elif isinstance(value, dict) and "map" in value:
            kwargs[name] = {(r, c): v for r, c, v in value["map"]}
        elif isinstance(value, list):
            kwargs[name] = tuple(tuple(row) for row in value)
        else:
            kwargs[name] = value
    return cls(name=data.get("name", ""), **kwargs)


# -- suites -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SuiteItem:
    """One puzzle of a suite, with its id and known number of solutions (if the suite says)."""

    puzzle: Puzzle
    id: str
    suite: str
    expected_count: int | None = None


def load_items(source: str) -> list[SuiteItem]:
    """The puzzles of a suite: a bundled name, a manifest, a folder, a corpus file, a generated suite.

    Reading is delegated to :func:`puzzlebench.suites.load_suite`; this adapts what it returns
    (puzzles, or entries carrying ``puzzle``/``id``/``solutions``) to :class:`SuiteItem`.
    """
    try:
        from ..suites import load_suite
    except ImportError as exc:
        raise PuzzleError(
            f"cannot read suite {source!r}: puzzlebench.suites is unavailable ({exc})"
        ) from None
    loaded = load_suite(source)
    name = str(getattr(loaded, "name", None) or getattr(loaded, "suite", None) or Path(str(source)).stem)
    entries = getattr(loaded, "entries", None) or getattr(loaded, "puzzles", None) or loaded
    return items_from(entries, name)


def items_from(entries: Iterable[Any], suite: str) -> list[SuiteItem]:
    """Adapt puzzles or suite entries to :class:`SuiteItem` (ids default to name or position)."""
    items: list[SuiteItem] = []
    for i, entry in enumerate(entries):
        if isinstance(entry, SuiteItem):
            items.append(entry)
            continue
        puzzle = entry if isinstance(entry, Puzzle) else getattr(entry, "puzzle", None)
        if not isinstance(puzzle, Puzzle):
            raise PuzzleError(f"suite {suite}: entry {i} is not a puzzle ({type(entry).__name__})")
        pid = getattr(entry, "id", None) if not isinstance(entry, Puzzle) else None
        expected = None if isinstance(entry, Puzzle) else getattr(entry, "solutions", None)
        if expected is None:
            expected = puzzle.meta.get("solutions")
        items.append(
            SuiteItem(
                puzzle=puzzle,
                id=str(pid or puzzle.name or f"{suite}#{i}"),
                suite=str(getattr(entry, "suite", None) or suite),
                expected_count=int(expected) if isinstance(expected, int) else None,
            )
        )
    return items


# -- runs ---------------------------------------------------------------------------------------
@cache
def _solver_version(paradigm: str, solver: str) -> str:
    try:
        return registry.solver(paradigm, solver or None).version()
    except EncodingError:
        return ""


@dataclass(frozen=True)
class Run:
    """One isolated solver run; ``task`` ("module:function") replaces solve in tests only."""

    item: SuiteItem
    paradigm: str
    encoding: str = "default"
    options: Mapping[str, Any] = field(default_factory=dict)
    count: int = 2
    repeat: int = 0
    timeout: float = 60.0
    memory_mb: int | None = None
    task: str | None = None
    solver: str = ""  # the paradigm's default solver when empty

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(sorted(self.options.items()))))
        if not self.solver and not self.task:
            try:
                object.__setattr__(self, "solver", registry.solver(self.paradigm).name)
            except EncodingError:
                pass

    @property
    def encoding_hash(self) -> str:
        """The content hash of the encoding this run executes ('' when it is not registered)."""
        try:
            return registry.get(self.puzzle.family, self.paradigm, self.encoding).content_hash()
        except EncodingError:
            return ""

    @property
    def puzzle(self) -> Puzzle:
        return self.item.puzzle

    @property
    def solver_version(self) -> str:
        """The version of the solver this run executes ('' for a test task)."""
        return "" if self.task else _solver_version(self.paradigm, self.solver)

    @property
    def key(self) -> str:
        """Hash of everything that defines the measurement: puzzle id + content, family,
        configuration (solver, its version and the encoding's content hash included), count,
        repetition, timeout, memory limit and the machine that measures. A stored record is
        reused by a resumed sweep only when all of these match."""
        from .metadata import machine_id

        ident = [
            self.item.id,
            self.puzzle.content_hash(),
            self.puzzle.family.value,
            self.paradigm,
            self.encoding,
            sorted((k, str(v)) for k, v in self.options.items()),
            self.count,
            self.repeat,
            self.task,
            self.solver,
            self.encoding_hash,
            self.solver_version,
            self.timeout,
            self.memory_mb,
            machine_id(),
        ]
        return hashlib.sha256(json.dumps(ident).encode()).hexdigest()[:20]

    @property
    def label(self) -> str:
        return make_label(self.paradigm, self.encoding, self.options, self.solver)

    def describe(self) -> dict[str, Any]:
        """The run description the worker reads on stdin (plugins and run-time registrations
        travel with it, so the worker knows every encoding and solver the parent knows)."""
        from .. import plugins

        return {
            "key": self.key,
            "puzzle": puzzle_to_json(self.puzzle),
            "paradigm": self.paradigm,
            "encoding": self.encoding,
            "solver": self.solver,
            "options": dict(self.options),
            "count": self.count,
            "timeout": self.timeout,
            "memory_mb": self.memory_mb,
            "task": self.task,
            "plugins": plugins.explicit(),
            # a builder pickled by reference must be importable in the worker as it is here
            "sys_path": [p for p in sys.path if p],
            "registrations": registry.shipped(self.puzzle.family, self.paradigm, self.encoding, self.solver),
        }

    @property
    def complete(self) -> bool | None:
        """Whether the configuration enforces every rule (known before running; None if unregistered)."""
        try:
            spec = registry.get(self.puzzle.family, self.paradigm, self.encoding)
            names = {opt.name for opt in spec.options}
            return spec.is_complete(spec.resolve({k: v for k, v in self.options.items() if k in names}))
        except EncodingError:
            return None

    def fields(self) -> dict[str, Any]:
        """The record fields the run itself determines (so even a crashed run's record has them)."""
        p = self.puzzle
        return {
            "key": self.key,
            "puzzle_id": self.item.id,
            "puzzle_hash": p.content_hash(),
            "suite": self.item.suite,
            "family": p.family.value,
            "rows": p.rows,
            "cols": p.cols,
            "paradigm": self.paradigm,
            "solver": self.solver,
            "encoding": self.encoding,
            "options": dict(self.options),
            "label": self.label,
            "complete": self.complete,
            "repeat": self.repeat,
            "expected_count": self.item.expected_count,
            "count_limit": self.count,
            "timeout": self.timeout,
            "memory_mb": self.memory_mb,
        }


def make_label(paradigm: str, encoding: str, options: Mapping[str, Any], solver: str = "") -> str:
    """``paradigm/encoding`` plus ``[k=v,...]`` for non-default options, and ``@solver`` when the
    solver is not the paradigm's default."""
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    label = f"{paradigm}/{encoding}" + (f"[{opts}]" if opts else "")
    try:
        default = registry.paradigm(paradigm).default_solver
    except EncodingError:
        default = solver
    return label + (f"@{solver}" if solver and solver != default else "")


def normalise_options(
    family: Family, paradigm: str, encoding: str, given: Mapping[str, Any], solver: str | None = None
) -> dict[str, Any] | None:
    """The options this configuration knows, parsed, minus those equal to their default.

    Options another encoding or backend declares are dropped (a sweep over several families
    shares one option list); an invalid value raises :class:`EncodingError`. None when the
    configuration is not registered. ``deduce`` names the deduction stage (every configuration
    but a peer's takes it), kept as the deduction's name unless it is the family's default.
    """
    try:
        spec = registry.get(family, paradigm, encoding)
        backend_opts = registry.solver(paradigm, solver).backend_class().OPTIONS
    except (EncodingError, SolverUnavailable):
        return None
    known = {opt.name: opt for opt in (*spec.options, *backend_opts)}
    out: dict[str, Any] = {}
    if "deduce" in given and not registry.paradigm(paradigm).peer:
        name = deduction.deducer(family, given["deduce"])
        if name != deduction.default_deduction(family):
            out["deduce"] = name
    for name, value in given.items():
        opt = known.get(name)
        if opt is None:
            continue
        parsed = opt.parse(value)
        if parsed != opt.default:
            out[name] = parsed
    return out


@dataclass
class Sweep:
    """A sweep definition: which puzzles, which configurations, what limits, where results go."""

    suites: Sequence[str] = ()
    paradigms: Sequence[str] = ()
    solvers: Sequence[
        str
    ] = ()  # solver names (each applies to its paradigm), "all"; default: each paradigm's own
    encodings: Sequence[str] = ("default",)
    options: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    families: Sequence[str] = ()
    count: int = 2
    repeat: int = 1
    timeout: float = 60.0
    memory_mb: int | None = 2048
    limit: int | None = None  # first N puzzles of each suite
    out: str = "results/sweep.jsonl"
    items: Sequence[SuiteItem] = ()  # puzzles given directly (Python API)
    task: str | None = None

    KEYS = (
        "suites",
        "paradigms",
        "solvers",
        "encodings",
        "options",
        "families",
        "count",
        "repeat",
        "timeout",
        "memory",
        "limit",
        "out",
        "jobs",
        "scheduler",
        "dask_local",
        "resume",
        "quiet",
    )

    def __post_init__(self) -> None:
        # Types and ranges first, each error naming its key (the TOML key / CLI flag: memory, not memory_mb).
        for key in ("suites", "paradigms", "solvers", "encodings", "families"):
            setattr(self, key, check_setting(key, getattr(self, key)))
        self.count = check_setting("count", self.count)
        self.repeat = check_setting("repeat", self.repeat)
        self.timeout = check_setting("timeout", self.timeout)
        self.memory_mb = check_setting("memory", self.memory_mb)
        self.limit = check_setting("limit", self.limit)
        self.out = check_setting("out", self.out)
        if self.task is not None and not isinstance(self.task, str):
            raise PuzzleError(f"task must be 'module:function', got {self.task!r}")
        if not isinstance(self.options, Mapping):
            raise PuzzleError(f"options must be a table of option lists, got {_shown(self.options)}")
        for fam in self.families:
            if fam not in Family:
                raise PuzzleError(f"unknown family {fam!r} (choose from {', '.join(map(str, Family))})")
        known = registry.paradigms()
        for paradigm in self.paradigms:
            if paradigm not in known:
                raise PuzzleError(f"unknown paradigm {paradigm!r} (choose from {', '.join(known)})")
        names = {s.name for s in registry.solvers()} | {"all"}
        for name in self.solvers:
            if name not in names:
                raise PuzzleError(f"unknown solver {name!r} (see `puzzlebench solvers`)")

    def solvers_of(self, paradigm: str) -> list[str]:
        """The solvers this sweep runs in ``paradigm``: those named for it, else its default."""
        if "all" in self.solvers:
            return [s.name for s in registry.solvers(paradigm) if s.supported()]
        named = [s.name for s in registry.solvers(paradigm) if s.name in self.solvers]
        return named or [registry.paradigm(paradigm).default_solver]

    def puzzles(self) -> list[SuiteItem]:
        items = list(self.items)
        for source in self.suites:
            loaded = load_items(source)
            items.extend(loaded[: self.limit] if self.limit is not None else loaded)
        if self.families:
            items = [i for i in items if i.puzzle.family.value in self.families]
        return items

    def expand(self, notes: list[str] | None = None) -> list[Run]:
        """Every run of the sweep, in order; unregistered configurations are skipped with a note."""
        notes = notes if notes is not None else []
        paradigms = list(self.paradigms) or registry.available()
        if self.solvers and not self.paradigms:  # the paradigms of the named solvers
            paradigms = list(
                dict.fromkeys(
                    s.paradigm for s in registry.solvers() if s.name in self.solvers or "all" in self.solvers
                )
            )
        names = sorted(self.options)
        combos = [dict(zip(names, values)) for values in itertools.product(*(self.options[n] for n in names))]
        runs: list[Run] = []
        seen: set[str] = set()
        skipped: set[tuple[str, str, str]] = set()
        for item in self.puzzles():
            family = item.puzzle.family
            configurations = [
                (paradigm, solver, encoding, combo)
                for paradigm in paradigms
                for solver in (self.solvers_of(paradigm) if not self.task else [""])
                for encoding in self.encodings
                for combo in combos
            ]
            for paradigm, solver, encoding, combo in configurations:
                options = normalise_options(family, paradigm, encoding, combo, solver or None)
                if options is None:
                    if (family.value, paradigm, encoding) not in skipped:
                        skipped.add((family.value, paradigm, encoding))
                        notes.append(f"skipped {family.value} {paradigm}/{encoding}: not registered")
                    continue
                for rep in range(self.repeat):
                    run = Run(
                        item,
                        paradigm,
                        encoding,
                        options,
                        self.count,
                        rep,
                        self.timeout,
                        self.memory_mb,
                        self.task,
                        solver,
                    )
                    if run.key not in seen:  # options another config ignores collapse to one run
                        seen.add(run.key)
                        runs.append(run)
        return runs


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: The sweep settings' rules: (test, what the value must be). ``None`` passes where allowed.
_SETTINGS: dict[str, tuple[Any, str, bool]] = {
    "count": (lambda v: _whole(v) and v >= 0, "a whole number >= 0 (0 = all answers)", False),
    "repeat": (lambda v: _whole(v) and v >= 1, "a whole number >= 1", False),
    "timeout": (
        lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0,
        "a positive, finite number of seconds",
        False,
    ),
    "memory": (lambda v: _whole(v) and v >= 1, "a positive whole number of MB", True),
    "limit": (lambda v: _whole(v) and v >= 1, "a positive whole number of puzzles", True),
    "out": (
        lambda v: isinstance(v, (str, os.PathLike)) and str(v).strip() != "",
        "a file path (a string)",
        False,
    ),
    "jobs": (lambda v: _whole(v) and v >= 1, "a positive whole number of runs", True),
    "dask_local": (lambda v: _whole(v) and v >= 1, "a positive whole number of workers", True),
    "scheduler": (lambda v: isinstance(v, str) and v.strip() != "", "a scheduler address (a string)", True),
    "resume": (lambda v: isinstance(v, bool), "true or false", True),
    "quiet": (lambda v: isinstance(v, bool), "true or false", True),
}
_LISTS = ("suites", "paradigms", "solvers", "encodings", "families")


def check_setting(key: str, value: Any) -> Any:
    """``value`` checked against the rule for sweep setting ``key`` (a one-line PuzzleError naming
    the key otherwise); list settings may be one string, returned as a one-item list."""
    if key in _LISTS:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v.strip() for v in value):
            raise PuzzleError(f"{key} must be a list of names (strings), got {_shown(value)}")
        return list(value)
    rule = _SETTINGS.get(key)
    if rule is None:
        return value
    test, what, optional = rule
    if value is None and optional:
        return value
    if not test(value):
        raise PuzzleError(f"{key} must be {what}, got {_shown(value)}")
    return value


def read_toml(path: str | os.PathLike) -> dict[str, Any]:
    """A sweep file's keys (see the module docstring); unknown keys are an error."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise PuzzleError(f"cannot read sweep file {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PuzzleError(f"sweep file {path}: {str(exc).splitlines()[0]}") from None
    except UnicodeDecodeError as exc:  # a binary file: tomllib reads UTF-8 only
        raise PuzzleError(
            f"sweep file {path} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} "
            f"at offset {exc.start}); a sweep file is TOML"
        ) from None
    unknown = sorted(set(data) - set(Sweep.KEYS))
    if unknown:
        raise PuzzleError(f"sweep file {path}: unknown key {unknown[0]!r} (valid: {', '.join(Sweep.KEYS)})")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise PuzzleError(f"sweep file {path}: [options] must be a table of lists")
    for key, values in options.items():
        for value in values if isinstance(values, list) else [values]:
            if (
                not isinstance(value, (str, int, float, bool))
                or isinstance(value, float)
                and not math.isfinite(value)
            ):
                raise PuzzleError(
                    f"sweep file {path}: option {key!r} must be a value or a list of values "
                    f"(strings, numbers, booleans), got {_shown(value)}"
                )
    data["options"] = {k: list(v) if isinstance(v, list) else [v] for k, v in options.items()}
    for key in list(data):
        if key == "options":
            continue
        try:
            data[key] = check_setting(key, data[key])
        except PuzzleError as exc:
            raise PuzzleError(f"sweep file {path}: {exc}") from None
    return data
