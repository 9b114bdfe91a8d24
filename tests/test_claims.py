"""The README's findings are written from the committed results, not typed."""

from __future__ import annotations

import json

from conftest import REPO
from puzzlebench import claims


def test_the_readme_says_what_the_committed_results_say():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start, end = text.index(claims.BEGIN), text.index(claims.END) + len(claims.END)
    assert text[start:end] == claims.block(REPO / "results"), (
        "README's claims differ from the results: run `python -m puzzlebench.claims --readme README.md`")


def test_claims_follow_the_numbers_in_the_files(tmp_path):
    (tmp_path / "janko").mkdir()
    row = {"family": "akari", "puzzles": 3, "solved": 3, "total_s": 1.5, "worst_s": 0.9, "worst_id": "p2",
           "vs_puzzlekit": 0.25}
    doc = {"families": ["akari"], "machine": {"cpu": "Test CPU", "cores": 4}, "timestamp": "2030-01-02T00:00:00",
           "summary": [{**row, "paradigm": "sat"}, {**row, "paradigm": "asp", "total_s": 4.0},
                       {**row, "paradigm": "puzzlekit", "total_s": 6.0, "vs_puzzlekit": 1.0}]}
    (tmp_path / "janko" / "summary.json").write_text(json.dumps(doc))
    said = claims.claims(tmp_path)
    assert said[0].startswith("**Every paradigm's default encoding solves every janko puzzle**")
    assert "3 Akari (6 runs" in said[0] and "4-core Test CPU, 2030-01-02" in said[0]
    assert "SAT is fastest, 1.50 s in all, 0.250 of puzzlekit's 6.00 s" in said[1] and "then ASP 4.0 s" in said[1]
    doc["summary"][0]["solved"] = 2
    (tmp_path / "janko" / "summary.json").write_text(json.dumps(doc))
    assert "does not solve" in claims.claims(tmp_path)[0]
