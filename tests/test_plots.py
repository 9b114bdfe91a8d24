"""Plots draw what the data says: checked on a synthetic results table with known answers."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from puzzlebench import plots


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def synthetic() -> pd.DataFrame:
    rows = []
    for i, n in enumerate((5, 10, 20, 40)):
        for label, paradigm, conn, k in (
            ("sat/default", "sat", "lazy", 1.0),
            ("asp/default", "asp", "reach", 1.5),
        ):
            cells = n * n
            rows.append(
                {
                    "puzzle_id": f"p{i}",
                    "family": "kuromasu",
                    "rows": n,
                    "cols": n,
                    "label": label,
                    "paradigm": paradigm,
                    "encoding": "default",
                    "options": {"connectivity": conn},
                    "status": "timeout" if (label == "asp/default" and n == 40) else "sat",
                    "verdict": "valid",
                    "count": 1,
                    "solution_hash": f"h{i}",
                    "time_total": 1e-4 * cells**k,
                    "timeout": 10.0,
                    "size_atoms": 3.0 * cells**1.5 if paradigm == "asp" else None,
                    "size_variables": 2.0 * cells if paradigm == "sat" else None,
                }
            )
    return pd.DataFrame(rows)


def test_size_plot_legend_carries_fitted_exponent() -> None:
    df = synthetic()
    fig = plots.size_vs_grid(df[df.size_atoms.notna()], "size_atoms")
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert texts == ["asp/default (k=1.50 [1.50, 1.50])"]
    assert fig.axes[0].get_xscale() == "log" and "cells" in fig.axes[0].get_xlabel()


def test_no_exponent_is_drawn_from_three_sizes() -> None:
    df = synthetic()
    df = df[df.size_atoms.notna() & (df.rows < 40)]
    fig = plots.size_vs_grid(df, "size_atoms")
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert texts == ["asp/default"] and len(fig.axes[0].get_lines()) == 1  # the data, no fitted line


def test_cactus_counts_only_solved_runs() -> None:
    fig = plots.cactus(synthetic(), vbs=True)
    lines = {line.get_label(): line for line in fig.axes[0].get_lines()}
    assert len(lines["asp/default"].get_xdata()) == 3  # the 40x40 timeout is not solved
    assert len(lines["sat/default"].get_xdata()) == 4
    assert len(lines["virtual best"].get_xdata()) == 4


def test_scatter_puts_timeouts_on_the_border() -> None:
    fig = plots.scatter(synthetic(), "sat/default", "asp/default")
    collections = fig.axes[0].collections
    border = [c for c in collections if c.get_label() == "timeout / failure"][0]
    assert border.get_offsets()[:, 1].tolist() == [10.0]


def test_agreement_matrix_is_full_on_identical_answers() -> None:
    fig = plots.agreement_matrix(synthetic())
    image = fig.axes[0].get_images()[0].get_array()
    assert np.allclose(image.filled(np.nan)[~np.isnan(image.filled(np.nan))], 1.0)


def test_ablation_bars_and_standard_set_are_written(tmp_path) -> None:
    df = synthetic()
    fig = plots.ablation_bars(df, "connectivity", metrics=("time_total",))
    assert fig.axes[0].get_yscale() == "log"
    paths = plots.save_standard_plots(df, tmp_path)
    names = {p.name for p in paths}
    assert {
        "kuromasu_cactus.png",
        "kuromasu_connectivity_ablation.png",
        "kuromasu_size_atoms_vs_grid.png",
    } <= names
    assert all(p.stat().st_size > 1000 for p in paths)


# --- reviewer-found defects, each checked on a hand-built frame ------------------------------------------------


def _legend_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


def _run(pid, label, paradigm, **kw) -> dict:
    row = {
        "puzzle_id": pid,
        "family": "kuromasu",
        "rows": 5,
        "cols": 5,
        "label": label,
        "paradigm": paradigm,
        "encoding": "default",
        "options": {},
        "status": "sat",
        "verdict": "valid",
        "count": 1,
        "count_limit": 2,
        "exhausted": True,
        "complete": True,
        "solution_hash": "h" + pid,
        "time_total": 0.1,
        "timeout": 10.0,
    }
    row.update(kw)
    return row


def test_ablation_bars_show_defaults_under_their_value_and_mark_the_relaxed_one() -> None:
    rows = []
    for i in range(3):
        p = f"p{i}"
        rows += [
            _run(p, "asp/default", "asp"),  # default: connectivity=auto, looked up in the registry
            _run(p, "sat/default", "sat", resolved_options={"connectivity": "lazy"}),
            _run(
                p, "asp/default[connectivity=none]", "asp", options={"connectivity": "none"}, complete=False
            ),
            _run(p, "sat/default[connectivity=rank]", "sat", options={"connectivity": "rank"}),
        ]
    fig = plots.ablation_bars(pd.DataFrame(rows), "connectivity", metrics=("time_total",))
    ax = fig.axes[0]
    texts = _legend_texts(ax)
    assert "auto" in texts and "lazy" in texts and "none (relaxed)" in texts and "rank" in texts
    hatched = {t for t, bars in zip(texts, ax.containers) if any(b.get_hatch() for b in bars)}
    assert hatched == {"none (relaxed)"}
    assert "kuromasu" in ax.get_title()


def test_cactus_splits_instance_sets_and_marks_relaxed_and_count_limited_runs() -> None:
    rows = [
        _run(f"p{i}", lab, par)
        for i in range(4)
        for lab, par in (("asp/default", "asp"), ("sat/default", "sat"))
    ]
    rows += [
        _run(f"p{i}", "puzzlekit/default", "puzzlekit", count_limit=1, exhausted=False) for i in range(4)
    ]
    rows += [_run(f"p{i}", "asp/default[connectivity=none]", "asp", complete=False) for i in range(2)]
    rows += [_run(f"p{i}", "asp/default[connectivity=rank]", "asp") for i in range(2)]
    fig = plots.cactus(pd.DataFrame(rows), vbs=True)
    assert len(fig.axes) == 2
    titles = [ax.get_title() for ax in fig.axes]
    assert "n=4 puzzles" in titles[0] and "n=2 puzzles" in titles[1] and all("kuromasu" in t for t in titles)
    full, part = (_legend_texts(ax) for ax in fig.axes)
    assert "puzzlekit/default (count=1)" in full and "asp/default[connectivity=none]" not in " ".join(full)
    assert "asp/default[connectivity=none] (relaxed)" in part and "asp/default" not in part
    lines = {line.get_label(): line for line in fig.axes[1].get_lines()}
    assert lines["asp/default[connectivity=none] (relaxed)"].get_linestyle() == "--"
    assert lines["asp/default[connectivity=rank]"].get_linestyle() == "-"
    assert len(lines["virtual best"].get_xdata()) == 2  # the relaxed line is not in the virtual best


def test_runtime_vs_grid_marks_unsolved_runs_at_the_timeout() -> None:
    fig = plots.runtime_vs_grid(synthetic())
    ax = fig.axes[0]
    assert any(t.startswith("timeout/unsolved") for t in _legend_texts(ax))
    crosses = [line for line in ax.get_lines() if line.get_marker() == "x" and len(line.get_xdata())]
    assert len(crosses) == 1
    assert crosses[0].get_xdata().tolist() == [1600] and crosses[0].get_ydata().tolist() == [10.0]
    assert "asp/default (1 unsolved)" in _legend_texts(ax)  # three solved sizes: no exponent stated


def test_size_vs_grid_uses_each_paradigms_natural_metric() -> None:
    rows = []
    for n in (5, 10, 20, 40):
        c = n * n
        base = {
            "puzzle_id": f"p{n}",
            "family": "kuromasu",
            "rows": n,
            "cols": n,
            "status": "sat",
            "time_total": 0.1,
        }
        rows += [
            {**base, "label": "asp/default", "paradigm": "asp", "size_atoms": 2.0 * c, "size_rules": 3.0 * c},
            {
                **base,
                "label": "sat/default",
                "paradigm": "sat",
                "size_variables": 1.0 * c,
                "size_clauses": 9.0 * c**1.5,
            },
            {**base, "label": "smt/default", "paradigm": "smt", "size_assertions": 4.0 * c},
            {
                **base,
                "label": "cp/default",
                "paradigm": "cp",
                "size_variables": 1.0 * c,
                "size_constraints": 5.0 * c,
            },
        ]
    fig = plots.size_vs_grid(pd.DataFrame(rows))
    texts = _legend_texts(fig.axes[0])
    assert texts == [
        "asp/default: rules (k=1.00 [1.00, 1.00])",
        "cp/default: constraints (k=1.00 [1.00, 1.00])",
        "sat/default: clauses (k=1.50 [1.50, 1.50])",
        "smt/default: assertions (k=1.00 [1.00, 1.00])",
    ]
    assert "kuromasu" in fig.axes[0].get_title()


def test_titles_name_the_family_and_families_get_their_own_panels() -> None:
    df = synthetic()
    for fig in (
        plots.cactus(df),
        plots.runtime_vs_grid(df),
        plots.agreement_matrix(df),
        plots.scatter(df, "sat/default", "asp/default"),
    ):
        assert "kuromasu" in fig.axes[0].get_title()
    assert "kuromasu" in plots.cactus(df, title="Kuromasu, 4 boards").axes[0].get_title().lower()
    two = pd.concat([df, df.assign(family="lightup")])
    for fig in (plots.cactus(two), plots.runtime_vs_grid(two)):
        titles = [ax.get_title() for ax in fig.axes]
        assert len(titles) == 2 and "kuromasu" in titles[0] and "lightup" in titles[1]
    titles = [ax.get_title() for ax in plots.agreement_matrix(two).axes if ax.get_images()]
    assert len(titles) == 2 and "kuromasu" in titles[0] and "lightup" in titles[1]


def test_log_axes_have_no_minor_tick_labels() -> None:
    rows = [
        _run(f"p{i}", "asp/default", "asp", time_total=0.2 + 0.05 * i) for i in range(5)
    ]  # well under a decade
    fig = plots.cactus(pd.DataFrame(rows))
    fig.canvas.draw()
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    assert all(t.get_text() == "" for t in ax.yaxis.get_minorticklabels())
    assert sum(bool(t.get_text()) for t in ax.yaxis.get_majorticklabels()) >= 2  # still readable


def test_phase_colours_are_one_mapping_and_every_stage_is_stacked() -> None:
    assert set(plots.PHASE_COLOURS) == {"deduce", "build", "solve"}
    df = synthetic().assign(time_deduce=0.1, time_build=0.3, time_solve=0.7)
    fig = plots.phase_bars(df)
    ax = fig.axes[0]
    from matplotlib.colors import to_rgba

    deduce, build, solve = ax.containers
    assert all(b.get_facecolor() == to_rgba(plots.PHASE_COLOURS["deduce"]) for b in deduce)
    assert all(b.get_facecolor() == to_rgba(plots.PHASE_COLOURS["build"]) for b in build)
    assert all(b.get_facecolor() == to_rgba(plots.PHASE_COLOURS["solve"]) for b in solve)
    # stacked in seconds: each bar ends at the sum of its runs' stages
    assert solve[0].get_x() + solve[0].get_width() > deduce[0].get_width() > 0
    assert "kuromasu" in ax.get_title()


def test_agreement_compares_answer_sets_only_where_enumeration_was_exhausted() -> None:
    rows = []
    # p0: both stopped at count=2 with different answers of a many-answer board -> not comparable
    rows += [
        _run(
            "p0",
            "asp/default",
            "asp",
            count=2,
            exhausted=False,
            solution_hashes=["a", "b"],
            solution_hash="a,b",
        ),
        _run(
            "p0",
            "sat/default",
            "sat",
            count=2,
            exhausted=False,
            solution_hashes=["c", "d"],
            solution_hash="c,d",
        ),
    ]
    # p1: both exhausted, the same set in another order -> agree
    rows += [
        _run("p1", "asp/default", "asp", count=1, solution_hashes=["x"], solution_hash="x"),
        _run("p1", "sat/default", "sat", count=1, solution_hashes=["x"], solution_hash="x"),
    ]
    fig = plots.agreement_matrix(pd.DataFrame(rows))
    ax = fig.axes[0]
    image = ax.get_images()[0].get_array().filled(np.nan)
    assert np.allclose(image, 1.0)  # p0 is left out, not counted as a disagreement
    assert "count=2" in ax.get_title()
    # only count-limited runs: every off-diagonal cell is grey and annotated
    fig = plots.agreement_matrix(pd.DataFrame(rows[:2]))
    ax = fig.axes[0]
    image = ax.get_images()[0].get_array()
    assert image.mask.all()
    assert [t.get_text() for t in ax.texts].count("n/c") == 4
    # exhausted on both sides with different sets: a real disagreement
    rows[3] = _run("p1", "sat/default", "sat", count=2, solution_hashes=["x", "y"], solution_hash="x,y")
    image = plots.agreement_matrix(pd.DataFrame(rows)).axes[0].get_images()[0].get_array().filled(np.nan)
    assert image[0, 1] == 0.0 and image[1, 0] == 0.0


def test_agreement_on_recorded_lightbulbs_finds_no_disagreement() -> None:
    from conftest import committed_main_results
    from puzzlebench import results

    path = committed_main_results()
    if not path.exists():
        pytest.skip("no committed results")
    df = results.load(path)
    part = df[df["family"] == "lightbulbs"]
    if part.empty:
        pytest.skip("no lightbulbs runs")
    image = plots.agreement_matrix(part).axes[0].get_images()[0].get_array().filled(np.nan)
    assert np.nanmin(image) == 1.0
