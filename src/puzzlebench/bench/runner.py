"""Executing runs: one isolated child per run, executors that schedule them, the sweep loop.

:func:`execute` is the unit of work everywhere (the sequential loop, ``-j N`` threads, Dask
tasks). It writes the run description into a fresh ``puzzlebench-run-*`` folder, starts
``python -m puzzlebench.bench.worker`` (a small supervisor that forks the solver, see
:mod:`.worker`) with a pipe on stdin that only this process writes, enforces the hard wall-clock
limit from here (clingo's grounding cannot be interrupted and z3's timeouts are soft), and
classifies the outcome. Two runners measure a run; each record names its own (``runner``):

* ``benchexec`` where BenchExec's ``RunExecutor`` works (it needs cgroups): the run's processes
  share per-run cgroups, so ``peak_rss_mb`` (the cgroup's peak) and ``time_cpu_run`` cover all of
  them, and the kill at the end reaches all of them, even those that left the process group.
* ``subprocess`` otherwise: a new session, SIGKILL to the whole group at the hard limit;
  ``peak_rss_mb`` and ``time_cpu_run`` are the solver process's own (and its reaped children's),
  measured by the worker's supervisor with ``wait4``: never the parent's memory, which Linux
  carries into a child's ``getrusage`` across ``exec``.

``PUZZLEBENCH_RUNNER=auto|benchexec|subprocess`` chooses (default ``auto``: BenchExec if usable).

A parent that goes away takes its runs with it:

* SIGINT, SIGTERM or SIGHUP during :func:`run_sweep`: every running child is killed (process
  group, and cgroup under BenchExec), its folder removed, nothing more is stored (records are
  appended whole, so the results file stays whole), and the sweep raises :class:`SweepInterrupted`
  (a ``KeyboardInterrupt``: the CLI exits with status 130). Signals ignored on entry (``nohup``)
  stay ignored.
* SIGKILL, or any other death: the worker's supervisor sees end-of-file on its stdin, kills the
  run and removes its folder (and BenchExec's); the solver also dies by ``PR_SET_PDEATHSIG``.
  For the moments when no supervisor exists (our folder made, the worker not started yet;
  BenchExec setting a run up or tearing it down), each runner process has a janitor process
  that is told every run folder (BenchExec's goes inside ours) and cgroup the moment it is
  made and removed, and removes what is left when the runner dies (:func:`.worker.janitor`).
  Last, the next process that runs a benchmark removes leftovers nobody refers to
  (:func:`sweep_leftovers`): our folders at once when the pid in their name is dead, other
  folders and BenchExec's cgroups once :data:`STALE_AFTER` seconds old.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..errors import PuzzleError
from . import metadata
from .spec import Run
from .store import ResultStore, read_records

#: Seconds the parent waits past a run's timeout, counted from the moment the child is ready
#: (start-up over, see :data:`.worker.READY_FILE`), before killing it: the harness noticing its
#: own deadline and writing its result.
KILL_GRACE = 0.4
#: Seconds a child may take to become ready (interpreter, imports, loading the solver's library)
#: before it is killed as a crash; its start-up is recorded apart (``time_startup``).
STARTUP_LIMIT = 60.0
#: A child killed by a signal counts as ``memout`` when its own peak RSS reached this share of the limit.
MEMOUT_RSS_SHARE = 0.9
#: Under BenchExec the run's cgroup is capped this far above the per-process limit (the
#: supervisor, file cache), so a single process over ``memory_mb`` fails cleanly first
#: (MemoryError, bad_alloc) and the cgroup bounds all the run's processes together.
CGROUP_HEADROOM_MB = 64
#: Seconds to reach a Dask scheduler before giving up with a clear error.
DASK_CONNECT_TIMEOUT = 5.0
#: Age (s) after which a run folder or BenchExec cgroup that no process uses is a leftover.
STALE_AFTER = 120.0
FAILURE_STATUSES = frozenset({"timeout", "error", "wrong", "crash", "memout"})
RUNNERS = ("benchexec", "subprocess")
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class SweepInterrupted(KeyboardInterrupt):
    """A sweep stopped by SIGINT, SIGTERM or SIGHUP after killing its running children."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(f"sweep interrupted by {signal.Signals(signum).name}")


# -- stopping on signals -----------------------------------------------------------------------
#: The signal that asked the current sweep to stop (None: keep going). Set only by the handler,
#: read by every run's wait loop (threads included): each run then kills its own child.
_stop_signal: int | None = None


def _request_stop(signum: int, frame: Any) -> None:
    global _stop_signal
    _stop_signal = signum


