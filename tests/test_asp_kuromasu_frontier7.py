"""ASP Kuromasu's ``links=counts`` (two numbers that see each other: equal unary counts along
their line, counts across it the difference of the numbers apart, SAT's ``card=lines`` tie) and
``links=auto``'s choice by board size and sum.

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
from puzzlebench.encodings.asp.kuromasu import ADDER_CELLS, LINK_CELLS
from puzzlebench.model import Family, Kuromasu
from puzzlebench.result import Status
from puzzlebench.suites import load_suite
from test_asp_kuromasu_big import _solve


def _tiny_boards(n: int, seed: int) -> list[Kuromasu]:
    rng = random.Random(seed)
    boards = [random_kuromasu(rng, rng.randint(2, 4), rng.randint(2, 4), clue_p=0.45) for _ in range(n)]
    # numbers facing each other along a row and a column, with different numbers, and a '?'
    return boards + [
        Kuromasu(3, 4, numbers={(1, 0): 4, (1, 3): 3}),
        Kuromasu(4, 3, numbers={(0, 1): 5, (3, 1): 3, (1, 0): 2}),
        Kuromasu(2, 4, numbers={(0, 0): 3, (0, 3): 4}, unknown=frozenset({(0, 1)})),
    ]


BOARDS = _tiny_boards(30, seed=77)
TRUTHS = [all_solutions(p) for p in BOARDS]


def test_the_tiny_boards_have_numbers_in_line_and_mixed_counts() -> None:
    spec = registry.get(Family.KUROMASU, "asp")
    defaults = {o.name: o.default for o in spec.options}
    tied = [
        p for p in BOARDS if "link(" in spec.build(p, {**defaults, "sum": "adder", "links": "counts"}).facts
    ]
    assert len(tied) >= 10  # the ties have numbers to work on
    assert any(len(t) > 1 for t in TRUTHS) and any(not t for t in TRUTHS) and any(len(t) == 1 for t in TRUTHS)


@pytest.mark.parametrize("connectivity,cut", list(product(("lazy", "reach"), ("auto", "none"))))
def test_count_links_enumerate_the_brute_force_answers(connectivity, cut) -> None:
    for puzzle, truth in zip(BOARDS, TRUTHS):
        result = _solve(puzzle, connectivity=connectivity, cut=cut, sum="adder", links="counts")
        got = {s.cells for s in result.solutions}
        assert got == truth, (connectivity, cut, puzzle.key())


def test_count_links_are_implied_by_the_number_rule() -> None:
    # without connectivity (a relaxation) the ties neither lose nor win an answer
    for puzzle in BOARDS:
        tied = {s.cells for s in _solve(puzzle, connectivity="none", sum="adder", links="counts").solutions}
        plain = {s.cells for s in _solve(puzzle, connectivity="none", sum="adder", links="none").solutions}
        assert tied == plain, puzzle.key()


@pytest.mark.parametrize("total", ["count", "paired"])
def test_count_links_with_the_other_sums_enumerate_the_brute_force_answers(total) -> None:
    for puzzle, truth in zip(BOARDS, TRUTHS):
        got = {s.cells for s in _solve(puzzle, connectivity="lazy", sum=total, links="counts").solutions}
        assert got == truth, (total, puzzle.key())


def test_auto_ties_counts_on_the_largest_boards_with_the_adder_only() -> None:
    spec = registry.get(Family.KUROMASU, "asp")
    defaults = {o.name: o.default for o in spec.options}
    assert defaults["links"] == "auto" and LINK_CELLS >= ADDER_CELLS
    side = int(LINK_CELLS**0.5)
    side += side * side < LINK_CELLS
    numbers = {(0, 0): 3, (0, 2): 4}

    def files(rows, options):
        return spec.build(Kuromasu(rows, side, numbers=numbers), {**defaults, **options}).files

    assert "kuromasu_links_counts.lp" in files(side, {})
    assert "kuromasu_links_counts.lp" not in files(side - 1, {})  # below LINK_CELLS
    assert not any(f.startswith("kuromasu_links") for f in files(side, {"sum": "count"}))
    assert "kuromasu_links.lp" in files(side, {"links": "rays"})  # an explicit value wins over auto


def test_count_links_prove_the_planted_answer_of_a_30x30_board() -> None:
    item = min((i for i in load_suite("gen-kuromasu") if i.puzzle.shape == (30, 30)), key=lambda i: i.id)
    result = solve(item.puzzle, "asp", count=2, timeout=300, connectivity="lazy", sum="adder", links="counts")
    assert result.status == Status.SAT and result.unique and result.solutions[0] == item.solution
