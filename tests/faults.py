"""Test tasks the benchmark worker can run instead of ``solve`` (``task="faults:NAME"``).

The worker imports this module in the child process, so the tests put this folder on the
child's ``PYTHONPATH``. Each task takes ``(puzzle, run_description)`` and misbehaves in one
precise way, or answers honestly by brute force.
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Mapping
from typing import Any

from bruteforce import all_solutions
from puzzlebench.model import LightUp, Puzzle
from puzzlebench.result import Result, Status, Timings


def tiny_lightup(name: str = "tiny") -> LightUp:
    """A 3x3 Light Up around one plain wall: several answers, small enough for brute force."""
    return LightUp(3, 3, walls=frozenset({(1, 1)}), name=name)


def sleep_past_timeout(puzzle: Puzzle, desc: Mapping[str, Any]) -> dict:
    """Ignores its deadline: the parent must kill it."""
    time.sleep(600)
    return {"status": "sat"}


def allocate_past_limit(puzzle: Puzzle, desc: Mapping[str, Any]) -> dict:
    """Touches memory in 16 MB chunks until twice the run's limit."""
    chunks = []
    for _ in range(int(desc["memory_mb"]) * 2 // 16):
        chunks.append(bytearray(16 * 1024 * 1024))
    return {"status": "sat", "error": f"allocated {len(chunks) * 16} MB without hitting the limit"}


def abort_at_limit(puzzle: Puzzle, desc: Mapping[str, Any]) -> dict:
    """Fills memory up to the limit, then dies by SIGABRT as an uncaught C++ bad_alloc would."""
    import os

    chunks = []
    try:
        while True:
            chunks.append(bytearray(4 * 1024 * 1024))
    except MemoryError:
        os.abort()
    return {"status": "sat"}


def segfault(puzzle: Puzzle, desc: Mapping[str, Any]) -> dict:
    """Reads address 0: the child dies by SIGSEGV."""
    ctypes.string_at(0)
    return {"status": "sat"}


def exit_silently(puzzle: Puzzle, desc: Mapping[str, Any]) -> dict:
    """Leaves with a non-zero status and no result."""
    import os

    os._exit(3)


def brute(puzzle: Puzzle, desc: Mapping[str, Any]) -> Result:
    """An honest answer by exhaustive search, verified answers in a stable order."""
    t0 = time.perf_counter()
    found = sorted(all_solutions(puzzle), key=sorted)
    limit = int(desc["count"]) or len(found)
    answers = tuple(puzzle.solution(cells) for cells in found[:limit])
    elapsed = time.perf_counter() - t0
    time.sleep(float(desc["options"].get("delay", 0)))
    return Result(
        family=puzzle.family,
        paradigm=desc["paradigm"],
        encoding=desc["encoding"],
        status=Status.SAT if answers else Status.UNSAT,
        solutions=answers,
        exhausted=len(found) <= limit,
        complete=True,
        options=dict(desc["options"]),
        timings=Timings(build=0.0, solve=elapsed, first=elapsed, total=elapsed, cpu=elapsed),
        backend="bruteforce",
        backend_version="1",
        violations=tuple(tuple(puzzle.verify(a)) for a in answers),
    )


def load_suite(name: str) -> list[Puzzle]:
    """Stands in for ``puzzlebench.suites.load_suite`` in CLI tests: eight small random Light Ups."""
    import random

    from bruteforce import random_lightup

    rng = random.Random(name)
    return [random_lightup(rng, 5, 5).with_meta(name=f"{name}-{i}") for i in range(8)]
