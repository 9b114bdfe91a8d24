"""Running an encoding on a solver: the one harness, the one clock, the one enumeration loop.

:func:`solve` builds the encoding's artefact, hands it to the chosen solver's backend, and owns
everything that is the same for every paradigm: the deadline (one watchdog interrupts any solver
call still running at it), the enumeration loop (ask, read the answer on the puzzle's cells,
block exactly that assignment of the decision cells, ask again), the lazy rules' cuts (a
candidate the encoding's ``lazy`` rule rejects is not an answer: its cuts are added and the
solver asked again), and the independent verifier on every answer. Timings come from
``time.perf_counter`` (wall) and ``time.process_time`` (CPU) for every paradigm alike.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Iterator
from typing import Any

from .. import deduce as deduction
from .. import registry
from ..encodings.base import BUILD_DEADLINE, Artifact, BuildTimeout
from ..errors import EncodingError, SolverUnavailable, VerificationError
from ..model import Cell, Puzzle
from ..result import Result, Status, Timings
from .base import Backend
from .watchdog import armed

__all__ = ["Backend", "answers", "load", "solve", "split_options"]


def split_options(spec, backend_cls: type[Backend], options: dict[str, Any]) -> tuple[dict, dict]:
    """Split user options into the encoding's and the backend's, parsed and with defaults."""
    backend_names = {opt.name for opt in backend_cls.OPTIONS}
    enc_given = {k: v for k, v in options.items() if k not in backend_names}
    enc = spec.resolve(enc_given)
    back = {opt.name: opt.parse(options.get(opt.name, opt.default)) for opt in backend_cls.OPTIONS}
    return enc, back


def answers(
    backend: Backend, artifact: Artifact, limit: int, deadline: float | None, tally: dict[str, int]
) -> Iterator[frozenset[Cell]]:
    """The one enumeration loop: up to ``limit`` answers (0 = all) as sets of marked cells.

    Blocking clauses range over the decision cells only, so auxiliary variables never multiply
    counts. Sets ``backend.exhausted`` when the search space is explored and
    ``backend.timed_out`` when the deadline stopped it; counts lazy rounds, cuts and blocking
    clauses in ``tally``.
    """
    if backend.native_enumeration():
        with armed(deadline, backend.interrupt) as alarm:
            yield from backend.enumerate(limit, deadline)
        if alarm.fired:
            backend.timed_out, backend.exhausted = True, False
        return
    decision = list(artifact.decision)
    lazy = artifact.lazy
    found = 0
    while not limit or found < limit:
        if deadline is not None and time.perf_counter() >= deadline:
            backend.timed_out = True
            return
        with armed(deadline, backend.interrupt) as alarm:
            outcome = backend.check(deadline)
        if alarm.fired or outcome is None:  # an interrupted call's answer is not trusted
            backend.timed_out = True
            return
        if not outcome:
            backend.exhausted = True
            return
        cells = backend.marked()
        if lazy is not None:
            cuts = lazy(cells)
            if cuts:  # the candidate breaks a rule the solver was not told: cut it off, ask again
                tally["lazy_rounds"] = tally.get("lazy_rounds", 0) + 1
                tally["lazy_cuts"] = tally.get("lazy_cuts", 0) + len(cuts)
                for clause in cuts:
                    backend.add_clause(clause)
                continue
        found += 1
        yield cells
        if not decision:  # nothing to choose: the one answer was the only one
            backend.exhausted = True
            return
        # Block this answer on the decision cells only: some cell must differ.
        backend.block(cells, decision)
        tally["blocking_clauses"] = tally.get("blocking_clauses", 0) + 1


def _resolve(puzzle: Puzzle, paradigm: str, encoding: str, solver: str | None, deduce: str | None) -> tuple:
    """The encoding's spec, the solver's spec, its backend class and the deduction's name."""
    spec = registry.get(puzzle.family, paradigm, encoding)
    solver_spec = registry.solver(paradigm, solver)
    reason = solver_spec.unavailable_reason()
    if reason:
        raise SolverUnavailable(reason)
    peer = registry.paradigm(paradigm).peer
    deduce_name = deduction.NONE if peer else deduction.deducer(puzzle.family, deduce)
    return spec, solver_spec, solver_spec.backend_class(), deduce_name