@contextmanager
def _stop_on_signals() -> Iterator[None]:
    """Within: SIGINT/SIGTERM/SIGHUP ask the running runs to stop (main thread only)."""
    global _stop_signal
    _stop_signal = None
    installed: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in STOP_SIGNALS:
            previous = signal.getsignal(sig)
            if previous is signal.SIG_IGN:
                continue  # Rule: a signal ignored on entry (nohup) stays ignored
            installed[sig] = signal.SIG_DFL if previous is None else previous
            signal.signal(sig, _request_stop)
    try:
        yield
    finally:
        for sig, previous in installed.items():
            signal.signal(sig, previous)
        _stop_signal = None


# -- choosing the runner -----------------------------------------------------------------------
_benchexec_lock = threading.Lock()
_benchexec_state: tuple[bool, str] | None = None  # (usable, why not), probed once per process
_thread = threading.local()  # one RunExecutor per thread (each run's state lives in it)


class _BenchExecTempfile:
    """The ``tempfile`` module as BenchExec sees it (its modules that make folders get this).

    During a run of this thread, BenchExec's per-run folder (the run's $HOME and $TMPDIR) is
    made inside our run folder, so one folder holds all of a run's files; and every cgroup it
    makes (with ``mkdtemp`` in the cgroup hierarchy) is told to the janitor the moment it exists.
    Outside runs (BenchExec's own checks) it is plain ``tempfile``.
    """

    def __getattr__(self, name: str) -> Any:
        return getattr(tempfile, name)

    def mkdtemp(self, suffix: str | None = None, prefix: str | None = None, dir: str | None = None) -> str:
        run_dir = getattr(_thread, "run_dir", None)
        if run_dir is None:
            return tempfile.mkdtemp(suffix, prefix, dir)
        if dir is None:  # BenchExec's per-run folder
            return tempfile.mkdtemp(suffix, prefix, run_dir)
        path = tempfile.mkdtemp(suffix, prefix, dir)  # a cgroup of the run
        _thread.cgroups.append(path)
        _janitor_tell("+", "cgroup", path)
        return path


def _new_run_executor() -> Any:
    saved = sys.dont_write_bytecode  # benchexec's import switches .pyc writing off process-wide
    try:
        from benchexec import cgroupsv1, cgroupsv2, runexecutor
    finally:
        sys.dont_write_bytecode = saved
    for module in (runexecutor, cgroupsv1, cgroupsv2):
        module.tempfile = _BenchExecTempfile()
    return runexecutor.RunExecutor(use_namespaces=False)


def benchexec_status() -> tuple[bool, str]:
    """Whether BenchExec can measure runs here, and if not, why (probed once per process)."""
    global _benchexec_state
    with _benchexec_lock:
        if _benchexec_state is None:
            _benchexec_state = _probe_benchexec()
        return _benchexec_state


def _probe_benchexec() -> tuple[bool, str]:
    import logging

    if not sys.platform.startswith("linux"):
        return False, "BenchExec needs Linux cgroups"
    root = logging.getLogger()
    quiet = logging.Filter("benchexec-probe-silenced")  # drops every record: the probe's own noise
    root.addFilter(quiet)
    try:
        rx = _new_run_executor()
    except ImportError:
        return False, "benchexec is not installed"
    except (Exception, SystemExit) as exc:  # cgroups missing or not writable, ...
        return False, f"BenchExec's RunExecutor failed: {type(exc).__name__}: {exc}"
    finally:
        root.removeFilter(quiet)
    groups = rx.cgroups
    needed = {"memory": groups.MEMORY, "cpuacct": groups.CPU, "freezer": groups.FREEZE}
    missing = [name for name, subsystem in needed.items() if subsystem not in groups]
    if missing:
        return False, f"cgroup controllers not usable: {', '.join(missing)}"
    _thread.run_executor = rx
    return True, ""


def _run_executor() -> Any:
    rx = getattr(_thread, "run_executor", None)
    if rx is None:
        rx = _thread.run_executor = _new_run_executor()
    return rx


def choose_runner(requested: str | None = None) -> str:
    """``benchexec`` or ``subprocess``: as requested (argument, else ``$PUZZLEBENCH_RUNNER``,
    else ``auto``), BenchExec only where it works."""
    requested = requested or os.environ.get("PUZZLEBENCH_RUNNER") or "auto"
    if requested not in (*RUNNERS, "auto"):  # a user's setting: a PuzzleError, printed as one line
        raise PuzzleError(
            f"unknown runner {requested!r} in PUZZLEBENCH_RUNNER (choose from auto, {', '.join(RUNNERS)})"
        )
    if requested == "subprocess":
        return requested
    usable, why = benchexec_status()
    if requested == "benchexec" and not usable:
        raise PuzzleError(f"PUZZLEBENCH_RUNNER=benchexec cannot work here: {why}")
    return "benchexec" if usable else "subprocess"


# -- leftovers of parents killed at an unlucky moment ------------------------------------------
_janitor_lock = threading.Lock()
_janitor: subprocess.Popen | None = None
_swept = False


