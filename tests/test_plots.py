"""Plots draw what the data says: checked on a synthetic results table with known answers."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from puzzlebench import plots


def synthetic() -> pd.DataFrame:
    rows = []
    for i, n in enumerate((5, 10, 20, 40)):
        for label, paradigm, conn, k in (("sat/default", "sat", "lazy", 1.0), ("asp/default", "asp", "reach", 1.5)):
            cells = n * n
            rows.append({
                "puzzle_id": f"p{i}", "family": "kuromasu", "rows": n, "cols": n, "label": label,
                "paradigm": paradigm, "encoding": "default", "options": {"connectivity": conn},
                "status": "timeout" if (label == "asp/default" and n == 40) else "sat", "verdict": "valid",
                "count": 1, "solution_hash": "h%d" % i, "time_total": 1e-4 * cells ** k, "timeout": 10.0,
                "size_atoms": 3.0 * cells ** 1.5 if paradigm == "asp" else None,
                "size_variables": 2.0 * cells if paradigm == "sat" else None,
            })
    return pd.DataFrame(rows)


def test_power_law_recovers_the_exponent() -> None:
    cells = np.array([25, 100, 400, 1600], dtype=float)
    k, a = plots.power_law(cells, 3.0 * cells**1.5)
    assert k == pytest.approx(1.5) and a == pytest.approx(3.0)


def test_size_plot_legend_carries_fitted_exponent() -> None:
    df = synthetic()
    fig = plots.size_vs_grid(df[df.size_atoms.notna()], "size_atoms")
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert texts == ["asp/default (k=1.50)"]
    assert fig.axes[0].get_xscale() == "log" and "cells" in fig.axes[0].get_xlabel()


def test_cactus_counts_only_solved_runs() -> None:
    fig = plots.cactus(synthetic(), vbs=True)
    lines = {l.get_label(): l for l in fig.axes[0].get_lines()}
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
    assert {"kuromasu_cactus.png", "kuromasu_connectivity_ablation.png", "kuromasu_size_atoms_vs_grid.png"} <= names
    assert all(p.stat().st_size > 1000 for p in paths)
