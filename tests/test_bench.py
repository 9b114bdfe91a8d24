"""The benchmark runner: isolation and statuses, resumable storage, executors, sweeps, report."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from faults import tiny_lightup
from puzzlebench import registry
from puzzlebench.bench import runner
from puzzlebench.bench.report import format_report
from puzzlebench.bench.runner import SequentialExecutor, ThreadExecutor, execute, run_sweep
from puzzlebench.bench.spec import Run, SuiteItem, Sweep, puzzle_from_json, puzzle_to_json, read_toml
from puzzlebench.bench.store import ResultStore, read_records
from puzzlebench.errors import PuzzleError
from puzzlebench.model import Kuromasu, LightBulbs, LightUp

TESTS = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def child_path(monkeypatch):
    """Children import the fault tasks from this folder."""
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.setattr(runner, "KILL_GRACE", 0.5)


def item(name: str = "tiny") -> SuiteItem:
    return SuiteItem(tiny_lightup(name), name, "faults")


def fault(task: str, name: str = "tiny", **kw) -> Run:
    kw.setdefault("timeout", 5.0)
    kw.setdefault("memory_mb", 512)
    return Run(item(name), "sat", task=f"faults:{task}", **kw)


def test_puzzles_cross_the_process_boundary_unchanged():
    puzzles = [
        LightUp(3, 4, walls=frozenset({(0, 1)}), numbers={(2, 2): 1}, name="a"),
        Kuromasu(3, 3, numbers={(0, 0): 3}, unknown=frozenset({(2, 2)})),
        LightBulbs.from_rows([[1, 2], [3, 4]]),
    ]
    for p in puzzles:
        back = puzzle_from_json(json.loads(json.dumps(puzzle_to_json(p))))
        assert back == p and back.content_hash() == p.content_hash() and back.name == p.name


def test_run_past_its_timeout_is_killed_as_timeout():
    start = time.perf_counter()
    fields = execute(fault("sleep_past_timeout", timeout=0.5).describe())
    assert fields["status"] == "timeout"
    assert fields["time_wall"] < 0.5 + runner.KILL_GRACE + 1.5
    assert time.perf_counter() - start < 5


def test_the_hard_limit_counts_from_the_childs_start_not_its_spawn():
    from fault_slow_startup import DELAY

    desc = fault("sleep_past_timeout", timeout=1.0).describe()
    desc["plugins"] = ["fault_slow_startup"]  # imported by the worker before it is ready
    fields = execute(desc, kill_grace=0.4)
    assert fields["status"] == "timeout", fields.get("error")
    assert fields["time_startup"] >= DELAY  # the slow import is start-up, recorded apart
    # Rule: the kill comes timeout + grace after the ready mark (plus at most a poll's delay)
    assert 1.0 <= fields["time_run"] < 1.0 + 0.4 + 0.3, fields["time_run"]
    assert fields["time_wall"] >= fields["time_startup"] + 1.0


def test_a_child_never_ready_is_killed_at_the_start_up_limit(monkeypatch):
    monkeypatch.setattr(runner, "STARTUP_LIMIT", 0.5)
    desc = fault("sleep_past_timeout", timeout=30.0).describe()
    desc["plugins"] = ["fault_slow_startup"]
    start = time.perf_counter()
    fields = execute(desc)
    assert time.perf_counter() - start < 3
    assert fields["status"] == "crash" and "start-up limit" in fields["error"]
    assert fields["time_startup"] is None and fields["time_run"] is None


@pytest.mark.parametrize(
    "log",
    [
        "OpenBLAS error: Memory allocation still failed after 10 retries, giving up.",
        "terminate called after throwing an instance of 'std::bad_alloc'",
        "mmap: Cannot allocate memory",
        "Failed to allocate 1048576 bytes",
    ],
)
def test_a_native_librarys_allocation_failure_is_memout(log):
    # a child that exited (or aborted) with a native library's message and no result
    assert runner._classify(1, False, None, log, 5.0, 50, 20.0)["status"] == "memout"
    assert runner._classify(-int(signal.SIGABRT), False, None, log, 5.0, 50, 20.0)["status"] == "memout"
    assert runner._classify(1, False, None, "some other failure", 5.0, 50, 20.0)["status"] == "crash"


def test_run_allocating_past_its_limit_is_memout():
    fields = execute(fault("allocate_past_limit", memory_mb=200).describe())
    assert fields["status"] == "memout", fields.get("error")


def test_run_killed_by_a_signal_at_its_memory_limit_is_memout():
    fields = execute(fault("abort_at_limit", memory_mb=200).describe())
    assert fields["status"] == "memout" and "SIGABRT" in fields["error"]
    # the solver's library, loaded before the ready mark, reserves part of the limit unused
    assert fields["peak_rss_mb"] >= 0.5 * 200


def test_segfaulting_run_is_a_crash():
    fields = execute(fault("segfault").describe())
    assert fields["status"] == "crash"
    assert "SIGSEGV" in fields["error"]


def test_run_exiting_without_result_is_a_crash():
    assert execute(fault("exit_silently").describe())["status"] == "crash"


def test_honest_run_reports_answers_sizes_and_metadata():
    fields = execute(fault("brute").describe())
    assert fields["status"] == "sat" and fields["verdict"] == "valid" and fields["count"] == 2
    assert fields["peak_rss_mb"] > 1 and fields["time_wall"] >= fields["time_total"]
    assert fields["machine"]["cores"] >= 1 and fields["versions"]["python"]
    assert fields["git_commit"]


def test_sweep_continues_past_every_kind_of_failure(tmp_path):
    tasks = ["brute", "sleep_past_timeout", "allocate_past_limit", "segfault", "exit_silently", "brute"]
    runs = [
        fault(task, name=f"p{i}", timeout=0.5 if task == "sleep_past_timeout" else 30.0, memory_mb=200)
        for i, task in enumerate(tasks)
    ]
    outcome = run_sweep(runs, str(tmp_path / "r.jsonl"), quiet=True)
    records = list(read_records(tmp_path / "r.jsonl"))
    assert [r["status"] for r in records] == ["sat", "timeout", "memout", "crash", "crash", "sat"]
    assert outcome.stored == 6 and outcome.failures == 4
    assert {r["key"] for r in records} == {r.key for r in runs}


def test_keys_separate_configurations_and_repetitions():
    base = fault("brute")
    variants = [
        base,
        Run(base.item, "sat", repeat=1, task=base.task),
        Run(base.item, "sat", count=1, task=base.task),
        Run(base.item, "asp", task=base.task),
        Run(base.item, "sat", options={"x": 1}, task=base.task),
        Run(item("other"), "sat", task=base.task),
    ]
    assert len({r.key for r in variants}) == len(variants)
    assert (
        Run(base.item, "sat", options={"a": 1, "b": 2}).key
        == Run(base.item, "sat", options={"b": 2, "a": 1}).key
    )


def test_store_refuses_to_overwrite_without_resume(tmp_path):
    path = tmp_path / "r.jsonl"
    with ResultStore(path) as store:
        store.append({"key": "a"})
    with pytest.raises(PuzzleError, match="--resume"):
        ResultStore(path)


def test_store_drops_a_torn_trailing_line_on_resume(tmp_path):
    path = tmp_path / "r.jsonl"
    with ResultStore(path) as store:
        store.append({"key": "a", "status": "sat"})
        store.append({"key": "b", "status": "unsat"})
    with open(path, "ab") as fh:
        fh.write(b'{"key": "c", "stat')  # a write cut short by SIGKILL
    with ResultStore(path, resume=True) as store:
        assert store.repaired and store.keys == {"a", "b"}
        store.append({"key": "c", "status": "sat"})
    lines = path.read_text().splitlines()
    assert [json.loads(line)["key"] for line in lines] == ["a", "b", "c"]


DRIVER = textwrap.dedent("""
    import sys
    from faults import tiny_lightup
    from puzzlebench.bench.runner import run_sweep
    from puzzlebench.bench.spec import Run, SuiteItem
    runs = [Run(SuiteItem(tiny_lightup(f"p{i}"), f"p{i}", "kill"), "sat", options={"delay": 0.25},
                timeout=5.0, memory_mb=512, task="faults:brute") for i in range(8)]
    run_sweep(runs, sys.argv[1], resume=True, quiet=True)
