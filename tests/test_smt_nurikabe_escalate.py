"""SMT Nurikabe's escalation (``islands=lazy`` after ``escalate`` checks) on the deduction stage's
plan: the levels follow the plan the encoding was built on, and no cell is probed at the
escalation (the fixed setting ``escalate_probe=off``: the stage settles the cells up front, stated
by the harness). Janko's 683_14x24 proved unique with its published answer under the default.

Removed with the stage (docs/decisions/2026-12-05-deduction-stage.md): the escalation's own probe
(``escalate_probe=on``), which no run can reach any more.
"""

from __future__ import annotations

import pytest

pytest.importorskip("z3", reason="z3 is not installed")

import puzzlebench as pb
from bruteforce import answered_boards
from puzzlebench import deduce as deduction
from puzzlebench import registry
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe


@pytest.fixture(scope="module")
def answered() -> list[Nurikabe]:
    return answered_boards("nurikabe", 23, [(3, 3), (3, 4), (4, 4), (3, 5)], count=10)


def _build(puzzle: Nurikabe, **settings):
    """The default with ``islands=lazy``, its fixed settings overlaid with ``settings`` (e.g. an
    escalation after one check, the code that runs after 300 checks on large boards)."""
    spec = registry.get(Family.NURIKABE, "smt")
    return spec.build(puzzle, {**spec.resolve({"islands": "lazy"}), **settings})


@pytest.mark.slow
def test_the_escalation_adds_no_probed_cell(answered) -> None:
    assert registry.get(Family.NURIKABE, "smt").settings["escalate_probe"] == "off"
    for puzzle in answered[:4]:
        model = _build(puzzle, escalate=1)
        terms = model.escalation[1](None)
        assert len(terms) <= 1 and "escalate_settled" not in model.notes
        # built on the stage's probed plan: the same, the cells being the harness's to state
        with deduction.stage() as hand:
            hand(deduction.deduce(puzzle, "probe"))
            model = _build(puzzle, escalate=1)
        terms = model.escalation[1](None)
        assert len(terms) <= 1 and "escalate_settled" not in model.notes


def test_683_is_proved_unique_with_its_published_answer(janko_dir) -> None:
    entries = {e.id: e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family.NURIKABE, [])}
    entry = entries["683_14x24"]
    result = pb.solve(entry.puzzle, "smt", count=2, timeout=120)
    assert result.deduce == "probe" and result.settled > 0
    assert result.exhausted and result.verified
    assert result.extra.get("escalated_at") is not None  # proved past the lazy rounds' escalation
    assert [s.cells for s in result.solutions] == [entry.solution.cells]
