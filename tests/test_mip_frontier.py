"""MIP Nurikabe with islands=hybrid: levels of steps from the number for the islands within a
budget (the ``levels`` setting, reached at other values through :func:`_setting` so that small
boards split their islands as large ones do), owners and lazy cuts for the rest. Answers are held to brute force (the independent
verifier's exhaustive oracle) and to the published janko answers, never to HiGHS's own say-so.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from conftest import fix_settings

highspy = pytest.importorskip("highspy", reason="highspy is not installed (pip install highspy)")

from bruteforce import all_solutions
from puzzlebench import registry
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe, family_spec
from puzzlebench.solvers import solve

NURIKABE = Family("nurikabe")


def _boards() -> list[Nurikabe]:
    """Small random boards, and hand-made ones whose islands need levels (3 cells or more)."""
    rng = random.Random(2026)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (4, 4), (3, 5)] * 3]
    return boards + [
        Nurikabe(3, 4, numbers={(0, 0): 4, (2, 3): 3}),
        Nurikabe(4, 4, numbers={(0, 0): 5, (3, 3): 2}),
        Nurikabe(3, 5, numbers={(1, 2): 6}),
        Nurikabe(4, 4, numbers={(0, 0): 3, (3, 3): 3}),
        Nurikabe(3, 5, numbers={(0, 0): 3, (2, 4): 4}),
        Nurikabe(4, 4, numbers={(0, 0): 4}, unknown=frozenset({(3, 3)})),
    ]


def _options(**given):
    """The default's options and settings, ``given`` overriding either."""
    spec = next(s for s in registry.encodings(NURIKABE, "mip") if s.name == "default")
    options = spec.resolve({})
    assert set(given) <= set(options)
    options.update(given)
    return spec, options


def _setting(monkeypatch, **values) -> None:
    """The MIP Nurikabe default's fixed settings at ``values`` for this test."""
    fix_settings(monkeypatch, NURIKABE, "mip", **values)


@pytest.mark.parametrize("levels", [0, 12, 10**6])
def test_hybrid_counts_equal_brute_force_whatever_the_budget(monkeypatch, levels):
    # the budget (a fixed setting, 100,000) runs out on large boards: 0 and 12 split these small
    # boards' islands between levels and lazy cuts as it splits theirs
    _setting(monkeypatch, levels=levels)
    for p in _boards():
        result = solve(p, "mip", count=0, timeout=60, islands="hybrid")
        assert result.exhausted, p.to_text()
        assert {s.cells for s in result.solutions} == all_solutions(p), (p.to_text(), levels)


def test_levels_for_every_island_leave_nothing_to_the_island_cuts(monkeypatch):
    # With every clue levelled and the wall's flow, the rows state every rule: the lazy rule
    # never rejects a candidate, and the answers are brute force's.
    _setting(monkeypatch, levels=10**6)
    levelled_some = 0
    for p in _boards():
        plan = IslandPlan.of(p)
        if not p.numbers or p.unknown or plan.clash:
            continue
        levelled_some += bool(plan.levelled(p, budget=True, smallest=3, limit=10**6))
        result = solve(p, "mip", count=0, timeout=60, islands="hybrid", connectivity="flow")
        assert result.exhausted
        assert {s.cells for s in result.solutions} == all_solutions(p), p.to_text()
        assert result.extra.get("lazy_rounds", 0) == 0, p.to_text()
    assert levelled_some >= 5


def test_levelled_clues_fit_the_budget_smallest_first():
    rng = random.Random(5)
    for _ in range(20):
        p = family_spec("nurikabe").random_board(rng, 8, 8)
        plan = IslandPlan.of(p)
        cost = {clue: plan.bound[clue] * len(dist) for clue, dist in plan.reach.items()}
        for budget in (0, 50, 400, 10**6):
            chosen = plan.levelled(p, budget=True, smallest=3, limit=budget)
            assert sum(cost[c] for c in chosen) <= budget
            assert all(plan.bound[c] >= 3 for c in chosen)
            left = [c for c in plan.reach if plan.bound[c] >= 3 and c not in chosen]
            # the chosen clues come first in increasing cost
            assert not chosen or not left or max(cost[c] for c in chosen) <= min(cost[c] for c in left)
            # the next clue in order would break the budget
            assert not left or sum(cost[c] for c in chosen) + min(cost[c] for c in left) > budget


