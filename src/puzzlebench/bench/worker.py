"""The child side of one benchmark run: ``python -m puzzlebench.bench.worker RUN_DIR [PARENT_PID]``
(and the runner's janitor: ``... --janitor``, see :func:`janitor`).

The runner writes the run description (JSON, see :meth:`puzzlebench.bench.spec.Run.describe`)
to ``RUN_DIR/desc.json`` and starts this module with a pipe on stdin whose only writer is the
runner. Two processes then do one job each:

* The **solver** process reads the description, applies the memory limit, loads the solver's
  library and writes ``RUN_DIR/ready.json`` (start-up is over: the runner's hard limit counts
  from here), solves with ``strict=False`` and writes one JSON object to
  ``RUN_DIR/result.json`` (both written aside and renamed, so the runner never reads half a file). Solvers may print on stdout (the run's log);
  nothing the runner needs travels there.
* The **supervisor** (the process the runner started) forks the solver, stays small and idle, and:

  - reaps the solver with ``wait4`` and writes its exit status, own peak RSS and CPU time to
    ``RUN_DIR/exit.json``. Why not measure in the process the runner started: Linux carries a
    process's peak RSS across ``exec``, so a child of a parent holding 500 MB reports >= 500 MB
    from its own ``getrusage`` and from the parent's ``wait4`` alike, however little it uses
    itself. A process forked from the small supervisor starts from the supervisor's few MB
    instead.
  - watches the runner: end-of-file on stdin means the runner died, whatever killed it (SIGKILL
    included). The supervisor then kills the solver and everything left in the run's process
    group (and empties and removes the BenchExec cgroups it ran in), removes the run's files, and
    exits. No solver code runs in the supervisor, so nothing (a C extension holding the GIL, a
    grounder that cannot be interrupted) can keep it from noticing.
  - On Linux the solver also has ``PR_SET_PDEATHSIG = SIGKILL`` toward the supervisor: if the
    supervisor is killed (the runner's hard limit kills the whole group), the solver goes at once.

Memory limit: ``RLIMIT_DATA``, not ``RLIMIT_AS``. Since Linux 4.7 ``RLIMIT_DATA`` bounds every
private writable mapping (brk heap and anonymous ``mmap``), which is what solvers allocate, while
``RLIMIT_AS`` also charges address space that is only reserved (glibc's 64 MB per-thread malloc
arenas, thread stacks), so it fails multithreaded solvers (CP-SAT, z3) long before they use the
memory (CP-SAT with several workers aborts under an ``RLIMIT_AS`` a few times its real peak,
"cannot allocate memory for thread-local data", and solves under the same ``RLIMIT_DATA``).
An allocation over the limit surfaces as ``MemoryError`` (Python), ``std::bad_alloc``
(C++ backends) or an abort; all become ``memout`` here or in the parent.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import select
import shutil
import signal
import stat
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from typing import Any

from ..result import MEMORY_ERROR_MARKS

#: Prefix of the runner's per-run folder; the supervisor removes only folders named so.
RUN_DIR_PREFIX = "puzzlebench-run-"
#: Prefix of a local Dask cluster's scratch folder (``puzzlebench-dask-<parent pid>-...``).
DASK_DIR_PREFIX = "puzzlebench-dask-"
#: BenchExec's per-run folder (the run's $HOME and $TMPDIR) and per-run cgroups.
BENCHEXEC_DIR_PREFIX = "BenchExec_run_"
BENCHEXEC_CGROUP_PREFIX = "benchmark_"
#: Written by the solver process when its start-up is over (``{"monotonic": time.monotonic()}``
#: and its data segment, see :func:`_data_segment_mb`): the runner counts the run's hard limit,
#: and measures the start-up, up to this moment.
READY_FILE = "ready.json"
_PR_SET_PDEATHSIG = 1


def is_memory_error(text: str | None) -> bool:
    if not text:
        return False
    return any(mark in text for mark in MEMORY_ERROR_MARKS)


def limit_memory(memory_mb: int | None) -> None:
    """Cap the data segment (heap and anonymous mappings) of this process at ``memory_mb``."""
    if not memory_mb:
        return
    limit = int(memory_mb) * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def maxrss_mb(ru_maxrss: int) -> float:
    """``ru_maxrss`` in MB (KiB on Linux, bytes on macOS)."""
    return ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)


def peak_rss_self_mb() -> float:
    """This process's own peak RSS: ``VmHWM`` (per address space, so not inflated by what the
    parent held before ``exec``), else ``getrusage``."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return maxrss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _data_segment_mb() -> dict[str, float]:
    """``data_mb`` (``VmData``: what ``RLIMIT_DATA`` charges) and ``anon_mb`` (``RssAnon``: the part
    of it in memory) of this process, from ``/proc`` (empty where there is none)."""
    found: dict[str, float] = {}
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                key = {"VmData:": "data_mb", "RssAnon:": "anon_mb"}.get(
                    line.split(" ", 1)[0].split("\t", 1)[0]
                )
                if key:
                    found[key] = int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return {}
    return found


def _call_task(spec: str, puzzle: Any, desc: Mapping[str, Any]) -> Any:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)(puzzle, desc)


