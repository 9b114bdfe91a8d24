"""SMT Nurikabe's escalation with the probed plan (``escalate_probe``): at the lazy rounds'
escalation the cells failed-literal probing settles go to the running solver as unit facts and the
levels follow the probed plan. Every answer kept when the escalation lands in the middle of an
enumeration (against brute force, z3 and cvc5), the settled facts held to every brute-force answer,
and janko's 683_14x24 proved unique with its published answer under the default.
"""

from __future__ import annotations

import pytest

pytest.importorskip("z3", reason="z3 is not installed")

import puzzlebench as pb
from bruteforce import all_solutions, answered_boards, assert_enumerates_brute_force
from puzzlebench import registry
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe


@pytest.fixture(scope="module")
def answered() -> list[Nurikabe]:
    # 1 to 50 answers each: the escalation lands before, between and after answers
    return answered_boards("nurikabe", 23, [(3, 3), (3, 4), (4, 4), (3, 5)], count=10)


def _build(puzzle: Nurikabe, **options):
    spec = registry.get(Family.NURIKABE, "smt")
    return spec.build(puzzle, spec.resolve({"islands": "lazy", **options}))


@pytest.mark.parametrize("escalate", [0, 1, 2])
def test_escalating_with_the_probe_keeps_every_answer(answered, escalate: int) -> None:
    # escalate=0: never (the lazy rounds alone); 1 and 2: after the first checks
    escalated = 0
    for puzzle in answered:
        result = assert_enumerates_brute_force(
            puzzle, "smt", islands="lazy", escalate=escalate, escalate_probe="on"
        )
        escalated += result.extra.get("escalated_at") is not None
    assert escalated == 0 if escalate == 0 else escalated >= len(answered) // 2


def test_cvc5_escalates_with_the_probe_and_keeps_every_answer(answered) -> None:
    pytest.importorskip("cvc5", reason="cvc5 is not installed")
    escalated = 0
    for puzzle in answered[:5]:
        result = assert_enumerates_brute_force(
            puzzle, "smt", solver="cvc5", islands="lazy", escalate=1, escalate_probe="on"
        )
        escalated += result.extra.get("escalated_at") == 1
    assert escalated >= 2


def test_settled_facts_hold_in_every_answer(answered) -> None:
    # Each unit fact the escalation adds, read off as a cell's colour, against brute force; on a
    # board with one answer the probe settles cells, so the facts are not vacuous.
    settled_somewhere = 0
    for puzzle in answered:
        model = _build(puzzle, escalate=1, escalate_probe="on")
        terms = model.escalation[1](None)
        # a decision literal's term -> (its cell, shaded or not), compared structurally
        literals = [(var, (cell, True)) for cell, var in model.decision.items()]
        literals += [(model.neg(var), (cell, False)) for cell, var in model.decision.items()]
        facts = [meaning for term in terms for lit, meaning in literals if term.eq(lit)]
        assert len(facts) == model.notes["escalate_settled"]
        assert len(terms) - len(facts) <= 1  # and the levels' one text term
        answers = all_solutions(puzzle)
        for cell, shaded in facts:
            assert all((cell in answer) == shaded for answer in answers), (puzzle.to_text(), cell, shaded)
        settled_somewhere += bool(facts)
    assert settled_somewhere >= 2


def test_probe_off_escalates_to_the_plan_as_searched(answered) -> None:
    puzzle = answered[0]
    model = _build(puzzle, escalate=1, escalate_probe="off")
    terms = model.escalation[1](None)
    assert len(terms) <= 1 and "escalate_settled" not in model.notes


def test_683_is_proved_unique_with_its_published_answer(janko_dir) -> None:
    entries = {e.id: e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family.NURIKABE, [])}
    entry = entries["683_14x24"]
    for plan in ("probe", "search"):  # the default probes up front; the searched plan escalates
        result = pb.solve(entry.puzzle, "smt", count=2, timeout=120, plan=plan)
        assert result.exhausted and result.verified, plan
        if plan == "search":  # proved past the lazy rounds' escalation
            assert result.extra.get("escalated_at") is not None
        assert [s.cells for s in result.solutions] == [entry.solution.cells], plan
