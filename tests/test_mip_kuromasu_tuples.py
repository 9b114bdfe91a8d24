"""MIP Kuromasu's ``views`` option (sum, hull, tuples) after each of the family's deductions
(the stage's ``none``, ``views`` and ``probe``): the numbers' views as a convex hull, and the
cells settled before solving, checked against brute force, the verifier and the planted answers
of generated boards."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("highspy", reason="highspy is not installed (pip install highspy)")

import puzzlebench as pb
from bruteforce import all_solutions, kuromasu_view
from puzzlebench.encodings.mip import ENCODINGS
from puzzlebench.encodings.mip.kuromasu import VIEWS, _Views
from puzzlebench.formats import load_solution
from puzzlebench.model import Family, Kuromasu
from puzzlebench.model.kuromasu import random_kuromasu

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "gen-kuromasu"
SPEC = next(s for s in ENCODINGS if s.family == Family.KUROMASU and s.name == "default")
#: the deduction stage's values for Kuromasu (formerly MIP's own deduce option: off, views, probe_views)
DEDUCE = ("none", "views", "probe")
COMBINATIONS = [(views, deduce) for views in VIEWS for deduce in DEDUCE]


def answers(puzzle: Kuromasu, count: int = 0, **options: str) -> tuple[set[frozenset], bool]:
    result = pb.solve(puzzle, "mip", count=count, timeout=60, **options)
    assert result.deduce == options.get("deduce", "probe"), result.deduce
    for solution in result.solutions:  # the independent verifier, not the solver's say-so
        assert not puzzle.verify(solution), (puzzle.name, solution)
    return {frozenset(s.cells) for s in result.solutions}, result.exhausted


def small_boards(seed: int, count: int) -> list[Kuromasu]:
    """Small boards, many numbers: every other one planted from a valid colouring (one answer
    or more), the rest random numbers (mostly no answer)."""
    rng = random.Random(seed)
    shapes = ((1, 6), (2, 5), (3, 4), (4, 4), (1, 7), (4, 3), (3, 5))
    boards = []
    for i in range(count):
        rows, cols = shapes[i % len(shapes)]
        boards.append(
            planted_board(rng, rows, cols) if i % 2 else random_kuromasu(rng, rows, cols, clue_p=0.4)
        )
    return boards


def planted_board(rng: random.Random, rows: int, cols: int) -> Kuromasu:
    """Numbers on a random valid colouring, each the count its cell sees there."""
    while True:
        black: set[tuple[int, int]] = set()
        for r in range(rows):
            for c in range(cols):
                if rng.random() < 0.3 and (r - 1, c) not in black and (r, c - 1) not in black:
                    black.add((r, c))
        empty = Kuromasu(rows, cols, name="empty")
        if not empty.verify(empty.solution(black)):
            break
    numbers = {}
    for r in range(rows):
        for c in range(cols):
            if (r, c) not in black and rng.random() < 0.4:
                numbers[(r, c)] = 1 + sum(kuromasu_view(empty, frozenset(black), (r, c)))
    return Kuromasu(rows, cols, numbers=numbers, name=f"planted-{rows}x{cols}")


def published(name: str) -> tuple[Kuromasu, frozenset]:
    path = PUZZLES / f"{name}.pzl"
    puzzle = pb.load(str(path))
    return puzzle, frozenset(load_solution(str(path).replace(".pzl", ".solution.pzl"), puzzle).cells)


@pytest.mark.parametrize("views,deduce", COMBINATIONS)
def test_every_views_and_deduce_finds_exactly_the_brute_force_answers(views: str, deduce: str) -> None:
    checked = with_answers = 0
    for puzzle in small_boards(3, 40):
        truth = all_solutions(puzzle)
        if len(truth) > 40:
            continue
        found, exhausted = answers(puzzle, views=views, deduce=deduce)
        assert exhausted and found == truth, puzzle.name
        checked += 1
        with_answers += bool(truth)
    assert checked >= 30 and with_answers >= 5


@pytest.mark.parametrize("probe", [False, True])
def test_settled_cells_have_their_colour_in_every_brute_force_answer(probe: bool) -> None:
    settled = 0
    for puzzle in small_boards(5, 120):
        truth = all_solutions(puzzle)
        views = _Views(puzzle, probe=probe)
        if views.contradiction is not None:  # a contradiction is claimed only where no answer exists
            assert not truth, (puzzle.name, views.contradiction)
            continue
        for cell, black in views.colour.items():
            assert all((cell in answer) == black for answer in truth), (puzzle.name, cell)
        settled += len(views.colour) - len(puzzle.clue_cells)
        for clue in puzzle.numbers:  # every answer's view of a number is among the kept ones
            for answer in truth:
                assert kuromasu_view(puzzle, answer, clue) in views.views(clue), (puzzle.name, clue)
    assert settled > 0


@pytest.mark.parametrize("deduce", DEDUCE)
def test_without_connectivity_the_deductions_keep_every_answer_of_the_relaxed_rules(deduce: str) -> None:
    # The 1 in the corner blackens both neighbours and walls (1, 1) in: only connectivity forbids it.
    puzzle = Kuromasu(2, 2, numbers={(0, 0): 1}, name="cut-corner")
    assert answers(puzzle, deduce=deduce) == (set(), True)
    # the relaxation gets the bare puzzle (the stage's deductions use every rule), and the
    # encoding's own views drop the connectivity rule with it
    result = pb.solve(puzzle, "mip", count=0, timeout=60, connectivity="none")
    assert result.deduce == "none"
    assert {frozenset(s.cells) for s in result.solutions} == {
        frozenset({(0, 1), (1, 0)})
    } and result.exhausted
    # a deduction named explicitly uses every rule, the connectivity rule too: no answer is left
    if deduce != "none":
        named = pb.solve(puzzle, "mip", count=0, timeout=60, connectivity="none", deduce=deduce)
        assert named.deduce == deduce and not named.solutions and named.exhausted


def test_a_number_that_cannot_be_satisfied_is_a_contradiction_before_solving() -> None:
    # Two 1s side by side: each sees the other, so each sees 2.
    puzzle = Kuromasu(1, 2, numbers={(0, 0): 1, (0, 1): 1}, name="two-ones")
    assert all_solutions(puzzle) == set()
    model = SPEC.build(puzzle, SPEC.resolve({"views": "tuples"}))  # the encoding's own views
    assert model.contradiction is not None
    result = pb.solve(puzzle, "mip", count=0, timeout=60, views="tuples", deduce="views")
    assert result.status is pb.Status.UNSAT and result.exhausted and result.extra["contradiction"]
    assert answers(puzzle, views="tuples", deduce="none") == (set(), True)


def test_tuples_give_one_binary_per_kept_view() -> None:
    puzzle = Kuromasu(3, 3, numbers={(1, 1): 3}, name="centre-3")
    views = _Views(puzzle)
    kept = views.views((1, 1))
    # (up, down, left, right) adding up to 2, each at most 1: the six pairs of rays
    assert sorted(kept) == sorted(
        v for v in {(1, 1, 0, 0), (1, 0, 1, 0), (1, 0, 0, 1), (0, 1, 1, 0), (0, 1, 0, 1), (0, 0, 1, 1)}
    )
    plain = SPEC.build(puzzle, SPEC.resolve({"views": "sum"}))  # outside a solve: the bare puzzle
    tuples = SPEC.build(puzzle, SPEC.resolve({"views": "tuples"}))
    assert tuples.num_cols == plain.num_cols + len(kept)
    found, exhausted = answers(puzzle, views="tuples")
    assert exhausted and found == all_solutions(puzzle)


@pytest.mark.parametrize("probe", [False, True])
@pytest.mark.parametrize("name", ["kuromasu-010x010-s1", "kuromasu-015x015-s1", "kuromasu-020x020-s3"])
def test_deductions_on_generated_boards_agree_with_the_planted_answer(name: str, probe: bool) -> None:
    puzzle, planted = published(name)
    views = _Views(puzzle, probe=probe)
    assert views.contradiction is None
    assert all((cell in planted) == black for cell, black in views.colour.items())
    assert len(views.colour) > len(puzzle.clue_cells)  # something beyond the clues is settled


@pytest.mark.parametrize("views", ["hull", "tuples"])
@pytest.mark.parametrize("name", ["kuromasu-010x010-s2", "kuromasu-015x015-s3"])
def test_a_generated_board_has_its_planted_answer_and_no_other_with_the_hull(views: str, name: str) -> None:
    puzzle, planted = published(name)
    found, exhausted = answers(puzzle, count=2, views=views, deduce="views")
    assert exhausted and found == {planted}
    found, exhausted = answers(puzzle, count=2, views=views, deduce="none")
    assert exhausted and found == {planted}


def test_probing_settles_a_generated_board_that_propagation_alone_leaves_open() -> None:
    puzzle, planted = published("kuromasu-015x015-s1")
    open_cells = puzzle.rows * puzzle.cols
    assert open_cells - len(_Views(puzzle).colour) > 100
    probed = _Views(puzzle, probe=True)
    assert len(probed.colour) == open_cells  # every cell, each as planted (checked above)
    assert {cell for cell, black in probed.colour.items() if black} == planted
