"""Kuromasu's probing of whole views (the deduction stage's default ``probe``,
``Views(whole_views=...)``): each
number's views probed one by one, only the lengths of the surviving views kept and the cells every
surviving view settles alike fixed. Checked against brute force, the verifier and the planted
answers of generated boards."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("highspy", reason="highspy is not installed (pip install highspy)")

import puzzlebench as pb
from bruteforce import kuromasu_view
from puzzlebench.deduce import default_deduction
from puzzlebench.encodings.mip.kuromasu_probe import OPEN, Views, _views_of
from puzzlebench.model import Kuromasu
from puzzlebench.model.kuromasu import random_kuromasu
from test_mip_kuromasu_probe import published, relaxed_answers
from test_mip_kuromasu_tuples import small_boards


def test_the_views_of_a_number_are_its_lengths_adding_up() -> None:
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(1, 10)
        masks = [rng.randint(1, (2 << min(n - 1, 6)) - 1) for _ in range(4)]
        every = [
            (a, b, c, d)
            for a in range(8)
            for b in range(8)
            for c in range(8)
            for d in range(8)
            if a + b + c + d == n - 1 and all(m >> k & 1 for m, k in zip(masks, (a, b, c, d)))
        ]
        assert _views_of(n, masks, 10_000) == every
        assert _views_of(n, masks, len(every)) == every
        if every:  # past the limit: None
            assert _views_of(n, masks, len(every) - 1) is None


@pytest.mark.parametrize("whole_views", [0, 1_000])
@pytest.mark.parametrize("connected", [True, False])
def test_probing_settles_only_what_every_brute_force_answer_agrees_on(
    connected: bool, whole_views: int
) -> None:
    # whole_views=0 probes cells and ray lengths only; 1,000 also each number's whole views
    rng = random.Random((41 if whole_views else 23) + connected)
    settled = contradictions = 0
    for _ in range(150):
        rows, cols = rng.choice(((3, 3), (3, 4), (4, 4), (2, 6), (2, 8)))
        puzzle = random_kuromasu(rng, rows, cols, clue_p=rng.choice((0.15, 0.3)))
        truth = relaxed_answers(puzzle)
        if connected:  # the whole rulebook: the independent verifier keeps the joined ones
            truth = {black for black in truth if not puzzle.verify(puzzle.solution(black))}
        views = Views(puzzle, probe=True, connected=connected, whole_views=whole_views)
        if views.contradiction is not None:  # claimed only where no answer exists
            assert not truth, puzzle
            contradictions += 1
            continue
        for cell, black in views.colour.items():
            assert all((cell in answer) == black for answer in truth), (puzzle, cell)
        for clue in puzzle.numbers:  # every answer's view of a number is among the kept ones
            for answer in truth:
                assert kuromasu_view(puzzle, answer, clue) in views.views(clue), (puzzle, clue)
        settled += len(views.colour) - len(puzzle.clue_cells)
    assert settled > 50 and contradictions > 5


def test_view_probing_keeps_every_answer_of_planted_boards() -> None:
    # Boards with answers (planted from valid colourings): the views and cells of every answer
    # survive, and view probing settles at least what cell and length probing settles.
    from bruteforce import all_solutions

    checked = 0
    for puzzle in small_boards(9, 60)[1::2]:
        truth = all_solutions(puzzle)
        plain = Views(puzzle, probe=True)
        deep = Views(puzzle, probe=True, whole_views=1_000)
        assert truth and deep.contradiction is None, puzzle.name
        assert plain.colour.items() <= deep.colour.items(), puzzle.name
        for cell, black in deep.colour.items():
            assert all((cell in answer) == black for answer in truth), (puzzle.name, cell)
        for clue in puzzle.numbers:
            for answer in truth:
                assert kuromasu_view(puzzle, answer, clue) in deep.views(clue), (puzzle.name, clue)
        checked += 1
    assert checked >= 25


def test_view_probing_settles_the_board_that_cell_probing_leaves_open() -> None:
    # gen 30x30 s3: probing cells and lengths leaves about 600 cells open; probing whole views
    # settles every cell, to the planted answer.
    puzzle, planted = published("kuromasu-030x030-s3")
    plain = Views(puzzle, probe=True)
    assert sum(v == OPEN for v in plain.col) > 500
    deep = Views(puzzle, probe=True, whole_views=50)
    assert deep.contradiction is None
    assert len(deep.colour) == puzzle.rows * puzzle.cols
    assert {cell for cell, black in deep.colour.items() if black} == planted


@pytest.mark.parametrize("name", ["kuromasu-015x015-s1", "kuromasu-020x020-s1"])
def test_view_probing_reaches_a_fixpoint(name: str) -> None:
    # A generated board without a third of its numbers (many answers, hundreds of cells left
    # open). View probes are re-run when what they read changes: afterwards every kept length of
    # a number with at most the limit of views belongs to some view that survives its probe.
    full, planted = published(name)
    numbers = {cell: n for j, (cell, n) in enumerate(sorted(full.numbers.items())) if j % 3}
    puzzle = Kuromasu(full.rows, full.cols, numbers=numbers, name=f"{name}-thinned")
    views = Views(puzzle, probe=True, whole_views=50)
    assert views.contradiction is None and sum(v == OPEN for v in views.col) > 100
    assert all((cell in planted) == black for cell, black in views.colour.items())
    probed = 0
    for q, clue in enumerate(views.clues):
        every = views.views(clue)
        if len(every) > 50:
            continue
        surviving = [view for view in every if views._try(lambda: views._assume_view(q, view))[0]]  # noqa: B023  (called within this iteration)
        assert [{view[i] for view in surviving} for i in range(4)] == [set(k) for k in views.lengths[clue]], (
            clue
        )
        probed += len(every) > 1
    assert probed >= 10


def test_the_default_proves_a_50x50_board_with_its_planted_answer() -> None:
    assert default_deduction("kuromasu") == "probe"
    puzzle, planted = published("kuromasu-050x050-s3")
    result = pb.solve(puzzle, "mip", count=2, timeout=300)
    assert result.deduce == "probe" and result.settled > 0
    assert result.exhausted and [frozenset(s.cells) for s in result.solutions] == [planted]
    assert not puzzle.verify(result.solutions[0])