""")


def _sigkill_then_resume(tmp_path: Path, command: list[str], out: Path, expected: int) -> None:
    proc = subprocess.Popen(
        command, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if out.exists() and out.read_bytes().count(b"\n") >= 2:
            break
        assert proc.poll() is None, proc.stderr.read().decode()
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = out.read_bytes().count(b"\n")
    assert 2 <= before < expected
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    records = [json.loads(line) for line in lines]  # every line is valid JSON
    assert len(records) == expected
    assert len({r["key"] for r in records}) == expected


def test_sigkill_mid_sweep_then_resume_loses_and_duplicates_nothing(tmp_path):
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    out = tmp_path / "kill.jsonl"
    _sigkill_then_resume(tmp_path, [sys.executable, str(script), str(out)], out, expected=8)


CLI_DRIVER = textwrap.dedent("""
    import sys
    import faults
    sys.modules["puzzlebench.suites"] = faults  # eight random Light Ups per suite name
    from puzzlebench.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def _cli_paradigm() -> str:
    paradigms = [p for p in registry.available() if registry.encodings("lightup", p)]
    if not paradigms:
        pytest.skip("no paradigm with a Light Up encoding is registered yet")
    return "sat" if "sat" in paradigms else paradigms[0]


def test_cli_sweep_killed_then_resumed_loses_and_duplicates_nothing(tmp_path):
    paradigm = _cli_paradigm()
    script = tmp_path / "cli.py"
    script.write_text(CLI_DRIVER)
    out = tmp_path / "cli.jsonl"
    command = [
        sys.executable,
        str(script),
        "bench",
        "--suite",
        "k",
        "--paradigm",
        paradigm,
        "--limit",
        "4",
        "--timeout",
        "20",
        "--out",
        str(out),
        "--resume",
        "--quiet",
    ]
    _sigkill_then_resume(tmp_path, command, out, expected=4)


