"""CP-SAT on the frontier: hints between searches, the LP level per encoding, Nurikabe's hybrid
islands. Answers are checked against brute force or the generator's planted answers."""

from __future__ import annotations

import random

import pytest

from bruteforce import all_solutions
from puzzlebench import registry
from puzzlebench.encodings import islands as islands_module
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.model import Kuromasu, Nurikabe, family_spec
from puzzlebench.solvers import solve
from puzzlebench.suites import load_suite

pytestmark = pytest.mark.skipif("cp" not in registry.available(), reason="ortools is not installed")


def _nurikabe_boards() -> list[Nurikabe]:
    rng = random.Random(2024)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (4, 4), (3, 5), (4, 4)] * 2]
    return boards + [Nurikabe(4, 4, numbers={(0, 0): 4, (3, 3): 2}), Nurikabe(3, 4, numbers={(0, 0): 6})]


def _kuromasu_boards() -> list[Kuromasu]:
    rng = random.Random(2025)
    make = family_spec("kuromasu").random_board
    return [make(rng, *shape) for shape in [(3, 3), (3, 4), (4, 4), (4, 3)] * 3]


@pytest.mark.parametrize("hints", [True, False])
@pytest.mark.parametrize("boards", [_nurikabe_boards, _kuromasu_boards], ids=["nurikabe", "kuromasu"])
def test_hinted_resolve_loop_enumerates_exactly_the_brute_force_answers(boards, hints):
    # lazy rules: many searches in one run, each hinted with the candidate before it
    for p in boards():
        result = solve(p, "cp", count=0, timeout=60, hints=hints, enumeration="resolve")
        assert result.exhausted
        assert {s.cells for s in result.solutions} == all_solutions(p), p.to_text()


def test_the_next_search_starts_from_the_previous_candidate():
    from puzzlebench.encodings.cp.common import CpModelArtifact
    from puzzlebench.solvers.cpsat_backend import CpSatBackend

    p = Nurikabe(4, 4, numbers={(0, 0): 4, (3, 3): 2})
    spec = registry.get("nurikabe", "cp")
    artifact = spec.build(p, spec.resolve({}))
    assert isinstance(artifact, CpModelArtifact)
    for hints, expect in ((True, True), (False, False)):
        artifact = spec.build(p, spec.resolve({}))
        backend = CpSatBackend(
            {"hints": hints, "num_workers": 1, "seed": 0, "presolve": True, "enumeration": "resolve"}
        )
        backend.build(artifact, None)
        assert backend.check(None) is True
        first = backend.marked()
        assert not artifact.model.proto.solution_hint.vars  # nothing to start from yet
        backend.add_clause([(cell, cell not in first) for cell in artifact.decision])
        backend.check(None)
        hint = artifact.model.proto.solution_hint
        assert bool(hint.vars) is expect
        if expect:  # the hint is the first candidate, cell by cell
            by_index = dict(zip(hint.vars, hint.values))
            assert {cell for cell, var in artifact.decision.items() if by_index[var.index]} == first


@pytest.mark.parametrize("connectivity, level", [("lazy", 0), ("rank", 1), ("flow", 1)])
def test_every_lp_level_proves_the_planted_kuromasu_answers(connectivity, level):
    # the LP level is a fixed setting: 0 with the clausal connectivity, 1 with the labelled ones
    items = [item for item in load_suite("gen-kuromasu") if item.puzzle.rows <= 10]
    assert len(items) >= 6
    spec = registry.get("kuromasu", "cp")
    assert spec.settings["linearization"] == "auto"
    for item in items:
        artifact = spec.build(item.puzzle, spec.resolve({"connectivity": connectivity}))
        assert artifact.parameters.get("linearization_level", 1) == level
        result = solve(item.puzzle, "cp", count=2, timeout=60, connectivity=connectivity)
        assert result.unique is True and result.solutions[0] == item.solution, item.id


def test_hybrid_islands_count_equal_brute_force_when_the_budget_runs_out(monkeypatch):
    # a budget of a few depths leaves most numbers to the lazy cuts
    from puzzlebench.encodings.cp import nurikabe as cp_nurikabe

    monkeypatch.setattr(islands_module, "HYBRID_LEVELS", 6)
    monkeypatch.setattr(cp_nurikabe, "HYBRID_SMALLEST", 1)
    split = 0
    for p in _nurikabe_boards():
        plan = IslandPlan.of(p)
        levelled = plan.levelled(p, budget=True, smallest=cp_nurikabe.hybrid_smallest(p))
        split += 0 < len(levelled) < len(plan.reach)
        result = solve(p, "cp", count=0, timeout=60, islands="hybrid")
        assert result.exhausted
        assert {s.cells for s in result.solutions} == all_solutions(p), p.to_text()
    assert split >= 3  # boards where some islands have depths and others are left to cuts


def test_hybrid_islands_prove_the_planted_nurikabe_answers():
    items = [item for item in load_suite("gen-nurikabe") if item.puzzle.rows <= 15]
    assert len(items) >= 9
    for item in items:
        result = solve(item.puzzle, "cp", count=2, timeout=60, islands="hybrid")
        assert result.unique is True and result.solutions[0] == item.solution, item.id


@pytest.mark.parametrize("connectivity, level", [("lazy", 0), ("none", 0), ("rank", 1), ("flow", 1)])
def test_linearization_auto_keeps_the_lp_for_integer_labels(connectivity, level):
    # flow's and rank's labels are integers only the LP bounds: at level 0 seed 000's 11x11 ran
    # for about a minute with flow; the clausal statements search faster without it
    spec = registry.get("kuromasu", "cp")
    p = next(item.puzzle for item in load_suite("gen-kuromasu") if item.puzzle.rows == 7)
    artifact = spec.build(p, spec.resolve({"connectivity": connectivity}))
    assert artifact.parameters.get("linearization_level", 1) == level
    result = solve(p, "cp", count=2, timeout=60, connectivity=connectivity)
    assert result.unique is True or connectivity == "none"


def test_a_negated_literal_as_decision_is_refused_with_a_clear_error():
    # The backend reads the decision values by variable index from CP-SAT's response (and hints
    # them so): a negated literal there would read another variable's value.
    from puzzlebench.errors import EncodingError
    from puzzlebench.solvers.cpsat_backend import CpSatBackend

    p = Nurikabe(4, 4, numbers={(0, 0): 4, (3, 3): 2})
    spec = registry.get("nurikabe", "cp")
    artifact = spec.build(p, spec.resolve({}))
    cell = next(iter(artifact.decision))
    artifact.decision[cell] = ~artifact.decision[cell]
    backend = CpSatBackend(
        {"hints": True, "num_workers": 1, "seed": 0, "presolve": True, "enumeration": "resolve"}
    )
    with pytest.raises(EncodingError, match="negated literal"):
        backend.build(artifact, None)
