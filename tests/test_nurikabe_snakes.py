"""Nurikabe's failed-literal probe with ``stop="pass"`` (``nurikabe_deduce.probe``): a pass whose
pace shows it would not end by the deadline is cut short, and whatever it settled so far is kept.
Checked against brute force on small boards (every kept cell holds in every answer; a pass that
ends in time is never cut), never against the solver's own say-so. (SAT's own probe during the
search, ``probe_stop``, is no longer reachable: the probe is the deduction stage's,
docs/decisions/2026-12-05-deduction-stage.md.)"""

from __future__ import annotations

import itertools
import time

import pytest

import puzzlebench.encodings.nurikabe_deduce as deduce
from bruteforce import all_solutions, plan_holds, planted_nurikabe
from puzzlebench.encodings.islands import IslandGraph, IslandPlan
from puzzlebench.encodings.nurikabe_deduce import Board, probe, refine
from puzzlebench.encodings.regions import BLACK, UNKNOWN, WHITE
from puzzlebench.model import Nurikabe

SHAPES = [(4, 4), (3, 5), (5, 3), (4, 5), (5, 4)]


def _boards() -> list[Nurikabe]:
    return [p for p in planted_nurikabe(71, 24, SHAPES, 0.5, 12) if all_solutions(p)]


class _Clock:
    """A process clock that moves ``tick`` seconds at every reading (a slow probe, made exact)."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick, self.reads = 0.0, tick, 0

    def process_time(self) -> float:
        self.now += self.tick
        self.reads += 1
        return self.now


def _state(p: Nurikabe, plan: IslandPlan) -> tuple[Board, list[int]]:
    board = Board(p, IslandGraph.of(p, plan))
    state = [UNKNOWN] * (p.rows * p.cols)
    for r, c in p.clue_cells:
        state[r * p.cols + c] = WHITE
    for r, c in plan.wall:
        state[r * p.cols + c] = BLACK
    return board, state


def _agrees(p: Nurikabe, state: list[int], wall: frozenset) -> bool:
    return all(
        s == UNKNOWN or (s == BLACK) == ((i // p.cols, i % p.cols) in wall) for i, s in enumerate(state)
    )


def test_a_pass_that_ends_in_time_is_never_cut():
    # with a deadline a minute away, the small boards' passes all end in time: both stops agree
    for p in _boards():
        plan = IslandPlan.of(p, deduce=False)
        both = [refine(p, plan, time.process_time() + 60, stop=stop) for stop in ("budget", "pass")]
        assert both[0].wall == both[1].wall and both[0].white == both[1].white, p.to_text()


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_slow_pass_is_cut_and_what_it_settled_holds(monkeypatch, engine):
    # every reading of the clock costs 0.06 s, so after one cell the pace shows the rest of a pass
    # of more than four cells takes over PASS_SLACK times the 0.12 s left: "pass" stops there,
    # "budget" goes on to the deadline (the compiled engine reads the clock once per slice of
    # cells: one cell here)
    if engine == "compiled":
        pytest.importorskip("numba", reason="the compiled engine needs numba (a dependency of the project)")
        monkeypatch.setattr(deduce, "COMPILED_SLICE", 1)
    monkeypatch.setattr(deduce, "PASS_SAMPLE", 0.1)
    monkeypatch.setattr(deduce, "PASS_SLACK", 4.0)
    cut = 0
    for p in _boards():
        plan = IslandPlan.of(p, deduce=False)
        reads, states = [], []
        for stop in ("budget", "pass"):
            clock = _Clock(0.06)
            monkeypatch.setattr(deduce, "time", clock)
            board, state = _state(p, plan)
            if not probe(board, state, 0.3, stop=stop, engine=engine):
                break
            reads.append(clock.reads)
            states.append(state)
        else:
            assert reads[1] <= reads[0], p.to_text()
            cut += reads[1] < reads[0]
            settled = [sum(s != UNKNOWN for s in state) for state in states]
            assert settled[1] <= settled[0]
            for wall in all_solutions(p):
                assert all(_agrees(p, state, wall) for state in states), p.to_text()
    assert cut >= 3


def test_refine_with_a_cut_pass_holds_for_every_brute_forced_answer(monkeypatch):
    monkeypatch.setattr(deduce, "PASS_SAMPLE", 0.0)
    for p, tick in itertools.product(_boards()[::2], (0.01, 0.05)):
        clock = _Clock(tick)
        monkeypatch.setattr(deduce, "time", clock)
        plan = refine(p, IslandPlan.of(p, deduce=False), 0.3, stop="pass")
        for wall in all_solutions(p):
            assert plan_holds(p, plan, wall), p.to_text()