def test_cli_sweep_file_with_option_product(tmp_path, monkeypatch, capsys):
    import faults
    from puzzlebench.cli import main

    paradigm = _cli_paradigm()
    monkeypatch.setitem(sys.modules, "puzzlebench.suites", faults)
    option = next(
        (o for o in registry.get("lightup", paradigm).options if o.choices and len(o.choices) > 1), None
    )
    if option is None:
        pytest.skip(f"{paradigm}'s Light Up encoding has no option to sweep")
    values = [option.default, next(c for c in option.choices if c != option.default)]
    sweep = tmp_path / "s.toml"
    sweep.write_text(
        f'suites = ["t"]\nparadigms = ["{paradigm}"]\nlimit = 2\ntimeout = 20\nquiet = true\n'
        f'out = "{tmp_path / "s.jsonl"}"\n[options]\n{option.name} = {json.dumps([str(v) for v in values])}\n'
    )
    assert main(["bench", str(sweep)]) == 0
    records = list(read_records(tmp_path / "s.jsonl"))
    assert len(records) == 4  # 2 puzzles x 2 option values
    labels = {r["label"] for r in records}
    assert labels == {f"{paradigm}/default", f"{paradigm}/default[{option.name}={values[1]}]"}
    for pid in {r["puzzle_id"] for r in records}:  # an option changes the cost, never the answers
        answers = {(r["status"], r["count"], r["solution_hash"]) for r in records if r["puzzle_id"] == pid}
        assert len(answers) == 1
    assert main(["report", str(tmp_path / "s.jsonl")]) == 0
    assert "PAR-2" in capsys.readouterr().out


def test_thread_executor_matches_sequential(tmp_path):
    runs = [fault("brute", name=f"p{i}") for i in range(4)]
    seq = run_sweep(runs, str(tmp_path / "a.jsonl"), quiet=True, executor=SequentialExecutor())
    par = run_sweep(runs, str(tmp_path / "b.jsonl"), quiet=True, executor=ThreadExecutor(2))
    assert seq.stored == par.stored == 4
    a = {r["key"]: r for r in read_records(tmp_path / "a.jsonl")}
    b = {r["key"]: r for r in read_records(tmp_path / "b.jsonl")}
    assert {k: (r["status"], r["solution_hash"]) for k, r in a.items()} == {
        k: (r["status"], r["solution_hash"]) for k, r in b.items()
    }
    assert {r["jobs"] for r in b.values()} == {2}