def _admits(model, wall_cells: frozenset) -> bool:
    """HiGHS on the model with its decision columns fixed to an answer: feasible?"""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    lower = np.asarray(model.col_lower, dtype=np.float64)
    upper = np.asarray(model.col_upper, dtype=np.float64)
    for cell, col in model.decision.items():
        lower[col] = upper[col] = 1.0 if cell in wall_cells else 0.0
    h.addVars(model.num_cols, lower, upper)
    ints = np.flatnonzero(np.asarray(model.integer, dtype=bool)).astype(np.int32)
    h.changeColsIntegrality(len(ints), ints, np.ones(len(ints), dtype=np.uint8))
    h.addRows(
        model.num_rows,
        np.asarray(model.row_lower),
        np.asarray(model.row_upper),
        model.num_nonzeros,
        np.asarray(model.starts[:-1], dtype=np.int32),
        np.asarray(model.index, dtype=np.int32),
        np.asarray(model.value, dtype=np.float64),
    )
    h.setOptionValue("presolve", "off")  # no presolve verdict: the plain search decides
    h.run()
    return h.getModelStatus() == highspy.HighsModelStatus.kOptimal


def test_levels_admit_every_published_answer_of_the_smallest_corpus_puzzles(janko_dir):
    spec, options = _options(islands="hybrid", levels=10**6)
    entries = sorted(
        iter_janko(janko_dir / "Nurikabe_dataset.json", NURIKABE, []),
        key=lambda e: (e.puzzle.rows * e.puzzle.cols, e.id),
    )[:40]
    stated = 0
    for e in entries:
        model = spec.build(e.puzzle, options)
        stated += bool(IslandPlan.of(e.puzzle).levelled(e.puzzle, budget=True, smallest=3, limit=10**6))
        assert model.contradiction is None, e.id
        assert _admits(model, e.solution.cells), e.id
    assert stated >= 30


def test_hybrid_proves_small_corpus_puzzles_with_the_published_answer(janko_dir):
    entries = sorted(
        iter_janko(janko_dir / "Nurikabe_dataset.json", NURIKABE, []),
        key=lambda e: (e.puzzle.rows * e.puzzle.cols, e.id),
    )[:15]
    for e in entries:
        result = solve(e.puzzle, "mip", count=2, timeout=60, islands="hybrid")
        assert result.exhausted, (e.id, result.status)
        assert [s.cells for s in result.solutions] == [e.solution.cells], e.id
        assert e.puzzle.verify(result.solutions[0]) == []


# -- presolve in the runs after the first answer ---------------------------------------------------


class _RecordingHighs:
    """A HiGHS instance that notes the presolve option of every run()."""

    def __init__(self, inner, log: list[str]) -> None:
        self._inner, self._log = inner, log

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def run(self):
        self._log.append(self._inner.getOptionValue("presolve")[1])
        return self._inner.run()


@pytest.mark.parametrize("proof_presolve", ["off", "same"])
def test_runs_after_the_first_answer_go_without_presolve_and_counts_hold(monkeypatch, proof_presolve):
    from bruteforce import random_kuromasu
    from puzzlebench.solvers import highs_backend

    real = highs_backend._new_highs
    log: list[str] = []
    monkeypatch.setattr(highs_backend, "_new_highs", lambda: _RecordingHighs(real(), log))
    rng = random.Random(11)
    checked = 0
    for _ in range(300):
        if checked >= 10:
            break
        p = random_kuromasu(rng, 3, 4, clue_p=0.3)
        truth = all_solutions(p)
        log.clear()
        result = solve(p, "mip", count=0, timeout=60, proof_presolve=proof_presolve)
        assert result.exhausted
        assert {s.cells for s in result.solutions} == truth, p.to_text()
        if truth and log:
            checked += 1
            assert log[0] == "choose"  # the first answer: the presolve option
            if proof_presolve == "off":
                # every later run goes without presolve, so no infeasible verdict needs confirming
                assert set(log[1:]) <= {"off"}, log
                assert result.extra.get("infeasible_confirmations", 0) == 0
            elif len(log) > 1:
                # with presolve as given, the last run (the search space exhausted) is confirmed
                assert result.extra.get("infeasible_confirmations", 0) >= 1
    assert checked >= 10


def test_uniqueness_proofs_of_small_corpus_puzzles_hold_with_either_proof_presolve(janko_dir):
    entries = sorted(
        iter_janko(janko_dir / "Nurikabe_dataset.json", NURIKABE, []),
        key=lambda e: (e.puzzle.rows * e.puzzle.cols, e.id),
    )[15:30]
    for e in entries:
        for proof_presolve in ("off", "same"):
            result = solve(e.puzzle, "mip", count=2, timeout=60, proof_presolve=proof_presolve)
            assert result.exhausted, (e.id, proof_presolve, result.status)
            assert [s.cells for s in result.solutions] == [e.solution.cells], (e.id, proof_presolve)
