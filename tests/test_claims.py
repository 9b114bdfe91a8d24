"""The README's findings are written from the committed results, not typed."""

from __future__ import annotations

import json

from conftest import REPO
from puzzlebench import claims


def test_the_readme_says_what_the_committed_results_say():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start, end = text.index(claims.BEGIN), text.index(claims.END) + len(claims.END)
    assert text[start:end] == claims.block(REPO / "results"), (
        "README's claims differ from the results: run `python -m puzzlebench.claims --readme README.md`"
    )


def test_claims_follow_the_numbers_in_the_files(tmp_path):
    (tmp_path / "janko").mkdir()
    row = {
        "family": "akari",
        "puzzles": 3,
        "solved": 3,
        "total_s": 1.5,
        "worst_s": 0.9,
        "worst_id": "p2",
        "vs_puzzlekit": 0.25,
    }
    doc = {
        "families": ["akari"],
        "machine": {"cpu": "Test CPU", "cores": 4},
        "timestamp": "2030-01-02T00:00:00",
        "summary": [
            {**row, "paradigm": "sat"},
            {**row, "paradigm": "asp", "total_s": 4.0},
            {**row, "paradigm": "puzzlekit", "total_s": 6.0, "vs_puzzlekit": 1.0},
        ],
    }
    (tmp_path / "janko" / "summary.json").write_text(json.dumps(doc))
    said = claims.claims(tmp_path)
    assert said[0].startswith("**Every paradigm's default encoding solves every janko puzzle**")
    assert "3 Akari (6 runs of SAT, ASP;" in said[0] and "4-core Test CPU, 2030-01-02" in said[0]
    assert (
        "SAT is fastest, 1.50 s in all, 0.250 of puzzlekit's 6.00 s" in said[1]
        and "then ASP 4.0 s" in said[1]
    )
    doc["summary"][0]["solved"] = 2
    (tmp_path / "janko" / "summary.json").write_text(json.dumps(doc))
    assert "does not solve" in claims.claims(tmp_path)[0]
    # a family's run kept apart, puzzlekit on a sample: its line names the sample and what failed
    (tmp_path / "janko-nurikabe").mkdir()
    nuri = {
        **row,
        "family": "nurikabe",
        "puzzles": 20,
        "solved": 19,
        "peer_puzzles": 2,
        "on_peer_puzzles_s": 0.5,
    }
    apart = {
        **doc,
        "families": ["nurikabe"],
        "peer_every": 10,
        "timeout": 10.0,
        "summary": [{**nuri, "paradigm": "sat"}, {**nuri, "paradigm": "puzzlekit", "total_s": 5.0}],
    }
    (tmp_path / "janko-nurikabe" / "summary.json").write_text(json.dumps(apart))
    line = claims.claims(tmp_path)[-1]
    assert line.startswith(
        "Nurikabe (20 puzzles; SAT and puzzlekit in one run, 4-core Test CPU, 2030-01-02): SAT is "
        "fastest, 1.50 s in all; on the 2 puzzles puzzlekit ran (every 10th) 0.50 s against "
        "puzzlekit's 5.00 s (0.250"
    )
    assert "then ;" not in line  # no other paradigm ran in that run
    assert line.endswith("not solved and proven within 10 s: SAT 1.")


def test_frontier_claims_follow_its_summary(tmp_path):
    (tmp_path / "frontier").mkdir()
    row = {"kind": "solve", "options": {}, "runs": 3, "statuses": ["sat"], "build_median_s": 0.1}
    doc = {
        "side": 100,
        "timeout": 60.0,
        "machine": {"cpu": "Test CPU", "cores": 2},
        "timestamp": "2030-01-02T00:00:00",
        "summary": [
            {**row, "paradigm": "asp", "solved": 3, "median_s": 40.0, "worst_s": 47.0},
            {**row, "paradigm": "sat", "solved": 3, "median_s": 5.25, "worst_s": 6.0},
            {**row, "paradigm": "cp", "solved": 1, "median_s": 60.0, "worst_s": 60.0},
            {
                **row,
                "paradigm": "sat",
                "options": {"connectivity": "rank"},
                "solved": 0,
                "median_s": 60.0,
                "worst_s": 60.0,
            },
            {
                **row,
                "kind": "generate",
                "paradigm": "generator",
                "runs": 1,
                "solved": 1,
                "median_s": 118.0,
                "worst_s": 118.0,
            },
        ],
    }
    (tmp_path / "frontier" / "summary.json").write_text(json.dumps(doc))
    (said,) = claims.frontier_claims(tmp_path)
    assert said.startswith("The frontier, 100x100 Kuromasu")
    # the defaults only, most solved first, then fastest
    assert (
        "SAT 3/3, median 5.2 s, worst 6.0 s; ASP 3/3, median 40.0 s, worst 47.0 s; CP 1/3, median 60.0 s,"
        in said
    )
    assert "takes 118 s" in said and "2-core Test CPU, 2030-01-02" in said


def test_other_families_connectivity_claims_follow_their_summary(tmp_path):
    (tmp_path / "connectivity-hitori").mkdir()
    base = {"encoding": "default", "relaxed": False, "default": False, "unique_without_rule": None}
    doc = {
        "family": "hitori",
        "puzzles": 7,
        "machine": {"cpu": "Test CPU", "cores": 2},
        "timestamp": "2030-01-02T00:00:00",
        "summary": [
            {**base, "paradigm": "sat", "connectivity": "lazy", "default": True, "vs_none": 1.25},
            {**base, "paradigm": "sat", "connectivity": "rank", "vs_none": 40.0},
            {**base, "paradigm": "asp", "connectivity": "reach", "default": True, "vs_none": 0.5},
            {
                **base,
                "paradigm": "sat",
                "connectivity": "none",
                "relaxed": True,
                "vs_none": 1.0,
                "unique_without_rule": 3,
            },
        ],
    }
    (tmp_path / "connectivity-hitori" / "summary.json").write_text(json.dumps(doc))
    (said,) = claims.other_connectivity_claims(tmp_path)
    assert said.startswith("The same question on 7 janko Hitori puzzles")
    assert "SAT lazy (default) 1.25x, ASP reach (default) 0.50x;" in said and "rank" not in said
    assert "without it 3 of them" in said and "2-core Test CPU, 2030-01-02" in said
