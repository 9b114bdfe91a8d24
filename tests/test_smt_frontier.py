"""SMT frontier changes: Kuromasu's ``card=adder`` (unary merges parsed from SMT-LIB text) and
Nurikabe's ``connectivity=auto`` (lazy cuts on boards with '?' clues, ranks elsewhere).

Answers are held to brute force, to published janko answers and to the planted answers of the
bundled generated boards; the adder's clauses are held to a direct count of the sums they allow.
"""

from __future__ import annotations

import itertools
import random

import pytest

z3 = pytest.importorskip("z3", reason="z3 is not installed")

import puzzlebench as pb
from bruteforce import all_solutions, random_kuromasu
from puzzlebench import registry
from puzzlebench.encodings.smt import nurikabe as smt_nurikabe
from puzzlebench.encodings.smt.common import SmtModel
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe
from puzzlebench.suites import load_suite


def answers(result) -> set[frozenset]:
    return {s.cells for s in result.solutions}


# -- the unary sums (card=adder) --------------------------------------------------------------------


@pytest.mark.parametrize(
    "lengths, total",
    [((2, 3), 2), ((1, 2, 3), 3), ((3, 1, 2, 2), 4), ((2, 2, 2, 2), 0), ((3, 0, 2), 5), ((1, 1), 3)],
)
def test_unary_sums_allow_exactly_the_splits_of_the_total(lengths: tuple[int, ...], total: int) -> None:
    model = SmtModel()
    numbers = [[model.bool("x", i, k) for k in range(n)] for i, n in enumerate(lengths)]
    for number in numbers:  # each input is a unary number: "X >= k + 1" implies "X >= k"
        model.add(*[model.implies(hi, lo) for lo, hi in zip(number, number[1:])])
    sums = model.unary_sums()
    sums.equals(numbers, total)
    sums.close()
    solver = z3.Solver(ctx=model.ctx)
    solver.add(*model.assertions)
    inputs = [x for number in numbers for x in number]
    found = set()
    while solver.check() == z3.sat:
        m = solver.model()
        values = tuple(
            sum(z3.is_true(m.eval(x, model_completion=True)) for x in number) for number in numbers
        )
        found.add(values)
        solver.add(z3.Or([x != m.eval(x, model_completion=True) for x in inputs]))
    expected = {split for split in itertools.product(*(range(n + 1) for n in lengths)) if sum(split) == total}
    assert found == expected


def test_adder_booleans_from_the_parsed_text_are_counted_in_the_size_figures() -> None:
    puzzle = next(item.puzzle for item in load_suite("gen-kuromasu") if item.puzzle.shape == (10, 10))
    sizes = {card: pb.solve(puzzle, "smt", count=1, card=card).size for card in ("pb", "adder")}
    assert sizes["adder"]["bool_vars"] > sizes["pb"]["bool_vars"]


# -- Kuromasu answers with card=adder ---------------------------------------------------------------

KUROMASU = [
    random_kuromasu(random.Random(31), *shape) for shape in ((3, 3), (3, 4), (4, 4), (2, 5), (4, 3), (4, 4))
]


@pytest.mark.parametrize("visibility", ["rays", "shared"])
@pytest.mark.parametrize("connectivity", ["lazy", "rank"])
def test_kuromasu_adder_answers_equal_brute_force(visibility: str, connectivity: str) -> None:
    for puzzle in KUROMASU:
        result = pb.solve(
            puzzle, "smt", count=0, card="adder", visibility=visibility, connectivity=connectivity
        )
        assert answers(result) == all_solutions(puzzle), puzzle.name
        assert result.exhausted


def test_kuromasu_adder_is_the_default_and_proves_generated_boards_unique() -> None:
    assert registry.get(Family.KUROMASU, "smt").option("card").default == "adder"
    items = [item for item in load_suite("gen-kuromasu") if item.puzzle.shape in ((20, 20), (30, 30))][:3]
    assert items
    for item in items:
        result = pb.solve(item.puzzle, "smt", count=2)
        assert result.unique and result.solutions[0] == item.solution, item.id


def test_kuromasu_adder_matches_published_janko_answers(janko_dir) -> None:
    suite = [
        e for e in load_suite(janko_dir / "Kuromasu_dataset.json") if e.puzzle.rows * e.puzzle.cols <= 150
    ][:8]
    for entry in suite:
        result = pb.solve(entry.puzzle, "smt", count=2, card="adder", visibility="shared")
        assert result.unique and result.solutions[0] == entry.solution, entry.id


# -- Nurikabe connectivity=auto ---------------------------------------------------------------------

QUESTION = Nurikabe(3, 4, numbers={(0, 0): 2}, unknown=frozenset({(2, 3)}))


def test_nurikabe_auto_picks_lazy_cuts_only_with_question_clues() -> None:
    spec = registry.get(Family.NURIKABE, "smt")
    assert spec.option("connectivity").default == "auto"
    plain = Nurikabe(3, 3, numbers={(0, 0): 2, (2, 2): 1})
    for puzzle, rule in ((QUESTION, "lazy"), (plain, "rank")):
        model = spec.build(puzzle, spec.resolve({"islands": "distance"}))
        assert model.notes["connectivity"] == rule
        assert (model.lazy is not None) == (rule == "lazy")
        assert model.logic == "QF_LIA"  # islands=distance compares depths either way
    assert smt_nurikabe.wall_rule(QUESTION, "rank") == "rank"


@pytest.mark.parametrize("connectivity", ["auto", "lazy", "rank"])
def test_nurikabe_question_clue_answers_equal_brute_force(connectivity: str) -> None:
    boards = [
        QUESTION,
        Nurikabe(3, 3, unknown=frozenset({(0, 0)})),
        Nurikabe(3, 4, numbers={(2, 0): 3}, unknown=frozenset({(0, 3), (0, 0)})),
    ]
    for puzzle in boards:
        result = pb.solve(puzzle, "smt", count=0, connectivity=connectivity)
        assert answers(result) == all_solutions(puzzle), (puzzle, connectivity)


def test_nurikabe_auto_proves_the_janko_question_puzzles(janko_dir) -> None:
    # (the corpus holds a few records that cannot be read: they are set aside)
    suite = [
        e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family.NURIKABE, []) if e.puzzle.unknown
    ]
    assert len(suite) >= 3
    for entry in suite:
        result = pb.solve(entry.puzzle, "smt", count=2)
        assert result.unique and result.solutions[0] == entry.solution, entry.id


def test_kuromasu_auto_visibility_shares_stretches_on_large_boards_only() -> None:
    spec = registry.get(Family.KUROMASU, "smt")
    for side, expected in ((10, "rays"), (50, "shared")):
        puzzle = next(item.puzzle for item in load_suite("gen-kuromasu") if item.puzzle.shape == (side, side))
        model = spec.build(puzzle, spec.resolve({}))
        assert model.notes["visibility"] == expected
        assert any(key[0] == "stretch" for key in model.bools) == (expected == "shared")
