"""Nurikabe: the lines the wall must meet (``met_lines``) and the wall's runs (``wall_runs``),
checked against brute force on small boards and against the published answers (never against
the solver's own say-so)."""

from __future__ import annotations

import random

import pytest

from bruteforce import all_solutions, assert_enumerates_brute_force, planted_nurikabe
from puzzlebench import registry
from puzzlebench.encodings.islands import IslandPlan, met_lines, wall_runs, wall_runs_pay
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe

DATASET = "Nurikabe_dataset.json"


@pytest.fixture(scope="module")
def corpus(janko_dir):
    return list(iter_janko(janko_dir / DATASET, malformed=[]))


def _planted_boards(count: int, seed: int) -> list[Nurikabe]:
    """Small boards (at most 13 cells to brute-force) with an answer planted."""
    return planted_nurikabe(seed, count, [(4, 4), (3, 4), (4, 3), (3, 5), (5, 3), (4, 5)], 0.4, 13)


def _runs(p: Nurikabe, wall) -> list[int]:
    """The wall's runs per line (rows first, then columns), as :func:`wall_runs` lists its lines."""
    out = []
    for axis, length, across in ((0, p.rows, p.cols), (1, p.cols, p.rows)):
        for k in range(length):
            line = [((k, j) if axis == 0 else (j, k)) in wall for j in range(across)]
            out.append(sum(x and (j == 0 or not line[j - 1]) for j, x in enumerate(line)))
    return out


def _holds(p: Nurikabe, plan: IslandPlan, wall) -> tuple[bool, bool]:
    """(every met line holds a wall cell, the runs keep to their bounds)."""
    met = all(set(cells) & wall for cells in met_lines(p, plan))
    _, most, per_line = wall_runs(p, plan)
    runs = _runs(p, wall)
    return met, sum(runs) <= most and all(r <= k for r, k in zip(runs, per_line))


def _useful_lines(p: Nurikabe, plan: IslandPlan) -> int:
    """The met lines holding no known wall cell (those the plan's wall does not settle)."""
    return sum(not set(cells) & plan.wall for cells in met_lines(p, plan))


@pytest.mark.slow
def test_met_lines_and_runs_hold_for_every_brute_forced_answer():
    useful = tight = checked = 0
    for p in _planted_boards(80, 3):
        plan = IslandPlan.of(p)
        useful += _useful_lines(p, plan) > 0
        for wall in all_solutions(p):
            met, runs = _holds(p, plan, wall)
            assert met and runs, p.to_text()
            tight += sum(_runs(p, wall)) == wall_runs(p, plan)[1]
            checked += 1
    assert checked >= 80 and useful >= 10 and tight >= 3


def test_met_lines_and_runs_hold_for_the_published_answers(corpus):
    useful = tight = 0
    for e in corpus:
        plan = IslandPlan.of(e.puzzle)
        met, runs = _holds(e.puzzle, plan, e.solution.cells)
        assert met and runs, e.id
        useful += _useful_lines(e.puzzle, plan) > 0
        tight += sum(_runs(e.puzzle, e.solution.cells)) == wall_runs(e.puzzle, plan)[1]
    assert useful >= 100 and tight >= 1  # 753_10x10: a wall of one run per line


def test_a_line_the_wall_may_miss_is_not_met():
    # 3x3 with a 1 in a corner and a 5 at the opposite corner: the wall is the three cells beside
    # the 1 and diagonal to it, so neither the last row nor the last column holds a wall cell
    p = Nurikabe(3, 3, numbers={(0, 0): 1, (2, 2): 5})
    answers = all_solutions(p)
    assert answers
    plan = IslandPlan.of(p)
    lines = [frozenset(cells) for cells in met_lines(p, plan)]
    for line in lines:
        assert all(line & wall for wall in answers)
    missed = [frozenset((2, c) for c in range(2)), frozenset((r, 2) for r in range(2))]
    assert not any(line in lines for line in missed)
    assert any(not (line & wall) for line in missed for wall in answers)


def test_753_10x10_is_a_wall_of_one_run_per_line(corpus):
    # every row and column must hold a wall cell (a clear one would join two clues' islands), and
    # the 19 wall cells allow 20 runs: one per line, the straight cross of the published answer
    e = next(e for e in corpus if e.id == "753_10x10")
    plan = IslandPlan.of(e.puzzle)
    assert len(met_lines(e.puzzle, plan)) == 20
    _, most, per_line = wall_runs(e.puzzle, plan)
    assert most == 20 and set(per_line) == {1}
    assert wall_runs_pay(e.puzzle, plan)
    assert _runs(e.puzzle, e.solution.cells) == [1] * 20


@pytest.mark.parametrize("paradigm", ["sat", "asp", "smt", "cp", "mip"])
@pytest.mark.slow
def test_every_paradigm_proves_753_10x10_with_the_published_answer(corpus, paradigm):
    # the runs' count (stated by SAT, ASP, SMT and MIP, and by CP's switched model) is what
    # settles it: without it no paradigm proved it within 10 s
    if paradigm not in registry.available():
        pytest.skip(f"no {paradigm} backend")
    from puzzlebench.solvers import solve

    e = next(e for e in corpus if e.id == "753_10x10")
    result = solve(e.puzzle, paradigm, count=2, timeout=120)
    assert result.exhausted and result.unique is True
    assert [s.cells for s in result.solutions] == [e.solution.cells]
    assert not e.puzzle.verify(result.solutions[0])


@pytest.mark.parametrize("paradigm", ["sat", "asp", "smt", "mip"])
@pytest.mark.parametrize("value", ["met", "card"])
def test_wall_runs_counts_equal_brute_force(monkeypatch, value, paradigm):
    # the fixed setting wall_runs=auto states card or met by the board: each on every board here
    if paradigm not in registry.available():
        pytest.skip(f"no {paradigm} backend")
    from puzzlebench.model import family_spec

    rng = random.Random(17)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (2, 5)] * 4] + _planted_boards(80, 3)[:24]
    spec = registry.get("nurikabe", paradigm)
    assert spec.settings["wall_runs"] == "auto"
    monkeypatch.setitem(spec.settings, "wall_runs", value)
    for p in boards:
        assert_enumerates_brute_force(p, paradigm)
