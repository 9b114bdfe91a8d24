"""Running an encoding on a backend: the one harness, the one clock.

:func:`solve` builds the encoding's artefact, hands it to the paradigm's backend, enumerates
answers, checks each with the independent verifier, and returns a :class:`Result` whose timings
come from ``time.perf_counter`` (wall) and ``time.process_time`` (CPU) for every paradigm alike.
"""

from __future__ import annotations

import time
import traceback
from typing import Any

from .. import registry
from ..encodings.base import BUILD_DEADLINE, BuildTimeout
from ..errors import EncodingError, SolverUnavailable, VerificationError
from ..model import Puzzle
from ..result import Result, Status, Timings
from .base import Backend

__all__ = ["Backend", "solve", "split_options"]


def split_options(spec, backend_cls: type[Backend], options: dict[str, Any]) -> tuple[dict, dict]:
    """Split user options into the encoding's and the backend's, parsed and with defaults."""
    backend_names = {opt.name for opt in backend_cls.OPTIONS}
    enc_given = {k: v for k, v in options.items() if k not in backend_names}
    enc = spec.resolve(enc_given)
    back = {opt.name: opt.parse(options.get(opt.name, opt.default)) for opt in backend_cls.OPTIONS}
    return enc, back


def solve(
    puzzle: Puzzle,
    paradigm: str = "sat",
    encoding: str = "default",
    count: int = 1,
    timeout: float | None = None,
    *,
    strict: bool = True,
    **options: Any,
) -> Result:
    """Solve ``puzzle`` with one paradigm's encoding.

    ``count=1`` finds an answer, ``count=2`` proves uniqueness, ``count=0`` enumerates all.
    ``options`` are the encoding's named options (see ``puzzlebench encodings``) and the
    backend's (e.g. ``solver="glucose4"`` for SAT, ``num_workers`` for CP).

    A complete encoding returning an answer the verifier rejects raises
    :class:`VerificationError` (``strict=True``) or yields status ``wrong``.
    Unknown encodings or options raise :class:`EncodingError`; a missing backend
    :class:`SolverUnavailable`.
    """
    if count < 0:
        raise EncodingError(f"count must be >= 0, got {count}")
    spec = registry.get(puzzle.family, paradigm, encoding)
    backend_cls = registry.backend(paradigm)
    if not backend_cls.supported():
        raise SolverUnavailable(backend_cls.unavailable_reason() or f"{paradigm} backend unavailable")
    enc_opts, back_opts = split_options(spec, backend_cls, options)
    complete = spec.is_complete(enc_opts)
    backend_cls.load()

    t0, c0 = time.perf_counter(), time.process_time()
    deadline = None if timeout is None else t0 + timeout
    backend = backend_cls(back_opts)
    answers: list = []
    violations: list = []
    t_build = t_first = None
    status = Status.ERROR
    error = None
    try:
        token = BUILD_DEADLINE.set(deadline)
        try:
            artifact = spec.build(puzzle, enc_opts)
        finally:
            BUILD_DEADLINE.reset(token)
        backend.build(artifact, deadline)
        t_build = time.perf_counter()
        if not backend.timed_out:
            for cells in backend.solutions(count, deadline):
                if t_first is None:
                    t_first = time.perf_counter() - t_build
                answer = puzzle.solution(cells)
                answers.append(answer)
                violations.append(tuple(puzzle.verify(answer)))
                if count and len(answers) >= count:
                    break
        if answers:
            status = Status.SAT
        elif backend.timed_out:
            status = Status.TIMEOUT
        else:
            status = Status.UNSAT
    except BuildTimeout:  # the encoding was still being built at the deadline
        backend.timed_out = True
        status = Status.TIMEOUT
    except (EncodingError, SolverUnavailable):
        backend.close()
        raise
    except Exception as exc:  # a backend failure becomes a recorded status
        error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
        status = Status.ERROR
    t_end, c_end = time.perf_counter(), time.process_time()
    if t_build is None:
        t_build = t_end
    size, search, extra = _safe(backend.size), _safe(backend.search), _safe(backend.extra)
    backend.close()

    rejected = [i for i, v in enumerate(violations) if v]
    if complete and rejected and status is Status.SAT:
        first = violations[rejected[0]]
        message = (
            f"{paradigm}/{encoding} returned an answer the verifier rejects on {puzzle.name or 'puzzle'}: "
            + "; ".join(str(v) for v in first[:3])
        )
        if strict:
            raise VerificationError(message)
        status, error = Status.WRONG, message

    return Result(
        family=puzzle.family,
        paradigm=paradigm,
        encoding=encoding,
        status=status,
        solutions=tuple(answers),
        exhausted=backend.exhausted and status in (Status.SAT, Status.UNSAT),
        complete=complete,
        options={**enc_opts, **back_opts},
        timings=Timings(
            build=t_build - t0,
            solve=t_end - t_build,
            first=t_first,
            total=t_end - t0,
            cpu=c_end - c0,
        ),
        size=size,
        search=search,
        backend=backend_cls.name,
        backend_version=_safe_version(backend_cls),
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