def _janitor_tell(op: str, kind: str, path: str) -> None:
    """``+``/``-`` a folder or cgroup on the janitor's list (started at the first call)."""
    global _janitor
    with _janitor_lock:
        if _janitor is None or _janitor.poll() is not None:
            try:
                _janitor = subprocess.Popen(
                    [sys.executable, "-m", "puzzlebench.bench.worker", "--janitor"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    start_new_session=True,
                )
            except OSError:
                return
        stdin = _janitor.stdin
        assert stdin is not None  # started with stdin=PIPE
        try:
            stdin.write(f"{op} {kind} {path}\n".encode())
            stdin.flush()
        except OSError:  # the janitor is gone: the next call starts another
            pass


def _mentioned(names: Sequence[str]) -> set[str]:
    """The ``names`` that occur in some process's command line or environment (Linux)."""
    found: set[str] = set()
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return set(names)  # cannot tell: everything counts as in use
    for pid in pids:
        for part in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{part}", "rb") as fh:
                    data = fh.read()
            except OSError:
                continue
            found.update(n for n in names if n.encode() in data)
    return found


def sweep_leftovers() -> None:
    """Remove run folders and empty BenchExec cgroups left by a parent killed when no supervisor
    could clean up (once per process; never what a live process refers to)."""
    global _swept
    with _benchexec_lock:
        if _swept or not sys.platform.startswith("linux"):
            return
        _swept = True
    from .worker import (
        BENCHEXEC_CGROUP_PREFIX,
        BENCHEXEC_DIR_PREFIX,
        DASK_DIR_PREFIX,
        RUN_DIR_PREFIX,
        own_cgroups,
    )

    now = time.time()

    def stale(path: str) -> bool:
        try:
            return now - os.stat(path).st_mtime > STALE_AFTER
        except OSError:
            return False

    def owner_gone(name: str) -> bool:  # our folders carry their parent's pid: puzzlebench-run-<pid>-...
        prefix = next((p for p in (RUN_DIR_PREFIX, DASK_DIR_PREFIX) if name.startswith(p)), None)
        pid = name[len(prefix) :].split("-")[0] if prefix else ""
        return pid.isdigit() and not os.path.exists(f"/proc/{pid}")

    tmp = tempfile.gettempdir()
    try:
        folders = [
            e
            for e in os.listdir(tmp)
            if e.startswith((RUN_DIR_PREFIX, BENCHEXEC_DIR_PREFIX, DASK_DIR_PREFIX))
        ]
    except OSError:
        folders = []
    # Rule: a folder is a leftover when its parent is dead, or (BenchExec's) when it is old
    folders = [e for e in folders if owner_gone(e) or stale(os.path.join(tmp, e))]
    if folders:
        used = _mentioned(folders)  # a live run's worker names its folder (argv, or $TMPDIR under BenchExec)
        for name in folders:
            if name not in used:
                shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)
    for parent in own_cgroups():
        try:
            children = [e for e in os.listdir(parent) if e.startswith(BENCHEXEC_CGROUP_PREFIX)]
        except OSError:
            continue
        for name in children:
            folder = os.path.join(parent, name)
            if stale(folder):
                try:
                    os.rmdir(folder)  # refused (EBUSY) while any process is in it
                except OSError:
                    pass


# -- one run -----------------------------------------------------------------------------------
@dataclass
class _Ended:
    """How the process the runner started ended, as the runner saw it."""

    runner: str
    code: int  # exit code; negative: killed by that signal
    wall: float
    killed: bool = False  # by the hard wall-clock limit
    stopped: bool = False  # by the sweep's stop request
    memory_exceeded: bool = False  # BenchExec: the cgroup reached its memory limit
    peak_mb: float | None = None  # BenchExec: the cgroup's peak; subprocess: sampled VmHWM of the solver
    cpu_s: float | None = None  # BenchExec: the cgroup's CPU time
    startup: float | None = None  # seconds from the start to the child's ready mark; None: never ready
    run: float | None = None  # seconds from the ready mark to the end seen (exit, or our kill)
    unresident_mb: float = 0.0  # see _Clock.unresident_mb


def _tail(path: str, most: int = 2000) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - most))
            return fh.read().decode("utf-8", errors="replace").strip()
    except OSError:
        return ""


def _read_json(path: str) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)  # the worker leads its own process group
    except (ProcessLookupError, PermissionError):
        pass


