"""The one Result shape every backend returns, whatever its paradigm."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .model import Family, Solution, Violation

#: Error texts that mean an allocation failed: Python's, C++'s, glibc's (``strerror(ENOMEM)``,
#: "Cannot allocate memory") and the native libraries' own wording, such as OpenBLAS's "Memory
#: allocation still failed after 10 retries" at numpy's import under a low limit.
MEMORY_ERROR_MARKS: tuple[str, ...] = (
    "MemoryError",
    "bad_alloc",
    "out of memory",
    "Out of memory",
    "Out Of Memory",
    "memory exhausted",
    "annot allocate memory",
    "emory allocation failed",
    "emory allocation still failed",
    "ailed to allocate",
    "too many memory regions",
)


class Status(str, Enum):
    """Outcome of one solver run.

    ``sat``/``unsat``/``timeout``/``error`` come from :func:`puzzlebench.solve`; ``wrong`` marks a
    complete encoding whose answer the verifier rejected (only when not raising); the benchmark
    runner adds ``crash`` and ``memout`` for child processes that died.
    """

    SAT = "sat"
    UNSAT = "unsat"
    TIMEOUT = "timeout"
    ERROR = "error"
    WRONG = "wrong"
    CRASH = "crash"
    MEMOUT = "memout"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Timings:
    """Seconds on the harness's one clock (``time.perf_counter``) plus process CPU time.

    ``deduce`` is the deduction stage (:mod:`puzzlebench.deduce`), ``build`` encoding +
    grounding/loading, ``solve`` all search (first answer and the enumeration after it),
    ``first`` the time from the start of search to the first answer; ``total`` is all of them.
    ``startup`` is an isolated run's start-up before the harness's clock starts (the child process,
    its imports, loading the solver's library; measured by the runner), not part of ``total``.
    """

    deduce: float = 0.0
    build: float = 0.0
    solve: float = 0.0
    first: float | None = None
    total: float = 0.0
    cpu: float = 0.0
    startup: float = 0.0


@dataclass(frozen=True)
class Result:
    """What one solver run found, and what it cost.

    ``size`` keys (as the paradigm has them): atoms, rules, bodies (ASP); variables, clauses,
    literals (SAT); variables, constraints (CP-SAT); assertions, bool_vars, int_vars (SMT).
    ``search`` keys: choices, conflicts, propagations, restarts (plus backend-specific extras).
    """

    family: Family
    paradigm: str
    encoding: str
    status: Status
    solutions: tuple[Solution, ...] = ()
    exhausted: bool = False
    complete: bool = True
    options: Mapping[str, Any] = field(default_factory=dict)
    #: The deduction stage that ran (``none``: the bare puzzle) and the settled cells it stated.
    deduce: str = "none"
    settled: int = 0
    timings: Timings = Timings()
    size: Mapping[str, int] = field(default_factory=dict)
    search: Mapping[str, float] = field(default_factory=dict)
    backend: str = ""
    backend_version: str = ""
    solver: str = ""
    solver_version: str = ""
    encoding_hash: str = ""
    violations: tuple[tuple[Violation, ...], ...] = ()
    error: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.solutions)

    @property
    def solution(self) -> Solution | None:
        return self.solutions[0] if self.solutions else None

    @property
    def verified(self) -> bool:
        """True when every returned answer passes the independent verifier."""
        return all(not v for v in self.violations)

    @property
    def unique(self) -> bool | None:
        """True/False once enumeration is exhausted or passed one answer; None if unknown."""
        if self.count >= 2:
            return False
        if self.exhausted:
            return self.count == 1
        return None

    def stats(self) -> dict[str, Any]:
        """Timings, sizes and search figures in one flat dict (the CLI's ``stats``)."""
        t = self.timings
        out: dict[str, Any] = {
            "deduce_s": t.deduce,
            "build_s": t.build,
            "solve_s": t.solve,
            "first_s": t.first,
            "total_s": t.total,
            "cpu_s": t.cpu,
            "startup_s": t.startup,
        }
        out.update({f"size_{k}": v for k, v in self.size.items()})
        out.update({f"search_{k}": v for k, v in self.search.items()})
        out["deduce"] = self.deduce
        out["settled"] = self.settled
        out["solver"] = self.solver
        out["solver_version"] = self.solver_version
        out["backend"] = self.backend
        out["backend_version"] = self.backend_version
        out["encoding_hash"] = self.encoding_hash
        return out

    def to_record(self) -> dict[str, Any]:
        """The one flat run record (JSON-ready, timings unrounded) that ``bench``, ``crosscheck``,
        ``analysis`` and ``benchmarks/`` store and read; ``puzzlebench.results.load`` makes rows
        of it. ``verdict`` is the verifier's: ``valid`` / ``invalid`` / ``none`` (no answer)."""
        digests = [s.digest() for s in self.solutions]
        if not self.solutions:
            verdict = "none"
        elif self.verified:
            verdict = "valid"
        else:
            verdict = "invalid"
        t = self.timings
        status = self.status
        # Rule: an allocation failure inside the harness is a memout, not a generic error
        if status is Status.ERROR and self.error and any(mark in self.error for mark in MEMORY_ERROR_MARKS):
            status = Status.MEMOUT
        record: dict[str, Any] = {
            "family": self.family.value,
            "paradigm": self.paradigm,
            "encoding": self.encoding,
            "encoding_hash": self.encoding_hash,
            "solver": self.solver,
            "solver_version": self.solver_version,
            "status": status.value,
            "verdict": verdict,
            "count": len(self.solutions),
            "exhausted": bool(self.exhausted),
            "complete": bool(self.complete),
            # the answer when there is one; the sorted set of answers when several
            "solution_hash": digests[0] if len(digests) == 1 else (",".join(sorted(digests)) or None),
            "solution_hashes": digests,
            "deduce": self.deduce,
            "settled": self.settled,
            "time_deduce": t.deduce,
            "time_build": t.build,
            "time_solve": t.solve,
            "time_first": t.first,
            "time_total": t.total,
            "time_cpu": t.cpu,
            "time_startup": t.startup,
            "resolved_options": dict(self.options),
            "backend": self.backend,
            "backend_version": self.backend_version,
            "error": self.error,
            "extra": dict(self.extra),
        }
        record.update({f"size_{k}": v for k, v in self.size.items()})
        record.update({f"search_{k}": v for k, v in self.search.items()})
        return record

    def to_json(self, rows: int | None = None, cols: int | None = None) -> dict[str, Any]:
        """The JSON object of ``puzzlebench solve --json``."""
        return {
            "kind": self.family.value,
            "rows": rows,
            "cols": cols,
            "paradigm": self.paradigm,
            "encoding": self.encoding,
            "options": dict(self.options),
            "complete": self.complete,
            "status": self.status.value,
            "count": self.count,
            "exhausted": self.exhausted,
            "solutions": [s.sorted() for s in self.solutions],
            "verified": self.verified,
            "error": self.error,
            "stats": self.stats(),
        }