def test_dask_local_cluster_gives_the_same_answers(tmp_path):
    pytest.importorskip("distributed")
    from puzzlebench.bench.runner import DaskExecutor

    runs = [fault("brute", name=f"p{i}") for i in range(3)] + [fault("segfault", name="s")]
    run_sweep(runs, str(tmp_path / "local.jsonl"), quiet=True)
    executor = DaskExecutor(local=2)
    try:
        run_sweep(runs, str(tmp_path / "dask.jsonl"), quiet=True, executor=executor)
    finally:
        executor.close()
    view = lambda p: {
        r["key"]: (r["status"], r.get("count"), r.get("solution_hash")) for r in read_records(p)
    }
    assert view(tmp_path / "dask.jsonl") == view(tmp_path / "local.jsonl")
    assert len(view(tmp_path / "dask.jsonl")) == 4


def test_sweep_file_keys_and_errors(tmp_path):
    good = tmp_path / "s.toml"
    good.write_text(
        'suites = "a"\nparadigms = ["sat"]\ntimeout = 3\n[options]\nconnectivity = ["rank", "lazy"]\n'
    )
    conf = read_toml(good)
    assert conf["suites"] == ["a"] and conf["options"] == {"connectivity": ["rank", "lazy"]}
    bad = tmp_path / "b.toml"
    bad.write_text('suites = ["a"]\ntimeot = 3\n')
    with pytest.raises(PuzzleError, match="unknown key 'timeot'"):
        read_toml(bad)
    with pytest.raises(PuzzleError, match="timeout"):
        Sweep(suites=["a"], timeout=0)


def test_unknown_paradigm_or_family_is_a_clear_error():
    with pytest.raises(PuzzleError, match="unknown paradigm 'sta'"):
        Sweep(items=[item()], paradigms=["sta"])
    with pytest.raises(PuzzleError, match="unknown family"):
        Sweep(items=[item()], families=["akari"])


def test_unregistered_configurations_are_skipped_with_a_note():
    notes: list[str] = []
    runs = Sweep(items=[item()], paradigms=["sat"], encodings=["no-such-encoding"]).expand(notes)
    assert runs == [] and any("not registered" in n for n in notes)


def _real_paradigms() -> list[str]:
    return [p for p in registry.available() if registry.encodings("lightup", p)]


def test_real_solves_agree_with_brute_force(tmp_path):
    from bruteforce import all_solutions

    paradigms = _real_paradigms()
    if not paradigms:
        pytest.skip("no paradigm with a Light Up encoding is registered yet")
    puzzle = LightUp(3, 3, walls=frozenset({(1, 1)}), numbers={(0, 1): 1}, name="one")
    truth = all_solutions(puzzle)
    sweep = Sweep(
        items=[SuiteItem(puzzle, "one", "real", expected_count=len(truth))],
        paradigms=paradigms,
        count=0,
        timeout=30.0,
        out=str(tmp_path / "real.jsonl"),
    )
    run_sweep(sweep.expand(), sweep.out, quiet=True)
    digests = sorted(puzzle.solution(s).digest() for s in truth)
    for record in read_records(sweep.out):
        assert record["status"] == ("sat" if truth else "unsat"), record
        assert record["verdict"] == ("valid" if truth else "none")
        assert record["exhausted"] and sorted(record["solution_hashes"]) == digests


def test_report_names_par2_solved_counts_and_failures(tmp_path):
    from puzzlebench.results import load

    runs = [fault("brute", name="p0"), fault("brute", name="p1"), fault("segfault", name="p2")]
    run_sweep(runs, str(tmp_path / "r.jsonl"), quiet=True)
    text = format_report(load(tmp_path / "r.jsonl"))
    assert "PAR-2" in text and "Solved" in text
    assert "2/3" in text  # two of three puzzles solved by the one configuration
    assert "crash" in text and "Failures (crash/memout/error/wrong): 1" in text


def test_bench_cli_without_suites_is_a_clear_error(capsys):
    from puzzlebench.cli import main

    assert main(["bench", "--paradigm", "sat", "--quiet"]) == 2
    assert "no suites" in capsys.readouterr().err


