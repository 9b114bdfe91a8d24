"""The child process of one benchmark run: ``python -m puzzlebench.bench.worker RESULT_PATH``.

Reads the run description (JSON, see :meth:`puzzlebench.bench.spec.Run.describe`) on stdin,
applies the memory limit, solves with ``strict=False`` and writes one JSON object to
``RESULT_PATH`` (written aside and renamed, so the parent never reads half a result).
Solvers may print on stdout; nothing the parent needs travels there.

Memory limit: ``RLIMIT_DATA``, not ``RLIMIT_AS``. Since Linux 4.7 ``RLIMIT_DATA`` bounds every
private writable mapping (brk heap and anonymous ``mmap``), which is what solvers allocate, while
``RLIMIT_AS`` also charges address space that is only reserved (glibc's 64 MB per-thread malloc
arenas, thread stacks), so it fails multithreaded solvers (CP-SAT, z3) long before they use the
memory (measured: CP-SAT with 8 workers aborts under ``RLIMIT_AS`` = 512 MB, "cannot allocate
memory for thread-local data", at a real peak of 135 MB; under ``RLIMIT_DATA`` = 512 MB it solves).
An allocation over the limit surfaces as ``MemoryError`` (Python), ``std::bad_alloc``
(C++ backends) or an abort; all become ``memout`` here or in the parent.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import sys
import traceback
from typing import Any, Mapping

from ..result import MEMORY_ERROR_MARKS

def is_memory_error(text: str | None) -> bool:
    return bool(text) and any(mark in text for mark in MEMORY_ERROR_MARKS)


def limit_memory(memory_mb: int | None) -> None:
    """Cap the data segment (heap and anonymous mappings) of this process at ``memory_mb``."""
    if not memory_mb:
        return
    limit = int(memory_mb) * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def _call_task(spec: str, puzzle: Any, desc: Mapping[str, Any]) -> Any:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)(puzzle, desc)


def run(desc: Mapping[str, Any]) -> dict[str, Any]:
    """Solve (or call the test task) and describe the outcome as record fields."""
    from .spec import puzzle_from_json

    from .. import plugins, registry

    sys.path.extend(p for p in desc.get("sys_path", ()) if p not in sys.path)
    for name in desc.get("plugins", ()):
        plugins.load(name)
    registry.receive(desc.get("registrations", ()))
    puzzle = puzzle_from_json(desc["puzzle"])
    if desc.get("task"):
        outcome = _call_task(desc["task"], puzzle, desc)
    else:
        from ..solvers import solve

        outcome = solve(
            puzzle, desc["paradigm"], desc["encoding"], count=desc["count"], timeout=desc["timeout"],
            solver=desc.get("solver") or None, strict=False, **desc["options"],
        )
    return outcome if isinstance(outcome, dict) else outcome.to_record()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m puzzlebench.bench.worker RESULT_PATH  (run description on stdin)", file=sys.stderr)
        return 2
    out_path = argv[0]
    desc = json.load(sys.stdin)
    try:
        limit_memory(desc.get("memory_mb"))
        fields = run(desc)
    except MemoryError:
        fields = {"status": "memout", "error": "MemoryError: allocation over the memory limit"}
    except Exception as exc:  # every failure is a recorded status; the sweep goes on
        text = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
        fields = {"status": "memout" if is_memory_error(text) else "error", "error": text}
    fields["peak_rss_self_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tmp = out_path + ".part"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(fields, fh, default=str)
    os.replace(tmp, out_path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
