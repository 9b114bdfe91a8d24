"""benchmarks/connectivity.py: every Kuromasu connectivity variant judged against the janko answers."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from conftest import REPO
from puzzlebench import registry
from puzzlebench.model import Family

sys.path.insert(0, str(REPO / "benchmarks"))
import connectivity  # benchmarks/connectivity.py: the project's own; a broken import fails


def test_variants_follow_the_registry():
    names = {v.name for v in connectivity.variants(["asp", "sat", "smt", "cp"])}
    for paradigm in ("asp", "sat", "smt", "cp"):
        for spec in registry.encodings(Family.KUROMASU, paradigm):
            option = next((o for o in spec.options if o.name == "connectivity"), None)
            if option:
                assert {f"{paradigm}/{spec.name}/{c}" for c in option.choices} <= names
    defaults = [v for v in connectivity.variants(["sat", "cp"]) if v.default]
    assert [v.paradigm for v in defaults] == ["sat", "cp"]
    closure = connectivity.Variant("asp", "seed000", "closure")
    assert closure.runs_on(100) and not closure.runs_on(10_000)


def test_benchmark_solves_the_corpus_and_reports_ratios(janko_dir, tmp_path):
    out = tmp_path / "conn"
    cmd = [
        sys.executable,
        str(REPO / "benchmarks" / "connectivity.py"),
        "--corpus",
        str(janko_dir),
        "--paradigm",
        "sat",
        "--paradigm",
        "cp",
        "--limit",
        "3",
        "--out",
        str(out),
        # CP's flow variant takes about 5 s on one of these puzzles when the machine is idle:
        # a limit that two parallel test workers cannot push it over
        "--timeout",
        "40",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()]
    summary = json.loads((out / "summary.json").read_text())["summary"]
    variants = {r["variant"] for r in rows}
    assert {"sat/default/lazy", "sat/default/propagator", "sat/default/rank", "cp/default/flow"} <= variants
    assert len(rows) == 3 * len(variants)
    for row in summary:
        ran = [
            r for r in rows if r["variant"] == f"{row['paradigm']}/{row['encoding']}/{row['connectivity']}"
        ]
        if row["relaxed"]:
            assert row["solved"] is None and 0 <= row["unique_without_rule"] <= 3
            continue
        # Every complete variant finds the published answer and proves it unique.
        assert row["solved"] == 3, row
        assert all(r["matches_published"] and r["verdict"] == "valid" and r["count"] == 1 for r in ran)
        # The ratio to the relaxation is the ratio of the two totals on the same puzzles.
        relaxed = [r for r in rows if r["variant"] == f"{row['paradigm']}/{row['encoding']}/none"]
        expected = sum(r["time_total"] for r in ran) / sum(r["time_total"] for r in relaxed)
        assert row["vs_none"] == pytest.approx(expected)
    assert "vs none" in done.stdout
    # notebook 03 reads the same summary
    from puzzlebench import analysis

    table = analysis.connectivity_corpus(out / "summary.csv")
    assert set(table.index) == variants and table.loc["sat/default/lazy", "solved"] == 3
    assert analysis.connectivity_corpus(tmp_path / "missing.csv") is None


@pytest.mark.slow
def test_benchmark_asks_the_same_question_of_hitori(janko_dir, tmp_path):
    out = tmp_path / "conn-hitori"
    cmd = [
        sys.executable,
        str(REPO / "benchmarks" / "connectivity.py"),
        "--corpus",
        str(janko_dir),
        "--family",
        "hitori",
        "--paradigm",
        "sat",
        "--paradigm",
        "asp",
        "--limit",
        "2",
        "--out",
        str(out),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    document = json.loads((out / "summary.json").read_text())
    assert document["family"] == "hitori" and document["puzzles"] == 2
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines()]
    assert {r["family"] for r in rows if not r.get("skipped")} == {"hitori"}
    # the variants are Hitori's own connectivity values, each complete one judged against the answers
    assert {"sat/default/lazy", "sat/default/none", "asp/default/reach"} <= {r["variant"] for r in rows}
    for row in document["summary"]:
        if not row["relaxed"] and row["connectivity"] != "rank":
            assert row["solved"] == 2 - row["skipped"], row


def test_families_side_by_side_read_every_summary(tmp_path):
    from puzzlebench import analysis

    assert analysis.connectivity_families(tmp_path) is None
    for folder, family, rows in (
        ("connectivity", "kuromasu", [("sat", "lazy", True, 0.8), ("sat", "rank", False, 60.0)]),
        ("connectivity-hitori", "hitori", [("sat", "lazy", True, 1.3)]),
    ):
        (tmp_path / folder).mkdir()
        summary = [
            {
                "paradigm": p,
                "encoding": "default",
                "connectivity": c,
                "default": d,
                "relaxed": False,
                "vs_none": v,
            }
            for p, c, d, v in rows
        ]
        summary.append(
            {
                "paradigm": "sat",
                "encoding": "default",
                "connectivity": "none",
                "default": False,
                "relaxed": True,
                "vs_none": 1.0,
            }
        )
        doc = {"family": family, "puzzles": 9, "timestamp": "2030-01-02T00:00:00", "summary": summary}
        (tmp_path / folder / "summary.json").write_text(json.dumps(doc))
    table = analysis.connectivity_families(tmp_path)
    assert list(table.columns) == ["kuromasu (9, 2030-01-02)", "hitori (9, 2030-01-02)"]
    assert table.loc["sat/default/lazy (default)"].tolist() == [0.8, 1.3]
    assert pd.isna(table.loc["sat/default/rank", "hitori (9, 2030-01-02)"])
    assert not any("none" in v for v in table.index)  # the relaxation is the baseline, not a row


def test_growth_is_fitted_per_variant_and_read_across_families(tmp_path):
    from puzzlebench import analysis

    # time ~ cells^2 and size ~ cells^1 on five board sizes: the fits must find both exponents
    chosen = [
        connectivity.Variant("sat", "default", "lazy", default=True),
        connectivity.Variant("sat", "default", "none"),
    ]
    records = []
    for i, cells in enumerate((25, 50, 100, 200, 400)):
        for v in chosen:
            records.append(
                {
                    "variant": v.name,
                    "puzzle_id": f"p{i}",
                    "cells": cells,
                    "status": "sat",
                    "verdict": "valid",
                    "count": 1,
                    "correct": True,
                    "time_total": 1e-5 * cells**2,
                    "size_clauses": 7 * cells,
                    "search_choices": 3,
                    "time_build": 0.1,
                    "time_solve": 0.2,
                }
            )
    summary = connectivity.summarise(records, chosen)
    lazy = next(r for r in summary if r["connectivity"] == "lazy")
    assert lazy["time_k"] == pytest.approx(2.0, abs=1e-3) and lazy["time_k_low"] <= 2.0 <= lazy["time_k_high"]
    assert lazy["size_k"] == pytest.approx(1.0, abs=1e-3) and lazy["time_fit_cells"] == "25-400"
    assert lazy["time_fit_note"] is None
    # too few sizes: no exponent, and the reason instead
    few = connectivity.summarise([r for r in records if r["cells"] <= 100], chosen)[0]
    assert few["time_k"] is None and "3 grid size(s)" in few["time_fit_note"]

    folder = tmp_path / "connectivity-hitori"
    folder.mkdir()
    (folder / "summary.json").write_text(json.dumps({"family": "hitori", "puzzles": 5, "summary": summary}))
    connectivity.write_runs(folder / "runs.csv", records + [{"variant": "sat/default/lazy", "skipped": True}])
    growth = analysis.connectivity_growth(tmp_path)
    assert growth.loc[("hitori", "sat/default/lazy (default)"), "time k"] == pytest.approx(2.0, abs=1e-3)
    runs = analysis.connectivity_runs(tmp_path)
    assert len(runs) == len(records) and set(runs["family"]) == {"hitori"}  # the skipped run is left out
    assert runs["size"].tolist() == [7 * r["cells"] for r in records]
