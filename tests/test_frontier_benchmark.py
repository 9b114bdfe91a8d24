"""benchmarks/frontier.py: the largest bundled Kuromasu boards in every paradigm, and the generator."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from puzzlebench import registry

REPO = Path(__file__).resolve().parent.parent


def test_frontier_benchmark_solves_judges_and_summarises(tmp_path):
    paradigms = [p for p in ("sat", "asp") if registry.solver(p).supported()]
    assert paradigms, "python-sat or clingo is a core dependency"
    out = tmp_path / "frontier"
    cmd = [
        sys.executable,
        str(REPO / "benchmarks" / "frontier.py"),
        "--side",
        "7",
        "--timeout",
        "30",
        "--all-options",
        "--out",
        str(out),
    ] + [arg for p in paradigms for arg in ("--paradigm", p)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()]
    solves = [r for r in rows if r["kind"] == "solve"]
    # every bundled 7x7 board in every configuration, each answer the planted one, proved unique
    boards = {r["puzzle_id"] for r in solves}
    assert len(boards) >= 2 and all(r["correct"] and r["verdict"] == "valid" for r in solves)
    assert {json.dumps(r["options"]) for r in solves if r["paradigm"] == "sat"} > {
        "{}"
    }  # defaults and options
    (gen,) = [r for r in rows if r["kind"] == "generate"]
    assert gen["time_total"] > 0 and gen["puzzle_id"] == "7x7-s1"
    summary = json.loads((out / "summary.json").read_text())
    assert {"machine", "versions", "timeout", "summary"} <= summary.keys()
    for row in summary["summary"]:
        mine = [
            r
            for r in rows
            if r["kind"] == row["kind"]
            and r["paradigm"] == row["paradigm"]
            and r["options"] == row["options"]
        ]
        assert row["runs"] == len(mine) and row["solved"] == sum(r["correct"] for r in mine)
        assert row["worst_s"] == max(r["time_total"] for r in mine)