class _Clock:
    """The run's hard deadline: :data:`STARTUP_LIMIT` from the start until the child is ready,
    then ``timeout + grace`` from the ready mark (the child's own ``time.monotonic``, the one
    system-wide clock, so the start-up never eats into the run's limit)."""

    def __init__(self, run_dir: str, timeout: float, kill_grace: float):
        from .worker import READY_FILE  # imported here: see execute

        self.path = os.path.join(run_dir, READY_FILE)
        self.timeout, self.kill_grace = timeout, kill_grace
        self.start = time.monotonic()
        self.ready: float | None = None
        self.ended: float | None = None
        #: Data segment the child held without using at its ready mark (reserved buffers of its
        #: libraries): charged by ``RLIMIT_DATA``, never in its resident set.
        self.unresident_mb = 0.0
        self.deadline = self.start + STARTUP_LIMIT

    def expired(self) -> bool:
        now = time.monotonic()
        if self.ready is None and os.path.exists(self.path):
            data = _read_json(self.path) or {}
            mark = data.get("monotonic")
            if isinstance(data.get("data_mb"), (int, float)) and isinstance(
                data.get("anon_mb"), (int, float)
            ):
                self.unresident_mb = max(0.0, float(data["data_mb"]) - float(data["anon_mb"]))
            mark = float(mark) if isinstance(mark, (int, float)) else now
            self.ready = min(max(mark, self.start), now)
            self.deadline = self.ready + self.timeout + self.kill_grace
        return now >= self.deadline

    def end(self) -> None:
        """Mark the end of the run (its exit seen, or the kill sent); the first mark counts."""
        self.expired()  # a ready mark written after the last look still ends the start-up
        if self.ended is None:
            self.ended = time.monotonic()

    @property
    def startup(self) -> float | None:
        return None if self.ready is None else self.ready - self.start

    @property
    def run(self) -> float | None:
        """Seconds from the ready mark to the end: what the run's limit bounds."""
        return None if self.ready is None or self.ended is None else max(0.0, self.ended - self.ready)


def _worker_command(run_dir: str) -> list[str]:
    return [sys.executable, "-m", "puzzlebench.bench.worker", run_dir, str(os.getpid())]


class _PeakSampler:
    """The solver's own peak RSS (``VmHWM``) read from ``/proc`` while it runs: the only
    measure left for a solver killed before its supervisor could reap it (the hard limit)."""

    def __init__(self, run_dir: str):
        self.pid_path = os.path.join(run_dir, "solver.pid")
        self.status_path: str | None = None
        self.peak: float | None = None

    def sample(self) -> None:
        try:
            if self.status_path is None:
                with open(self.pid_path, encoding="ascii") as fh:
                    self.status_path = f"/proc/{int(fh.read())}/status"
            with open(self.status_path, encoding="ascii", errors="replace") as fh:
                for line in fh:
                    if line.startswith("VmHWM:"):
                        self.peak = max(self.peak or 0.0, int(line.split()[1]) / 1024)
                        return
        except (OSError, ValueError):
            pass


