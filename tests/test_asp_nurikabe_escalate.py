"""ASP Nurikabe, ``plan=auto``: once the lazy cuts' checks run long, the probed cells
(``nurikabe_deduce.refine``) join the running clingo search as unit clauses added by the lazy
cuts' propagator. Checked against brute force on small boards (escalating at the first check,
the second, the third: in the middle of an enumeration), with ``plan=probe`` against brute force
too, and against the published answer of 683_14x24, never against the solver's own say-so."""

from __future__ import annotations

import pytest

from bruteforce import all_solutions, assert_enumerates_brute_force, escalation_boards
from puzzlebench import registry
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe
from puzzlebench.solvers import solve

pytestmark = pytest.mark.skipif("asp" not in registry.available(), reason="no ASP backend")

#: the lazy cuts run the propagator that escalates (small boards default to levels without it)
LAZY = {"islands": "lazy"}


def _boards() -> list[Nurikabe]:
    return escalation_boards(31)


def _settled_more(p: Nurikabe) -> int:
    """The cells the probe settles beyond the searched plan."""
    searched = IslandPlan.of(p, deduce=False)
    probed = IslandPlan.of(p, deduce=True)
    return len(probed.wall - searched.wall) + len(probed.white - searched.white)


@pytest.mark.parametrize("after", [0, 1, 2])
def test_escalating_keeps_every_brute_forced_answer(after):
    fired = 0
    for p in _boards():
        result = assert_enumerates_brute_force(
            p, "asp", plan="auto", escalate=after, escalate_cpu=0.0, **LAZY
        )
        extra = result.extra
        if extra.get("escalated_at") == after and extra.get("escalation_clauses", 0) > 0:
            fired += 1
        # a search of more than ``after`` checks escalated at the one asked for; an enumeration of
        # k answers checks k candidates at least
        if extra["lazy_checks"] > after or len(all_solutions(p)) > after:
            assert extra.get("escalated_at") == after, p.to_text()
    # the probe added unit clauses, mid-enumeration for after >= 1, on several boards
    assert fired >= 5


def test_plan_probe_keeps_every_brute_forced_answer():
    boards = [p for p in _boards() if _settled_more(p)]
    assert len(boards) >= 5
    for p in boards:
        for islands in ("lazy", "hybrid"):
            assert_enumerates_brute_force(p, "asp", plan="probe", islands=islands)


def test_the_unit_clauses_are_the_probed_cells():
    # escalating at the first check adds one unit clause per cell the probe settles beyond the
    # searched plan
    boards = [p for p in _boards() if _settled_more(p)][:6]
    assert boards
    for p in boards:
        result = solve(p, "asp", count=2, timeout=60, plan="auto", escalate=0, escalate_cpu=0.0, **LAZY)
        assert result.extra["escalation_clauses"] == _settled_more(p), p.to_text()


def test_plan_search_never_escalates():
    p = _boards()[0]
    result = solve(p, "asp", count=0, timeout=60, plan="search", escalate=0, escalate_cpu=0.0, **LAZY)
    assert "escalated_at" not in result.extra
    assert {s.cells for s in result.solutions} == all_solutions(p)


def test_the_cpu_gate_holds_the_escalation_back():
    p = _boards()[0]
    result = solve(p, "asp", count=0, timeout=60, plan="auto", escalate=0, escalate_cpu=1e9, **LAZY)
    assert "escalated_at" not in result.extra
    assert {s.cells for s in result.solutions} == all_solutions(p)


def test_683_14x24_is_proven_unique_by_the_default_and_by_the_escalation(janko_dir):
    # ASP's default timed out on this board before the probe: the default probes it up front (plan=probe),
    # plan=auto adds the probed cells to the running search once the lazy rounds run long
    e = next(e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id == "683_14x24")
    for plan in ("probe", "auto"):
        result = solve(e.puzzle, "asp", count=2, timeout=120, plan=plan)
        assert result.exhausted and result.count == 1, plan
        assert result.solution.cells == e.solution.cells, plan
        assert (result.extra.get("escalation_clauses", 0) > 0) == (plan == "auto"), plan
