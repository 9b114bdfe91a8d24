"""Nurikabe: the cells failed-literal probing settles before solving (``nurikabe_deduce``,
``IslandPlan.of(deduce=True)``), checked against brute force on small boards and against the
published answers (never against the solver's own say-so)."""

from __future__ import annotations

import random

import pytest

from puzzlebench.encodings.islands import IslandGraph, IslandPlan
from puzzlebench.encodings.nurikabe_deduce import Board, probe, settle
from puzzlebench.encodings.regions import BLACK, UNKNOWN, WHITE, white_regions
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe

from bruteforce import all_solutions, assert_enumerates_brute_force, planted_nurikabe

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


def _holds(p: Nurikabe, plan: IslandPlan, wall) -> bool:
    """The plan's wall cells are wall, its white cells unshaded, and every island lies in its
    clue's reach."""
    if not plan.wall <= wall or plan.white & wall:
        return False
    for island in white_regions(p.rows, p.cols, wall):
        clue = next(c for c in island if c in p.clue_cells)
        if not set(island) <= set(plan.reach[clue]):
            return False
    return True


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
            assert _holds(p, plan, wall), p.to_text()
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
        assert_enumerates_brute_force(p, "sat", plan="probe")


def test_the_probed_plan_holds_for_the_published_answers(corpus):
    fired = 0
    for e in corpus[::40]:
        if e.puzzle.rows * e.puzzle.cols > 400:
            continue
        plan = IslandPlan.of(e.puzzle, deduce=True)
        fired += _settled(plan) > _settled(IslandPlan.of(e.puzzle, deduce=False))
        assert _holds(e.puzzle, plan, e.solution.cells), e.id
    assert fired >= 10


def test_the_probe_settles_683_14x24_up_to_the_band(corpus):
    # the left half and the 5/1 clusters (step 1 of the short proof): 51's snake from (7, 2) to
    # (3, 12) is unshaded, and what is left open lies in the band the 51 alone reaches and at the
    # board's right edge
    e = next(e for e in corpus if e.id == "683_14x24")
    plan = IslandPlan.of(e.puzzle, deduce=True)
    assert _holds(e.puzzle, plan, e.solution.cells)
    assert {(7, 3), (7, 9), (3, 9), (3, 12)} <= plan.white
    assert all(c >= 10 for _, c in set(plan.open) - plan.white)
    assert len(plan.open) < len(IslandPlan.of(e.puzzle, deduce=False).open) - 80
