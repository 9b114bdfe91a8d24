"""MIP Kuromasu's ``visibility`` option: the shared stretch chains against brute force, the
verifier and the rays' own chains, on boards whose numbers look through one another."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("highspy", reason="highspy is not installed (pip install highspy)")

import puzzlebench as pb
from bruteforce import all_solutions
from puzzlebench.encodings.mip import ENCODINGS
from puzzlebench.encodings.mip.kuromasu import VISIBILITY
from puzzlebench.formats import load_solution
from puzzlebench.model import Family, Kuromasu
from puzzlebench.model.kuromasu import random_kuromasu

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "gen-kuromasu"
SPEC = next(s for s in ENCODINGS if s.family == Family.KUROMASU and s.name == "default")


def answers(puzzle: Kuromasu, visibility: str, count: int = 0) -> tuple[set[frozenset], bool]:
    result = pb.solve(puzzle, "mip", count=count, timeout=60, visibility=visibility)
    for solution in result.solutions:  # the independent verifier, not the solver's say-so
        assert not puzzle.verify(solution), (puzzle.name, solution)
    return {frozenset(s.cells) for s in result.solutions}, result.exhausted


def dense_boards() -> list[Kuromasu]:
    """Small boards with many numbers, so that rays run through numbered cells and two numbers
    face each other across the same run (each ray then mixes shared chains and AND rows)."""
    rng = random.Random(7)
    shapes = ((1, 6), (2, 5), (3, 4), (4, 4), (1, 7), (4, 3))
    boards = [random_kuromasu(rng, *shapes[i % len(shapes)], clue_p=0.45) for i in range(24)]
    boards.append(Kuromasu(1, 7, numbers={(0, 0): 4, (0, 3): 5, (0, 6): 3}, name="row-through-numbers"))
    boards.append(Kuromasu(3, 5, numbers={(1, 0): 5, (1, 2): 3, (1, 4): 5, (0, 2): 2}, name="cross"))
    return boards


@pytest.mark.parametrize("visibility", VISIBILITY)
def test_every_visibility_finds_exactly_the_brute_force_answers(visibility: str) -> None:
    checked = 0
    for puzzle in dense_boards():
        truth = all_solutions(puzzle)
        if len(truth) > 40:
            continue
        found, exhausted = answers(puzzle, visibility)
        assert exhausted and found == truth, puzzle.name
        checked += 1
    assert checked >= 15


def test_shared_stretches_give_the_same_answers_as_the_rays_where_brute_force_cannot_go() -> None:
    rng = random.Random(11)
    for _ in range(6):
        puzzle = random_kuromasu(rng, 6, 6, clue_p=0.35)
        rays, rays_done = answers(puzzle, "rays", count=3)
        shared, shared_done = answers(puzzle, "shared", count=3)
        assert rays == shared and rays_done == shared_done, puzzle.name


def test_two_numbers_facing_across_a_run_share_its_whole_stretch() -> None:
    # A 4 and a 4 with two unnumbered cells between them: the rays' chains name "both cells
    # white" once per number, the shared chains once for the pair.
    puzzle = Kuromasu(1, 4, numbers={(0, 0): 4, (0, 3): 4}, name="facing")
    # the chains alone: no views, and (built outside a solve) nothing settled first
    plain = {"views": "sum"}
    rays = SPEC.build(puzzle, SPEC.resolve({"visibility": "rays", **plain}))
    shared = SPEC.build(puzzle, SPEC.resolve({"visibility": "shared", **plain}))
    assert shared.num_cols == rays.num_cols - 1
    assert answers(puzzle, "shared") == ({frozenset()}, True)


@pytest.mark.parametrize("name", ["kuromasu-010x010-s2", "kuromasu-015x015-s1"])
def test_a_generated_board_has_its_published_answer_and_no_other_with_shared_stretches(name: str) -> None:
    path = PUZZLES / f"{name}.pzl"
    puzzle = pb.load(str(path))
    published = load_solution(str(path).replace(".pzl", ".solution.pzl"), puzzle)
    found, exhausted = answers(puzzle, "shared", count=2)
    assert exhausted and found == {frozenset(published.cells)}
