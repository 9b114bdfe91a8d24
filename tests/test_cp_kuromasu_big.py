"""CP-SAT Kuromasu's large-board statement: clausal visibility (``adder``, ``shared``, with
CP-SAT's presolve off), the walled-in plus cuts (the ``cut`` setting, ``plus`` from 2,000 cells
on: reached on small boards through :func:`_setting`), checked against brute force on small
boards and against the planted answers of generated boards (never the solver's own say-so)."""

from __future__ import annotations

import random

import pytest

import puzzlebench as pb
from bruteforce import all_solutions, random_kuromasu
from conftest import fix_settings
from puzzlebench import registry
from puzzlebench.model import Kuromasu, KuromasuSolution
from puzzlebench.suites import load_suite

pytest.importorskip("ortools")

#: (options, fixed settings): each statement the default makes on some board size
VARIANTS = [
    ({"visibility": "adder"}, {}),
    ({"visibility": "shared"}, {"cut": "plus"}),
    ({"visibility": "distance"}, {"cut": "plus"}),
]


def _setting(monkeypatch, **values) -> None:
    """The CP Kuromasu default's fixed settings at ``values`` for this test (``cut=plus`` is the
    default's from 2,000 cells on), on boards brute force can check."""
    fix_settings(monkeypatch, "kuromasu", "cp", **values)


def _answers(puzzle: Kuromasu, **options) -> set[frozenset]:
    result = pb.solve(puzzle, "cp", count=0, timeout=60, **options)
    assert result.exhausted
    return {frozenset(answer.cells) for answer in result.solutions}


@pytest.mark.parametrize(
    "options,settings",
    VARIANTS,
    ids=[",".join(f"{k}={v}" for k, v in {**o, **s}.items()) for o, s in VARIANTS],
)
def test_every_answer_of_small_boards_matches_brute_force(monkeypatch, options, settings):
    _setting(monkeypatch, **settings)
    rng = random.Random(16)
    boards = [random_kuromasu(rng, rows, cols) for rows, cols in [(3, 4), (4, 4), (3, 5), (4, 4), (2, 6)] * 2]
    for puzzle in boards:
        assert _answers(puzzle, **options) == all_solutions(puzzle), puzzle


def test_diamond_cut_keeps_a_fence_with_nothing_beyond_it(monkeypatch):
    # 3x3, centre 5: every corner may be black (16 answers). The corners are the plus's whole
    # fence with no cell beyond, so a cut "some corner is white" would lose the all-black one.
    puzzle = Kuromasu(3, 3, numbers={(1, 1): 5})
    expected = all_solutions(puzzle)
    assert len(expected) == 16
    _setting(monkeypatch, cut="plus")
    assert _answers(puzzle) == expected
    assert _answers(puzzle, deduce="none") == expected


def test_walled_in_plus_is_cut_and_no_answer_lost(monkeypatch):
    # 5x5, centre 5 (it sees exactly its plus when the ring two cells out is black): without
    # the connectivity rule some answers wall that plus in; with cut=plus none does, and the
    # answers are the SAT paradigm's (another solver, another statement).
    puzzle = Kuromasu(5, 5, numbers={(2, 2): 5, (0, 0): 3, (4, 4): 3})
    fence = frozenset({(0, 2), (1, 1), (1, 3), (2, 0), (2, 4), (3, 1), (3, 3), (4, 2)})
    _setting(monkeypatch, cut="plus")
    relaxed = _answers(puzzle, connectivity="none")
    assert any(fence <= answer for answer in relaxed)
    kept = _answers(puzzle)
    assert kept == _answers(puzzle, deduce="none")
    assert kept and not any(fence <= answer for answer in kept)
    sat = pb.solve(puzzle, "sat", count=0, timeout=60)
    assert sat.exhausted and kept == {frozenset(answer.cells) for answer in sat.solutions}
    assert all(puzzle.verify(KuromasuSolution(answer)) == [] for answer in kept)


@pytest.mark.parametrize("side", [50])
def test_generated_boards_are_proven_unique_with_the_planted_answer(side):
    items = [item for item in load_suite("gen-kuromasu") if item.puzzle.shape == (side, side)]
    assert items
    for item in items:
        result = pb.solve(item.puzzle, "cp", count=2, timeout=120)
        assert result.unique and result.exhausted
        assert result.solutions[0] == item.solution
        assert item.puzzle.verify(KuromasuSolution(result.solutions[0])) == []


def test_auto_states_large_boards_by_clauses_and_small_ones_as_before():
    from puzzlebench.encodings.cp.kuromasu import AUTO_CELLS

    spec = registry.get("kuromasu", "cp")
    small = Kuromasu(10, 10, numbers={(0, 0): 4, (5, 5): 7})
    large = Kuromasu(50, 50, numbers={(0, 0): 4, (25, 25): 7})
    assert small.rows * small.cols < AUTO_CELLS <= large.rows * large.cols
    as_before = spec.build(
        small, {**spec.resolve({"visibility": "distance"}), "cut": "cell", "cp_presolve": "on"}
    )
    for puzzle, clausal in ((small, False), (large, True)):
        artifact = spec.build(puzzle, spec.resolve({}))
        assert artifact.parameters.get("cp_model_presolve", True) is not clausal
        # the clausal statement has Booleans only; distance has an integer per ray
        booleans = all(list(v.domain) == [0, 1] for v in artifact.model.proto.variables)
        assert booleans is clausal
    # below the bound the model is the one the janko corpus was measured with
    assert str(spec.build(small, spec.resolve({})).model.proto) == str(as_before.model.proto)
