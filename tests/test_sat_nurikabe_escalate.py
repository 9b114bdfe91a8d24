"""SAT Nurikabe on the deduction stage's island plan: the cells failed-literal probing settles
(``deduce=probe``, the default) go to the solver as unit clauses up front, and the encoding no
longer probes on its own in the middle of a search (its former ``plan=auto`` escalation is not
reachable: docs/decisions/2026-12-05-deduction-stage.md). Checked against brute force on small
boards and against the published answer of 683_14x24, never against the solver's own say-so."""

from __future__ import annotations

import pytest

from bruteforce import all_solutions, assert_enumerates_brute_force, escalation_boards
from puzzlebench import deduce as deduction
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe
from puzzlebench.solvers import solve


def _boards() -> list[Nurikabe]:
    return escalation_boards(21)


def _settles_more(p: Nurikabe) -> bool:
    searched = IslandPlan.of(p, deduce=False)
    probed = IslandPlan.of(p, deduce=True)
    return len(probed.wall) + len(probed.white) > len(searched.wall) + len(searched.white)


@pytest.mark.parametrize("deduce", ["probe", "none"])
def test_the_default_never_escalates_and_keeps_every_brute_forced_answer(deduce):
    for p in _boards()[:12]:
        result = assert_enumerates_brute_force(p, "sat", deduce=deduce)
        assert result.deduce == deduce
        assert "escalated_at" not in result.extra and "escalation_clauses" not in result.extra


def test_the_stage_states_the_probed_cells():
    # deduce=probe: every cell the probe settles is stated in the CNF (one unit clause each)
    boards = [p for p in _boards() if _settles_more(p)][:6]
    assert boards
    for p in boards:
        found = deduction.deduce(p, "probe")
        result = solve(p, "sat", count=2, timeout=60, deduce="probe")
        assert result.settled == len(found.settled) > 0, p.to_text()
        assert {s.cells for s in result.solutions} <= all_solutions(p)


def test_683_14x24_is_proven_unique_by_the_default(janko_dir):
    # every default timed out on this board before the probe: the stage's probe settles it up front
    e = next(e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id == "683_14x24")
    result = solve(e.puzzle, "sat", count=2, timeout=120)
    assert result.deduce == "probe" and result.settled > 0
    assert result.exhausted and result.count == 1
    assert result.solution.cells == e.solution.cells
    assert "escalation_clauses" not in result.extra
