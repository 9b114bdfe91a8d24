"""benchmarks/highs_presolve.py: HiGHS's presolve rule by rule, and the proof under each confirmation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("highspy", reason="highspy is not installed (pip install highspy)")

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "benchmarks" / "highs_presolve.py"
BOARD = REPO / "puzzles" / "gen-kuromasu" / "kuromasu-020x020-s2.pzl"


def _run(*args):
    cmd = [sys.executable, str(SCRIPT), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)


def test_presolve_benchmark_reports_each_rule_and_proves_every_variant(tmp_path):
    out = tmp_path / "hp"
    done = _run(str(BOARD), "--rules", "12,15", "--timeout", "60", "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()]
    rules = [r for r in rows if r["kind"] == "rules"]
    # all rules on, all off, then each asked for off (a rule that matters also alone)
    assert [r["rule_off"] for r in rules][:2] == [None, "all"]
    assert [r["rule_off"] for r in rules if isinstance(r["rule_off"], int)] == [12, 15]
    assert all(r["rule_off"] in (None, "all", 12, 15, "all but 12", "all but 15") for r in rules)
    # the presolved model is no larger than the model, whatever the rules
    assert all(0 <= r["cols"] <= r["model_cols"] and 0 <= r["rows"] <= r["model_rows"] for r in rules)
    solves = [r for r in rows if r["kind"] == "solve"]
    assert [r["variant"] for r in solves] == [
        "default",
        "presolved proof, confirm=unpresolved",
        "presolved proof, confirm=reseeded",
    ]
    # every variant proves the bundled answer unique; each confirmation is the one its option names
    assert all(r["unique"] and r["correct"] for r in solves)
    assert solves[1]["infeasible_confirmations"] >= 1 and solves[1]["infeasible_reseeded"] == 0
    assert solves[2]["infeasible_reseeded"] >= 1 and solves[2]["infeasible_confirmations"] == 0
    summary = json.loads((out / "summary.json").read_text())
    assert {"machine", "versions", "settings", "commit"} <= summary.keys()
    assert summary["solve"]["presolved proof, confirm=reseeded"]["unique"] == 1


def test_presolve_benchmark_names_a_missing_file(tmp_path):
    done = _run(str(tmp_path / "nowhere.pzl"), "--out", str(tmp_path / "hp"))
    assert done.returncode != 0 and "nowhere.pzl" in done.stderr
