"""CP-SAT Nurikabe's switch from the lazy islands to a larger model: islands=levels (the SAT
encoding's owners, Boolean levels and sizes as CP-SAT clauses) alone and as the escalation's
target, with CP-SAT's presolve on or off after the switch. Counts and answers are checked against
brute force and the published solutions, never against the solver's own say-so."""

from __future__ import annotations

import pytest

from bruteforce import answered_boards, assert_enumerates_brute_force
from puzzlebench import registry
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe
from puzzlebench.solvers import solve

pytestmark = pytest.mark.skipif("cp" not in registry.available(), reason="ortools is not installed")


def _boards() -> list[Nurikabe]:
    # boards with one to fifty answers, so that a switch lands before, between and after answers
    boards = answered_boards("nurikabe", 29, [(3, 3), (3, 4), (4, 4), (3, 5)])
    # '?' clues (an island of any size up to its bound) and a number big enough for levels
    return boards + [
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})),
        Nurikabe(4, 4, numbers={(0, 0): 4}, unknown=frozenset({(3, 3), (1, 2)})),
        Nurikabe(4, 4, numbers={(0, 0): 6, (3, 3): 2}),
    ]


@pytest.mark.parametrize("presolve", [True, False])
def test_levels_alone_counts_equal_brute_force(presolve):
    for p in _boards():
        assert_enumerates_brute_force(p, "cp", islands="levels", presolve=presolve)


@pytest.mark.parametrize("count", ["card", "none"])
def test_levels_with_and_without_the_wall_count_clauses_count_equal_brute_force(count):
    # wall_count=card states the wall's size as counter clauses on every board ('?' boards: a range)
    for p in _boards():
        assert_enumerates_brute_force(p, "cp", islands="levels", wall_count=count)


@pytest.mark.parametrize("presolve", [True, False])
def test_switching_to_levels_at_any_search_counts_equal_brute_force(presolve):
    switched = 0
    for p in _boards():
        for after in (1, 2, 3, 5, 8):
            extra = assert_enumerates_brute_force(
                p, "cp", escalate=after, escalate_per_cell=0, escalate_to="levels", escalate_presolve=presolve
            ).extra
            switched += "escalated_at" in extra
    assert switched >= len(_boards())


@pytest.mark.parametrize("target", ["hybrid", "distance", "owners"])
def test_switching_without_presolve_counts_equal_brute_force(target):
    for p in _boards()[::2]:
        for after in (1, 3):
            assert_enumerates_brute_force(
                p, "cp", escalate=after, escalate_per_cell=0, escalate_to=target, escalate_presolve=False
            )


@pytest.fixture(scope="module")
def corpus(janko_dir):
    # corpus puzzles whose lazy rounds run into the hundreds, so that the switch happens
    wanted = {"141_9x9", "513_8x9", "938_10x10"}
    return [e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id in wanted]


def test_switched_corpus_puzzles_have_the_published_answer_only(corpus):
    assert len(corpus) == 3
    for entry in corpus:
        result = solve(
            entry.puzzle,
            "cp",
            count=2,
            timeout=120,
            escalate=20,
            escalate_per_cell=0,
            plan="search",
            escalate_to="levels",
            escalate_presolve=False,
        )
        assert result.exhausted and result.extra["escalated_at"] == 20, entry.id
        assert [s.cells for s in result.solutions] == [entry.solution.cells], entry.id
        assert not entry.puzzle.verify(result.solutions[0].cells)


def test_a_board_switches_after_its_searches_per_cell(corpus):
    # 141_9x9 (81 cells) needs about 200 lazy searches: at half a search per cell it switches
    # after 41, later than escalate's 10, and still has the published answer only
    entry = next(e for e in corpus if e.id == "141_9x9")
    result = solve(
        entry.puzzle,
        "cp",
        count=2,
        timeout=120,
        escalate=10,
        escalate_per_cell=0.5,
        plan="search",
        escalate_to="levels",
        escalate_presolve=False,
    )
    assert result.exhausted and result.extra["escalated_at"] == 41
    assert [s.cells for s in result.solutions] == [entry.solution.cells]


def test_the_default_switches_to_levels_and_keeps_the_published_answer(corpus):
    # the default switch (lazy islands, then levels without presolve) on the depth-1 probe's plan:
    # 938_10x10 needs over 20 lazy searches and is proven unique after the switch; the default
    # plan (depth 2 too) leaves it no search to switch after
    entry = next(e for e in corpus if e.id == "938_10x10")
    result = solve(entry.puzzle, "cp", count=2, timeout=120, plan="probe")
    assert result.exhausted and result.extra["escalated_at"] == 20
    assert [s.cells for s in result.solutions] == [entry.solution.cells]
    deep = solve(entry.puzzle, "cp", count=2, timeout=120)
    assert deep.exhausted and "escalated_at" not in deep.extra
    assert [s.cells for s in deep.solutions] == [entry.solution.cells]
