"""SAT Kuromasu on large boards: ``card=lines`` (vertical and horizontal counts, numbers in line
that see each other tied), the default ``sized`` picking it from 2,000 cells (on the paradigm's
default solver, as every board),
and the bit-set fence cuts of the lazy connectivity rule. Checked against brute force on small
boards, against the planted answers of generated boards and against the plain flood fill of
``regions.connectivity_cuts`` (never the solver's own say-so)."""

from __future__ import annotations

import random

import pytest

import puzzlebench as pb
from bruteforce import all_solutions, random_kuromasu
from puzzlebench.encodings.regions import connectivity_cuts
from puzzlebench.encodings.sat import kuromasu
from puzzlebench.encodings.sat.kuromasu import fence_cuts, white_connected
from puzzlebench.model import Kuromasu
from puzzlebench.registry import get
from puzzlebench.suites import load_suite

pytest.importorskip("pysat")


def _answers(puzzle: Kuromasu, **options) -> set[frozenset]:
    result = pb.solve(puzzle, "sat", count=0, timeout=60, **options)
    assert result.exhausted
    return {frozenset(answer.cells) for answer in result.solutions}


def _seen(rows: int, cols: int, black: set, cell: tuple[int, int]) -> int:
    """How many white cells ``cell`` sees, itself included (the number rule, counted directly)."""
    total = 1
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = cell[0] + dr, cell[1] + dc
        while 0 <= r < rows and 0 <= c < cols and (r, c) not in black:
            total += 1
            r, c = r + dr, c + dc
    return total


def _planted(rng: random.Random, rows: int, cols: int, keep: float, unknown: float = 0.0) -> Kuromasu:
    """A board with at least one answer: isolated black cells with connected white cells, and
    each white cell's true count kept as a number with probability ``keep`` (or as a '?')."""
    while True:
        black: set = set()
        for r in range(rows):
            for c in range(cols):
                if rng.random() < 0.3 and (r - 1, c) not in black and (r, c - 1) not in black:
                    black.add((r, c))
        if white_connected(rows, cols, black):
            break
    numbers, marks = {}, set()
    for r in range(rows):
        for c in range(cols):
            if (r, c) in black:
                continue
            draw = rng.random()
            if draw < keep:
                numbers[(r, c)] = _seen(rows, cols, black, (r, c))
            elif draw < keep + unknown:
                marks.add((r, c))
    return Kuromasu(rows, cols, numbers=numbers, unknown=frozenset(marks))


def _boards(seed: int) -> list[Kuromasu]:
    rng = random.Random(seed)
    shapes = [(3, 5), (4, 4), (2, 7), (4, 4), (3, 5), (1, 9)] * 3
    boards = [
        _planted(rng, rows, cols, keep=rng.choice((0.3, 0.5, 0.7)), unknown=0.1) for rows, cols in shapes
    ]
    boards += [random_kuromasu(rng, rows, cols, clue_p=0.4) for rows, cols in shapes[:8]]
    return boards


# -- card=lines against brute force ------------------------------------------------------------------
@pytest.mark.parametrize("visibility", ["shared", "rays", "pairs"])
def test_lines_finds_every_answer_of_small_boards(visibility):
    for puzzle in _boards(23):
        assert _answers(puzzle, card="lines", visibility=visibility) == all_solutions(puzzle), puzzle


@pytest.mark.parametrize("connectivity", ["lazy", "rank", "none"])
def test_lines_under_every_connectivity_matches_the_adder(connectivity):
    # the adder, itself checked against brute force elsewhere, on boards beyond brute force's reach
    rng = random.Random(5)
    for _ in range(6):
        puzzle = _planted(rng, 6, 7, keep=0.35, unknown=0.05)
        lines = _answers(puzzle, card="lines", connectivity=connectivity, solver="glucose42")
        assert lines == _answers(puzzle, card="adder", connectivity=connectivity)
        assert lines  # the planted answer at least


def _implied(cnf, assumption: int) -> set[int] | None:
    """The decision literals unit propagation derives from one assumed literal (None: a conflict)."""
    from pysat.solvers import Solver

    cells = set(cnf.decision.values())
    # unit clauses go in as assumptions too: propagate() reports no literal settled before it
    units = [c[0] for c in cnf.clauses if len(c) == 1]
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in cnf.clauses if len(c) > 1]) as solver:
        ok, implied = solver.propagate(assumptions=units + [assumption])
    return {x for x in implied if abs(x) in cells} if ok else None


