"""Nurikabe: the cells failed-literal probing settles before solving (``nurikabe_deduce``,
``IslandPlan.of(deduce=True)``) and the crossing rule it closes assignments with, checked
against brute force on small boards and against the published answers (never against the
solver's own say-so)."""

from __future__ import annotations

import random

import pytest

import puzzlebench.encodings.nurikabe_deduce as deduce
from bruteforce import all_solutions, assert_enumerates_brute_force, plan_holds, planted_nurikabe
from puzzlebench.encodings.islands import IslandGraph, IslandPlan
from puzzlebench.encodings.nurikabe_deduce import Board, crossing, probe, refine, settle
from puzzlebench.encodings.regions import BLACK, UNKNOWN, WHITE
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe
from puzzlebench.solvers import solve

DATASET = "Nurikabe_dataset.json"
SHAPES = [(4, 4), (3, 4), (4, 3), (3, 5), (5, 3), (4, 5), (5, 4)]


@pytest.fixture(scope="module")
def corpus(janko_dir):
    return list(iter_janko(janko_dir / DATASET, malformed=[]))


def _with_a_question_mark(boards: list[Nurikabe], seed: int) -> list[Nurikabe]:
    """Each board again with one of its numbers turned into a '?' (an island of unknown size)."""
    rng = random.Random(seed)
    out = []
    for p in boards:
        cell = rng.choice(sorted(p.numbers))
        numbers = {c: n for c, n in p.numbers.items() if c != cell}
        out.append(Nurikabe(p.rows, p.cols, numbers=numbers, unknown=frozenset({cell})))
    return out


def _boards() -> list[Nurikabe]:
    planted = planted_nurikabe(5, 60, SHAPES, 0.4, 12) + planted_nurikabe(9, 40, SHAPES, 0.55, 11)
    return planted + _with_a_question_mark(planted[:40], 3)


def _settled(plan: IslandPlan) -> int:
    return len(plan.wall) + len(plan.white)


def test_the_probed_plan_holds_for_every_brute_forced_answer():
    fired = 0
    for p in _boards():
        plan = IslandPlan.of(p, deduce=True)
        searched = IslandPlan.of(p, deduce=False)
        answers = all_solutions(p)
        if answers and _settled(plan) > _settled(searched):
            fired += 1
        for wall in answers:
            assert plan_holds(p, plan, wall), p.to_text()
    assert fired >= 40  # the probe settles cells the searches leave open on many of them


def test_settle_finds_no_conflict_on_an_answer_and_keeps_it():
    # closing a brute-forced answer's own partial assignments (any half of its cells given)
    # never fails and never contradicts the answer
    rng = random.Random(2)
    checked = 0
    for p in _boards()[:60]:
        for wall in all_solutions(p):
            plan = IslandPlan.of(p, deduce=False)
            board = Board(p, IslandGraph.of(p, plan))
            cols = p.cols
            truth = [BLACK if divmod(i, cols) in wall else WHITE for i in range(p.rows * cols)]
            state = [UNKNOWN] * len(truth)
            for i in range(len(truth)):
                if divmod(i, cols) in p.clue_cells or rng.random() < 0.5:
                    state[i] = truth[i]
            assert settle(board, state), p.to_text()
            assert all(s in (UNKNOWN, t) for s, t in zip(state, truth)), p.to_text()
            checked += 1
    assert checked >= 30


def test_the_probe_finds_a_conflict_where_there_is_no_answer():
    # two diagonal 1s on a 2x2 board: the two cells beside both are wall and do not touch, so
    # no answer exists (brute force); the wall's connectivity refutes it
    p = Nurikabe(2, 2, numbers={(0, 0): 1, (1, 1): 1})
    assert not all_solutions(p)
    plan = IslandPlan.of(p, deduce=False)
    board = Board(p, IslandGraph.of(p, plan))
    state = [WHITE, UNKNOWN, UNKNOWN, WHITE]
    assert not probe(board, state, float("inf"))


def test_sat_with_the_probed_plan_enumerates_the_brute_forced_answers():
    boards = [p for p in _boards() if all_solutions(p)][:18]
    for p in boards:
        assert assert_enumerates_brute_force(p, "sat", deduce="probe").deduce == "probe"


def test_the_probed_plan_holds_for_the_published_answers(corpus):
    fired = 0
    for e in corpus[::40]:
        if e.puzzle.rows * e.puzzle.cols > 400:
            continue
        plan = IslandPlan.of(e.puzzle, deduce=True)
        fired += _settled(plan) > _settled(IslandPlan.of(e.puzzle, deduce=False))
        assert plan_holds(e.puzzle, plan, e.solution.cells), e.id
    assert fired >= 10


