"""Nurikabe: the enclosure of diagonal clues (``IslandPlan``, ``enclosure_boxes``) and the wall's
adjacency budget (``wall_adjacency``), checked against brute force on small boards, an
enumeration of polyominoes and the published answers (never against the solver's own say-so)."""

from __future__ import annotations

import random

import pytest

from bruteforce import all_solutions, plan_holds, planted_nurikabe
from puzzlebench.encodings.islands import (
    IslandPlan,
    diagonal_clues,
    enclosure_boxes,
    most_adjacencies,
    wall_adjacency,
)
from puzzlebench.encodings.regions import white_regions
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe

DATASET = "Nurikabe_dataset.json"


@pytest.fixture(scope="module")
def corpus(janko_dir):
    return list(iter_janko(janko_dir / DATASET, malformed=[]))


def _diagonal_boards(count: int, seed: int) -> list[Nurikabe]:
    """Small boards (at most 12 cells to brute-force) with an answer planted, kept when two clues
    touch diagonally."""
    return planted_nurikabe(
        seed, count, [(4, 4), (3, 4), (4, 3), (3, 5), (5, 3)], 0.45, 12, keep=diagonal_clues
    )


def _enclosure_holds(p: Nurikabe, wall) -> bool:
    """The theorem behind ``enclosure_boxes``: of two diagonal clues, one island touches no border
    cell and its bounding box h x w has 2(h + w) + 3 <= the wall's cells."""
    island_of = {}
    for island in white_regions(p.rows, p.cols, wall):
        for cell in island:
            island_of[cell] = island
    for a, b in diagonal_clues(p):
        ok = False
        for clue in (a, b):
            rows = [r for r, _ in island_of[clue]]
            cols = [c for _, c in island_of[clue]]
            inner = min(rows) > 0 and max(rows) < p.rows - 1 and min(cols) > 0 and max(cols) < p.cols - 1
            h, w = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
            ok |= inner and 2 * (h + w) + 3 <= len(wall)
        if not ok:
            return False
    return True


def test_the_enclosure_theorem_holds_for_every_brute_forced_answer():
    answered = 0
    for p in _diagonal_boards(60, 7):
        answers = all_solutions(p)
        answered += bool(answers)
        for wall in answers:
            assert _enclosure_holds(p, wall), p.to_text()
    assert answered >= 8


def test_the_enclosure_theorem_holds_for_the_published_answers(corpus):
    pairs = 0
    for e in corpus:
        pairs += bool(diagonal_clues(e.puzzle))
        assert _enclosure_holds(e.puzzle, e.solution.cells), e.id
    assert pairs >= 100


def test_the_enclosure_theorem_is_tight():
    # the 1 at (1, 1) is enclosed (the 1 at (0, 0) is on the border) by exactly the 7 wall cells
    # the bound asks for (h = w = 1: 2(1 + 1) + 3), the clue at (0, 0) closing the ring
    p = Nurikabe(4, 4, numbers={(0, 0): 1, (1, 1): 1, (3, 3): 7})
    answers = all_solutions(p)
    assert answers and all(_enclosure_holds(p, wall) for wall in answers)
    assert {len(wall) for wall in answers} == {2 * (1 + 1) + 3}
    # with one wall cell fewer (the 7 an 8) no box fits, and neither 1 can be enclosed: no answer
    assert enclosure_boxes(4, 4, (1, 1), 1, 6) == []
    assert not all_solutions(Nurikabe(4, 4, numbers={(0, 0): 1, (1, 1): 1, (3, 3): 8}))


def test_enclosure_boxes_lie_inside_the_border_and_fit_the_wall():
    boxes = enclosure_boxes(10, 10, (2, 2), 36, 27)
    assert boxes == [(1, 1, 6, 6), (1, 2, 6, 7), (2, 1, 7, 6), (2, 2, 7, 7)]  # 6x6: 2(6 + 6) + 3 = 27
    assert enclosure_boxes(10, 10, (1, 1), 37, 27) == []  # 37 cells need h + w >= 13: 29 wall cells
    assert enclosure_boxes(10, 10, (0, 4), 1, 100) == []  # a border cell is never enclosed
    for r0, c0, r1, c1 in enclosure_boxes(8, 9, (3, 4), 5, 30):
        assert 1 <= r0 <= 3 <= r1 <= 6 and 1 <= c0 <= 4 <= c1 <= 7
        assert 2 * (r1 - r0 + 1 + c1 - c0 + 1) + 3 <= 30 and (r1 - r0 + 1) * (c1 - c0 + 1) >= 5


