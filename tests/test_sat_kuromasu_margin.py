"""SAT Kuromasu's build on large boards: the cyclic garbage collector paused while the clauses
are made (and its state restored, also when the build fails), and the shared stretches keyed
by integers. Answers are checked against brute force and against generated boards' planted
answers with the verifier (never the solver's own say-so)."""

from __future__ import annotations

import gc
import random

import pytest

import puzzlebench as pb
from bruteforce import assert_enumerates_brute_force, random_kuromasu
from puzzlebench.encodings.sat import kuromasu
from puzzlebench.encodings.sat.common import CnfModel
from puzzlebench.model import Kuromasu
from puzzlebench.registry import get
from puzzlebench.suites import load_suite

pytest.importorskip("pysat")

SPEC = get("kuromasu", "sat")


def _board(rows: int, cols: int) -> Kuromasu:
    return random_kuromasu(random.Random(rows * 100 + cols), rows, cols)


@pytest.fixture
def collector():
    """The collector's state before the test, restored after it."""
    enabled = gc.isenabled()
    yield
    (gc.enable if enabled else gc.disable)()


def test_the_build_pauses_the_collector_from_pause_gc_cells_on(monkeypatch, collector) -> None:
    seen: list[bool] = []
    inner = kuromasu._build
    monkeypatch.setattr(kuromasu, "_build", lambda p, o: seen.append(gc.isenabled()) or inner(p, o))
    puzzle = _board(4, 5)
    options = SPEC.resolve({})
    gc.enable()
    monkeypatch.setattr(kuromasu, "PAUSE_GC_CELLS", 20)
    kuromasu.build_default(puzzle, options)
    assert seen == [False] and gc.isenabled()
    monkeypatch.setattr(kuromasu, "PAUSE_GC_CELLS", 21)  # one more than the board's cells
    kuromasu.build_default(puzzle, options)
    assert seen == [False, True] and gc.isenabled()


def test_the_build_leaves_a_disabled_collector_disabled(monkeypatch, collector) -> None:
    monkeypatch.setattr(kuromasu, "PAUSE_GC_CELLS", 1)
    gc.disable()
    kuromasu.build_default(_board(3, 3), SPEC.resolve({}))
    assert not gc.isenabled()


def test_a_failing_build_turns_the_collector_back_on(monkeypatch, collector) -> None:
    def fail(puzzle, options):
        assert not gc.isenabled()
        raise RuntimeError("build failed")

    monkeypatch.setattr(kuromasu, "PAUSE_GC_CELLS", 1)
    monkeypatch.setattr(kuromasu, "_build", fail)
    gc.enable()
    with pytest.raises(RuntimeError, match="build failed"):
        kuromasu.build_default(_board(3, 3), SPEC.resolve({}))
    assert gc.isenabled()


def test_a_stretch_seen_from_both_ends_is_one_literal() -> None:
    # one row: a number, three cells (variables 1-3), a clue cell, a cell (4), a number
    var = [0, 1, 2, 3, 0, 4, 0]
    cnf = CnfModel(pool=kuromasu.IDPool(start_from=5), decision={})
    stretches = kuromasu._Stretches(var, len(var))
    right, _ = stretches.chain(cnf, 0, 1, 6, 9)  # from the left number, looking right
    left, _ = stretches.chain(cnf, 6, -1, 6, 9)  # from the right number, looking left
    # the left number's ray over cells 1..5 and the right number's over 5..1: the same stretch
    assert right[-1] == left[-1]
    assert len(set(right) | set(left)) == len(set(right)) + len(set(left)) - 1
    # cells 1..3 and 1..2 seen from the left are stretches of their own, named once each
    assert len(stretches.named) == len(set(right) | set(left)) - 2  # less the two single cells


@pytest.mark.parametrize("shape", [(1, 7), (7, 1), (2, 6), (6, 2), (3, 5), (4, 4)])
@pytest.mark.parametrize("card", ["lines", "adder"])
def test_shared_stretches_enumerate_the_brute_force_answers(monkeypatch, shape, card) -> None:
    # cut=cell is a fixed setting (the default's from 2,000 cells on, with shared stretches and
    # lines): set here so that these small boards run the large boards' statement
    assert SPEC.settings["cut"] == "auto"
    monkeypatch.setitem(SPEC.settings, "cut", "cell")
    rng = random.Random(shape[0] * 10 + shape[1])
    for _ in range(6):
        puzzle = random_kuromasu(rng, *shape)
        assert_enumerates_brute_force(puzzle, "sat", visibility="shared", card=card)
        # and the bare puzzle, every answer by the encoding alone
        assert_enumerates_brute_force(puzzle, "sat", visibility="shared", card=card, deduce="none")


def test_the_default_proves_a_paused_build_board_and_finds_the_planted_answer() -> None:
    item = next(i for i in load_suite("gen-kuromasu") if i.puzzle.shape == (50, 50))
    assert item.puzzle.rows * item.puzzle.cols >= kuromasu.PAUSE_GC_CELLS
    result = pb.solve(item.puzzle, "sat", count=2, timeout=120)
    assert result.unique and result.solutions[0] == item.solution
    assert not list(item.puzzle.verify(result.solutions[0]))
