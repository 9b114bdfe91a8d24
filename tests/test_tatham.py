"""Simon Tatham's generators as an outside source of unique puzzles.

The committed ``tatham`` suite is checked everywhere; fresh generation needs Debian's
``sgt-puzzles`` (installed by ``.ci/run``) and skips without it.
"""

from __future__ import annotations

import pytest

import puzzlebench as pb
from puzzlebench.errors import PuzzleError
from puzzlebench.generate import tatham
from puzzlebench.suites import load_suite


def _need(family: str) -> None:
    reason = tatham.unavailable_reason(family)
    if reason:
        pytest.skip(reason)


def test_bundled_suite_is_unique_in_every_paradigm() -> None:
    suite = load_suite("tatham")
    assert {e.family for e in suite} == {"lightup", "kuromasu"}
    for entry in suite:
        assert not entry.puzzle.verify(entry.solution), entry.id
        report = pb.crosscheck(entry.puzzle, count=2, timeout=60)
        assert report.agree, (entry.id, report.differences)
        for outcome in report.outcomes:
            assert outcome.result.unique, (entry.id, outcome.config)
            assert outcome.result.solutions[0].cells == entry.solution.cells, (entry.id, outcome.config)


@pytest.mark.parametrize("family", ["lightup", "kuromasu"])
def test_fresh_puzzles_are_reproducible_and_unique(family: str) -> None:
    _need(family)
    first = tatham.tatham_puzzles(family, 8, 9, count=2, seed=77)
    again = tatham.tatham_puzzles(family, 8, 9, count=2, seed=77)
    other = tatham.tatham_puzzles(family, 8, 9, count=2, seed=78)
    assert [p.meta["game_id"] for p in first] == [p.meta["game_id"] for p in again]
    assert [p.meta["game_id"] for p in first] != [p.meta["game_id"] for p in other]
    for puzzle in first:
        assert (puzzle.rows, puzzle.cols) == (8, 9)
        for paradigm in pb.registry.available():
            result = pb.solve(puzzle, paradigm, count=2, timeout=60)
            assert result.unique and not puzzle.verify(result.solutions[0]), (puzzle.name, paradigm)


def test_missing_generator_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setattr(tatham, "SEARCH_DIRS", ())
    monkeypatch.setenv("PATH", "")
    assert "apt-get install sgt-puzzles" in tatham.unavailable_reason("lightup")
    with pytest.raises(tatham.TathamUnavailable, match="sgt-lightup not found"):
        tatham.tatham_ids("lightup", 7, 7)
    assert "no lightbulbs generator" in tatham.unavailable_reason("lightbulbs")


def test_bad_parameters_name_the_program() -> None:
    _need("lightup")
    with pytest.raises(PuzzleError, match="sgt-lightup.*must be at least 2"):
        tatham.tatham_ids("lightup", 1, 5)
    with pytest.raises(PuzzleError, match="positive size"):
        tatham.tatham_ids("lightup", 0, 7)
