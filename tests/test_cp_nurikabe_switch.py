"""CP-SAT Nurikabe's switch from the lazy islands to a larger model: islands=levels (the SAT
encoding's owners, Boolean levels and sizes as CP-SAT clauses) alone and as the escalation's
target, with CP-SAT's presolve on or off after the switch. Counts and answers are checked against
brute force and the published solutions, never against the solver's own say-so. (The other
targets, presolve after the switch and the switch per cell are no longer reachable: fixed settings,
docs/decisions/2026-12-05-deduction-stage.md.)"""

from __future__ import annotations

import pytest

from bruteforce import answered_boards, assert_enumerates_brute_force
from conftest import fix_settings
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
@pytest.mark.slow
def test_levels_alone_counts_equal_brute_force(presolve):
    for p in _boards():
        assert_enumerates_brute_force(p, "cp", islands="levels", presolve=presolve)


def _setting(monkeypatch, **values) -> None:
    """The CP default's fixed settings at ``values`` for this test, through :func:`solve`."""
    fix_settings(monkeypatch, "nurikabe", "cp", **values)


def test_levels_with_the_wall_count_clauses_count_equal_brute_force(monkeypatch):
    # wall_count=card states the wall's size as counter clauses on every board ('?' boards: a
    # range); the fixed setting wall_count=auto states them where the wall is small
    _setting(monkeypatch, wall_count="card")
    for p in _boards():
        assert_enumerates_brute_force(p, "cp", islands="levels")


def test_switching_to_levels_at_any_search_counts_equal_brute_force(monkeypatch):
    # the fixed settings: escalate_to=levels, escalate_presolve=False; the switch's count lowered
    spec = registry.get("nurikabe", "cp")
    assert spec.settings["escalate_to"] == "levels" and spec.settings["escalate_presolve"] is False
    switched = 0
    for p in _boards():
        for after in (1, 2, 3, 5, 8):
            _setting(monkeypatch, escalate=after)
            extra = assert_enumerates_brute_force(p, "cp").extra
            switched += "escalated_at" in extra
    assert switched >= len(_boards())


@pytest.fixture(scope="module")
def corpus(janko_dir):
    # corpus puzzles whose lazy rounds run into the hundreds, so that the switch happens
    wanted = {"141_9x9", "513_8x9", "938_10x10"}
    return [e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id in wanted]


def test_switched_corpus_puzzles_have_the_published_answer_only(corpus):
    # the bare puzzle (no stage plan), the default switch after 20 searches
    assert len(corpus) == 3
    assert registry.get("nurikabe", "cp").settings["escalate"] == 20
    for entry in corpus:
        result = solve(entry.puzzle, "cp", count=2, timeout=120, deduce="none")
        assert result.exhausted and result.extra["escalated_at"] == 20, entry.id
        assert [s.cells for s in result.solutions] == [entry.solution.cells], entry.id
        assert not entry.puzzle.verify(result.solutions[0].cells)


def test_the_default_switches_to_levels_and_keeps_the_published_answer(corpus):
    # the default switch (lazy islands, then levels without presolve) on the depth-1 probe's plan
    # (the stage's default): 938_10x10 needs over 20 lazy searches and is proven unique after the
    # switch; the deep plan (depth 2 too) leaves it no search to switch after
    entry = next(e for e in corpus if e.id == "938_10x10")
    result = solve(entry.puzzle, "cp", count=2, timeout=120)
    assert result.deduce == "probe"
    assert result.exhausted and result.extra["escalated_at"] == 20
    assert [s.cells for s in result.solutions] == [entry.solution.cells]
    deep = solve(entry.puzzle, "cp", count=2, timeout=120, deduce="deep")
    assert deep.deduce == "deep"
    assert deep.exhausted and "escalated_at" not in deep.extra
    assert [s.cells for s in deep.solutions] == [entry.solution.cells]
