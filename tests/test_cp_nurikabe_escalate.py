"""CP-SAT Nurikabe's switched model with the probed island plan (``escalate_plan=probe``): the
probe runs once at the switch and its settled cells become unit facts, so enumeration with the
switch before, between and after answers still finds exactly brute force's answers, and the probe
settles cells on those boards (else the facts would test nothing); 683_14x24, which the lazy
default cannot prove, is proven with its published answer by the default."""

from __future__ import annotations

import pytest

from bruteforce import answered_boards, assert_enumerates_brute_force
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


@pytest.mark.parametrize("after", [0, 1, 2, 3])
def test_probed_switch_enumerates_brute_force(after):
    # after=0: never switch (the probe never runs); 1-3: the switch lands among the answers
    settled = switched = 0
    for p in _boards():
        result = assert_enumerates_brute_force(p, "cp", escalate=after, escalate_plan="probe")
        if after == 0:
            assert "escalated_at" not in result.extra
        switched += "escalated_at" in result.extra
        settled += result.extra.get("probe_settled", 0) > 0
    if after:
        assert switched >= len(_boards()) // 2
        assert settled >= 3


def test_probe_only_at_the_switch():
    p = _boards()[0]
    result = assert_enumerates_brute_force(p, "cp", escalate=10_000, escalate_plan="probe")
    assert "probe_time" not in result.extra and "escalated_at" not in result.extra


@pytest.fixture(scope="module")
def board_683(janko_dir):
    from puzzlebench.formats import iter_janko

    return [e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id == "683_14x24"]


def test_683_is_proven_with_its_published_answer_on_the_probed_switch(board_683):
    # without the switch the lazy rounds time out here; the probed switch proves it in a few CPU
    # seconds (plan=probe: the default plan=deep settles the board before the first search)
    assert len(board_683) == 1
    entry = board_683[0]
    result = solve(entry.puzzle, "cp", count=2, timeout=120, plan="probe")
    assert result.exhausted and "escalated_at" in result.extra and result.extra["probe_settled"] > 0
    assert [s.cells for s in result.solutions] == [entry.solution.cells]
    assert not entry.puzzle.verify(result.solutions[0].cells)
    deep = solve(entry.puzzle, "cp", count=2, timeout=120)
    assert deep.exhausted and "escalated_at" not in deep.extra
    assert [s.cells for s in deep.solutions] == [entry.solution.cells]