def test_the_probe_settles_683_14x24_up_to_the_band(corpus):
    # the left half and the 5/1 clusters (step 1 of the short proof): 51's snake from (7, 2) to
    # (3, 12) is unshaded, and what is left open lies in the band the 51 alone reaches and at the
    # board's right edge
    e = next(e for e in corpus if e.id == "683_14x24")
    plan = IslandPlan.of(e.puzzle, deduce=True)
    assert plan_holds(e.puzzle, plan, e.solution.cells)
    assert {(7, 3), (7, 9), (3, 9), (3, 12)} <= plan.white
    assert all(c >= 10 for _, c in set(plan.open) - plan.white)
    assert len(plan.open) < len(IslandPlan.of(e.puzzle, deduce=False).open) - 80


def _random_states(p: Nurikabe, rng: random.Random, share: float, count: int):
    """``count`` random partial assignments of ``p`` (numbered cells unshaded)."""
    cols = p.cols
    for _ in range(count):
        state = [UNKNOWN] * (p.rows * cols)
        for i in range(len(state)):
            if divmod(i, cols) in p.clue_cells:
                state[i] = WHITE
            elif rng.random() < share:
                state[i] = rng.choice((BLACK, WHITE))
        yield state


def _agrees(state, wall, cols) -> bool:
    return all(s == UNKNOWN or (s == BLACK) == (divmod(i, cols) in wall) for i, s in enumerate(state))


def test_the_crossing_rule_never_refutes_part_of_an_answer():
    rng = random.Random(11)
    checked = 0
    for p in _boards():
        board = Board(p, IslandGraph.of(p, IslandPlan.of(p, deduce=False)))
        cols = p.cols
        for wall in all_solutions(p):
            truth = [BLACK if divmod(i, cols) in wall else WHITE for i in range(p.rows * cols)]
            for _ in range(10):
                state = [
                    t if divmod(i, cols) in p.clue_cells or rng.random() < 0.6 else UNKNOWN
                    for i, t in enumerate(truth)
                ]
                assert not crossing(board, state), p.to_text()
                checked += 1
    assert checked >= 500


def test_the_crossing_rule_refutes_only_assignments_without_an_answer(monkeypatch):
    # random assignments, closed under the other rules (the crossing rule off), on which the
    # crossing rule alone finds a conflict: no brute-forced answer agrees with any of them
    rng = random.Random(7)
    fired = 0
    for p in _boards():
        answers = all_solutions(p)
        board = Board(p, IslandGraph.of(p, IslandPlan.of(p, deduce=False)))
        for state in _random_states(p, rng, 0.4, 40):
            if not crossing(board, state):
                continue
            with monkeypatch.context() as m:
                m.setattr(deduce, "crossing", lambda board, state: False)
                closed = settle(board, state)
            if closed and crossing(board, state):
                fired += 1
                assert not any(_agrees(state, wall, p.cols) for wall in answers), p.to_text()
    assert fired >= 10


def test_the_crossing_rule_on_a_small_board():
    # 3x3, a 5 at the bottom left: "(0, 2) is unshaded" puts an island cell on the top rim
    # between the wall of the top-left corner and the wall of the right edge, while the 5's
    # part reaches the rim at the bottom left; no answer has (0, 2) unshaded (brute force)
    p = Nurikabe(3, 3, numbers={(2, 0): 5})
    board = Board(p, IslandGraph.of(p, IslandPlan.of(p, deduce=False)))
    state = [BLACK, BLACK, WHITE, UNKNOWN, UNKNOWN, BLACK, WHITE, UNKNOWN, UNKNOWN]
    assert crossing(board, state)
    assert not any(_agrees(state, wall, 3) for wall in all_solutions(p))


def test_the_probe_at_depth_two_holds_for_every_brute_forced_answer():
    deeper = 0
    for p in _boards()[::3]:
        answers = all_solutions(p)
        one = refine(p, IslandPlan.of(p, deduce=False), float("inf"))
        two = refine(p, IslandPlan.of(p, deduce=False), float("inf"), depth=2)
        deeper += answers != set() and _settled(two) > _settled(one)
        for wall in answers:
            assert plan_holds(p, two, wall), p.to_text()
    assert deeper >= 1


