"""CP-SAT Nurikabe's switch by CPU time (the fixed setting ``escalate_time``, set here to a moment
and to an age): a switch taken after the first search, whatever ``escalate`` says, still
enumerates exactly brute force's answers; a switch that is never due never happens. (The probe's
budget at the switch, ``escalate_probe_budget``, is no longer reachable: the switch builds on the
deduction stage's plan, escalate_plan=search.)"""

from __future__ import annotations

import pytest

from bruteforce import answered_boards, assert_enumerates_brute_force
from conftest import fix_settings
from puzzlebench import registry
from puzzlebench.model import Nurikabe

pytestmark = pytest.mark.skipif("cp" not in registry.available(), reason="ortools is not installed")


def _boards() -> list[Nurikabe]:
    # boards with one to fifty answers, and one with '?' clues
    boards = answered_boards("nurikabe", 71, [(3, 3), (3, 4), (4, 4), (3, 5)], count=10)
    return boards + [Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)}))]


def _setting(monkeypatch, **values) -> None:
    """The CP default's fixed settings at ``values`` for this test, through :func:`solve`."""
    fix_settings(monkeypatch, "nurikabe", "cp", **values)


@pytest.mark.slow
def test_switch_by_time_enumerates_brute_force(monkeypatch):
    # a searches' count never reached, a CPU budget spent at once: the switch comes first thing
    _setting(monkeypatch, escalate=10_000, escalate_time=1e-9)
    for p in _boards():
        result = assert_enumerates_brute_force(p, "cp")
        assert result.extra["escalated_at"] <= 1


@pytest.mark.slow
def test_switch_by_time_waits_for_its_time(monkeypatch):
    _setting(monkeypatch, escalate=10_000, escalate_time=1e6)
    for p in _boards()[:4]:
        result = assert_enumerates_brute_force(p, "cp")
        assert "escalated_at" not in result.extra
