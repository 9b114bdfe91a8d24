"""The numbered notebooks run top to bottom on small parameters, and show what they promise.

One test per notebook (pytest-xdist spreads them over workers: ``pytest -n 2``). Each notebook
ends with a cell printing ``SUMMARY {json}``; the checks read it and count the figures, so a
notebook that runs but no longer computes its answer fails too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlebench import registry

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")

from puzzlebench.notebooks import NOTEBOOK_DIR, execute, execute_all, notebooks

EXPECTED = [
    "01_tour",
    "02_cross_validation",
    "03_connectivity_ablation",
    "04_scaling",
    "05_lightbulbs",
    "06_your_encoding",
]

#: Small parameters per notebook (each run well under a minute on one core).
SMALL: dict[str, dict] = {
    "01_tour": {},
    "02_cross_validation": {"N": 3, "MAX_CELLS": 225},
    "03_connectivity_ablation": {"SIZES": [5, 7, 9, 11], "REPEAT": 1, "TIMEOUT": 5.0},  # 4 sizes: a fitted k
    # isolated child runs: exercises the benchmark runner path as well
    "04_scaling": {"SIZES": [5], "PER_SIZE": 1, "ISOLATED": True, "TIMEOUT": 10.0},
    "05_lightbulbs": {"SIZES": [4, 5, 6], "PER_SIZE": 1, "STRATEGY_SIZE": 6, "STRATEGY_BOARDS": 1},
    # isolated child runs of encodings defined in the notebook (a .lp file, a CNF builder in a cell)
    "06_your_encoding": {},
}


def _outputs(nb):
    for cell in nb.cells:
        if cell.cell_type == "code":
            yield from cell.get("outputs", [])


def _summary(nb) -> dict:
    # the kernel may split one printed line over two stream outputs: read them joined
    text = "".join(out.text for out in _outputs(nb) if out.output_type == "stream")
    for line in text.splitlines():
        if line.startswith("SUMMARY "):
            return json.loads(line[len("SUMMARY ") :])
    raise AssertionError("the notebook printed no SUMMARY line")


def _pngs(nb) -> int:
    return sum(1 for out in _outputs(nb) if "image/png" in out.get("data", {}))


def _run(name: str, tmp_path: Path):
    figures = tmp_path / "figures"
    nb = execute(
        NOTEBOOK_DIR / f"{name}.ipynb",
        {**SMALL[name], "FIGURES": str(figures)},
        timeout=240,
        html=tmp_path / f"{name}.html",
    )
    errors = [o for o in _outputs(nb) if o.output_type == "error"]
    assert not errors, errors
    assert (tmp_path / f"{name}.html").stat().st_size > 10_000
    return nb, _summary(nb), figures


def test_the_notebooks_are_there_in_order():
    assert [p.stem for p in notebooks()] == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_is_stored_clean_with_question_and_parameters(name):
    nb = nbformat.read(NOTEBOOK_DIR / f"{name}.ipynb", as_version=4)
    nbformat.validate(nb)
    assert nb.cells[0].cell_type == "markdown" and "**Question.**" in nb.cells[0].source
    tagged = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1 and "FULL = False" in tagged[0].source and "FIGURES = None" in tagged[0].source
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: outputs are not stripped"


def test_tour(tmp_path):
    nb, s, figures = _run("01_tour", tmp_path)
    assert s["formats_equal"] and s["all_verified"] and s["all_unique"] and s["all_match_published"]
    assert {"asp/default", "sat/default", "cp/default", "asp/seed000"} <= set(s["runs"])
    assert s["printed_lightup_violations"] > 0  # seed 000's printed Light Up answer is invalid
    assert s["time_axes"] == ["log", "linear"]  # totals over two decades on a log axis, shares beside them
    assert set(s["other_verdicts"].values()) == {"agree"}
    svgs = sum(1 for o in _outputs(nb) if "image/svg+xml" in o.get("data", {}))
    assert svgs >= 3 and _pngs(nb) == len(list(figures.glob("*.png"))) == 1


def test_cross_validation(tmp_path, janko_dir):
    nb, s, figures = _run("02_cross_validation", tmp_path)
    assert s["source"].startswith("janko corpus")
    assert s["puzzles"] == 6 and s["families"] == {"lightup": 3, "kuromasu": 3}
    assert s["disagreements"] == 0 and s["agree"] == s["puzzles"]
    assert s["figures"] == 6 and _pngs(nb) == len(list(figures.glob("*.png"))) == 6


def test_connectivity_ablation(tmp_path):
    nb, s, figures = _run("03_connectivity_ablation", tmp_path)
    with_, without = s["seed_table"]["with"], s["seed_table"]["without"]
    assert with_["atoms"] > without["atoms"] and with_["rules"] > without["rules"]
    # the hand count of the closure matches clingo's statistics on both grids and the seed sample
    grids = len(SMALL["03_connectivity_ablation"]["SIZES"]) + 1  # the sizes and the seed's sample
    assert s["closure_rules_exact"] == f"{grids}/{grids}"
    assert all(0.8 <= x <= 1.0 for x in s["closure_atoms_share_of_n2"])
    assert s["k_rules"]["seed000 closure"] > s["k_rules"]["asp reach"]
    assert s["configurations"] >= 14 and s["runs"] == s["configurations"] * s["puzzles"]
    assert s["figures"] == _pngs(nb) == len(list(figures.glob("*.png"))) >= 8
    text = "".join(o.get("data", {}).get("text/markdown", "") for o in _outputs(nb))
    assert "What the rule grounds to" in text
    # section 6 reads every family's committed corpus summary and writes its paragraph from them
    assert "**Across families** (kuromasu (" in text and "hitori (" in text
    # ... and the growth of each variant with the board, from the summaries that carry the fits
    assert s["growth_fitted"].get("hitori", 0) >= 10 and "**hitori**: time exponents from" in text
    streams = "".join(o.get("text", "") for o in _outputs(nb) if o.get("output_type") == "stream")
    assert f"connectivity variants: {s['runs']} done in" in streams


def test_scaling_through_isolated_runs(tmp_path):
    nb, s, figures = _run("04_scaling", tmp_path)
    # every paradigm with the family's deductions and on the bare puzzle (peers: the bare puzzle)
    peers = sum(registry.paradigm(p).peer for p in registry.available())
    configs = 2 * len(registry.available()) - peers
    assert s["isolated"] and s["boards"] == 3 and s["runs"] == 3 * configs
    assert s["solved"] == s["runs"]
    assert s["par2_rows"] == 3 * configs and set(s["best_par2"]) == {"lightup", "kuromasu", "lightbulbs"}
    assert s["figures"] == _pngs(nb) == len(list(figures.glob("*.png")))
    assert s["figures"] >= 3 * 3 + 1  # cactus, scatter(s), time vs size per family; build vs solve
    # the progress bars' final state survives in the saved notebook as text
    streams = "".join(o.get("text", "") for o in _outputs(nb) if o.get("output_type") == "stream")
    assert f"{s['runs']} run(s) stored" in streams


def test_lightbulbs(tmp_path):
    nb, s, figures = _run("05_lightbulbs", tmp_path)
    assert s["boards"] == 3 and s["counts_agree"] and s["boards_counted"] == 3
    assert s["strategy_counts_agree"] and s["strategy_runs"] > 10
    assert {"cp/default:search", "asp/default:heuristic", "sat/default:solver"} <= set(s["strategy_spread"])
    assert s["figures"] == _pngs(nb) == len(list(figures.glob("*.png"))) == 3


def test_your_encoding(tmp_path):
    nb, s, figures = _run("06_your_encoding", tmp_path)
    mine = {"asp/kuromasu.lp", "sat/rays"}
    # both user encodings agree with the built-ins, and run in isolated workers beside them (the
    # labels of the plotted records: the user's configurations and the built-ins)
    assert {"asp/kuromasu.lp", "sat/rays", "sat/rays@minisat22", "sat/default"} <= set(s["configurations"])
    assert s["crosscheck_agree"] == s["crosschecked"] == 4
    assert mine | {"asp/default", "sat/default", "cp/default"} == set(s["labels"])
    assert s["runs"] == s["solved"] == 5 * s["boards"] and s["mine_solved"] == 2 * s["boards"]
    # the edited .lp takes effect in the same kernel: new hash, wrong answers, disagreement, rerun
    assert s["edited_hash_differs"] and s["restored_hash_same"] and s["file_hashes"] == 2
    assert (s["edited_status_cut_corner"], s["builtin_status_cut_corner"]) == ("wrong", "unsat")
    # The edited file, on the bare puzzles (deduce="none"), disagrees with the built-ins. The resumed
    # sweep reruns its runs as first defined, after the family's deduction, which may settle a board
    # before the file's missing rule matters: those runs are rerun and kept apart, wrong or not.
    assert s["edited_disagree"] >= 1 and 0 <= s["edited_wrong_runs"] <= s["rerun_stored"]
    assert s["rerun_stored"] == s["boards"] and s["rerun_skipped"] == s["runs"] - s["boards"]
    assert s["figures"] == _pngs(nb) == len(list(figures.glob("*.png"))) == 2
    svgs = sum(1 for o in _outputs(nb) if "image/svg+xml" in o.get("data", {}))
    assert svgs == 2  # the first answer, and the edited file's answer with the verifier's complaint
    html = (tmp_path / "06_your_encoding.html").read_text()
    assert "Conclusions" in html and "sat/rays" in html


def test_execute_all_writes_html_and_reports_failures(tmp_path):
    book = tmp_path / "books"
    book.mkdir()
    good = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_code_cell("X = 1", metadata={"tags": ["parameters"]}),
            nbformat.v4.new_code_cell("print('X is', X, FIGURES is not None)"),
            nbformat.v4.new_code_cell(
                "import pathlib; pathlib.Path(FIGURES).mkdir(parents=True); print(FIGURES)"
            ),
        ]
    )
    bad = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("raise ValueError('broken on purpose')")])
    nbformat.write(good, book / "01_good.ipynb")
    nbformat.write(bad, book / "02_bad.ipynb")
    report = execute_all(tmp_path / "out", {"X": 2, "02_bad": {"Y": 3}}, directory=book, timeout=60)
    assert report["01_good"]["error"] is None
    html = Path(report["01_good"]["html"]).read_text()
    assert "X is 2 True" in html
    # figures land in out/figures, named relative to the notebook: no machine path in the copy
    assert (tmp_path / "out" / "figures").is_dir() and str(tmp_path) not in html
    assert "broken on purpose" in report["02_bad"]["error"]
    assert Path(report["02_bad"]["html"]).exists()  # the failed notebook still leaves its HTML


def test_closure_count_matches_clingo_on_a_non_square_grid():
    from puzzlebench import analysis
    from puzzlebench.crosscheck import Config
    from puzzlebench.generate import generate

    puzzle = generate("kuromasu", 4, 6, seed=3).puzzle
    # Both on the bare puzzle (deduce="none"): the complete program would otherwise run after the
    # family's deduction, whose settled cells it states as facts, and the relaxed one without it.
    configs = [
        Config(c.paradigm, c.encoding, {**c.options, "deduce": "none"})
        for c in analysis.option_configs("kuromasu", "connectivity", ["asp"], "seed000")
    ]
    df = analysis.run(
        [puzzle],
        configs,
        count=1,
        timeout=30,
        progress=False,
    )
    row = analysis.closure_table(df).iloc[0]
    # n = 24 cells, A = 2 * (4 * 5 + 6 * 3) = 76 ordered adjacent pairs: 24 + 24 * 76 + 24^2
    assert analysis.closure_delta(4, 6) == {"cells": 24, "adjacent_pairs": 76, "atoms": 576, "rules": 2424}
    assert row["added rules"] == 2424 and row["rules exact"]
    assert 0 < row["added atoms"] <= 576


def test_janko_dir_rejects_a_path_without_the_corpus(tmp_path):
    from puzzlebench import analysis
    from puzzlebench.errors import PuzzleError

    with pytest.raises(PuzzleError, match="no janko corpus"):
        analysis.janko_dir(tmp_path)
    entries = analysis.janko_items(None, per_family=2)  # no corpus: bundled puzzles with answers
    assert entries and all(e.solution is not None for e in entries)