def test_the_enclosure_plan_holds_for_every_brute_forced_answer():
    changed = 0
    for p in _diagonal_boards(60, 7) + _diagonal_boards(60, 11):
        plan = IslandPlan.of(p)
        answers = all_solutions(p)
        if plan != IslandPlan.of(p, enclosure=False) and answers:
            changed += 1
        for wall in answers:
            assert plan_holds(p, plan, wall), p.to_text()
    assert changed >= 5


def test_the_enclosure_plan_holds_for_the_published_answers(corpus):
    changed = 0
    for e in corpus:
        plan = IslandPlan.of(e.puzzle)
        changed += len(plan.wall) > len(IslandPlan.of(e.puzzle, enclosure=False).wall)
        assert plan_holds(e.puzzle, plan, e.solution.cells), e.id
    assert changed >= 100


def test_the_enclosure_settles_29_10x10(corpus):
    # the 37 and the 36 touch diagonally; 37 cells cannot be enclosed by 27 wall cells, so the 36
    # is, in a 6x6 box: its whole island is known before solving
    e = next(e for e in corpus if e.id == "29_10x10")
    plan = IslandPlan.of(e.puzzle)
    clue = next(c for c, n in e.puzzle.numbers.items() if n == 36)
    assert len(plan.reach[clue]) == 36
    assert not set(plan.reach[clue]) & e.solution.cells
    assert len(IslandPlan.of(e.puzzle, enclosure=False).reach[clue]) > 36


# -- the wall's adjacency budget ---------------------------------------------------------------------


def _polyominoes(n: int) -> set[frozenset]:
    """Every polyomino of n cells (up to translation), grown cell by cell."""
    shapes = {frozenset({(0, 0)})}
    for _ in range(n - 1):
        grown = set()
        for shape in shapes:
            for r, c in shape:
                for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if nb not in shape:
                        new = shape | {nb}
                        r0, c0 = min(x for x, _ in new), min(y for _, y in new)
                        grown.add(frozenset((x - r0, y - c0) for x, y in new))
        shapes = grown
    return shapes


def _adjacent_pairs(cells) -> int:
    return sum((r, c + 1) in cells for r, c in cells) + sum((r + 1, c) in cells for r, c in cells)


def test_most_adjacencies_is_the_best_polyomino():
    for n in range(1, 10):
        assert most_adjacencies(n) == max(_adjacent_pairs(s) for s in _polyominoes(n)), n


def _wall_sides(p: Nurikabe, wall) -> tuple[int, int]:
    """(wall-wall side-adjacent pairs, the wall cells' sides on the border)."""
    border = sum((r in (0, p.rows - 1)) + (c in (0, p.cols - 1)) for r, c in wall)
    return _adjacent_pairs(set(wall)), border


def test_wall_adjacency_holds_for_every_brute_forced_answer():
    from puzzlebench.model import family_spec

    rng = random.Random(5)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (2, 5), (2, 6)] * 6]
    boards += _diagonal_boards(60, 7)
    tight = checked = 0
    for p in boards:
        bounds = wall_adjacency(p)
        if bounds is None:
            continue
        fewest, most = bounds
        for wall in all_solutions(p):
            pairs, border = _wall_sides(p, wall)
            assert fewest <= pairs and pairs + border <= most, p.to_text()
            tight += pairs + border == most
            checked += 1
    assert checked >= 30 and tight >= 5  # the bound is met exactly by some answers


def test_wall_adjacency_holds_for_the_published_answers(corpus):
    tight = 0
    for e in corpus:
        bounds = wall_adjacency(e.puzzle)
        if bounds is None:
            continue
        pairs, border = _wall_sides(e.puzzle, e.solution.cells)
        assert bounds[0] <= pairs and pairs + border <= bounds[1], e.id
        tight += pairs + border == bounds[1]
    assert tight >= 1  # 753_10x10: four perimeter-optimal islands