def _load(puzzle: Puzzle, spec: Any, backend_cls: type[Backend], deduce_name: str) -> None:
    backend_cls.load()
    if spec.load is not None:
        spec.load()
    deduction.load(puzzle.family, deduce_name)


def load(
    puzzle: Puzzle,
    paradigm: str = "sat",
    encoding: str = "default",
    *,
    solver: str | None = None,
    deduce: str | None = None,
) -> None:
    """Import what :func:`solve` would import for this configuration (the solver's library, the
    encoding's and the deduction's modules) without starting its clock: an isolated worker calls
    it during its start-up, so the run's limit counts from the harness's start. Raises as
    :func:`solve` would for unknown names or a solver that is not installed."""
    spec, _, backend_cls, deduce_name = _resolve(puzzle, paradigm, encoding, solver, deduce)
    _load(puzzle, spec, backend_cls, deduce_name)


def solve(
    puzzle: Puzzle,
    paradigm: str = "sat",
    encoding: str = "default",
    count: int = 1,
    timeout: float | None = None,
    *,
    solver: str | None = None,
    deduce: str | None = None,
    strict: bool = True,
    **options: Any,
) -> Result:
    """Solve ``puzzle`` with one paradigm's encoding on one of its solvers.

    ``count=1`` finds an answer, ``count=2`` proves uniqueness, ``count=0`` enumerates all.
    ``encoding`` is a registered name or the path of an encoding file (``.lp``, ``.mzn``).
    ``solver`` names one of the paradigm's solvers (``puzzlebench solvers``; default: the
    paradigm's one default solver, e.g. ``cadical195`` for SAT, whatever the encoding or board; an
    encoding that needs what the solver cannot take, such as native cardinality constraints, is
    refused with the reason). ``deduce`` names the deduction stage (:mod:`puzzlebench.deduce`):
    ``auto`` or None, the family's default, the same for every paradigm; ``none``, the bare
    puzzle; or one of the family's deductions (``puzzlebench encodings --deductions``). Its
    settled cells are stated in the encoding's artefact, timed apart (``Result.timings.deduce``),
    and counted (``Result.settled``); peers (puzzlekit) always get the bare puzzle, and so does a
    relaxation (an option that drops a rule) unless a deduction is named.
    ``options`` are the encoding's named options (see ``puzzlebench encodings``) and the
    backend's (``num_workers`` for CP-SAT, ...).

    A complete encoding returning an answer the verifier rejects raises
    :class:`VerificationError` (``strict=True``) or yields status ``wrong``.
    Unknown encodings, solvers or options raise :class:`EncodingError`; a solver that is not
    installed :class:`SolverUnavailable`.
    """
    if count < 0:
        raise EncodingError(f"count must be >= 0, got {count}")
    spec, solver_spec, backend_cls, deduce_name = _resolve(puzzle, paradigm, encoding, solver, deduce)
    enc_opts, back_opts = split_options(spec, backend_cls, options)
    complete = spec.is_complete(enc_opts)
    # The family's deductions use every rule: a relaxation (a rule dropped) and a peer get the
    # bare puzzle unless a deduction is named.
    bare = registry.paradigm(paradigm).peer or (not complete and deduce in (None, deduction.AUTO))
    deduce_name = deduction.NONE if bare else deduction.deducer(puzzle.family, deduce)
    _load(puzzle, spec, backend_cls, deduce_name)

    # The CPU clock is read first: reading it is a system call, and on a loaded machine the
    # scheduler often switches away there, which the wall clock would bill to this run.
    c0 = time.process_time()
    t0 = time.perf_counter()
    deadline = None if timeout is None else t0 + timeout
    backend = backend_cls(back_opts, solver_spec.settings)
    found: list = []
    violations: list = []
    tally: dict[str, int] = {}
    t_deduce = t_build = t_first = None
    settled = 0
    contradiction = None
    status = Status.ERROR
    error = None
    with deduction.stage() as hand:
        try:
            token = BUILD_DEADLINE.set(deadline)
            try:
                # The deduction stage: what the rules settle, before any encoding is built.
                deduced = deduction.deduce(puzzle, deduce_name)
                t_deduce = time.perf_counter()
                hand(deduced)
                contradiction = deduced.contradiction
                artifact = None if contradiction else spec.build(puzzle, enc_opts)
            finally:
                BUILD_DEADLINE.reset(token)
            if artifact is None:  # the deduction proved that no answer exists: no solver is asked
                backend.exhausted = True
                t_build = time.perf_counter()
            else:
                artifact.fix(deduced.settled)
                settled = len(deduced.settled)
                if getattr(artifact, "native", None) and not getattr(backend, "native_cardinality", False):
                    artifact.clausal(
                        f"backend {backend_cls.name!r}"
                    )  # refused: it takes no native constraint
                backend.build(artifact, deadline)
                t_build = time.perf_counter()
                if not backend.timed_out:
                    for cells in answers(backend, artifact, count, deadline, tally):
                        if t_first is None:
                            t_first = time.perf_counter() - t_build
                        answer = puzzle.solution(cells)
                        found.append(answer)
                        violations.append(tuple(puzzle.verify(answer)))
                        if count and len(found) >= count:
                            break
            if found:
                status = Status.SAT
            elif backend.timed_out:
                status = Status.TIMEOUT
            else:
                status = Status.UNSAT
        except BuildTimeout:  # the deduction or the encoding was still running at the deadline
            backend.timed_out = True
            status = Status.TIMEOUT
        except (EncodingError, SolverUnavailable):
            backend.close()
            raise
        except Exception as exc:  # a backend failure becomes a recorded status
            error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
            status = Status.ERROR
    t_end, c_end = time.perf_counter(), time.process_time()
    if t_deduce is None:
        t_deduce = t_end
    if t_build is None:
        t_build = t_end
    size, search, extra = _safe(backend.size), _safe(backend.search), _safe(backend.extra)
    extra.update(tally)
    if contradiction:
        extra["contradiction"] = contradiction
    backend.close()

    rejected = [i for i, v in enumerate(violations) if v]
    if complete and rejected and status is Status.SAT:
        first = violations[rejected[0]]
        message = (
            f"{paradigm}/{encoding} on {solver_spec.name} returned an answer the verifier rejects on "
            f"{puzzle.name or 'puzzle'}: " + "; ".join(str(v) for v in first[:3])
        )
        if strict:
            raise VerificationError(message)
        status, error = Status.WRONG, message

    return Result(
        family=puzzle.family,
        paradigm=paradigm,
        encoding=spec.name,
        status=status,
        solutions=tuple(found),
        exhausted=backend.exhausted and status in (Status.SAT, Status.UNSAT),
        complete=complete,
        options={**enc_opts, **back_opts},
        deduce=deduce_name,
        settled=settled,
        timings=Timings(
            deduce=t_deduce - t0,
            build=t_build - t_deduce,
            solve=t_end - t_build,
            first=t_first,
            total=t_end - t0,
            cpu=c_end - c0,
        ),
        size=size,
        search=search,
        backend=backend_cls.name,
        backend_version=_safe_version(backend_cls),
        solver=solver_spec.name,
        solver_version=solver_spec.version(),
        encoding_hash=spec.content_hash(),
        violations=tuple(violations),
        error=error,
        extra=extra,
    )


def _safe(fn) -> dict:
    try:
        return dict(fn())
    except Exception:  # statistics are best effort; the run's outcome does not depend on them
        return {}


def _safe_version(cls: type[Backend]) -> str:
    try:
        return cls.version()
    except Exception:
        return "unknown"