def _preload(puzzle: Any, desc: Mapping[str, Any]) -> None:
    """Import the solver's library and the encoding's modules before the run's clock starts
    (:func:`puzzlebench.solvers.load`); a failure here is left for the solve to raise and record."""
    from ..solvers import load

    options = desc.get("options") or {}
    try:
        load(
            puzzle,
            desc["paradigm"],
            desc["encoding"],
            solver=desc.get("solver") or None,
            deduce=options.get("deduce") if isinstance(options, Mapping) else None,
        )
    except MemoryError:
        raise
    except Exception:  # noqa: BLE001  (the solve raises it again, in its place)
        pass


def run(desc: Mapping[str, Any], run_dir: str | None = None) -> dict[str, Any]:
    """Solve (or call the test task) and describe the outcome as record fields. With ``run_dir``,
    :data:`READY_FILE` is written there once start-up is over, just before the solve."""
    from .. import plugins, registry
    from .spec import puzzle_from_json

    sys.path.extend(p for p in desc.get("sys_path", ()) if p not in sys.path)
    for name in desc.get("plugins", ()):
        plugins.load(name)
    registry.receive(desc.get("registrations", ()))
    puzzle = puzzle_from_json(desc["puzzle"])
    _preload(puzzle, desc)
    if run_dir is not None:
        # Rule: the run's limit counts from here (start-up done, the solver's library loaded)
        _write_json(os.path.join(run_dir, READY_FILE), {"monotonic": time.monotonic(), **_data_segment_mb()})
    if desc.get("task"):
        outcome = _call_task(desc["task"], puzzle, desc)
    else:
        from ..solvers import solve

        outcome = solve(
            puzzle,
            desc["paradigm"],
            desc["encoding"],
            count=desc["count"],
            timeout=desc["timeout"],
            solver=desc.get("solver") or None,
            strict=False,
            **desc["options"],
        )
    return outcome if isinstance(outcome, dict) else outcome.to_record()


def _write_json(path: str, data: Mapping[str, Any]) -> None:
    """Write aside, then rename: a reader sees the whole object or nothing."""
    tmp = path + ".part"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, default=str)
    os.replace(tmp, path)


def solve_in_this_process(run_dir: str) -> int:
    """The solver's job: description in, result out (every failure is a recorded status)."""
    with open(os.path.join(run_dir, "desc.json"), encoding="utf-8") as fh:
        desc = json.load(fh)
    try:
        limit_memory(desc.get("memory_mb"))
        fields = run(desc, run_dir)
    except MemoryError:
        fields = {"status": "memout", "error": "MemoryError: allocation over the memory limit"}
    except Exception as exc:  # every failure is a recorded status; the sweep goes on
        text = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
        fields = {"status": "memout" if is_memory_error(text) else "error", "error": text}
    fields["peak_rss_self_mb"] = peak_rss_self_mb()
    _write_json(os.path.join(run_dir, "result.json"), fields)
    return 0


