"""benchmarks/nurikabe_probe.py: the probe's variants (the readable engine's two readings of the
island rule, the compiled engine), timed and checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "benchmarks" / "nurikabe_probe.py"


def _run(janko_dir, out, *args):
    cmd = [
        sys.executable,
        str(SCRIPT),
        "--corpus",
        str(janko_dir / "Nurikabe_dataset.json"),
        "--out",
        str(out),
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)


def test_probe_benchmark_times_every_variant_and_checks_the_cells(janko_dir, tmp_path):
    out = tmp_path / "probe"
    done = _run(
        janko_dir,
        out,
        "--id",
        "683_14x24",
        "--id",
        "940_15x15",
        "--budget",
        "60",
        "--variant",
        "full",
        "--variant",
        "lean",
        "--variant",
        "compiled",
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()]
    assert [(r["id"], r["variant"]) for r in rows] == [
        (i, v) for i in ("683_14x24", "940_15x15") for v in ("full", "lean", "compiled")
    ]
    # every variant settles the same cells, none against the published answer, and 683's probe
    # settles most of its board (269 of 336 cells when this was written)
    assert all(r["finished"] and r["ok"] and r["wrong"] == 0 and r["same_cells"] for r in rows)
    assert rows[0]["settled"] == rows[1]["settled"] == rows[2]["settled"] > 250
    summary = json.loads((out / "summary.json").read_text())
    assert {"machine", "versions", "settings", "commit"} <= summary.keys()
    assert summary["all_same_cells"] and summary["wrong_cells"] == 0
    assert summary["lean_over_full_cpu"]["boards"] == summary["compiled_over_full_cpu"]["boards"] == 2


def test_probe_benchmark_names_an_unknown_board(janko_dir, tmp_path):
    done = _run(janko_dir, tmp_path / "probe", "--id", "9999_1x1")
    assert done.returncode != 0 and "9999_1x1" in done.stderr


DEEP = REPO / "benchmarks" / "nurikabe_deep.py"


def test_deep_benchmark_counts_what_depth_two_settles(janko_dir, tmp_path):
    # 01_10x10: the depth-1 probe settles it; 1080_10x14: depth 1 leaves cells open, depth 2 none
    out = tmp_path / "deep"
    cmd = [
        sys.executable,
        str(DEEP),
        "--corpus",
        str(janko_dir / "Nurikabe_dataset.json"),
        "--out",
        str(out),
        "--id",
        "01_10x10",
        "--id",
        "1080_10x14",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {r["id"]: r for r in map(json.loads, (out / "rows.jsonl").read_text().splitlines())}
    assert (
        rows["01_10x10"]["probe_settled"] == rows["01_10x10"]["cells"]
        and "depth2_cpu_s" not in rows["01_10x10"]
    )
    deep = rows["1080_10x14"]
    assert deep["probe_settled"] < deep["cells"] == deep["deep_settled"]
    assert deep["depth2_left"] == 0 and deep["depth2_ok"] and len(deep["depth2_gaps"]) >= 1
    summary = json.loads((out / "summary.json").read_text())
    assert {"machine", "versions", "settings", "commit"} <= summary.keys()
    assert (
        summary["boards"],
        summary["left_open_by_probe"],
        summary["depth2_settles_whole"],
        summary["deep_settles_whole"],
        summary["wrong_cells"],
    ) == (2, 1, 1, 1, 0)


def test_deep_benchmark_names_an_unknown_board(janko_dir, tmp_path):
    cmd = [
        sys.executable,
        str(DEEP),
        "--corpus",
        str(janko_dir / "Nurikabe_dataset.json"),
        "--out",
        str(tmp_path / "deep"),
        "--id",
        "9999_1x1",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode != 0 and "9999_1x1" in done.stderr


def test_plans_benchmark_proves_the_published_answers_on_both_plans(janko_dir, tmp_path):
    out = tmp_path / "plans"
    cmd = [
        sys.executable,
        str(REPO / "benchmarks" / "nurikabe_plans.py"),
        "--corpus",
        str(janko_dir / "Nurikabe_dataset.json"),
        "--out",
        str(out),
        "--every",
        "400",
        "--paradigm",
        "sat",
        "--paradigm",
        "cp",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()]
    assert [(r["paradigm"], r["plan"]) for r in rows[:4]] == [
        ("sat", "probe"),
        ("sat", "deep"),
        ("cp", "probe"),
        ("cp", "deep"),
    ]
    assert len(rows) == 4 * 3 and all(r["proven"] for r in rows)
    summary = json.loads((out / "summary.json").read_text())
    assert {"machine", "versions", "settings", "commit"} <= summary.keys()
    assert sorted(summary["pairs"]) == ["cp/deep", "cp/probe", "sat/deep", "sat/probe"]
    assert all(p["proven"] == p["puzzles"] == 3 and p["wrong"] == 0 for p in summary["pairs"].values())
