"""Nurikabe: the separator cuts of the wall rule (cuts=separator) and the wall's span, checked
against brute force on small boards and against the published answers (never against the
solver's own say-so). (SAT's cuts=separator and wall_span, and ASP's wall preference, are no
longer reachable: fixed settings, docs/decisions/2026-12-05-deduction-stage.md.)"""

from __future__ import annotations

import random

import pytest

from bruteforce import all_solutions
from puzzlebench.encodings.islands import separator_cuts
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe, family_spec

DATASET = "Nurikabe_dataset.json"


def _boards() -> list[Nurikabe]:
    rng = random.Random(7)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (4, 4), (3, 5), (4, 3)] * 3]
    # a 1 whose wall rings it, and two clues that leave a narrow neck of wall between them
    return boards + [
        Nurikabe(3, 3, numbers={(1, 1): 1}),
        Nurikabe(3, 5, numbers={(0, 2): 2, (2, 2): 1}),
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0)})),
    ]


def _holds(clause, wall) -> bool:
    return any((cell in wall) == marked for cell, marked in clause)


def _random_walls(p: Nurikabe, rng: random.Random, n: int) -> list[frozenset]:
    free = [(r, c) for r in range(p.rows) for c in range(p.cols) if (r, c) not in p.clue_cells]
    return [
        frozenset(cell for cell in free if rng.random() < share)
        for share in (0.3, 0.5, 0.7)
        for _ in range(n)
    ]


@pytest.mark.parametrize("radius", [1, 2, 3])
def test_separator_cuts_hold_for_every_brute_forced_answer(radius):
    # each cut is a statement about every answer, whatever candidate it came from: check the cuts
    # of many random candidates (split walls) against every answer
    rng = random.Random(radius)
    checked = 0
    for p in _boards():
        answers = all_solutions(p)
        anchors = [None] + sorted(frozenset.intersection(*answers)) if answers else [None]
        for marked in _random_walls(p, rng, 20):
            for anchor in anchors[:2]:
                marked = marked | {anchor} if anchor else marked  # the anchor is wall in every candidate
                for cut in separator_cuts(p.rows, p.cols, p.clue_cells, marked, anchor, radius):
                    checked += 1
                    assert not _holds(cut, marked), (
                        p.to_text(),
                        sorted(marked),
                        cut,
                    )  # it cuts the candidate
                    assert all(_holds(cut, wall) for wall in answers), (p.to_text(), sorted(marked), cut)
    assert checked >= 200


def test_separator_is_smaller_than_the_fence_at_a_neck():
    # wall part {(0,0),(1,0)}: its fence is (0,1), (1,1), (2,0); (0,1) leads on only through
    # (1,1) (the clue (0,2) closes the row), so (1,1) and (2,0) separate the part from (0,4)
    marked = frozenset({(0, 0), (1, 0), (0, 4), (1, 4), (2, 4)})
    cuts = separator_cuts(3, 5, frozenset({(0, 2)}), marked, (0, 4))
    assert cuts == [
        [((1, 1), True), ((2, 0), True), ((0, 0), False), ((0, 4), False)],
        [((1, 1), True), ((2, 0), True), ((1, 0), False), ((0, 4), False)],
    ]
    assert separator_cuts(3, 5, frozenset({(0, 2)}), frozenset({(0, 0), (1, 0), (2, 0)}), None) == []


def test_separator_cuts_hold_for_published_answers(janko_dir):
    rng = random.Random(3)
    corpus = list(iter_janko(janko_dir / DATASET, malformed=[]))
    checked = 0
    for e in corpus[::40]:
        p, wall = e.puzzle, e.solution.cells
        for marked in _random_walls(p, rng, 1):
            for cut in separator_cuts(p.rows, p.cols, p.clue_cells, marked, None):
                checked += 1
                assert _holds(cut, wall), (e.id, cut)
    assert checked >= 100


def _span_holds(p: Nurikabe, wall) -> bool:
    """The wall meets consecutive rows and columns, at most the bound of them together."""
    from puzzlebench.encodings.islands import IslandPlan, wall_lines

    rows, cols, most = wall_lines(p, IslandPlan.of(p))
    met = 0
    for lines in (rows, cols):
        hit = [k for k, line in enumerate(lines) if any(c in wall for c in line)]
        if hit and hit != list(range(hit[0], hit[-1] + 1)):
            return False
        met += len(hit)
    return met <= most


def test_wall_span_holds_for_every_brute_forced_and_published_answer(janko_dir):
    tight = 0
    # walls of a straight line or a staircase meet exactly the bound
    for p in _boards() + [
        Nurikabe(2, 2, numbers={(0, 0): 2}),
        Nurikabe(3, 3, numbers={(0, 0): 5}),
        Nurikabe(2, 4, numbers={(0, 0): 4}),
    ]:
        from puzzlebench.encodings.islands import IslandPlan, wall_lines

        most = wall_lines(p, IslandPlan.of(p))[2]
        for wall in all_solutions(p):
            assert _span_holds(p, wall), (p.to_text(), sorted(wall))
            tight += len({r for r, _ in wall}) + len({c for _, c in wall}) == most
    assert tight >= 2  # the bound is met exactly by some answers
    for e in list(iter_janko(janko_dir / DATASET, malformed=[]))[::10]:
        assert _span_holds(e.puzzle, e.solution.cells), e.id
