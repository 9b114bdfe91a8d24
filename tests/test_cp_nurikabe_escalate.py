"""CP-SAT Nurikabe's switched model on the deduction stage's probed island plan (the default
``deduce=probe``; the switch probes no more on its own, escalate_plan=search): enumeration with
the switch before, between and after answers (its search count lowered to land on small boards)
still finds exactly brute force's answers, and the plan settles cells on those boards (else the
facts would test nothing); 683_14x24 is proven with its published answer by the default and on
the deep plan."""

from __future__ import annotations

import pytest

from bruteforce import answered_boards, assert_enumerates_brute_force
from conftest import fix_settings
from puzzlebench import registry
from puzzlebench.model import Nurikabe
from puzzlebench.solvers import solve

pytestmark = pytest.mark.skipif("cp" not in registry.available(), reason="ortools is not installed")


def _boards() -> list[Nurikabe]:
    # boards with one to fifty answers, and two with '?' clues
    boards = answered_boards("nurikabe", 29, [(3, 3), (3, 4), (4, 4), (3, 5)], count=12)
    return boards + [
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})),
        Nurikabe(4, 4, numbers={(0, 0): 4}, unknown=frozenset({(3, 3), (1, 2)})),
    ]


def _setting(monkeypatch, **values) -> None:
    """The CP default's fixed settings at ``values`` for this test, through :func:`solve`."""
    fix_settings(monkeypatch, "nurikabe", "cp", **values)


@pytest.mark.parametrize("after", [0, 1, 2, 3])
@pytest.mark.slow
def test_probed_switch_enumerates_brute_force(monkeypatch, after):
    # after=0: never switch; 1-3: the switch lands among the answers
    _setting(monkeypatch, escalate=after)
    settled = switched = 0
    for p in _boards():
        result = assert_enumerates_brute_force(p, "cp")
        assert result.deduce == "probe"
        if after == 0:
            assert "escalated_at" not in result.extra
        switched += "escalated_at" in result.extra
        settled += result.extra.get("probe_settled", 0) > 0
    if after:
        assert switched >= len(_boards()) // 2
        assert settled >= 3


@pytest.fixture(scope="module")
def board_683(janko_dir):
    from puzzlebench.formats import iter_janko

    return [e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id == "683_14x24"]


def test_683_is_proven_with_its_published_answer_by_the_default_and_on_the_deep_plan(board_683):
    assert len(board_683) == 1
    entry = board_683[0]
    for deduce in ("probe", "deep"):
        result = solve(entry.puzzle, "cp", count=2, timeout=120, deduce=deduce)
        assert result.deduce == deduce and result.settled > 0
        assert result.exhausted, deduce
        assert [s.cells for s in result.solutions] == [entry.solution.cells], deduce
        assert not entry.puzzle.verify(result.solutions[0].cells)
