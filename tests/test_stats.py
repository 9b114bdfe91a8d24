"""Fitted growth laws: exponent, 95% interval, and no fit where the data cannot carry one."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlebench import analysis
from puzzlebench.stats import fit_power_law


def test_a_clean_power_law_is_recovered_with_a_tight_interval():
    cells = np.array([25, 100, 400, 1600, 6400], dtype=float)
    fit = fit_power_law(cells, 3.0 * cells**1.5)
    assert fit.fitted and fit.k == pytest.approx(1.5) and fit.a == pytest.approx(3.0)
    assert fit.k_low == pytest.approx(1.5) and fit.k_high == pytest.approx(1.5)
    assert (fit.sizes, fit.cells_min, fit.cells_max) == (5, 25.0, 6400.0)


def test_the_95_percent_interval_covers_the_true_exponent_about_95_percent_of_the_time():
    rng = np.random.default_rng(3)
    cells = np.repeat([25.0, 100.0, 400.0, 1600.0, 6400.0, 25600.0], 5)
    fits = [fit_power_law(cells, 2.0 * cells**1.2 * rng.lognormal(0, 0.3, len(cells))) for _ in range(400)]
    assert all(f.fitted and 0 < f.k_high - f.k_low < 1.0 for f in fits)
    coverage = np.mean([f.k_low < 1.2 < f.k_high for f in fits])
    assert 0.90 <= coverage <= 0.99, coverage


def test_no_fit_from_three_sizes_a_narrow_range_or_noise():
    assert (
        fit_power_law(np.array([25.0, 100.0, 400.0]), np.array([1.0, 2.0, 4.0])).reason
        == "3 grid size(s), 4 needed"
    )
    narrow = fit_power_law(np.array([100.0, 121.0, 144.0, 169.0]), np.array([1.0, 1.1, 1.2, 1.3]))
    assert not narrow.fitted and "span x1.7" in narrow.reason
    # a negative "exponent" from timings that do not grow: too noisy to state
    noisy = fit_power_law(np.array([25.0, 100.0, 400.0, 1600.0]), np.array([0.02, 0.004, 0.03, 0.005]))
    assert not noisy.fitted and noisy.reason.startswith("too noisy") and np.isnan(noisy.k)


def test_exponents_table_reports_interval_range_and_reason():
    import pandas as pd

    cells = [25, 100, 400, 1600] * 2 + [25, 100]
    df = pd.DataFrame(
        {"label": ["a"] * 8 + ["b"] * 2, "cells": cells, "size_rules": [7.0 * c**1.05 for c in cells]}
    )
    table = analysis.exponents(df, "size_rules")
    assert table.loc["a", "k"] == pytest.approx(1.05) and table.loc["a", "sizes"] == 4
    assert table.loc["a", "fit"].startswith("k=1.05 [")
    assert np.isnan(table.loc["b", "k"]) and table.loc["b", "fit"] == "no fit: 2 grid size(s), 4 needed"


def test_in_process_runs_warm_each_solver_up_off_the_record(monkeypatch):
    from puzzlebench import solvers
    from puzzlebench.crosscheck import Config
    from puzzlebench.model import LightUp

    calls = []
    real = solvers.solve

    def counting(puzzle, paradigm, *args, **kw):
        calls.append((puzzle.rows, paradigm))
        return real(puzzle, paradigm, *args, **kw)

    monkeypatch.setattr(solvers, "solve", counting)
    boards = [LightUp(n, n, walls=frozenset({(0, 0)}), name=f"b{n}") for n in (4, 3, 5)]
    df = analysis.run(boards, [Config("sat")], progress=False)
    assert len(df) == 3 and calls[0] == (3, "sat")  # the smallest board, once, before the timed runs
    assert sorted(calls[1:]) == [(3, "sat"), (4, "sat"), (5, "sat")]
    calls.clear()
    analysis.run(boards, [Config("sat")], progress=False, warmup=False)
    assert len(calls) == 3
