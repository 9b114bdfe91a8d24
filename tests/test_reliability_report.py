"""``report`` on records with impossible values: each is skipped with a warning naming its line,
nothing is counted silently, and ``report --json`` prints valid JSON."""

from __future__ import annotations

import json
import math
import re

import pytest

from puzzlebench.bench.store import ResultsWarning, read_records
from puzzlebench.cli import main
from puzzlebench.results import load


def record(n: int, **fields) -> dict:
    base = {
        "key": f"k{n}",
        "puzzle_id": f"p{n}",
        "puzzle_hash": f"h{n}",
        "suite": "s",
        "family": "lightup",
        "paradigm": "sat",
        "encoding": "default",
        "status": "sat",
        "verdict": "valid",
        "count": 1,
        "count_limit": 1,
        "exhausted": False,
        "complete": True,
        "time_total": 0.5,
        "timeout": 10.0,
    }
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}


def write(path, lines: list) -> None:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))


BAD = [
    ({"time_total": -100}, "field 'time_total' is negative"),
    ({"time_total": math.nan}, "field 'time_total' is nan"),
    ({"time_total": math.inf}, "field 'time_total' is inf"),
    ({"time_total": 1e308}, "field 'time_total' is 1e+308 s"),
    ({"timeout": -1.0}, "field 'timeout' is negative"),
    ({"count": -3}, "field 'count' is negative"),
    ({"status": "SAT"}, "unknown status 'SAT'"),
    ({"status": "bogus"}, "unknown status 'bogus'"),
    ({"paradigm": ...}, "no 'paradigm' field"),
    ({"status": ...}, "no 'status' field"),
]


@pytest.mark.parametrize("fields, why", BAD, ids=[why for _, why in BAD])
def test_an_impossible_value_is_skipped_with_its_line_named(tmp_path, fields, why):
    path = tmp_path / "r.jsonl"
    write(path, [record(0), record(1, **fields), record(2)])
    with pytest.warns(ResultsWarning, match=re.escape(f"line 2 skipped: {why}")):
        df = load(path)
    assert sorted(df["puzzle_id"]) == ["p0", "p2"]
    assert (df["par2"] >= 0).all()


def test_a_torn_or_garbage_last_line_is_named(tmp_path):
    torn = tmp_path / "torn.jsonl"
    torn.write_text(json.dumps(record(0)) + "\n" + '{"key": "k1", "stat')
    with pytest.warns(ResultsWarning, match="line 2 skipped: a torn last line"):
        assert [r["key"] for r in read_records(torn)] == ["k0"]
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text(json.dumps(record(0)) + "\nnot json at all\n")
    with pytest.warns(ResultsWarning, match="line 2 skipped: the last line is not valid JSON"):
        assert [r["key"] for r in read_records(garbage)] == ["k0"]


def test_report_cli_names_each_skipped_line(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    write(path, [record(0), record(1, time_total=-100), record(2, status="bogus"), record(3, paradigm=...)])
    assert main(["report", str(path)]) == 0
    captured = capsys.readouterr()
    for line in (2, 3, 4):
        assert f"r.jsonl: line {line} skipped" in captured.err
    assert "1 runs over 1 puzzles" in captured.out and "-10." not in captured.out


def test_report_json_is_valid_json_with_null_for_missing_numbers(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    write(path, [record(0), record(1, status="timeout", count=0, time_total=None)])
    assert main(["report", "--json", str(path)]) == 0
    text = capsys.readouterr().out
    data = json.loads(text, parse_constant=lambda name: pytest.fail(f"bare {name} in the JSON"))
    assert data["solved"][0]["spread"] is None and data["solved"][0]["solved"] == 1
