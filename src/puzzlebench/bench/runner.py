"""Executing runs: one isolated child process per run, and executors that schedule them.

:func:`execute` is the unit of work everywhere (the sequential loop, ``-j N`` threads, Dask
tasks): it starts ``python -m puzzlebench.bench.worker`` in a new session, feeds it the run
description, enforces the hard wall-clock limit from the parent (SIGKILL to the whole process
group: clingo's grounding cannot be interrupted and z3's timeouts are soft), reaps it with
``os.wait4`` to get that child's own peak RSS, and classifies the outcome.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from . import metadata
from .spec import Run
from .store import ResultStore
from .worker import is_memory_error

#: Seconds the parent waits past a run's timeout before killing it (interpreter start-up,
#: solver imports, the harness noticing its own deadline).
KILL_GRACE = 3.0
#: A child killed by a signal counts as ``memout`` when its peak RSS reached this share of the limit.
MEMOUT_RSS_SHARE = 0.9
FAILURE_STATUSES = frozenset({"timeout", "error", "wrong", "crash", "memout"})


def _tail(path: str, most: int = 2000) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - most))
            return fh.read().decode("utf-8", errors="replace").strip()
    except OSError:
        return ""


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)  # start_new_session made the child its group's leader
    except (ProcessLookupError, PermissionError):
        pass


def execute(desc: Mapping[str, Any], kill_grace: float | None = None) -> dict[str, Any]:
    """Run one description in its own child process; return the record fields it determines."""
    kill_grace = KILL_GRACE if kill_grace is None else kill_grace
    timeout = float(desc["timeout"])
    memory_mb = desc.get("memory_mb")
    with tempfile.TemporaryDirectory(prefix="puzzlebench-run-") as tmp:
        result_path = os.path.join(tmp, "result.json")
        log_path = os.path.join(tmp, "output.log")
        with open(log_path, "wb") as log:
            start = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-m", "puzzlebench.bench.worker", result_path],
                stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        killed = False
        try:
            try:
                proc.stdin.write(json.dumps(desc).encode())
                proc.stdin.close()
            except BrokenPipeError:
                pass  # the child died before reading; its exit status tells why
            hard_deadline = start + timeout + kill_grace
            pause = 0.002
            # Wait for the exit without reaping (WNOWAIT): the zombie keeps the group id reserved,
            # so killing the group afterwards cannot hit an unrelated process.
            while os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
                if time.perf_counter() >= hard_deadline:
                    # Rule: the parent's wall-clock limit is hard; the whole group goes
                    killed = True
                    break
                time.sleep(pause)
                pause = min(pause * 1.5, 0.05)
        finally:
            _kill_group(proc.pid)  # on timeout, leftovers (solver helpers), or an interrupted parent
            _, wait_status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(wait_status)
        peak_mb = usage.ru_maxrss / 1024  # KiB on Linux: this child's own peak
        fields = _classify(proc.returncode, killed, result_path, _tail(log_path), timeout, memory_mb, peak_mb)
    fields["time_wall"] = wall
    fields["peak_rss_mb"] = peak_mb
    fields.update(
        versions=metadata.versions(), git_commit=metadata.git_commit(), python=metadata.python_version(),
        machine=metadata.machine(), timestamp=metadata.timestamp(),
    )
    return fields


def _classify(code: int, killed: bool, result_path: str, log: str, timeout: float,
              memory_mb: int | None, peak_mb: float) -> dict[str, Any]:
    """Status from how the child ended: its own report, our kill, or a signal."""
    if killed:
        return {"status": "timeout", "error": f"killed after the hard limit ({timeout:g} s + grace)"}
    if os.path.exists(result_path):
        with open(result_path, encoding="utf-8") as fh:
            fields = json.load(fh)
        fields.setdefault("status", "error")
        return fields
    if code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        # Rule: a death after hitting the limit is a memout (allocation failure text, or RSS at the
        # limit when the signal is one an allocation failure raises: abort or kill, not a segfault)
        near_limit = (bool(memory_mb) and peak_mb >= MEMOUT_RSS_SHARE * float(memory_mb)
                      and -code in (signal.SIGABRT, signal.SIGKILL, signal.SIGBUS))
        status = "memout" if is_memory_error(log) or near_limit else "crash"
        return {"status": status, "error": f"child killed by {name}" + (f": {log[-500:]}" if log else "")}
    return {"status": "memout" if is_memory_error(log) else "crash",
            "error": f"child exited with status {code} without a result" + (f": {log[-500:]}" if log else "")}


# -- executors ---------------------------------------------------------------------------------
Started = Callable[[Mapping[str, Any]], None]


class SequentialExecutor:
    """One run at a time (the default: the cleanest timings)."""

    jobs = 1

    def map(self, descs: Sequence[Mapping[str, Any]], started: Started | None = None) -> Iterator[tuple[str, dict]]:
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

    def map(self, descs: Sequence[Mapping[str, Any]], started: Started | None = None) -> Iterator[tuple[str, dict]]:
        with ThreadPoolExecutor(self.jobs) as pool:
            futures = {pool.submit(execute, d): d for d in descs}
            try:
                for fut in as_completed(futures):
                    yield futures[fut]["key"], _result_or_crash(fut.result)
            finally:
                for fut in futures:
                    fut.cancel()


class DaskExecutor:
    """Runs as Dask tasks; each task still launches the isolated child inside its worker.

    ``address`` connects to a running scheduler; ``local`` starts a ``LocalCluster`` of that
    many single-threaded worker processes. Results come back as they complete.
    """

    def __init__(self, address: str | None = None, local: int | None = None):
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover - a dependency of the package
            raise RuntimeError(f"the Dask executor needs dask[distributed]: {exc}") from None
        if (address is None) == (local is None):
            raise ValueError("give exactly one of a scheduler address or a local worker count")
        self._cluster = None
        if address is None:
            self._cluster = LocalCluster(n_workers=local, threads_per_worker=1, processes=True,
                                         memory_limit=0, dashboard_address=None)
            self.client = Client(self._cluster)
        else:
            self.client = Client(address)
        self.jobs = local if local else sum(self.client.nthreads().values())

    def map(self, descs: Sequence[Mapping[str, Any]], started: Started | None = None) -> Iterator[tuple[str, dict]]:
        from distributed import as_completed as dask_completed

        futures = {self.client.submit(execute, dict(d), pure=False, key=f"run-{d['key']}"): d for d in descs}
        if not futures:
            return
        try:
            for fut in dask_completed(futures):
                yield futures[fut]["key"], _result_or_crash(fut.result)
        finally:
            for fut in futures:
                fut.cancel()

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


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


def run_sweep(runs: Sequence[Run], out: str, *, resume: bool = False, executor: Any = None,
              quiet: bool = False, notes: Sequence[str] = ()) -> SweepOutcome:
    """Execute ``runs`` (skipping stored keys when resuming), appending one record per run."""
    from tqdm.auto import tqdm

    executor = executor or SequentialExecutor()
    outcome = SweepOutcome(path=str(out), total=len(runs), notes=list(notes))
    with ResultStore(out, resume=resume) as store:
        if store.repaired:
            outcome.notes.append(f"{out}: dropped a torn trailing line left by an interrupted run")
        pending = [r for r in runs if r.key not in store]
        outcome.skipped = len(runs) - len(pending)
        by_key = {r.key: r for r in pending}
        bar = tqdm(total=len(runs), initial=outcome.skipped, disable=quiet, unit="run", dynamic_ncols=True)

        def started(desc: Mapping[str, Any]) -> None:
            run = by_key[desc["key"]]
            bar.set_postfix(failures=outcome.failures, run=f"{run.label} {run.item.id}", refresh=True)

        try:
            for key, fields in executor.map([r.describe() for r in pending], started):
                run = by_key[key]
                record = {**run.fields(), **fields, "jobs": executor.jobs}
                store.append(record)
                outcome.stored += 1
                if record["status"] in FAILURE_STATUSES:
                    outcome.failures += 1
                bar.set_postfix(failures=outcome.failures, run=f"{run.label} {run.item.id}", refresh=False)
                bar.update(1)
        finally:
            bar.close()
    return outcome