def _run_subprocess(run_dir: str, timeout: float, kill_grace: float) -> _Ended:
    """The fallback runner: new session, poll, SIGKILL to the group at the hard limit or on stop."""
    watch_r, watch_w = os.pipe()  # the worker's stdin; our end closes only after the run is over
    try:
        with open(os.path.join(run_dir, "output.log"), "wb") as log:
            start = time.perf_counter()
            clock = _Clock(run_dir, timeout, kill_grace)
            proc = subprocess.Popen(
                _worker_command(run_dir),
                stdin=watch_r,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
    except BaseException:
        os.close(watch_w)
        raise
    finally:
        os.close(watch_r)
    killed = stopped = False
    sampler = _PeakSampler(run_dir)
    try:
        pause = 0.002
        # Wait for the exit without reaping (WNOWAIT): the zombie keeps the group id reserved,
        # so killing the group afterwards cannot hit an unrelated process.
        while os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            if _stop_signal is not None:
                stopped = True  # Rule: a sweep's stop request kills the run now
                break
            if clock.expired():
                killed = True  # Rule: the parent's wall-clock limit is hard; the whole group goes
                break
            sampler.sample()
            time.sleep(pause)
            pause = min(pause * 1.5, 0.02)
    finally:
        clock.end()
        _kill_group(proc.pid)  # on timeout, leftovers (solver helpers), or an interrupted parent
        _, wait_status, _ = os.wait4(proc.pid, 0)  # its rusage would include our memory: unused
        os.close(watch_w)  # only now: the supervisor reads a close as the parent's death
    wall = time.perf_counter() - start
    return _Ended(
        "subprocess",
        os.waitstatus_to_exitcode(wait_status),
        wall,
        killed=killed,
        stopped=stopped,
        peak_mb=sampler.peak,
        startup=clock.startup,
        run=clock.run,
        unresident_mb=clock.unresident_mb,
    )


def _run_benchexec(run_dir: str, timeout: float, kill_grace: float, memory_mb: int | None) -> _Ended:
    """BenchExec's RunExecutor: per-run cgroups measure and kill every process of the run."""
    rx = _run_executor()
    watch_r, watch_w = os.pipe()
    finished = threading.Event()
    killed: list[bool] = []
    stopped: list[bool] = []
    start = time.perf_counter()
    clock = _Clock(run_dir, timeout, kill_grace)

    def watch() -> None:
        # Rule: the hard limit and a sweep's stop request kill the worker's process group here
        # (BenchExec's own wall-time check can be a second late); BenchExec then kills the rest
        # of the cgroup
        while not finished.wait(0.02):
            if _stop_signal is None and not clock.expired():
                continue
            clock.end()
            try:
                pids = list(rx.SUB_PROCESS_PIDS)
            except RuntimeError:  # the set changed while copied; try again
                continue
            for pid in pids:
                _kill_group(pid)
            if pids:
                (stopped if _stop_signal is not None else killed).append(True)
                return

    watcher = threading.Thread(target=watch, name="puzzlebench-run-watch", daemon=True)
    watcher.start()
    _thread.run_dir, _thread.cgroups = run_dir, []  # see _BenchExecTempfile
    try:
        result = rx.execute_run(
            _worker_command(run_dir),
            output_filename=os.path.join(run_dir, "output.log"),
            stdin=watch_r,
            walltimelimit=math.ceil(STARTUP_LIMIT + timeout + kill_grace) + 2,
            write_header=False,  # BenchExec's limit: a backstop
            memlimit=(int(memory_mb) + CGROUP_HEADROOM_MB) * 1024 * 1024 if memory_mb else None,
        )
    finally:
        finished.set()
        watcher.join()
        os.close(watch_r)
        os.close(watch_w)  # after BenchExec killed the cgroup: the supervisor reads a close as our death
        _thread.run_dir = None
        for path in _thread.cgroups:  # BenchExec removed them
            _janitor_tell("-", "cgroup", path)
    wall = result.get("walltime", time.perf_counter() - start)
    reason = result.get("terminationreason")
    exit_code = result.get("exitcode")
    code = (
        -exit_code.signal
        if exit_code is not None and exit_code.signal
        else getattr(exit_code, "value", 0) or 0
    )
    memory = result.get("memory")
    clock.end()  # after a kill, the kill's moment stays; else BenchExec's return (teardown included)
    return _Ended(
        "benchexec",
        code,
        wall,
        killed=bool(killed) or reason in ("walltime", "cputime", "cputime-soft"),
        stopped=bool(stopped),
        memory_exceeded=reason == "memory",
        peak_mb=memory / (1024 * 1024) if memory is not None else None,
        cpu_s=result.get("cputime"),
        startup=clock.startup,
        run=clock.run,
        unresident_mb=clock.unresident_mb,
    )


def execute(
    desc: Mapping[str, Any], kill_grace: float | None = None, runner: str | None = None
) -> dict[str, Any]:
    """Run one description in its own child process; return the record fields it determines."""
    kill_grace = KILL_GRACE if kill_grace is None else kill_grace
    timeout = float(desc["timeout"])
    memory_mb = desc.get("memory_mb")
    if _stop_signal is not None:  # the sweep is stopping: start nothing more
        return {"status": "error", "error": "not run: the sweep was interrupted"}
    from .worker import RUN_DIR_PREFIX  # imported here: `python -m` warns when the package preloads it

    runner = choose_runner(runner)
    sweep_leftovers()
    run_dir = tempfile.mkdtemp(prefix=f"{RUN_DIR_PREFIX}{os.getpid()}-")  # the pid: see sweep_leftovers
    _janitor_tell("+", "dir", run_dir)
    try:
        with open(os.path.join(run_dir, "desc.json"), "w", encoding="utf-8") as fh:
            json.dump(desc, fh)
        ended = None
        if runner == "benchexec":
            try:
                ended = _run_benchexec(run_dir, timeout, kill_grace, memory_mb)
            except Exception as exc:  # BenchExec broke before measuring: this run, and the next, without it
                _disable_benchexec(f"{type(exc).__name__}: {exc}")
                for name in ("exit.json", "result.json", "solver.pid", "output.log"):
                    try:
                        os.unlink(os.path.join(run_dir, name))
                    except OSError:
                        pass
        if ended is None:
            ended = _run_subprocess(run_dir, timeout, kill_grace)
        fields = _outcome(ended, run_dir, timeout, memory_mb)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
        _janitor_tell("-", "dir", run_dir)
    fields.update(
        runner=ended.runner,
        versions=metadata.versions(),
        git_commit=metadata.git_commit(),
        python=metadata.python_version(),
        machine=metadata.machine(),
        timestamp=metadata.timestamp(),
        load_avg=metadata.load_average(),  # how busy the machine was: timings under load are slower
    )
    return fields


def _disable_benchexec(why: str) -> None:
    global _benchexec_state
    with _benchexec_lock:
        _benchexec_state = (False, f"BenchExec failed during a run: {why}")


def _outcome(ended: _Ended, run_dir: str, timeout: float, memory_mb: int | None) -> dict[str, Any]:
    """The record fields from the runner's view, the supervisor's ``exit.json`` and the result."""
    solver = _read_json(os.path.join(run_dir, "exit.json"))  # the supervisor's account of the solver
    result = _read_json(os.path.join(run_dir, "result.json"))
    if ended.runner == "benchexec":
        peak, cpu = ended.peak_mb, ended.cpu_s  # the cgroup: every process of the run
    else:  # Rule: the solver's own peak: reaped by its supervisor, else its own report, else sampled
        peak = (solver or {}).get("peak_rss_mb") or (result or {}).get("peak_rss_self_mb") or ended.peak_mb
        cpu = (solver or {}).get("cpu_s")
    if ended.stopped:
        fields: dict[str, Any] = {"status": "error", "error": "killed: the sweep was interrupted"}
    else:
        code = solver["exit_code"] if solver and not ended.killed else ended.code
        fields = _classify(
            code,
            ended.killed,
            result,
            _tail(os.path.join(run_dir, "output.log")),
            timeout,
            memory_mb,
            peak,
            ended.memory_exceeded,
            ended.startup,
            ended.unresident_mb,
        )
    fields["time_wall"] = ended.wall
    fields["time_startup"] = ended.startup
    fields["time_run"] = ended.run
    fields["peak_rss_mb"] = peak
    fields["time_cpu_run"] = cpu
    return fields


def _classify(
    code: int,
    killed: bool,
    result: dict[str, Any] | None,
    log: str,
    timeout: float,
    memory_mb: int | None,
    peak_mb: float | None,
    memory_exceeded: bool = False,
    startup: float | None = 0.0,
    unresident_mb: float = 0.0,
) -> dict[str, Any]:
    """Status from how the child ended: our kill, its own report, the cgroup's limit, or a signal.
    ``startup``: seconds until the child was ready (None: it never was); ``unresident_mb``: the
    part of the memory limit its libraries had reserved without using at that moment."""
    from .worker import is_memory_error

    if killed and startup is None:
        return {
            "status": "crash",
            "error": f"killed: not ready to solve within the start-up limit of {STARTUP_LIMIT:g} s"
            + (f": {log[-500:]}" if log else ""),
        }
    if killed:
        return {
            "status": "timeout",
            "error": f"killed at the hard limit ({timeout:g} s + grace, counted after a {startup:.2f} s start-up)",
        }
    if result is not None:
        result.setdefault("status", "error")
        return result
    if memory_exceeded:
        return {
            "status": "memout",
            "error": f"killed at the cgroup's memory limit ({memory_mb} MB + headroom)"
            + (f": {log[-500:]}" if log else ""),
        }
    if code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        # Rule: a death after hitting the limit is a memout (allocation failure text, or the run's
        # own peak RSS at the limit, less what its libraries reserved unused, when the signal is
        # one an allocation failure raises: abort or kill, not a segfault); a kill from outside
        # below the limit stays a crash
        near_limit = (
            memory_mb is not None
            and bool(memory_mb)
            and peak_mb is not None
            and peak_mb >= MEMOUT_RSS_SHARE * (float(memory_mb) - min(unresident_mb, float(memory_mb) / 2))
            and -code in (signal.SIGABRT, signal.SIGKILL, signal.SIGBUS)
        )
        status = "memout" if is_memory_error(log) or near_limit else "crash"
        return {"status": status, "error": f"child killed by {name}" + (f": {log[-500:]}" if log else "")}
    return {
        "status": "memout" if is_memory_error(log) else "crash",
        "error": f"child exited with status {code} without a result" + (f": {log[-500:]}" if log else ""),
    }


# -- executors ---------------------------------------------------------------------------------
Started = Callable[[Mapping[str, Any]], None]


class SequentialExecutor:
    """One run at a time (the default: the cleanest timings)."""

    jobs = 1

    def map(
        self, descs: Sequence[Mapping[str, Any]], started: Started | None = None
    ) -> Iterator[tuple[str, dict]]:
        for desc in descs:
            if started:
                started(desc)
            yield desc["key"], execute(desc)


class ThreadExecutor:
    """``jobs`` runs at once: threads that each wait on their own child process."""

    def __init__(self, jobs: int):
        if jobs < 1:
            raise ValueError(f"jobs must be >= 1, got {jobs}")
        self.jobs = jobs

    def map(
        self, descs: Sequence[Mapping[str, Any]], started: Started | None = None
    ) -> Iterator[tuple[str, dict]]:
        with ThreadPoolExecutor(self.jobs) as pool:
            futures = {pool.submit(execute, d): d for d in descs}
            try:
                for fut in as_completed(futures):
                    yield futures[fut]["key"], _result_or_crash(fut.result)
            finally:
                for fut in futures:
                    fut.cancel()


#: Seconds a Dask sweep waits with no worker connected before it says so (and again after each
#: further such stretch): a scheduler whose workers are all gone would otherwise wait in silence.
DASK_IDLE_WARN = 60.0


class NoWorkersWarning(UserWarning):
    """A Dask sweep is waiting on a scheduler that has no workers."""


class _IdleWatch:
    """Asks the scheduler, at most once a second, whether any worker is connected; warns after
    :data:`DASK_IDLE_WARN` seconds without one."""

    def __init__(self, client: Any, address: str):
        self.client, self.address = client, address
        self.since: float | None = None
        self.said = 0
        self.next_check = 0.0

    def check(self, waiting: int) -> None:
        now = time.monotonic()
        if now < self.next_check:
            return
        self.next_check = now + min(1.0, DASK_IDLE_WARN / 4)
        try:
            workers = len(self.client.nthreads())
        except Exception:  # the scheduler itself is unreachable: the futures will fail on their own
            return
        if workers:
            self.since, self.said = None, 0
            return
        self.since = self.since if self.since is not None else now
        if now - self.since >= DASK_IDLE_WARN * (self.said + 1):
            self.said += 1
            warnings.warn(
                f"no Dask worker has been connected to {self.address} for {now - self.since:.0f} s; "
                f"{waiting} run(s) waiting (start workers with 'dask worker {self.address}', or interrupt)",
                NoWorkersWarning,
                stacklevel=2,
            )


class DaskExecutor:
    """Runs as Dask tasks; each task still launches the isolated child inside its worker.

    ``address`` connects to a running scheduler (an unreachable one is a clear error after
    :data:`DASK_CONNECT_TIMEOUT` seconds); ``local`` starts a ``LocalCluster`` of that many
    single-threaded worker processes, whose scratch space lives in a temporary folder removed
    on :meth:`close`. Results come back as they complete.
    """

    def __init__(self, address: str | None = None, local: int | None = None):
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover - a dependency of the package
            raise RuntimeError(f"the Dask executor needs dask[distributed]: {exc}") from None
        if (address is None) == (local is None):
            raise ValueError("give exactly one of a scheduler address or a local worker count")
        if local is not None and local < 1:  # Rule: 0 workers would run nothing; not a silent fallback
            raise PuzzleError(f"--dask-local needs N >= 1 worker processes, got {local}")
        self._cluster = None
        self._scratch: str | None = None
        self.address = address or "a local cluster"
        if address is None:
            # Rule: Dask's scratch space ("dask-scratch-space") in a folder of ours, removed on close
            # (the scheduler takes its folder from the config, the workers from local_directory)
            import dask

            from .worker import DASK_DIR_PREFIX

            # Rule: the folder carries this process's pid and is on the janitor's list, so a parent
            # killed with SIGKILL leaves nothing (the janitor, or the next sweep, removes it)
            sweep_leftovers()
            self._scratch = tempfile.mkdtemp(prefix=f"{DASK_DIR_PREFIX}{os.getpid()}-")
            _janitor_tell("+", "dir", self._scratch)
            try:
                with dask.config.set({"temporary-directory": self._scratch}):
                    self._cluster = LocalCluster(
                        n_workers=local,
                        threads_per_worker=1,
                        processes=True,
                        memory_limit=0,
                        dashboard_address=None,
                        local_directory=self._scratch,
                    )
                self.client = Client(self._cluster)
            except BaseException:
                self.close()
                raise
        else:
            try:
                self.client = Client(address, timeout=DASK_CONNECT_TIMEOUT)
            except Exception as exc:  # Rule: an unreachable scheduler is one line, not a traceback
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                raise PuzzleError(
                    f"cannot reach the Dask scheduler at {address} within {DASK_CONNECT_TIMEOUT:g} s: {first}"
                ) from None
        self.jobs = local if local else sum(self.client.nthreads().values())

    def map(
        self, descs: Sequence[Mapping[str, Any]], started: Started | None = None
    ) -> Iterator[tuple[str, dict]]:
        from distributed import as_completed as dask_completed

        futures = {self.client.submit(execute, dict(d), pure=False, key=f"run-{d['key']}"): d for d in descs}
        if not futures:
            return
        pending = dask_completed(futures)
        idle = _IdleWatch(self.client, self.address)
        try:
            while not pending.is_empty():
                if _stop_signal is not None:
                    return  # the sweep is stopping: cancel the rest (below); close() ends the workers
                batch = pending.next_batch(block=False)
                if not batch:
                    time.sleep(0.05)
                    idle.check(pending.count())
                for fut in batch:
                    yield futures[fut]["key"], _result_or_crash(fut.result)
        finally:
            for fut in futures:
                fut.cancel()

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            _janitor_tell("-", "dir", self._scratch)
            self._scratch = None


def _result_or_crash(get: Callable[[], dict]) -> dict:
    """A task whose executor failed (worker lost, ...) becomes a ``crash`` record, not an abort."""
    try:
        return get()
    except Exception as exc:
        return {"status": "crash", "error": f"executor failure: {type(exc).__name__}: {exc}"}


# -- the sweep loop ----------------------------------------------------------------------------
@dataclass
class SweepOutcome:
    """What a sweep did: runs stored now, runs already present, failures, notes."""

    path: str
    total: int
    stored: int = 0
    skipped: int = 0
    failures: int = 0
    notes: list[str] = field(default_factory=list)


#: What a stored record must match to be reused, besides the run's identity (see ``Run.key``).
MEASUREMENT = ("timeout", "memory_mb", "solver_version", "encoding_hash", "machine")


def _not_reused(pending: Sequence[Run], out: str) -> list[str]:
    """Say which stored records of pending runs were measured differently, and how."""
    from .metadata import machine_id

    wanted: dict[tuple[Any, ...], Run] = {
        (r.item.id, r.puzzle.content_hash(), r.label, r.count, r.repeat): r for r in pending
    }
    differ: dict[str, int] = {}
    for rec in read_records(out):
        run = wanted.get(
            (
                rec.get("puzzle_id"),
                rec.get("puzzle_hash"),
                rec.get("label"),
                rec.get("count_limit"),
                rec.get("repeat"),
            )
        )
        if run is None:
            continue
        now = {
            "timeout": run.timeout,
            "memory_mb": run.memory_mb,
            "solver_version": run.solver_version,
            "encoding_hash": run.encoding_hash,
            "machine": machine_id(),
        }
        then = {**{k: rec.get(k) for k in MEASUREMENT}, "machine": machine_id(rec.get("machine") or {})}
        for name in MEASUREMENT:
            if then[name] not in (None, "") and then[name] != now[name]:
                differ[name] = differ.get(name, 0) + 1
    if not differ:
        return []
    what = ", ".join(f"{name} ({n})" for name, n in sorted(differ.items()))
    return [
        f"{out}: stored records of {len(pending)} pending run(s) were measured under other settings and are "
        f"not reused: they differ in {what}; new records are added beside them"
    ]


def run_sweep(
    runs: Sequence[Run],
    out: str,
    *,
    resume: bool = False,
    executor: Any = None,
    quiet: bool = False,
    notes: Sequence[str] = (),
) -> SweepOutcome:
    """Execute ``runs`` (skipping stored keys when resuming), appending one record per run.

    The results file is locked for the sweep (a second sweep on it is refused, see
    :class:`~.store.StoreLockedError`). SIGINT, SIGTERM or SIGHUP kill the running children and
    raise :class:`SweepInterrupted` once they are gone.
    """
    from tqdm.auto import tqdm

    executor = executor or SequentialExecutor()
    outcome = SweepOutcome(path=str(out), total=len(runs), notes=list(notes))
    with ResultStore(out, resume=resume) as store, _stop_on_signals():
        if store.repaired:
            outcome.notes.append(f"{out}: dropped a torn trailing line left by an interrupted run")
        pending = [r for r in runs if r.key not in store]
        outcome.skipped = len(runs) - len(pending)
        if resume and pending and os.path.exists(out):
            outcome.notes += _not_reused(pending, out)
        by_key = {r.key: r for r in pending}
        bar = tqdm(total=len(runs), initial=outcome.skipped, disable=quiet, unit="run", dynamic_ncols=True)
        began = time.perf_counter()

        def started(desc: Mapping[str, Any]) -> None:
            run = by_key[desc["key"]]
            bar.set_postfix(failures=outcome.failures, run=f"{run.label} {run.item.id}", refresh=True)

        results = executor.map([r.describe() for r in pending], started)
        try:
            for key, fields in results:
                if _stop_signal is not None:
                    break  # Rule: after a stop request nothing more is stored (killed runs are no results)
                run = by_key[key]
                record = {**run.fields(), **fields, "jobs": executor.jobs}
                store.append(record)
                outcome.stored += 1
                if record["status"] in FAILURE_STATUSES:
                    outcome.failures += 1
                bar.set_postfix(failures=outcome.failures, run=f"{run.label} {run.item.id}", refresh=False)
                bar.update(1)
        finally:
            close = getattr(results, "close", None)
            if close:
                close()  # cancels what has not started; waits for the (killed) running ones
            bar.close()
            if not quiet and "ipykernel" in sys.modules:
                # a saved notebook cannot redraw the bar's widget: leave its final state as text
                print(
                    f"{outcome.stored} run(s) stored, {outcome.skipped} already present, {outcome.failures} "
                    f"failure(s) in {time.perf_counter() - began:.1f} s -> {out}"
                )
        stopped_by = _stop_signal
    if stopped_by is not None:
        raise SweepInterrupted(stopped_by)
    return outcome
