"""Hardening of the benchmark runs: a parent that dies takes its runs with it, one writer per
results file, each run counts once, memory is the run's own, Dask leaves nothing behind, and
BenchExec (where it works) measures and kills every process of a run.

The tasks below run in the worker's solver process instead of a solver (``task="test_hardening_runs:NAME"``;
this folder is on the children's ``PYTHONPATH``), like those of ``faults.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import psutil
import pytest

import faults
from faults import tiny_lightup
from puzzlebench import registry
from puzzlebench.bench import runner
from puzzlebench.bench.report import format_report
from puzzlebench.bench.runner import run_sweep
from puzzlebench.bench.spec import Run, SuiteItem
from puzzlebench.bench.store import ResultStore, StoreLockedError, read_records
from puzzlebench.errors import PuzzleError

TESTS = Path(__file__).resolve().parent
BENCHEXEC = runner.benchexec_status()[0]
needs_benchexec = pytest.mark.skipif(
    not BENCHEXEC, reason=f"BenchExec cannot run here: {runner.benchexec_status()[1]}"
)


@pytest.fixture(autouse=True)
def child_path(monkeypatch):
    """Children import the tasks from this folder."""
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.setattr(runner, "KILL_GRACE", 0.5)


# -- tasks (run in the worker's solver process) ------------------------------------------------
def hang_after_first(puzzle, desc):
    """The suite's first puzzle answers at once; the others start a helper process in the run's
    group, write ``<solver pid> <helper pid>`` to ``$PB_HANG_PIDS/<pid>``, and hang."""
    if puzzle.name.endswith("-0"):
        return faults.brute(puzzle, desc)
    helper = subprocess.Popen(["sleep", "600"])
    folder = Path(os.environ["PB_HANG_PIDS"])
    (folder / f"{os.getpid()}.part").write_text(f"{os.getpid()} {helper.pid}")
    os.replace(folder / f"{os.getpid()}.part", folder / str(os.getpid()))
    time.sleep(600)
    return {"status": "sat"}


def slow_brute(puzzle, desc):
    """An honest answer after a second."""
    time.sleep(1.0)
    return faults.brute(puzzle, desc)


def killed_from_outside(puzzle, desc):
    """Dies by SIGKILL well below its memory limit, as when someone kills the process."""
    os.kill(os.getpid(), signal.SIGKILL)


def escape_the_group(puzzle, desc):
    """Starts a helper in a session of its own (as the MiniZinc backend does), writes its pid,
    and answers at once, leaving the helper behind."""
    helper = subprocess.Popen(["sleep", "600"], start_new_session=True)
    Path(os.environ["PB_HANG_PIDS"], "escaped").write_text(str(helper.pid))
    return faults.brute(puzzle, desc)


# -- helpers -----------------------------------------------------------------------------------
def item(name: str = "tiny") -> SuiteItem:
    return SuiteItem(tiny_lightup(name), name, "hardening")


def task_run(task: str, name: str = "tiny", **kw) -> Run:
    kw.setdefault("timeout", 20.0)
    kw.setdefault("memory_mb", 512)
    module = task if ":" in task else f"test_hardening_runs:{task}"
    return Run(item(name), "sat", task=module, **kw)


def _alive(pids) -> list[int]:
    """The pids still running (a zombie has finished)."""
    alive = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                alive.append(pid)
        except psutil.NoSuchProcess:
            pass
    return alive


def _gone_within(pids, seconds: float) -> list[int]:
    """Wait until none of ``pids`` runs; return those still running after ``seconds``."""
    deadline = time.monotonic() + seconds
    while (alive := _alive(pids)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def _leftover_folders(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith(("puzzlebench-run-", "BenchExec_run_")))


def _benchexec_cgroups_of(pid: int) -> list[str]:
    """The per-run BenchExec cgroup folders a process is in (cgroup v1 layout)."""
    mounts = {}
    for line in Path("/proc/self/mounts").read_text().splitlines():
        fields = line.split()
        if fields[2] == "cgroup":
            for opt in fields[3].split(","):
                mounts.setdefault(opt, fields[1])
    found = []
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        root = mounts.get(controllers.split(",")[0])
        if root and os.path.basename(path).startswith("benchmark_"):
            found.append(root + path)
    return found


CLI_DRIVER = textwrap.dedent("""
    import sys
    import faults
    sys.modules["puzzlebench.suites"] = faults  # eight random Light Ups per suite name
    from puzzlebench.bench import spec
    task = sys.argv.pop(1)
    checks = spec.Sweep.__post_init__
    def with_task(self):  # every run of the sweep calls a task of the tests instead of a solver
        self.task = task
        checks(self)
    spec.Sweep.__post_init__ = with_task
    from puzzlebench.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def _paradigm() -> str:
    paradigms = [p for p in registry.available() if registry.encodings("lightup", p)]
    if not paradigms:
        pytest.skip("no paradigm with a Light Up encoding is registered")
    return "sat" if "sat" in paradigms else paradigms[0]


