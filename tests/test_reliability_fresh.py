"""``main --fresh`` beside a running ``main``: the writer's lock is taken, a held lock is refused
(exit 2, naming the job that holds it), and the old results are moved aside, never deleted."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from puzzlebench.bench.commands import machine_folder
from puzzlebench.bench.store import ResultStore, StoreLockedError, move_aside, read_records
from puzzlebench.cli import main

HOLDER = textwrap.dedent("""
    import sys, time
    from puzzlebench.bench.store import ResultStore
    with ResultStore(sys.argv[1], resume=True) as store:
        print("locked", flush=True)
        time.sleep(60)
""")


@pytest.fixture
def held(tmp_path):
    """A results file with one record, held open for writing by another process."""

    def hold(path):
        with ResultStore(path) as store:
            store.append({"key": "a"})
        child = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(path)],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert child.stdout.readline().strip() == "locked"
        children.append(child)
        return child

    children: list[subprocess.Popen] = []
    yield hold
    for child in children:
        child.kill()
        child.wait()


def test_move_aside_keeps_the_records_under_a_name_folder_readers_skip(tmp_path):
    path = tmp_path / "main.jsonl"
    assert move_aside(path) is None  # nothing to move
    with ResultStore(path) as store:
        store.append({"key": "a"})
    aside = move_aside(path)
    assert not path.exists() and aside.parent == tmp_path and not aside.name.endswith(".jsonl")
    assert [r["key"] for r in read_records(aside)] == ["a"]
    with ResultStore(path) as store:  # a second fresh start within the same second keeps both
        store.append({"key": "b"})
    second = move_aside(path)
    assert second != aside and [r["key"] for r in read_records(second)] == ["b"]


def test_move_aside_refuses_a_file_being_written_and_names_the_writer(tmp_path, held):
    path = tmp_path / "main.jsonl"
    child = held(path)
    with pytest.raises(StoreLockedError, match=f"locked by pid {child.pid} "):
        move_aside(path)
    assert [r["key"] for r in read_records(path)] == ["a"]  # untouched


def test_main_fresh_beside_a_running_main_is_refused_and_deletes_nothing(tmp_path, held, capsys):
    base = tmp_path / "results"
    jsonl = machine_folder(base) / "main.jsonl"
    jsonl.parent.mkdir(parents=True)
    child = held(jsonl)
    inode = os.stat(jsonl).st_ino
    code = main(
        ["main", "--smoke", "--fresh", "--quiet", "--puzzles", str(tmp_path / "none"), "--out", str(base)]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert f"locked by pid {child.pid}" in err
    assert os.stat(jsonl).st_ino == inode and [r["key"] for r in read_records(jsonl)] == ["a"]
    assert [p.name for p in jsonl.parent.iterdir() if p.name.startswith("main.jsonl.old")] == []


def test_store_lock_error_names_the_other_sweep(tmp_path, held):
    path = tmp_path / "r.jsonl"
    child = held(path)
    with pytest.raises(StoreLockedError, match=f"pid {child.pid} "):
        ResultStore(path, resume=True)
