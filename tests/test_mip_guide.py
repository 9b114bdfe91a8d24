"""The MIP model's guiding objective (``MipModel.guide``; Nurikabe's ``guide=levels``): it steers
HiGHS's search and changes no answer: every run stops at its first feasible point, the proof's
runs go without it (``guide_runs=search``), and an infeasible verdict is confirmed without it."""

from __future__ import annotations

import pytest

from bruteforce import answered_boards, assert_enumerates_brute_force
from puzzlebench import registry
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe
from puzzlebench.solvers import highs_backend, solve
from puzzlebench.solvers.highs_backend import GUIDED_RULES_OFF, HighsBackend

pytestmark = pytest.mark.skipif("mip" not in registry.available(), reason="highspy is not installed")

SHAPES = [(3, 3), (3, 4), (4, 4), (3, 5)]
#: an island of 4 that may take several shapes (seven answers): its level columns carry the guide
BOARD = Nurikabe(4, 4, numbers={(1, 1): 4, (3, 3): 1})


def _model(p: Nurikabe):
    spec = registry.get("nurikabe", "mip")
    return spec.build(p, spec.resolve({}))  # the default's guide=levels, on the bare puzzle


def _option(highs, name: str) -> int:
    value = highs.getOptionValue(name)
    return int(value[1] if isinstance(value, tuple) else value)  # the plain binding answers (status, value)


def test_the_levels_carry_the_guide_for_the_search_only():
    model = _model(BOARD)
    assert model.guide and set(model.guide.values()) >= {1.0, 2.0}
    assert model.guide_runs == "search"


@pytest.mark.parametrize("runs", ["search", "always"])
def test_the_backend_steers_by_the_guide_and_drops_it_for_the_proof_as_told(runs):
    model = _model(BOARD)
    backend = HighsBackend({"guide_runs": runs})
    backend.build(model, None)
    try:
        highs = backend._highs
        cost = lambda: [highs.getLp().col_cost_[j] for j in sorted(model.guide)]
        assert cost() == [model.guide[j] for j in sorted(model.guide)]
        assert _option(highs, "mip_max_improving_sols") == 1
        assert _option(highs, "presolve_rule_off") & GUIDED_RULES_OFF
        assert backend.check(None) is True
        answer = backend.marked()
        backend.block(answer, list(model.decision))
        backend.check(None)
        if runs == "search":
            assert not any(cost()) and not _option(highs, "presolve_rule_off") & GUIDED_RULES_OFF
        else:
            assert cost() == [model.guide[j] for j in sorted(model.guide)]
    finally:
        backend.close()


@pytest.mark.parametrize("runs", ["search", "always", "off"])
def test_guided_or_not_the_model_finds_exactly_the_brute_force_answers(runs):
    for p in answered_boards("nurikabe", 2718, SHAPES, count=6, most=20):
        assert_enumerates_brute_force(p, "mip", deduce="none", guide_runs=runs)


def test_janko_87_is_proven_with_its_published_answer_when_guided(janko_dir, monkeypatch):
    # HiGHS 1.16's presolve called this feasible board infeasible with the guide's costs, twice
    # over two seeds, unless its rule for parallel rows and columns is off; each of the two
    # safeguards (that rule off in guided runs, the confirmation run without the guide) suffices
    entry = next(
        e
        for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family("nurikabe"), [])
        if e.id == "87_14x24"
    )
    for rules_off in (GUIDED_RULES_OFF, 0):
        monkeypatch.setattr(highs_backend, "GUIDED_RULES_OFF", rules_off)
        result = solve(entry.puzzle, "mip", count=2, timeout=60, guide_runs="always")
        assert result.exhausted and len(result.solutions) == 1, rules_off
        assert result.solutions[0] == entry.solution


def test_a_guided_board_without_answers_is_proven_so():
    # no answer: each presolved verdict of infeasibility is confirmed by a run without the guide,
    # after which the guide's costs return for the next run, not before (they would unset the verdict)
    # (the default confirms by a run without presolve; confirm=reseeded by a presolved run)
    p = Nurikabe(4, 4, numbers={(0, 0): 4, (3, 3): 2})
    result = solve(p, "mip", count=2, timeout=60, deduce="none", guide_runs="always", confirm="reseeded")
    assert result.deduce == "none"  # HiGHS runs: no deduction proves the board has no answer first
    assert result.exhausted and not result.solutions and result.extra.get("infeasible_reseeded", 0) >= 1
    default = solve(p, "mip", count=2, timeout=60, deduce="none", guide_runs="always")
    assert default.exhausted and not default.solutions
    assert default.extra.get("infeasible_confirmations", 0) >= 1
