"""ASP Nurikabe on the deduction stage's probed island plan (``deduce=probe``, the default): the
probed cells become facts of the program, so enumeration still finds exactly brute force's answers
on small boards where the probe settles cells beyond the searched plan, and 683_14x24 is proven
with its published answer, never against the solver's own say-so. (The encoding's own escalation
to the probe during the search, ``plan=auto``, is no longer reachable: the plan is the stage's,
docs/decisions/2026-12-05-deduction-stage.md.)"""

from __future__ import annotations

import pytest

from bruteforce import assert_enumerates_brute_force, escalation_boards
from puzzlebench import registry
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe
from puzzlebench.solvers import solve

pytestmark = pytest.mark.skipif("asp" not in registry.available(), reason="no ASP backend")


def _boards() -> list[Nurikabe]:
    return escalation_boards(31)


def _settled_more(p: Nurikabe) -> int:
    """The cells the probe settles beyond the searched plan."""
    searched = IslandPlan.of(p, deduce=False)
    probed = IslandPlan.of(p, deduce=True)
    return len(probed.wall - searched.wall) + len(probed.white - searched.white)


def test_the_probed_plan_keeps_every_brute_forced_answer():
    boards = [p for p in _boards() if _settled_more(p)]
    assert len(boards) >= 5
    for p in boards:
        for islands in ("lazy", "hybrid"):
            result = assert_enumerates_brute_force(p, "asp", islands=islands)
            assert result.deduce == "probe" and result.settled > 0
            assert "escalated_at" not in result.extra  # the encoding probes no more on its own


def test_683_14x24_is_proven_unique_by_the_default(janko_dir):
    # ASP's default timed out on this board before the probe: the stage probes it up front
    e = next(e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id == "683_14x24")
    result = solve(e.puzzle, "asp", count=2, timeout=120)
    assert result.deduce == "probe" and result.settled > 0
    assert result.exhausted and result.count == 1
    assert result.solution.cells == e.solution.cells
    assert "escalation_clauses" not in result.extra
