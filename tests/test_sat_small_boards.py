"""The per-puzzle shortcuts of SAT on small boards: the quick checks over bit sets and the
backend reading and blocking answers straight from the model.

Each is checked against something independent of it: the detailed verifier, and every valid
answer found by brute force over all subsets of cells.
"""

from __future__ import annotations

import random

import pytest

import puzzlebench as pb
from bruteforce import all_solutions
from puzzlebench.model import LightUp, family_spec
from puzzlebench.solvers.pysat_backend import PysatBackend

pytest.importorskip("pysat")

FAMILIES = ["lightup", "kuromasu"]


@pytest.mark.parametrize("name", FAMILIES)
def test_quick_check_agrees_with_the_verifier_on_larger_boards(name):
    """On boards too large for every subset (up to 9 x 11, long rows and columns, so that light
    and the white region run far along both), random answers and answers one cell away from a
    solution get the same yes or no from the quick check as from the detailed verifier."""
    spec = family_spec(name)
    rng = random.Random(2016)
    valid = tried = 0
    for rows, cols in [(1, 9), (9, 1), (4, 7), (7, 4), (6, 6), (9, 11), (11, 9)] * 4:
        puzzle = spec.random_board(rng, rows, cols)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        answers = [frozenset(c for c in cells if rng.random() < p) for p in (0.1, 0.2, 0.3, 0.5)]
        result = pb.solve(puzzle, "sat", count=1, strict=False)
        for solution in result.solutions:
            answers.append(solution.cells)
            answers += [solution.cells ^ {cell} for cell in rng.sample(cells, min(8, len(cells)))]
        for answer in answers:
            found = spec.verify(puzzle, answer)
            assert spec.accepts(puzzle, answer) == (not found), (puzzle, sorted(answer), found)
            tried += 1
            valid += not found
    assert valid >= 3 and tried > 5 * valid


def test_light_does_not_wrap_from_one_row_end_to_the_next():
    """A bulb at the end of a row lights neither the next row's first cell nor a bulb there."""
    spec = family_spec("lightup")
    puzzle = LightUp(2, 2)
    for bulbs, valid in [({(0, 1)}, False), ({(0, 1), (1, 0)}, True), ({(1, 0)}, False)]:
        assert spec.accepts(puzzle, frozenset(bulbs)) is valid
        assert (spec.verify(puzzle, frozenset(bulbs)) == []) is valid


@pytest.mark.parametrize("name", FAMILIES)
def test_every_answer_is_found_once_when_read_and_blocked_from_the_model(name):
    """Enumerating every answer (count=0) on small random boards, with the answers read and
    blocked straight from the model's first n literals, finds exactly the answers brute force
    finds, each once."""
    spec = family_spec(name)
    rng = random.Random(7)
    boards = 0
    for rows, cols in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 3)] * 6:
        puzzle = spec.random_board(rng, rows, cols)
        expected = all_solutions(puzzle)
        result = pb.solve(puzzle, "sat", count=0)
        got = [s.cells for s in result.solutions]
        assert len(got) == len(set(got)) and set(got) == expected, (puzzle, got, expected)
        assert result.exhausted
        boards += bool(expected)
    assert boards >= 5


def test_the_general_path_reads_and_blocks_the_same_answers():
    """With the decision variables not numbered 1..n in order, the backend falls back to its
    per-cell reading and blocking; both paths enumerate the same answers."""
    spec = family_spec("lightup")
    rng = random.Random(11)
    for _ in range(12):
        puzzle = spec.random_board(rng, 3, 3)
        art = pb.registry.get(puzzle.family, "sat", "default").build(puzzle, {"amo": "auto", "card": "auto"})
        cells = list(art.decision)
        if len(cells) < 2:
            continue
        # the same formula with the first two decision variables swapped
        a, b = art.decision[cells[0]], art.decision[cells[1]]
        swap = {a: b, b: a, -a: -b, -b: -a}
        swapped = type(art)(
            pool=art.pool,
            decision={**art.decision, cells[0]: b, cells[1]: a},
            clauses=[tuple(swap.get(x, x) for x in clause) for clause in art.clauses],
        )
        found = []
        for artifact in (art, swapped):
            backend = PysatBackend({}, {"solver": "minisat22"})
            backend.build(artifact, None)
            answers = []
            while backend.check(None):
                answers.append(backend.marked())
                backend.block(answers[-1], list(artifact.decision))
            backend.close()
            found.append(sorted(map(sorted, answers)))
        assert found[0] == found[1] == sorted(map(sorted, all_solutions(puzzle)))