def test_main_job_smoke(tmp_path):
    _cli_paradigm()
    suite = tmp_path / "puzzles" / "one"  # a suite folder; the stand-in loader ignores its manifest
    suite.mkdir(parents=True)
    (suite / "manifest.json").write_text("{}")
    script = tmp_path / "cli.py"
    script.write_text(CLI_DRIVER)
    base = tmp_path / "results"
    # another machine's results, as a fresh clone has them: kept, never relabelled or reused
    other = base / "elsewhere-0123456789"
    other.mkdir(parents=True)
    (other / "machine.json").write_text('{"machine": {"cpu": "another CPU"}}')
    (base / "machines.json").write_text(json.dumps({other.name: {"machine": {"cpu": "another CPU"}}}))
    command = [
        sys.executable,
        str(script),
        "main",
        "--smoke",
        "--quiet",
        "--puzzles",
        str(tmp_path / "puzzles"),
        "--out",
        str(base),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    from puzzlebench.bench.commands import machine_folder
    from puzzlebench.bench.metadata import machine

    out = machine_folder(base)
    assert out.parent == base and out.name.endswith(machine()["id"]) and out != other
    assert json.loads((other / "machine.json").read_text()) == {"machine": {"cpu": "another CPU"}}
    index = json.loads((base / "machines.json").read_text())
    assert set(index) == {other.name, out.name} and index[out.name]["machine"]["id"] == machine()["id"]
    assert f"{other}: results of another machine (another CPU" in done.stderr
    assert json.loads((out / "machine.json").read_text())["machine"]["id"] == machine()["id"]
    assert "PAR-2" in done.stdout and "Virtual best" in done.stdout
    for name in ("main.jsonl", "summary.csv", "machine.json", "runs.csv", "report.txt"):
        assert (out / name).exists(), name
    assert (out / "report.txt").read_text() in done.stdout
    records = list(read_records(out / "main.jsonl"))
    assert {r["suite"] for r in records} == {"one"}
    from puzzlebench.bench.commands import MAIN_PEERS

    peers = registry.available(tuple(MAIN_PEERS))
    assert {r["paradigm"] for r in records} == set(registry.available()) | set(peers)
    # each peer is asked for what it can give, and the report says so where it differs
    assert all(r["count_limit"] == MAIN_PEERS[r["paradigm"]][0] for r in records if r["paradigm"] in peers)
    if "puzzlekit" in peers:
        assert "puzzlekit/default (count=1)" in (out / "report.txt").read_text()


def test_resume_reuses_a_record_only_when_it_was_measured_the_same_way(tmp_path):
    out = tmp_path / "r.jsonl"
    item = SuiteItem(tiny_lightup("p0"), "p0", "faults")
    first = run_sweep([Run(item, "sat", timeout=5.0, memory_mb=512)], str(out), resume=True, quiet=True)
    same = run_sweep([Run(item, "sat", timeout=5.0, memory_mb=512)], str(out), resume=True, quiet=True)
    assert (first.stored, same.stored, same.skipped) == (1, 0, 1)
    # another timeout, another memory limit: measured again, and the sweep says why
    longer = run_sweep([Run(item, "sat", timeout=6.0, memory_mb=512)], str(out), resume=True, quiet=True)
    assert longer.stored == 1 and any("differ in timeout (1)" in note for note in longer.notes), longer.notes
    bigger = run_sweep([Run(item, "sat", timeout=6.0, memory_mb=1024)], str(out), resume=True, quiet=True)
    assert bigger.stored == 1 and any("memory_mb (2), timeout (1)" in note for note in bigger.notes), (
        bigger.notes
    )
    records = list(read_records(out))
    assert [(r["timeout"], r["memory_mb"]) for r in records] == [(5.0, 512), (6.0, 512), (6.0, 1024)]
    assert all(isinstance(r["load_avg"], float) for r in records)  # how busy the machine was


def test_a_run_key_names_the_machine_and_solver_version(monkeypatch):
    from puzzlebench.bench import metadata

    run = Run(SuiteItem(tiny_lightup("p0"), "p0", "faults"), "sat", timeout=5.0)
    assert run.solver_version == registry.solver("sat").version() and run.solver_version
    before = run.key
    monkeypatch.setattr(metadata, "machine", lambda: {"id": "another-machine"})
    assert run.key != before
