"""The verifier accepts every published janko answer and rejects each one broken by one move."""

from __future__ import annotations

import random

import pytest

from puzzlebench.formats import iter_janko
from puzzlebench.model import Kuromasu, LightUp, Rule, family_spec

DATASETS = ("Akari_dataset.json", "Kuromasu_dataset.json")


@pytest.fixture(scope="module")
def corpus(janko_dir):
    return [entry for name in DATASETS for entry in iter_janko(janko_dir / name)]


def test_corpus_has_all_1530_puzzles_with_published_answers(corpus):
    assert len(corpus) == 1530
    assert sum(isinstance(e.puzzle, LightUp) for e in corpus) == 970
    assert all(e.solution is not None and e.puzzle.name == e.id for e in corpus)


def test_verifier_accepts_every_published_answer(corpus):
    rejected = [(e.id, e.puzzle.verify(e.solution)[:1]) for e in corpus if e.puzzle.verify(e.solution)]
    assert rejected == []


def _moved_bulb(puzzle: LightUp, bulbs: frozenset, rng: random.Random) -> frozenset:
    """One bulb moved to a random other open cell without a bulb."""
    bulb = rng.choice(sorted(bulbs))
    target = rng.choice([c for c in puzzle.open_cells if c not in bulbs])
    return (bulbs - {bulb}) | {target}


def test_moving_one_bulb_breaks_a_named_light_up_rule(corpus):
    rng = random.Random(2024)
    allowed = {Rule.UNLIT_CELL, Rule.BULBS_SEE_EACH_OTHER, Rule.CLUE_COUNT_WRONG}
    for entry in corpus:
        if not isinstance(entry.puzzle, LightUp):
            continue
        broken = _moved_bulb(entry.puzzle, entry.solution.cells, rng)
        violations = entry.puzzle.verify(broken)
        assert violations, entry.id
        assert {v.rule for v in violations} <= allowed
        assert all(v.cells and str(v.cells[0]) in v.message for v in violations)


def test_flipping_one_cell_breaks_a_named_kuromasu_rule(corpus):
    rng = random.Random(2024)
    for entry in corpus:
        if not isinstance(entry.puzzle, Kuromasu):
            continue
        puzzle, black = entry.puzzle, entry.solution.cells
        cell = rng.choice([(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)])
        flipped = black ^ {cell}
        rules = {v.rule for v in puzzle.verify(flipped)}
        assert rules, entry.id
        if cell in black:
            # A black cell turned white lengthens every view through it.
            assert Rule.VISIBLE_COUNT_WRONG in rules or Rule.WHITE_REGION_SPLIT in rules, entry.id
        elif cell in puzzle.numbers:
            assert Rule.BLACK_ON_NUMBER in rules
        else:
            assert rules <= {Rule.ADJACENT_BLACKS, Rule.WHITE_REGION_SPLIT, Rule.VISIBLE_COUNT_WRONG}, (
                entry.id
            )


def test_flipping_a_black_cell_white_is_caught_by_a_count(corpus):
    # Every black cell of a unique Kuromasu answer must be needed by some number's view or else
    # the white region; check the named rule on one black per puzzle.
    rng = random.Random(7)
    for entry in (e for e in corpus if isinstance(e.puzzle, Kuromasu)):
        cell = rng.choice(sorted(entry.solution.cells))
        violations = entry.puzzle.verify(entry.solution.cells - {cell})
        assert violations and any(v.rule is Rule.VISIBLE_COUNT_WRONG for v in violations), entry.id


def test_the_quick_checks_agree_with_the_verifier_on_the_corpus_and_one_move_off_it(corpus):
    """Published answers, and each with one cell flipped, on the real board sizes (up to 100x100
    Akari and 31x45 Kuromasu): the quick yes-or-no of ``FamilySpec.accepts`` matches the walk."""
    rng = random.Random(16)
    for entry in corpus:
        puzzle, cells = entry.puzzle, entry.solution.cells
        spec = family_spec(puzzle)
        flipped = cells ^ {(rng.randrange(puzzle.rows), rng.randrange(puzzle.cols))}
        for answer in (cells, flipped):
            assert spec.accepts(puzzle, answer) == (not spec.verify(puzzle, answer)), entry.id
