"""The probe's closure reads the island rule without reasons: the same cells and conflicts as
with them, and the probe settles the same cells either way."""

from __future__ import annotations

import random
import time

import pytest

from puzzlebench.encodings import nurikabe_deduce
from puzzlebench.encodings.islands import IslandGraph, IslandPlan, island_reasoning
from puzzlebench.encodings.nurikabe_deduce import initial, probe
from puzzlebench.encodings.regions import BLACK, UNKNOWN
from puzzlebench.formats import iter_janko
from test_nurikabe import _reasoning_cases, _small_boards


def _same(graph, state):
    full = island_reasoning(graph, state)
    lean = island_reasoning(graph, state, reasons=False)
    assert (full.conflict is None) == (lean.conflict is None), state
    if full.conflict is None:
        assert sorted(c[0] for c in full.implied) == sorted(c[0] for c in lean.implied), state
        assert all(len(c) == 1 for c in lean.implied)
    return full.conflict is not None, len(full.implied)


def test_lean_island_reasoning_finds_what_the_full_one_finds_on_small_boards():
    rng = random.Random(5)
    conflicts = implied = 0
    for p in _small_boards():
        for state, _ in _reasoning_cases(p, [], rng, 40):
            c, n = _same(IslandGraph.of(p, IslandPlan.of(p)), state)
            conflicts += c
            implied += n
    assert conflicts > 20 and implied > 100


@pytest.fixture(scope="module")
def boards(janko_dir):
    entries = list(iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]))
    return entries[::40]


def test_lean_island_reasoning_finds_what_the_full_one_finds_on_corpus_boards(boards):
    rng = random.Random(6)
    conflicts = implied = 0
    for e in boards:
        answers = [e.solution.cells]
        for state, _ in _reasoning_cases(e.puzzle, answers, rng, 6):
            c, n = _same(IslandGraph.of(e.puzzle, IslandPlan.of(e.puzzle)), state)
            conflicts += c
            implied += n
    assert conflicts > 5 and implied > 200


def _probed(p, full: bool, monkeypatch) -> list[int]:
    if full:  # the closure with the reasons built, as before the lean reading
        monkeypatch.setattr(
            nurikabe_deduce, "island_reasoning", lambda g, state, reasons=True: island_reasoning(g, state)
        )
    else:
        monkeypatch.setattr(nurikabe_deduce, "island_reasoning", island_reasoning)
    board, state = initial(p, IslandPlan.of(p))
    assert probe(board, state, time.process_time() + 600, stop="budget")
    return state


def test_the_probe_settles_the_same_cells_with_the_lean_reading(boards, monkeypatch):
    settled = 0
    for e in [e for e in boards if e.puzzle.rows * e.puzzle.cols <= 150][:8]:
        lean = _probed(e.puzzle, False, monkeypatch)
        assert lean == _probed(e.puzzle, True, monkeypatch), e.id
        cols = e.puzzle.cols
        # every settled cell agrees with the published answer
        assert all(
            (s == BLACK) == ((i // cols, i % cols) in e.solution.cells)
            for i, s in enumerate(lean)
            if s != UNKNOWN
        ), e.id
        settled += sum(s != UNKNOWN for s in lean)
    assert settled > 300