# -- process care ------------------------------------------------------------------------------
def die_with_parent(parent_pid: int) -> None:
    """Linux: have the kernel SIGKILL this process when its parent dies (no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            return
    except (OSError, AttributeError):
        return
    # Rule: a parent that died before the prctl never sends the signal; check by hand once
    if os.getppid() != parent_pid:
        os._exit(1)


def _parent_pipe() -> int | None:
    """stdin when it is a pipe (the runner's watch line), else None (a hand-started worker)."""
    try:
        return 0 if stat.S_ISFIFO(os.fstat(0).st_mode) else None
    except OSError:
        return None


def own_cgroups() -> list[str]:
    """The folders of the cgroups this process is in, one per mounted hierarchy (v1 and v2)."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        with open("/proc/self/mounts", encoding="utf-8") as fh:
            mounts = [line.split() for line in fh]
    except OSError:
        return []
    roots: dict[str, str] = {}  # controller (or "" for the unified hierarchy) -> mount point
    for fields in mounts:
        if len(fields) >= 4 and fields[2] == "cgroup2":
            roots.setdefault("", fields[1])
        elif len(fields) >= 4 and fields[2] == "cgroup":
            for opt in fields[3].split(","):
                roots.setdefault(opt, fields[1])
    found = []
    for line in lines:
        _, controllers, path = line.split(":", 2)
        root = roots.get(controllers.split(",")[0] if controllers else "")
        if root:
            found.append(root.rstrip("/") + path)
    return found


def _benchexec_cgroups() -> list[str]:
    """Folders of the per-run BenchExec cgroups this process is in."""
    return [
        folder for folder in own_cgroups() if os.path.basename(folder).startswith(BENCHEXEC_CGROUP_PREFIX)
    ]


def remove_cgroup(folder: str, leave: bool = False) -> None:
    """Kill whatever is in the cgroup (and its children), then remove them, deepest first (best
    effort). ``leave``: this process is in it and moves to the parent first."""
    if leave:
        try:
            with open(os.path.join(os.path.dirname(folder), "cgroup.procs"), "w") as fh:
                fh.write(str(os.getpid()))
        except OSError:
            return
    for here, _, _ in sorted(os.walk(folder), key=lambda entry: -len(entry[0])):
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            try:
                with open(os.path.join(here, "cgroup.procs")) as fh:
                    pids = [int(p) for p in fh.read().split()]
            except OSError:
                break
            if not pids:
                break
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)
        try:
            os.rmdir(here)
        except OSError:
            pass


def _orphaned(solver: int, run_dir: str) -> None:
    """The runner is gone: kill the run, remove its files and cgroups, exit (never returns)."""
    try:
        os.kill(solver, signal.SIGKILL)
        os.waitpid(solver, 0)
    except OSError:
        pass
    for folder in _benchexec_cgroups():
        remove_cgroup(folder, leave=True)
    # Rule: only folders this run owns, known by name: the runner's, and BenchExec's ($TMPDIR's parent)
    owned = [(os.path.abspath(run_dir), RUN_DIR_PREFIX)]
    if os.environ.get("TMPDIR"):
        owned.append((os.path.dirname(os.path.abspath(os.environ["TMPDIR"])), BENCHEXEC_DIR_PREFIX))
    for folder, prefix in owned:
        if os.path.basename(folder).startswith(prefix):
            shutil.rmtree(folder, ignore_errors=True)
    if os.getpgid(0) == os.getpid():
        os.killpg(0, signal.SIGKILL)  # the rest of the run's process group, this process included
    os._exit(1)


def supervise(run_dir: str, parent_pid: int | None) -> int:
    """Fork the solver, watch it and the runner; write ``exit.json`` when the solver ends."""
    supervisor = os.getpid()
    solver = os.fork()
    if solver == 0:  # the solver: its exit status ends this branch (no cleanup of the supervisor here)
        die_with_parent(supervisor)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # solvers never share the runner's watch line
        os.close(null)
        sys.exit(solve_in_this_process(run_dir))
    with open(os.path.join(run_dir, "solver.pid"), "w", encoding="ascii") as fh:
        fh.write(str(solver))
    watch = _parent_pipe()
    try:
        exited = os.pidfd_open(solver)  # readable when the solver ends (Linux >= 5.3)
    except (AttributeError, OSError):
        exited = None
    while True:
        ready = select.select(
            [fd for fd in (watch, exited) if fd is not None], [], [], 0.5 if exited is not None else 0.02
        )[0]
        if watch is not None and watch in ready and not os.read(watch, 4096):
            _orphaned(solver, run_dir)  # end of file: the runner died
        if parent_pid and os.getppid() != parent_pid:
            _orphaned(solver, run_dir)  # reparented: the runner died (fallback without a pipe)
        pid, status, usage = os.wait4(solver, os.WNOHANG)
        if pid:
            break
    _write_json(
        os.path.join(run_dir, "exit.json"),
        {
            "exit_code": os.waitstatus_to_exitcode(status),
            "peak_rss_mb": maxrss_mb(usage.ru_maxrss),  # the solver's own, and its reaped children's
            "cpu_s": usage.ru_utime + usage.ru_stime,
        },
    )
    return 0


def janitor() -> int:
    """The runner's undertaker: ``python -m puzzlebench.bench.worker --janitor``, one per runner
    process, in a session of its own.

    Reads ``+ KIND PATH`` / ``- KIND PATH`` lines (KIND: ``dir`` or ``cgroup``) from the runner
    on stdin. At end-of-file (the runner died, or exited) it removes what is still registered:
    the processes left in each cgroup, the cgroups, the folders. It covers the moments when no
    supervisor exists: the run's folder made before the worker starts, BenchExec setting a run
    up or tearing it down (its cgroups and folder exist, the worker does not).
    """
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # Rule: only end-of-file ends the janitor
    held: dict[str, set[str]] = {"dir": set(), "cgroup": set()}
    for raw in sys.stdin.buffer:
        op, kind, path = raw.decode("utf-8", errors="replace").rstrip("\n").split(" ", 2)
        if kind in held:
            (held[kind].add if op == "+" else held[kind].discard)(path)
    # Rule: only what a run owns, known by name (a bad line can never remove anything else)
    for folder in held["cgroup"]:
        if os.path.basename(folder).startswith(BENCHEXEC_CGROUP_PREFIX):
            remove_cgroup(folder)
    for folder in held["dir"]:
        if os.path.basename(folder).startswith((RUN_DIR_PREFIX, BENCHEXEC_DIR_PREFIX, DASK_DIR_PREFIX)):
            shutil.rmtree(folder, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--janitor"]:
        return janitor()
    if len(argv) not in (1, 2) or not os.path.isdir(argv[0]):
        print(
            "usage: python -m puzzlebench.bench.worker RUN_DIR [PARENT_PID]  (RUN_DIR holds desc.json)",
            file=sys.stderr,
        )
        return 2
    run_dir, parent_pid = argv[0], int(argv[1]) if len(argv) == 2 else None
    # Rule: fork only while single-threaded (a fork after threads can deadlock the child)
    if hasattr(os, "fork") and threading.active_count() == 1:
        return supervise(run_dir, parent_pid)
    return solve_in_this_process(run_dir)


if __name__ == "__main__":
    raise SystemExit(main())