def test_the_crossing_rule_settles_the_band_edge_of_683_14x24(corpus):
    # step 3 of the short proof: a cell of row 0 past column 11 unshaded would have to join the
    # 51 across the wall path from the top-left wall to the rest, so row 0 is wall; with the
    # probed plan SAT proves the published answer unique
    e = next(e for e in corpus if e.id == "683_14x24")
    plan = IslandPlan.of(e.puzzle, deduce=True)
    assert plan_holds(e.puzzle, plan, e.solution.cells)
    assert {(0, c) for c in range(12, 24)} <= plan.wall
    result = solve(e.puzzle, "sat", count=2, timeout=120, deduce="probe")
    assert result.deduce == "probe" and result.exhausted and result.count == 1
    assert result.solution.cells == e.solution.cells


def test_the_probe_at_depth_two_settles_683_14x24(corpus):
    e = next(e for e in corpus if e.id == "683_14x24")
    plan = refine(e.puzzle, IslandPlan.of(e.puzzle, deduce=False), float("inf"), depth=2)
    assert plan_holds(e.puzzle, plan, e.solution.cells)
    assert set(plan.open) <= plan.white


class _Clock:
    """A CPU clock for the probe that moves a second per look (the stall then comes at once)."""

    def __init__(self) -> None:
        self.now = 0.0

    def process_time(self) -> float:
        self.now += 1.0
        return self.now


#: (STALL_PASS_SHARE, stall) of a depth-2 probe stopped before its first cell, then of one let go
#: on: by a stall shorter than the clock's step, or by a depth-1 pass slower than a share of a long stall
STOPS = {
    "stall": ((float("inf"), 0.5), (float("inf"), None)),
    "slow pass": ((0.001, 100.0), (float("inf"), 100.0)),
}


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("rule", sorted(STOPS))
def test_depth_two_stops_before_its_first_cell(monkeypatch, engine, rule):
    # the clock moves a second per look; on boards where depth 2 goes on to settle more than
    # depth 1, the stopped probe leaves depth 1's state
    if engine == "compiled":
        pytest.importorskip(
            "puzzlebench.encodings.nurikabe_probe_compiled",
            reason="the compiled engine needs numba (a dependency of the project)",
        )
    monkeypatch.setattr(deduce, "time", _Clock())
    stopped, going = STOPS[rule]
    checked = 0
    for p in _boards()[::3]:
        plan = IslandPlan.of(p, deduce=False)

        def run(depth: int, share: float, stall: float | None) -> list[int] | None:
            monkeypatch.setattr(deduce, "STALL_PASS_SHARE", share)
            board, state = deduce.initial(p, plan)  # noqa: B023  (called within this iteration)
            return (
                state
                if probe(board, state, float("inf"), depth, "budget", engine=engine, stall=stall)
                else None
            )

        one = run(1, float("inf"), None)
        if one is None or run(2, *going) == one:
            continue
        assert run(2, *stopped) == one, p.to_text()
        checked += 1
    assert checked >= 1


def test_the_deep_plan_holds_for_every_brute_forced_answer_and_settles_more():
    deeper = 0
    for p in _boards()[::3]:
        one, two = IslandPlan.of(p, deduce=True), IslandPlan.of(p, deduce=True, depth=2)
        answers = all_solutions(p)
        deeper += answers != set() and _settled(two) > _settled(one)
        for wall in answers:
            assert plan_holds(p, two, wall), p.to_text()
    assert deeper >= 1


@pytest.mark.parametrize("paradigm", ["sat", "asp", "smt", "cp", "mip"])
def test_every_paradigm_proves_published_answers_on_the_deep_plan(corpus, paradigm):
    # 1080_10x14: depth 1 settles 55 of its 120 open cells, depth 2 the rest
    by_id = {e.id: e for e in corpus}
    for name in ("1080_10x14", "120_6x6", "480_12x12"):
        e = by_id[name]
        if name == "1080_10x14":
            assert set(IslandPlan.of(e.puzzle, deduce=True).open) - IslandPlan.of(e.puzzle, deduce=True).white
            deep = IslandPlan.of(e.puzzle, deduce=True, depth=2)
            assert set(deep.open) <= deep.white and plan_holds(e.puzzle, deep, e.solution.cells)
        result = solve(e.puzzle, paradigm, count=2, timeout=120, deduce="deep")
        assert result.deduce == "deep" and result.exhausted and result.count == 1, name
        assert result.solution.cells == e.solution.cells, name


def test_sat_with_the_deep_plan_enumerates_the_brute_forced_answers():
    boards = [p for p in _boards() if all_solutions(p)][:12]
    for p in boards:
        assert assert_enumerates_brute_force(p, "sat", deduce="deep").deduce == "deep"
