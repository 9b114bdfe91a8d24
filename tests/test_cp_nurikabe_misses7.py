"""CP-SAT Nurikabe's switch by CPU time (``escalate_time``) and the probe's budget at the switch
(``escalate_probe_budget``): a switch taken after the first search, whatever ``escalate`` says,
and a probe with no time or a short budget still enumerate exactly brute force's answers;
a switch that is never due never happens."""

from __future__ import annotations

import pytest

from bruteforce import answered_boards, assert_enumerates_brute_force
from puzzlebench import registry
from puzzlebench.model import Nurikabe

pytestmark = pytest.mark.skipif("cp" not in registry.available(), reason="ortools is not installed")


def _boards() -> list[Nurikabe]:
    # boards with one to fifty answers, and one with '?' clues
    boards = answered_boards("nurikabe", 71, [(3, 3), (3, 4), (4, 4), (3, 5)], count=10)
    return boards + [Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)}))]


def test_switch_by_time_enumerates_brute_force():
    # a searches' count never reached, a CPU budget spent at once: the switch comes first thing
    for p in _boards():
        result = assert_enumerates_brute_force(p, "cp", escalate=10_000, escalate_time=1e-9)
        assert result.extra["escalated_at"] <= 1


def test_switch_by_time_waits_for_its_time():
    for p in _boards()[:4]:
        result = assert_enumerates_brute_force(p, "cp", escalate=10_000, escalate_time=1e6)
        assert "escalated_at" not in result.extra


@pytest.mark.parametrize("budget", [0.0, 0.05])
def test_probe_budget_enumerates_brute_force(budget):
    # budget 0: the probe stops at its first look at the clock; a short one settles cells on some boards
    settled = 0
    for p in _boards():
        result = assert_enumerates_brute_force(p, "cp", escalate=1, escalate_probe_budget=budget)
        assert result.extra["probe_time"] <= budget + 0.5
        settled += result.extra.get("probe_settled", 0) > 0
    if budget:
        assert settled >= 2
