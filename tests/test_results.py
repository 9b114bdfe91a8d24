"""Loading benchmark records into pandas, and what is derived from them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from puzzlebench import results
from puzzlebench.bench.report import disagreements, format_report, solved_table, vbs_table


def record(
    pid: str,
    label: str,
    status: str = "sat",
    *,
    count: int = 1,
    exhausted: bool = True,
    time_total: float = 1.0,
    solution_hash: str | None = "h1",
    complete: bool = True,
    verdict: str | None = None,
    expected: int | None = None,
    **extra,
) -> dict:
    paradigm, _, encoding = label.partition("/")
    base = {
        "key": f"{pid}-{label}-{extra.get('repeat', 0)}",
        "puzzle_id": pid,
        "puzzle_hash": f"hash-{pid}",
        "suite": "s",
        "family": "lightup",
        "rows": 3,
        "cols": 3,
        "paradigm": paradigm,
        "encoding": encoding,
        "options": {},
        "complete": complete,
        "repeat": 0,
        "status": status,
        "verdict": verdict or ("valid" if count else "none"),
        "count": count,
        "count_limit": 2,
        "exhausted": exhausted,
        "solution_hash": solution_hash,
        "expected_count": expected,
        "time_total": time_total,
        "timeout": 10.0,
        "size": {"variables": 9},
        "search": {"conflicts": 3},
        "versions": {"python": "3"},
        "machine": {"cores": 2},
    }
    base.update(extra)
    return base


def write(path: Path, records: list[dict], torn: bool = False) -> Path:
    with open(path, "w") as fh:
        for r in records:
            fh.write(json.dumps(r) + "\n")
        if torn:
            fh.write('{"key": "half')
    return path


@pytest.fixture
def table(tmp_path) -> pd.DataFrame:
    recs = [
        record("a", "sat/default", time_total=1.0),
        record("a", "asp/default", time_total=3.0),
        record("b", "sat/default", status="timeout", count=0, exhausted=False, solution_hash=None),
        record("b", "asp/default", time_total=2.0),
        record(
            "c",
            "sat/default",
            status="crash",
            count=0,
            exhausted=False,
            solution_hash=None,
            error="child killed by SIGSEGV",
        ),
        record("c", "asp/default", count=2, exhausted=False, solution_hash="h1,h2"),
    ]
    return results.load(write(tmp_path / "r.jsonl", recs, torn=True))


def test_load_flattens_sizes_adds_labels_and_skips_a_torn_line(table):
    assert len(table) == 6
    assert {"size_variables", "search_conflicts", "label", "solved", "par2"} <= set(table.columns)
    assert set(table["label"]) == {"sat/default", "asp/default"}
    assert isinstance(table["options"].iloc[0], dict)


def test_solved_means_goal_reached_and_par2_doubles_the_timeout(table):
    by = table.set_index(["puzzle_id", "label"])
    assert by.loc[("a", "sat/default"), "solved"] and by.loc[("a", "sat/default"), "par2"] == 1.0
    assert not by.loc[("b", "sat/default"), "solved"] and by.loc[("b", "sat/default"), "par2"] == 20.0
    assert by.loc[("c", "asp/default"), "solved"]  # two answers found: non-uniqueness proven


def test_found_answer_without_uniqueness_proof_is_not_solved(tmp_path):
    df = results.load(write(tmp_path / "r.jsonl", [record("a", "sat/default", exhausted=False, count=1)]))
    assert not df["solved"].iloc[0]


def test_solved_table_and_vbs(table):
    solved = solved_table(table).set_index("label")
    assert solved.loc["asp/default", "solved"] == 3 and solved.loc["sat/default", "solved"] == 1
    assert math.isclose(solved.loc["sat/default", "par2"], (1.0 + 20.0 + 20.0) / 3)
    vbs = vbs_table(table).iloc[0]
    assert vbs["solved"] == 3 and math.isclose(vbs["par2"], (1.0 + 2.0 + 1.0) / 3)


def test_disagreements_between_complete_encodings_are_listed(tmp_path):
    recs = [
        record("u", "sat/default", solution_hash="h1"),
        record("u", "asp/default", solution_hash="h2"),  # another unique answer
        record("n", "sat/default", count=1, exhausted=True),
        record("n", "asp/default", count=2, exhausted=False, solution_hash="h1,h3"),  # 1 vs >= 2
        record("r", "sat/default", count=2, exhausted=False, solution_hash="h1,h3", complete=False),
        record("r", "asp/default"),  # relaxed encodings never disagree
        record("e", "asp/default", expected=2),  # the manifest knows better
    ]
    found = {d["puzzle_id"]: d for d in disagreements(results.load(write(tmp_path / "r.jsonl", recs)))}
    assert set(found) == {"u", "n", "e"}
    assert any("unique answers differ" in p for p in found["u"]["problems"])
    assert any("verifier valid" in v for v in found["u"]["views"])


def test_report_text(table):
    text = format_report(table)
    assert "PAR-2" in text and "Solved" in text and "Virtual best" in text
    assert "Failures (crash/memout/error/wrong): 1" in text and "SIGSEGV" in text


def test_csv_and_parquet_round_trip(table, tmp_path):
    back = pd.read_csv(results.to_csv(table, tmp_path / "r.csv"))
    assert len(back) == len(table) and json.loads(back["options"].iloc[0]) == {}
    pytest.importorskip("pyarrow")
    pq = pd.read_parquet(results.to_parquet(table, tmp_path / "r.parquet"))
    assert list(pq["time_total"]) == list(table["time_total"])


def test_mkplot_files_per_configuration(table, tmp_path):
    paths = results.to_mkplot(table, tmp_path / "mk")
    assert sorted(p.name for p in paths) == ["asp_default.json", "sat_default.json"]
    data = json.loads((tmp_path / "mk" / "sat_default.json").read_text())
    assert data["preamble"]["program"] == "sat/default"
    assert data["stats"]["s/a"] == {"status": True, "rtime": 1.0}
    assert data["stats"]["s/b"]["status"] is False


def test_load_reports_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        results.load(tmp_path / "nothing.jsonl")


def test_runs_under_different_timeouts_are_split_in_the_report_and_refused_by_plots(tmp_path):
    from puzzlebench import plots
    from puzzlebench.errors import PuzzleError

    recs = [
        record("a", "sat/default", time_total=1.0, timeout=20.0),
        record("b", "sat/default", time_total=5.0, timeout=60.0, key="b-60"),
        record("a", "asp/default", time_total=2.0, timeout=20.0),
    ]
    with pytest.warns(results.IncomparableRunsWarning, match=r"timeout \(20.0, 60.0\)"):
        df = results.load(write(tmp_path / "r.jsonl", recs))
    assert results.incomparable(df) == {"timeout": [20.0, 60.0]}
    text = format_report(df)
    assert (
        "Not comparable as one set: the runs differ in timeout (20.0, 60.0); the tables are split by timeout"
        in text
    )
    assert "== timeout = 20.0 ==" in text and "== timeout = 60.0 ==" in text
    twenty = text.split("== timeout = 60.0 ==")[0]
    assert "asp/default" in twenty and "1/1" in twenty  # the 60 s run is not in the 20 s table
    with pytest.raises(
        PuzzleError, match=r"cactus plot: the runs are not comparable, they differ in timeout"
    ):
        plots.cactus(df)
    plots.cactus(df[df.timeout == 20.0])  # one setting selected: drawn


def test_machines_and_solver_versions_are_told_apart(tmp_path):
    recs = [
        record(
            "a",
            "sat/default",
            machine={"cpu": "A", "cores": 2, "host": "one"},
            solver="cadical195",
            solver_version="1.9.5",
        ),
        record(
            "b",
            "sat/default",
            machine={"cpu": "B", "cores": 8, "host": "two"},
            solver="cadical195",
            solver_version="2.0.0",
        ),
    ]
    with pytest.warns(results.IncomparableRunsWarning):
        df = results.load(write(tmp_path / "r.jsonl", recs))
    found = results.incomparable(df)
    assert len(found["machine_id"]) == 2 and found["cadical195 version"] == ["1.9.5", "2.0.0"]
    assert "split by machine_id" in format_report(df)


def test_repeated_configurations_show_their_median_and_spread(tmp_path):
    recs = [
        record("a", "sat/default", time_total=t, repeat=i, key=f"a-{i}")
        for i, t in enumerate((1.0, 1.2, 0.8))
    ]
    recs += [record("a", "asp/default", time_total=2.0)]
    df = results.load(write(tmp_path / "r.jsonl", recs))
    table = solved_table(df).set_index("label")
    assert table.loc["sat/default", "repeats"] == 3 and table.loc["sat/default", "spread"] == pytest.approx(
        0.4
    )
    assert table.loc["sat/default", "par2"] == pytest.approx(1.0)  # the median repetition
    assert math.isnan(table.loc["asp/default", "spread"])
    text = format_report(df)
    assert "3x, 40%" in text and "repeats, spread" in text
    assert "Machine load" not in text  # these records do not say
    df["load_avg"] = [0.5, 1.5, 3.0, 1.0]
    assert (
        "Machine load (1-minute load average at the end of each run): median 1.25, max 3.00"
        in format_report(df)
    )


def test_the_source_column_names_files_inside_the_working_folder_relatively(tmp_path, monkeypatch):
    (tmp_path / "results").mkdir()
    path = write(tmp_path / "results" / "r.jsonl", [record("a", "sat/default")])
    monkeypatch.chdir(tmp_path)
    assert results.load(path.resolve())["source"].tolist() == ["results/r.jsonl"]  # no machine path
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert results.load(path)["source"].tolist() == [str(path)]  # outside it: as given