def _bench_command(tmp_path: Path, task: str, out: Path, *extra: str) -> list[str]:
    script = tmp_path / "cli.py"
    script.write_text(CLI_DRIVER)
    return [
        sys.executable,
        str(script),
        f"test_hardening_runs:{task}",
        "bench",
        "--suite",
        "k",
        "--paradigm",
        _paradigm(),
        "--timeout",
        "60",
        "--out",
        str(out),
        "--quiet",
        *extra,
    ]


# -- 1. a parent that dies takes its runs with it -------------------------------------------------
def _default_sighup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.mark.parametrize(
    "use_runner, sig, jobs",
    [
        ("auto", signal.SIGKILL, 1),
        ("auto", signal.SIGTERM, 1),
        ("auto", signal.SIGHUP, 1),
        ("auto", signal.SIGINT, 1),
        ("auto", signal.SIGTERM, 2),
        ("subprocess", signal.SIGKILL, 1),
        ("subprocess", signal.SIGTERM, 1),
    ],
    ids=lambda v: v.name if isinstance(v, signal.Signals) else str(v),
)
def test_killed_sweep_leaves_no_worker_and_no_folder(tmp_path, use_runner, sig, jobs):
    tmp, pids = tmp_path / "tmp", tmp_path / "pids"
    tmp.mkdir()
    pids.mkdir()
    out = tmp_path / "r.jsonl"
    env = {**os.environ, "TMPDIR": str(tmp), "PB_HANG_PIDS": str(pids), "PUZZLEBENCH_RUNNER": use_runner}
    command = _bench_command(tmp_path, "hang_after_first", out, "--limit", "3", "-j", str(jobs))
    # started as from a terminal: SIGHUP at its default even when the tests run under nohup
    # (a sweep keeps a signal ignored on entry ignored, by design)
    proc = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_default_sighup,
    )
    try:
        hanging = 2 if jobs == 2 else 1
        deadline = time.monotonic() + 120
        while len([p for p in pids.iterdir() if not p.name.endswith(".part")]) < hanging:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the hanging runs never started"
            time.sleep(0.05)
        workers = {
            int(pid) for f in pids.iterdir() if not f.name.endswith(".part") for pid in f.read_text().split()
        }
        workers |= {p.pid for p in psutil.Process(proc.pid).children(recursive=True)}  # supervisors too
        cgroups = [
            cg
            for f in pids.iterdir()
            if not f.name.endswith(".part")
            for cg in _benchexec_cgroups_of(int(f.name))
        ]
        proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _gone_within(workers, 15) == []
    deadline = time.monotonic() + 15
    while (
        _leftover_folders(tmp) or [c for c in cgroups if os.path.exists(c)]
    ) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _leftover_folders(tmp) == []
    assert [c for c in cgroups if os.path.exists(c)] == []
    records = list(read_records(out))  # the results file is whole: every line a record
    assert len(out.read_text().splitlines()) == len(records) <= 1
    if sig != signal.SIGKILL:
        assert proc.returncode == 130, proc.stderr.read().decode()


