"""ASP Kuromasu's ``links=counts`` (two numbers that see each other: equal unary counts along
their line, counts across it the difference of the numbers apart, SAT's ``card=lines`` tie) and
the ``links=auto`` setting's choice by board size and sum (``links`` is a fixed setting: its
``counts`` statement runs by default on boards of 7,000 cells or more with ``sum=adder``, and
these tests reach it on smaller boards through :func:`setting`).

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
from test_asp_kuromasu_big import _solve, setting


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
    options = {**spec.resolve({"sum": "adder"}), "links": "counts"}
    tied = [p for p in BOARDS if "link(" in spec.build(p, options).facts]
    assert len(tied) >= 10  # the ties have numbers to work on
    assert any(len(t) > 1 for t in TRUTHS) and any(not t for t in TRUTHS) and any(len(t) == 1 for t in TRUTHS)


@pytest.mark.parametrize("connectivity,deduce", list(product(("lazy", "reach"), ("none", "auto"))))
def test_count_links_enumerate_the_brute_force_answers(monkeypatch, connectivity, deduce) -> None:
    setting(monkeypatch, links="counts")
    for puzzle, truth in zip(BOARDS, TRUTHS):
        result = _solve(puzzle, connectivity=connectivity, sum="adder", deduce=deduce)
        got = {s.cells for s in result.solutions}
        assert got == truth, (connectivity, deduce, puzzle.key())


def test_count_links_are_implied_by_the_number_rule(monkeypatch) -> None:
    # without connectivity (a relaxation) the ties neither lose nor win an answer
    for puzzle in BOARDS:
        with monkeypatch.context() as patch:
            setting(patch, links="counts")
            tied = {s.cells for s in _solve(puzzle, connectivity="none", sum="adder").solutions}
        with monkeypatch.context() as patch:
            setting(patch, links="none")
            plain = {s.cells for s in _solve(puzzle, connectivity="none", sum="adder").solutions}
        assert tied == plain, puzzle.key()


def test_auto_ties_counts_on_the_largest_boards_with_the_adder_only() -> None:
    spec = registry.get(Family.KUROMASU, "asp")
    defaults = spec.resolve({})
    assert defaults["links"] == spec.settings["links"] == "auto" and LINK_CELLS >= ADDER_CELLS
    side = int(LINK_CELLS**0.5)
    side += side * side < LINK_CELLS
    numbers = {(0, 0): 3, (0, 2): 4}

    def files(rows, options):
        return spec.build(Kuromasu(rows, side, numbers=numbers), {**defaults, **options}).files

    assert "kuromasu_links_counts.lp" in files(side, {})
    assert "kuromasu_links_counts.lp" not in files(side - 1, {})  # below LINK_CELLS
    assert not any(f.startswith("kuromasu_links") for f in files(side, {"sum": "count"}))


def test_count_links_prove_the_planted_answer_of_a_30x30_board(monkeypatch) -> None:
    item = min((i for i in load_suite("gen-kuromasu") if i.puzzle.shape == (30, 30)), key=lambda i: i.id)
    setting(monkeypatch, links="counts")  # the 100x100 boards' statement on a 30x30 board
    result = solve(item.puzzle, "asp", count=2, timeout=300, connectivity="lazy", sum="adder")
    assert result.status == Status.SAT and result.unique and result.solutions[0] == item.solution
