"""Smaller reliability rules: Dask scratch folders never outlive their sweep, a scheduler without
workers is named, plugin files load under private names, CSV cells are never formulas."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pandas as pd
import psutil

from puzzlebench import plugins, results
from puzzlebench.bench import runner
from puzzlebench.bench.worker import DASK_DIR_PREFIX


# -- plugins: a file is loaded under a private module name ------------------------------------------
def test_a_plugin_file_named_like_a_standard_module_does_not_replace_it(tmp_path, monkeypatch):
    monkeypatch.setattr(plugins, "_explicit", [])
    path = tmp_path / "json.py"
    path.write_text("LOADED = True\n")
    real = sys.modules["json"]
    plugins.load(str(path))
    assert sys.modules["json"] is real and json.dumps({"a": 1}) == '{"a": 1}'
    name = plugins.file_module_name(str(path))
    assert name.startswith("puzzlebench_plugin_json_") and sys.modules[name].LOADED
    other = tmp_path / "other"
    other.mkdir()
    (other / "json.py").write_text("")
    assert plugins.file_module_name(str(other / "json.py")) != name  # two files of one name stay apart
    sys.modules.pop(name, None)


# -- CSV: text cells that a spreadsheet would run are quoted -----------------------------------------
def test_csv_cells_that_start_a_formula_are_prefixed(tmp_path):
    df = pd.DataFrame(
        {
            "error": ['=HYPERLINK("x")', "+1", "-2+3", "@SUM(A1)", "plain", None, "\tx"],
            "time_total": [-1.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        }
    )
    path = results.to_csv(df, tmp_path / "r.csv")
    back = pd.read_csv(path, keep_default_na=False)
    assert list(back["error"]) == ['\'=HYPERLINK("x")', "'+1", "'-2+3", "'@SUM(A1)", "plain", "", "'\tx"]
    assert back["time_total"].iloc[0] == -1.5  # numbers are numbers, untouched


# -- Dask: scratch folders ---------------------------------------------------------------------------
def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_dask_scratch_folder_of_a_dead_parent_is_removed_by_the_next_sweep(tmp_path, monkeypatch):
    monkeypatch.setattr(runner.tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(runner, "_swept", False)
    dead = tmp_path / f"{DASK_DIR_PREFIX}{_dead_pid()}-abc"
    (dead / "dask-scratch-space").mkdir(parents=True)
    alive = tmp_path / f"{DASK_DIR_PREFIX}{os.getpid()}-abc"
    alive.mkdir()
    runner.sweep_leftovers()
    assert not dead.exists() and alive.exists()


KILLED = textwrap.dedent("""
    import sys
    from puzzlebench.bench.runner import DaskExecutor
    executor = DaskExecutor(local=1)
    print(executor._scratch, flush=True)
    import time
    time.sleep(120)
""")


def test_a_local_dask_sweep_killed_with_sigkill_leaves_no_scratch_folder(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(tmp_path)}
    parent = subprocess.Popen([sys.executable, "-c", KILLED], stdout=subprocess.PIPE, text=True, env=env)
    children: list[psutil.Process] = []
    try:
        scratch = parent.stdout.readline().strip()
        assert scratch and os.path.isdir(scratch) and os.path.basename(scratch).startswith(DASK_DIR_PREFIX)
        children = psutil.Process(parent.pid).children(recursive=True)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 30
        while os.path.exists(scratch) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not os.path.exists(scratch)
    finally:
        if parent.poll() is None:
            parent.kill()
        for child in children:  # the cluster's worker processes, which this test started
            try:
                child.kill()
            except psutil.Error:
                pass


def test_a_scheduler_without_workers_is_named_after_a_while(monkeypatch):
    from distributed import LocalCluster

    monkeypatch.setattr(runner, "DASK_IDLE_WARN", 0.3)
    said: list[str] = []
    monkeypatch.setattr(runner.warnings, "warn", lambda message, *a, **k: said.append(str(message)))
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        executor = runner.DaskExecutor(address=cluster.scheduler_address)
        try:
            runs = executor.map([{"key": "k1"}])
            done = threading.Event()
            threading.Thread(target=lambda: (list(runs), done.set()), daemon=True).start()
            deadline = time.monotonic() + 20
            while not said and time.monotonic() < deadline:
                time.sleep(0.05)
            monkeypatch.setattr(runner, "_stop_signal", signal.SIGTERM)  # ends the wait
            assert done.wait(10)
        finally:
            executor.close()
        address = cluster.scheduler_address
    assert (
        said
        and f"no Dask worker has been connected to {address}" in said[0]
        and "1 run(s) waiting" in said[0]
    )
