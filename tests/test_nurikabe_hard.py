"""Nurikabe: the redundant statements added for the corpus's hardest puzzles, checked against brute
force on small boards and against the published answers (never against the solver's own say-so)."""

from __future__ import annotations

import random

import pytest

from bruteforce import all_solutions
from puzzlebench.encodings.islands import IslandPlan, small_wall_parts, wall_size
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe, family_spec

DATASET = "Nurikabe_dataset.json"


def _boards() -> list[Nurikabe]:
    rng = random.Random(2024)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (4, 4), (3, 5), (2, 4)] * 3]
    # a lone 1 (a wall of eight cells around it), a wall of exactly two cells, and '?' islands
    return boards + [
        Nurikabe(3, 3, numbers={(1, 1): 1}),
        Nurikabe(2, 2, numbers={(0, 0): 2}),
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})),
        Nurikabe(3, 3, unknown=frozenset({(0, 0), (2, 2)})),
    ]


@pytest.fixture(scope="module")
def corpus(janko_dir):
    return list(iter_janko(janko_dir / DATASET, malformed=[]))


def _holds(parts, wall) -> bool:
    """Every listed part that is all wall has a wall cell in its fence."""
    return all(any(f in wall for f in fence) for part, fence in parts if all(c in wall for c in part))


@pytest.mark.parametrize("most", [1, 2, 3])
def test_small_wall_parts_hold_for_every_brute_forced_answer(most):
    stated = 0
    for p in _boards():
        plan = IslandPlan.of(p)
        parts = small_wall_parts(p, plan, most)
        stated += bool(parts)
        # listed only when every answer's wall has more cells than the parts
        assert not parts or wall_size(p, plan)[0] > most
        for wall in all_solutions(p):
            assert _holds(parts, wall), (p.to_text(), most)
    assert stated >= 5


def test_small_wall_parts_are_the_connected_sets_and_their_fences():
    p = Nurikabe(3, 3, numbers={(1, 1): 1})  # the wall is the 8 cells around the 1
    parts = small_wall_parts(p, IslandPlan.of(p), 2)
    assert len(parts) == 8 + 8  # 8 single cells, 8 adjacent pairs on the ring
    fences = {tuple(part): fence for part, fence in parts}
    assert fences[((0, 0),)] == [(0, 1), (1, 0)]  # the clue is never in a fence
    assert fences[((0, 0), (0, 1))] == [(0, 2), (1, 0)]
    # a wall of two cells: a pair may be the whole wall, so pairs are not listed
    two = Nurikabe(2, 2, numbers={(0, 0): 2})
    assert small_wall_parts(two, IslandPlan.of(two), 1) and not small_wall_parts(two, IslandPlan.of(two), 2)


def test_small_wall_parts_hold_for_published_answers(corpus):
    for e in corpus[::20]:
        parts = small_wall_parts(e.puzzle, IslandPlan.of(e.puzzle), 2)
        assert parts and _holds(parts, e.solution.cells), e.id


def _plan_holds(p: Nurikabe, plan: IslandPlan, wall) -> bool:
    from puzzlebench.encodings.regions import white_regions

    if not plan.wall <= wall:
        return False
    for island in white_regions(p.rows, p.cols, wall):
        clue = next(c for c in island if c in p.clue_cells)
        if not set(island) <= set(plan.reach[clue]) or len(island) > plan.bound[clue]:
            return False
    return True


def test_forced_islands_add_walls_that_hold_for_every_brute_forced_answer():
    rng = random.Random(99)
    make = family_spec("nurikabe").random_board
    boards = _boards() + [make(rng, *shape) for shape in [(4, 4), (3, 5), (4, 3)] * 6]
    forced = 0
    for p in boards:
        plan = IslandPlan.of(p)
        # a number whose cells are all its island's: its neighbours beyond them are wall
        forced += any(len(plan.reach[c]) == n > 1 for c, n in p.numbers.items())
        for wall in all_solutions(p):
            assert _plan_holds(p, plan, wall), p.to_text()
    assert forced >= 5


def test_a_forced_island_walls_its_neighbours_and_shrinks_the_others():
    # the 2 in the corner reaches (0,1) only ((1,0) touches the 3): its island is forced, so
    # (0,2) and (1,1) are wall, and the 3 can no longer reach (1,1): it is left (2,1), (2,2)
    p = Nurikabe(3, 4, numbers={(0, 0): 2, (2, 0): 3, (0, 3): 1})
    plan = IslandPlan.of(p)
    assert set(plan.reach[(0, 0)]) == {(0, 0), (0, 1)}
    assert set(plan.reach[(2, 0)]) == {(2, 0), (2, 1), (2, 2)}
    assert {(1, 0), (0, 2), (1, 1), (1, 2), (2, 3)} <= plan.wall
    answers = all_solutions(p)
    assert len(answers) == 1 and all(_plan_holds(p, plan, wall) for wall in answers)


def test_forced_islands_hold_for_the_published_answers(corpus):
    for e in corpus:
        assert _plan_holds(e.puzzle, IslandPlan.of(e.puzzle), e.solution.cells), e.id