SWEEP_DRIVER = textwrap.dedent("""
    import sys
    from faults import tiny_lightup
    from puzzlebench.bench.runner import run_sweep
    from puzzlebench.bench.spec import Run, SuiteItem
    runs = [Run(SuiteItem(tiny_lightup(f"p{i}"), f"p{i}", "kill"), "sat", options={"delay": 0.1},
                timeout=20.0, memory_mb=512, task="faults:brute") for i in range(6)]
    run_sweep(runs, sys.argv[1], resume=True, quiet=True)
""")


@pytest.mark.parametrize("delay", [0.0, 0.03, 0.1])
def test_sigkill_between_runs_leaves_no_folder(tmp_path, delay):
    """SIGKILL right after a record is stored lands while the next run is being set up (our
    folder, BenchExec's cgroups and folder exist; the worker may not): the janitor cleans up."""
    script, out, tmp = tmp_path / "driver.py", tmp_path / "r.jsonl", tmp_path / "tmp"
    script.write_text(SWEEP_DRIVER)
    tmp.mkdir()
    proc = subprocess.Popen(
        [sys.executable, str(script), str(out)],
        env={**os.environ, "TMPDIR": str(tmp)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while not (out.exists() and out.read_bytes().count(b"\n") >= 1):
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline
            time.sleep(0.005)
        time.sleep(delay)
        family = [p.pid for p in psutil.Process(proc.pid).children(recursive=True)]
    finally:
        proc.kill()
        proc.wait()
    assert _gone_within(family, 20) == []  # the supervisors and the janitor finish their cleanup
    assert sorted(p.name for p in tmp.iterdir()) == []


def test_leftovers_of_an_unlucky_kill_are_swept_once_stale(tmp_path, monkeypatch):
    """A parent SIGKILLed between making a run's folder and starting its worker (or inside
    BenchExec's setup) leaves a folder no supervisor knows of: the next process removes it."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(runner, "_swept", False)
    old = time.time() - 2 * runner.STALE_AFTER
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    names = [
        "puzzlebench-run-stale",
        "BenchExec_run_stale",
        "puzzlebench-run-fresh",
        "puzzlebench-run-used",
        f"puzzlebench-run-{os.getpid()}-mine",
        f"puzzlebench-run-{int(dead.stdout)}-fresh-of-a-dead-parent",
        "someone-elses",
    ]
    for name in names:
        (tmp_path / name).mkdir()
        if "fresh" not in name and "mine" not in name:
            os.utime(tmp_path / name, (old, old))
    user = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)", str(tmp_path / "puzzlebench-run-used")]
    )
    try:
        # the folder is in use once the child has exec'd (before, its command line is ours)
        deadline = time.monotonic() + 30
        while str(tmp_path / "puzzlebench-run-used") not in " ".join(psutil.Process(user.pid).cmdline()):
            assert time.monotonic() < deadline
            time.sleep(0.005)
        runner.sweep_leftovers()
    finally:
        user.kill()
        user.wait()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [
            "puzzlebench-run-fresh",
            "puzzlebench-run-used",
            f"puzzlebench-run-{os.getpid()}-mine",
            "someone-elses",
        ]
    )


def test_janitor_removes_what_is_registered_when_its_parent_goes(tmp_path):
    """The janitor holds the folders and cgroups of runs in progress; at end-of-file (its parent
    died) it kills what is in the cgroups and removes them and the folders, nothing else."""
    from puzzlebench.bench.worker import own_cgroups

    folders = {name: tmp_path / name for name in ("puzzlebench-run-a", "puzzlebench-run-done", "not-a-run")}
    for folder in folders.values():
        folder.mkdir()
    cgroup = None
    memory = [c for c in own_cgroups() if "/memory" in c]
    if memory and os.access(memory[0], os.W_OK):
        cgroup = Path(tempfile.mkdtemp(prefix="benchmark_", dir=memory[0]))
    janitor = subprocess.Popen(
        [sys.executable, "-m", "puzzlebench.bench.worker", "--janitor"], stdin=subprocess.PIPE
    )
    inside = None
    try:
        lines = [
            f"+ dir {folders['puzzlebench-run-a']}",
            f"+ dir {folders['puzzlebench-run-done']}",
            f"- dir {folders['puzzlebench-run-done']}",
            f"+ dir {folders['not-a-run']}",
        ]
        if cgroup is not None:
            inside = subprocess.Popen(["sleep", "600"])
            (cgroup / "cgroup.procs").write_text(str(inside.pid))
            lines.append(f"+ cgroup {cgroup}")
        janitor.stdin.write(("\n".join(lines) + "\n").encode())
        janitor.stdin.close()  # as when the runner dies
        assert janitor.wait(timeout=60) == 0
    finally:
        if janitor.poll() is None:
            janitor.kill()
        if inside is not None and inside.poll() is None:
            inside.kill()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-a-run", "puzzlebench-run-done"]
    if cgroup is not None:
        assert inside.wait(timeout=10) == -signal.SIGKILL
        assert not cgroup.exists()


# -- 2. one writer per results file; each run counts once -------------------------------------------
def test_store_refuses_a_second_writer(tmp_path):
    path = tmp_path / "r.jsonl"
    with ResultStore(path) as store:
        store.append({"key": "a"})
        with pytest.raises(StoreLockedError, match="another sweep"):
            ResultStore(path, resume=True)
    with ResultStore(path, resume=True) as store:  # free again once the first one closed
        assert store.keys == {"a"}


def test_two_concurrent_sweeps_on_one_file_store_each_run_once(tmp_path):
    out = tmp_path / "r.jsonl"
    command = _bench_command(tmp_path, "slow_brute", out, "--limit", "3", "--resume")
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not out.exists():  # the first sweep has opened (and locked) the file
        assert first.poll() is None, first.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    second = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert first.wait(timeout=120) == 0, first.stderr.read()
    assert second.returncode == 2
    message = second.stderr.strip().splitlines()
    assert len(message) == 1 and "locked" in message[0] and str(out) in message[0]
    keys = [r["key"] for r in read_records(out)]
    assert len(keys) == len(set(keys)) == 3
    again = subprocess.run(
        command, capture_output=True, text=True, timeout=120
    )  # after: resumes, adds nothing
    assert again.returncode == 0, again.stderr
    assert len(out.read_text().splitlines()) == 3


def test_duplicate_records_count_once_and_are_reported(tmp_path, monkeypatch, capsys):
    from puzzlebench import results
    from puzzlebench.cli import main

    path = tmp_path / "r.jsonl"
    run_sweep([task_run("faults:brute", name=f"p{i}") for i in range(2)], str(path), quiet=True)
    lines = path.read_text().splitlines()
    copies = [json.dumps({**json.loads(line), "status": "crash", "error": "second copy"}) for line in lines]
    path.write_text("\n".join(lines + copies + [lines[0]]) + "\n")  # 5 lines, 2 runs
    with pytest.warns(results.DuplicateRecordsWarning, match="3 duplicate"):
        df = results.load(path)
    assert len(df) == 2 and df["key"].is_unique and set(df["status"]) == {"sat"}  # the first of each kept
    assert df.attrs["duplicates_dropped"] == 3
    text = format_report(df)
    assert text.startswith("2 runs") and "Duplicate records dropped: 3" in text
    import pandas as pd  # a frame put together by hand is checked too

    doubled = pd.concat([df, df], ignore_index=True)
    doubled.attrs = {}  # not from load: nothing dropped before
    assert "Duplicate records dropped: 2" in format_report(doubled)
    capsys.readouterr()
    assert main(["report", str(path)]) == 0
    shown = capsys.readouterr()
    assert "Duplicate records dropped: 3" in shown.out
    assert "puzzlebench: warning: 3 duplicate record(s) dropped" in shown.err


# -- 3. memory is the run's own -------------------------------------------------------------------
@pytest.mark.parametrize("use_runner", ["subprocess", pytest.param("benchexec", marks=needs_benchexec)])
def test_peak_memory_is_the_runs_own_not_the_parents(tmp_path, monkeypatch, use_runner):
    monkeypatch.setenv("PUZZLEBENCH_RUNNER", use_runner)
    ballast = bytearray(b"\x01") * (500 * 1024 * 1024)  # the parent holds 500 MB (touched) while it forks
    runs = [
        task_run("faults:brute", name="small"),
        task_run("killed_from_outside", name="killed"),
        task_run("faults:sleep_past_timeout", name="slow", timeout=1.0),
    ]
    run_sweep(runs, str(tmp_path / "r.jsonl"), quiet=True)
    assert len(ballast) == 500 * 1024 * 1024
    records = {r["puzzle_id"]: r for r in read_records(tmp_path / "r.jsonl")}
    assert {r["runner"] for r in records.values()} == {use_runner}
    assert records["small"]["status"] == "sat"
    assert records["killed"]["status"] == "crash", records["killed"][
        "error"
    ]  # not memout: far below its limit
    assert records["slow"]["status"] == "timeout"
    for name in ("small", "killed"):
        assert 1 < records[name]["peak_rss_mb"] < 200, (name, records[name]["peak_rss_mb"])
    assert records["slow"]["peak_rss_mb"] is None or records["slow"]["peak_rss_mb"] < 200


# -- 4. Dask: no scratch left behind, no silent fallback, a clear error for a bad scheduler ----------
def test_dask_local_leaves_no_scratch_space(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    from puzzlebench.bench.runner import DaskExecutor

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # the parent's temp folder, and the workers'
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    executor = DaskExecutor(local=1)
    try:
        outcome = run_sweep(
            [task_run("faults:brute")], str(tmp_path / "r.jsonl"), quiet=True, executor=executor
        )
    finally:
        executor.close()
    assert outcome.stored == 1
    assert sorted(p.name for p in scratch.iterdir()) == []


def test_dask_local_needs_at_least_one_worker():
    pytest.importorskip("distributed")
    from puzzlebench.bench.runner import DaskExecutor

    with pytest.raises(PuzzleError, match=">= 1"):
        DaskExecutor(local=0)


def test_unreachable_scheduler_is_a_one_line_error(tmp_path, monkeypatch, capsys):
    pytest.importorskip("distributed")
    from puzzlebench.cli import main

    monkeypatch.setitem(sys.modules, "puzzlebench.suites", faults)
    start = time.monotonic()
    code = main(
        [
            "bench",
            "--suite",
            "k",
            "--paradigm",
            _paradigm(),
            "--limit",
            "1",
            "--quiet",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--out",
            str(tmp_path / "r.jsonl"),
        ]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err[0], err
    assert time.monotonic() - start < runner.DASK_CONNECT_TIMEOUT + 20


# -- 5. BenchExec where it works; every record names its runner ---------------------------------
@pytest.mark.parametrize("use_runner", ["subprocess", pytest.param("benchexec", marks=needs_benchexec)])
def test_records_name_the_runner_that_measured_them(tmp_path, monkeypatch, use_runner):
    monkeypatch.setenv("PUZZLEBENCH_RUNNER", use_runner)
    run_sweep([task_run("faults:brute")], str(tmp_path / "r.jsonl"), quiet=True)
    (record,) = read_records(tmp_path / "r.jsonl")
    assert record["runner"] == use_runner and record["status"] == "sat"
    assert record["time_cpu_run"] > 0 and record["peak_rss_mb"] > 1


def test_auto_runner_is_benchexec_exactly_where_it_works(monkeypatch):
    monkeypatch.delenv("PUZZLEBENCH_RUNNER", raising=False)
    assert runner.choose_runner() == ("benchexec" if BENCHEXEC else "subprocess")
    with pytest.raises(ValueError, match="unknown runner"):
        runner.choose_runner("docker")


@needs_benchexec
def test_benchexec_kills_processes_that_left_the_group(tmp_path, monkeypatch):
    pids = tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv("PB_HANG_PIDS", str(pids))
    fields = runner.execute(task_run("escape_the_group").describe(), runner="benchexec")
    assert fields["status"] == "sat" and fields["runner"] == "benchexec"
    helper = int((pids / "escaped").read_text())
    try:
        assert _gone_within([helper], 5) == []  # the cgroup's kill reaches it; a process-group kill would not
    finally:
        if _alive([helper]):
            os.kill(helper, signal.SIGKILL)
