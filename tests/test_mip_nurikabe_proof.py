"""The MIP uniqueness proof on Nurikabe: the row that blocks an answer (backend option ``block``)
where every answer has as many wall cells, against brute force and the published janko answers."""

from __future__ import annotations

import random

import pytest

from bruteforce import all_solutions, answered_boards, assert_enumerates_brute_force
from puzzlebench import registry
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe, family_spec
from puzzlebench.solvers import solve
from puzzlebench.solvers.highs_backend import HighsBackend

pytestmark = pytest.mark.skipif("mip" not in registry.available(), reason="highspy is not installed")

SHAPES = [(3, 3), (3, 4), (4, 4), (2, 5), (3, 5)]


def _model(p: Nurikabe):
    spec = registry.get("nurikabe", "mip")
    return spec.build(p, spec.resolve({}))


def test_the_model_claims_a_fixed_wall_size_only_without_question_marks():
    assert _model(Nurikabe(3, 3, numbers={(0, 0): 2, (2, 2): 1})).fixed_marks
    assert not _model(Nurikabe(3, 4, numbers={(0, 3): 3}, unknown=frozenset({(2, 0)}))).fixed_marks


@pytest.mark.parametrize("enumeration", ["auto", "nogood"])
def test_the_block_row_enumerates_exactly_the_brute_force_answers(enumeration):
    # boards of 1 to 30 answers: with enumeration=nogood every answer is blocked by the row
    boards = answered_boards("nurikabe", 1413, SHAPES, count=6, most=30)
    boards.append(Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})))
    for p in boards:
        assert_enumerates_brute_force(p, "mip", block="auto", proof_presolve="same", enumeration=enumeration)


def _block_row(p: Nurikabe, answer: frozenset, block: str) -> tuple[float, dict]:
    """The lower bound and coefficients (by cell) of the row that blocks ``answer``."""
    model = _model(p)
    backend = HighsBackend({"block": block})
    backend.build(model, None)
    try:
        before = backend._highs.getNumRow()
        backend.block(answer, list(model.decision))
        highs = backend._highs
        assert highs.getNumRow() == before + 1
        lower = highs.getRow(before)[1]
        _, index, value = highs.getRowEntries(before)
        cell_of = {col: cell for cell, col in model.decision.items()}
        # a clause's negative literal (1 - x) is -x in the row, its 1 moved to the bound
        return lower, {cell_of[int(j)]: float(v) for j, v in zip(index, value)}
    finally:
        backend.close()


@pytest.mark.slow
def test_the_block_row_excludes_the_answer_keeps_every_other_and_is_the_smaller_side():
    rng = random.Random(77)
    make = family_spec("nurikabe").random_board
    tried = 0
    while tried < 12:
        p = make(rng, *rng.choice(SHAPES))
        answers = all_solutions(p)
        if p.unknown or not 1 <= len(answers) <= 30:
            continue
        tried += 1
        for answer in answers:
            lower, coef = _block_row(p, answer, "auto")
            value = lambda marked: sum(c for cell, c in coef.items() if cell in marked)  # noqa: B023  (called within this iteration)
            assert value(answer) < lower - 0.5  # the answer is cut off
            assert all(value(other) >= lower - 1e-9 for other in answers - {answer})
            full_lower, full = _block_row(p, answer, "full")
            assert len(coef) <= (len(full) + 1) // 2  # one side of the answer, the smaller one


# boards whose proof took most of their time (10x18, 14x24)
@pytest.mark.parametrize("record", ["15_10x18", "158_14x24"])
def test_janko_records_get_their_published_answer_proven_unique(janko_dir, record):
    entry = next(
        e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family("nurikabe"), []) if e.id == record
    )
    result = solve(entry.puzzle, "mip", count=2, timeout=120)
    assert result.exhausted and len(result.solutions) == 1
    assert result.solutions[0] == entry.solution


def test_the_nurikabe_proof_runs_presolved_and_confirmed_and_other_families_keep_theirs():
    from bruteforce import random_kuromasu

    assert _model(Nurikabe(3, 3, numbers={(0, 0): 2, (2, 2): 1})).proof_presolve == "same"
    spec = registry.get("kuromasu", "mip")
    kuromasu = random_kuromasu(random.Random(5), 3, 4, clue_p=0.3)
    assert spec.build(kuromasu, spec.resolve({})).proof_presolve == "off"
    # a board of one answer, whose proof ends infeasible: with presolve, that verdict is confirmed,
    # by default (the model's confirm) by a run without presolve, or by a second presolved run
    rng = random.Random(3)
    p = family_spec("nurikabe").random_board(rng, 3, 4)
    while p.unknown or len(all_solutions(p)) != 1:
        p = family_spec("nurikabe").random_board(rng, 3, 4)
    result = solve(p, "mip", count=2, timeout=60, deduce="none")
    assert {s.cells for s in result.solutions} == all_solutions(p)
    assert result.exhausted and result.extra.get("infeasible_confirmations", 0) >= 1
    assert "infeasible_reseeded" not in result.extra
    reseeded = solve(p, "mip", count=2, timeout=60, deduce="none", confirm="reseeded")
    assert {s.cells for s in reseeded.solutions} == all_solutions(p)
    assert reseeded.exhausted and reseeded.extra.get("infeasible_reseeded", 0) >= 1
    off = solve(p, "mip", count=2, timeout=60, deduce="none", proof_presolve="off")
    assert {s.cells for s in off.solutions} == all_solutions(p)
    assert off.extra.get("infeasible_confirmations", 0) == 0


def test_a_feasible_board_that_presolve_calls_infeasible_gets_its_published_answer(janko_dir):
    """343_10x18 on the bare puzzle: HiGHS's guided, lean presolve calls the model infeasible after
    two lazy rounds, and a second presolved run with another seed agreed; the default confirms an
    infeasible verdict by a run without presolve."""
    entry = next(
        e
        for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family("nurikabe"), [])
        if e.id == "343_10x18"
    )
    result = solve(entry.puzzle, "mip", count=1, timeout=120, deduce="none")
    assert result.status.value == "sat" and result.solutions[0] == entry.solution