def test_ties_let_unit_propagation_settle_more_cells(monkeypatch):
    # The same boards stated with and without the ties (the rest of card=lines unchanged): from
    # single assumed cells, unit propagation derives more with them (and never less).
    spec = get("kuromasu", "sat")
    options = spec.resolve({"connectivity": "none", "card": "lines"}) | {"cut": "none"}
    rng = random.Random(8)
    puzzles = [_planted(rng, 7, 8, keep=0.2) for _ in range(8)]
    tied = [spec.build(puzzle, options) for puzzle in puzzles]
    monkeypatch.setattr(kuromasu._Lines, "link", lambda self, clauses, numbers: None)
    untied = [spec.build(puzzle, options) for puzzle in puzzles]
    more = 0
    for with_ties, without in zip(tied, untied):
        assert len(with_ties.clauses) > len(without.clauses)
        for v in with_ties.decision.values():
            for lit in (v, -v):
                a, b = _implied(with_ties, lit), _implied(without, lit)
                if a is None:
                    more += b is not None
                else:
                    assert b is not None and b <= a
                    more += a != b
    assert more > 0


# -- the default on large boards ----------------------------------------------------------------------
def _largest() -> list:
    items = load_suite("gen-kuromasu")
    side = max(item.puzzle.rows for item in items)
    return sorted((item for item in items if item.puzzle.rows == side), key=lambda item: item.id)


def _clauses(puzzle: Kuromasu, options: dict) -> list:
    return get("kuromasu", "sat").build(puzzle, options).clauses


def test_the_default_picks_lines_from_2000_cells_and_the_adder_below():
    spec = get("kuromasu", "sat")
    options = spec.resolve({})
    assert options["card"] == "sized"
    side = int(kuromasu.AUTO_CELLS**0.5) + 1
    big = Kuromasu(side, side, numbers={(0, 0): 3, (0, 2): 4, (side // 2, side // 2): 5})
    assert not spec.build(big, options).native
    assert _clauses(big, options) == _clauses(big, options | {"card": "lines"})
    assert _clauses(big, options) != _clauses(big, options | {"card": "adder"})
    small = Kuromasu(5, 5, numbers={(0, 0): 3, (2, 2): 5})
    assert _clauses(small, options) == _clauses(small, options | {"card": "adder"})
    assert _clauses(small, options) != _clauses(small, options | {"card": "lines"})


def test_the_planted_answer_of_the_largest_board_satisfies_every_lines_clause():
    # every tie and merge clause holds for the planted answer (the auxiliaries follow by propagation)
    item = _largest()[0]
    spec = get("kuromasu", "sat")
    cnf = spec.build(item.puzzle, spec.resolve({"card": "lines"}))
    from pysat.solvers import Solver

    black = item.solution.black
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in cnf.clauses]) as solver:
        assert solver.solve(assumptions=[v if cell in black else -v for cell, v in cnf.decision.items()])


@pytest.mark.slow
def test_the_default_proves_the_largest_board_and_finds_the_planted_answer():
    item = _largest()[0]
    result = pb.solve(item.puzzle, "sat", count=2, timeout=120)
    assert result.solver == pb.registry.paradigm("sat").default_solver
    assert result.unique and result.verified
    assert result.solutions[0] == item.solution


# -- the lazy rule's fence cuts --------------------------------------------------------------------
def test_fence_cuts_equal_the_flood_fill_cuts_on_random_boards():
    rng = random.Random(3)
    compared = 0
    for trial in range(600):
        rows, cols = rng.randint(1, 11), rng.randint(1, 11)
        p = rng.random() * 0.6
        marked: set = set()
        for r in range(rows):
            for c in range(cols):
                if rng.random() < p and (
                    trial % 4 == 0 or ((r - 1, c) not in marked and (r, c - 1) not in marked)
                ):
                    marked.add((r, c))
        bits = sum(1 << (r * cols + c) for r, c in marked)
        got = fence_cuts(rows, cols, bits)
        if any((r + 1, c) in marked or (r, c + 1) in marked for r, c in marked):
            assert got is None
            continue
        every = {(r, c) for r in range(rows) for c in range(cols)}
        assert got == connectivity_cuts(rows, cols, frozenset(marked), every), (rows, cols, sorted(marked))
        compared += 1
    assert compared > 300


def test_the_lazy_rule_falls_back_on_touching_black_cells():
    decision = {(r, c): 1 + r * 4 + c for r in range(3) for c in range(4)}
    rule = kuromasu.lazy_connectivity(3, 4, decision)
    touching = frozenset({(0, 1), (1, 1), (1, 0)})  # walls in (0,0); two pairs share a side
    every = set(decision)
    assert rule(touching) == connectivity_cuts(3, 4, touching, every)
    assert rule(frozenset({(0, 1), (1, 0)})) == [[((0, 1), False), ((1, 0), False)]]
    assert rule(frozenset({(1, 1)})) == []
