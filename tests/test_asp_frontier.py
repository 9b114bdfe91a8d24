"""ASP Kuromasu's ``sum`` option (the number rule as unary sums or one aggregate), crossed with
every ``visibility``: the answers of each pair against brute force on tiny boards and against
the planted answers of bundled generated boards; ``auto``'s choice by board size.

Oracles are the brute-force enumerator, the verifier and the generator's planted answers,
never clingo's own say-so.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

pytest.importorskip("clingo")

from bruteforce import all_solutions, random_kuromasu
from puzzlebench import registry, solve
from puzzlebench.encodings.asp.kuromasu import ADDER_CELLS
from puzzlebench.model import Family, Kuromasu
from puzzlebench.result import Status
from puzzlebench.suites import load_suite

VISIBILITIES = ("rays", "connect_cell", "counting")
SUMS = ("adder", "count")


def _answers(puzzle, **options) -> set[frozenset]:
    result = solve(puzzle, "asp", count=0, timeout=60, **options)
    assert result.status in (Status.SAT, Status.UNSAT), result.error
    return {s.cells for s in result.solutions}


def _tiny_boards(n: int, seed: int) -> list[Kuromasu]:
    rng = random.Random(seed)
    boards = [random_kuromasu(rng, rng.randint(1, 4), rng.randint(2, 4), clue_p=0.4) for _ in range(n)]
    # the largest clue a board allows, and a clue that sees a whole row
    return boards + [Kuromasu(2, 3, numbers={(0, 0): 4}), Kuromasu(1, 4, numbers={(0, 1): 4})]


@pytest.mark.parametrize("visibility,total", list(product(VISIBILITIES, SUMS)))
def test_every_visibility_with_every_sum_enumerates_the_brute_force_answers(visibility, total) -> None:
    boards = _tiny_boards(16, seed=29)
    truths = [all_solutions(p) for p in boards]
    assert any(len(t) > 1 for t in truths) and any(not t for t in truths), "cases should mix counts"
    for puzzle, truth in zip(boards, truths):
        for connectivity in ("reach", "none"):
            got = _answers(puzzle, visibility=visibility, sum=total, connectivity=connectivity)
            if connectivity == "none":
                assert got >= truth, (visibility, total, puzzle.key())
            else:
                assert got == truth, (visibility, total, puzzle.key())


@pytest.mark.parametrize("total", SUMS)
def test_sums_prove_the_planted_answer_of_generated_boards(total) -> None:
    items = [item for item in load_suite("gen-kuromasu") if item.puzzle.shape in ((15, 15), (20, 20))]
    assert len(items) >= 4
    for item in items:
        result = solve(item.puzzle, "asp", count=2, timeout=120, sum=total)
        assert result.verified and result.unique and result.solutions[0] == item.solution, (total, item.id)


def test_the_default_proves_the_planted_answer_of_a_board_past_the_auto_threshold() -> None:
    item = next(item for item in load_suite("gen-kuromasu") if item.puzzle.shape == (50, 50))
    assert item.puzzle.rows * item.puzzle.cols >= ADDER_CELLS
    result = solve(item.puzzle, "asp", count=2, timeout=300)
    assert result.verified and result.unique and result.solutions[0] == item.solution


def test_auto_sum_is_the_adder_on_large_boards_only() -> None:
    spec = registry.get(Family.KUROMASU, "asp")
    side = int(ADDER_CELLS**0.5) + 1
    large = spec.build(Kuromasu(side, side, numbers={(0, 0): 2}), spec.resolve({}))
    small = spec.build(Kuromasu(side - 2, side - 2, numbers={(0, 0): 2}), spec.resolve({}))
    assert "kuromasu_sum_adder.lp" in large.files and "kuromasu_sum_count.lp" not in large.files
    assert "kuromasu_sum_count.lp" in small.files and "kuromasu_sum_adder.lp" not in small.files
