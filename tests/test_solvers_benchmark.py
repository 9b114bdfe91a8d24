"""benchmarks/solvers.py: every solver on the same puzzles, compared by what each run proved."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import solvers as bench_solvers  # benchmarks/solvers.py: the project's own


def _row(
    solver: str, status: str, count: int, exhausted: bool, hash_: str | None, verdict: str | None = "valid"
):
    return {
        "corpus": "kuromasu",
        "puzzle_id": "p1",
        "paradigm": "asp",
        "solver": solver,
        "encoding": "default",
        "status": status,
        "count": count,
        "exhausted": exhausted,
        "solution_hash": hash_,
        "verdict": verdict,
        "time_total": 0.1,
        "timeout": 20.0,
        "published": status == "sat",
    }


def test_outcome_is_what_a_run_proved():
    assert bench_solvers.outcome(_row("a", "unsat", 0, True, None, None)) == "none"
    assert bench_solvers.outcome(_row("a", "sat", 1, True, "h1")) == "unique:h1"
    assert bench_solvers.outcome(_row("a", "sat", 2, True, "h1")) == "several"
    assert bench_solvers.outcome(_row("a", "sat", 1, False, "h1")) is None  # timed out before the proof
    assert bench_solvers.outcome(_row("a", "timeout", 0, False, None, None)) is None
    assert bench_solvers.outcome(_row("a", "sat", 1, True, "h1", "invalid")) is None


def test_a_wrong_no_answer_is_a_disagreement(tmp_path):
    rows = [
        _row("clingo", "sat", 1, True, "h1"),
        _row("clingo-x", "unsat", 0, True, None, None),
        _row("clingo-y", "timeout", 0, False, None, None),
    ]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    summary = bench_solvers.summarise(tmp_path / "rows.jsonl", tmp_path)
    [d] = summary["disagreements"]
    assert d["answers"] == {
        "asp/clingo/default": "unique:h1",
        "asp/clingo-x/default": "none",
        "asp/clingo-y/default": None,
    }
    by_solver = {t["solver"]: t for t in summary["table"]}
    assert by_solver["clingo-x"]["proven_none"] == 1 and by_solver["clingo"]["proven_unique"] == 1
    assert by_solver["clingo-y"]["failures"] == 1
    assert "clingo-x/default says 'no answer' on 1" in bench_solvers.format_summary(summary)
    # the same rows without the liar agree
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[::2]))
    assert bench_solvers.summarise(tmp_path / "rows.jsonl", tmp_path)["disagreements"] == []


def test_two_sat_solvers_agree_on_the_corpus(janko_dir, tmp_path):
    out = tmp_path / "solvers"
    cmd = [
        sys.executable,
        str(REPO / "benchmarks" / "solvers.py"),
        "--corpus",
        str(janko_dir),
        "--family",
        "akari",
        "--paradigm",
        "sat",
        "--solver",
        "glucose4",
        "--solver",
        "cadical195",
        "--encodings",
        "default",
        "--limit",
        "3",
        "--out",
        str(out),
        "--quiet",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()]
    assert sorted({r["solver"] for r in rows}) == ["cadical195", "glucose4"] and len(rows) == 6
    assert all(r["published"] and bench_solvers.outcome(r).startswith("unique:") for r in rows)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["disagreements"] == [] and summary["runs"] == 6
    # a second invocation resumes: nothing is run again
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert again.returncode == 0 and len((out / "rows.jsonl").read_text().splitlines()) == 6


def test_every_corpus_family_runs_and_a_malformed_record_is_named(janko_dir, tmp_path):
    # two real Nurikabe records and one whose header does not match its grid
    doc = json.loads((janko_dir / "Nurikabe_dataset.json").read_text())
    first = dict(list(doc["data"].items())[:2])
    first["broken_3x3"] = {"problem": "4 3\n- 1 -\n- - -\n- - -\n", "solution": ""}
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "Nurikabe_dataset.json").write_text(json.dumps({**doc, "data": first}))
    out = tmp_path / "solvers"
    cmd = [
        sys.executable,
        str(REPO / "benchmarks" / "solvers.py"),
        "--corpus",
        str(tmp_path / "corpus"),
        "--family",
        "nurikabe",
        "--paradigm",
        "sat",
        "--solver",
        "glucose4",
        "--solver",
        "cadical195",
        "--encodings",
        "default",
        "--out",
        str(out),
        "--quiet",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "skipped malformed record broken_3x3" in done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["puzzles"] == {"nurikabe": 2} and summary["runs"] == 4 and summary["disagreements"] == []
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()]
    assert all(r["published"] and bench_solvers.outcome(r).startswith("unique:") for r in rows)
