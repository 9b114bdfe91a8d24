"""The connectivity reasoning shared by the SAT and ASP propagators, and the ASP propagator.

``connectivity_reasoning`` is checked on hand-made boards (exact inferences and fences) and
against a plain flood fill on random partial assignments (every cell it forces is forced, every
forced cell is found, every fence is exactly the black border of the part it cuts off). The
clingo propagator built on it is checked against brute force and the other paradigms.
"""

from __future__ import annotations

import itertools
import random

import pytest

from bruteforce import all_solutions, random_kuromasu
from puzzlebench import solve
from puzzlebench.encodings.regions import BLACK, UNKNOWN, WHITE, connectivity_reasoning
from puzzlebench.formats import iter_janko
from puzzlebench.model import Kuromasu
from puzzlebench.result import Status


def grid_adj(rows: int, cols: int) -> list[list[int]]:
    return [
        [
            rr * cols + cc
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < rows and 0 <= cc < cols
        ]
        for r in range(rows)
        for c in range(cols)
    ]


def board(text: str) -> tuple[list[list[int]], list[int], int]:
    """Rows of R (the white root), W (white), B (black), . (unknown)."""
    lines = text.split()
    codes = {"R": WHITE, "W": WHITE, "B": BLACK, ".": UNKNOWN}
    state = [codes[ch] for line in lines for ch in line]
    root = "".join(lines).index("R")
    return grid_adj(len(lines), len(lines[0])), state, root


# -- hand-made boards ---------------------------------------------------------------------------


def test_a_gap_in_a_black_wall_is_forced_white_with_the_wall_as_reason() -> None:
    adj, state, root = board("""
        R..
        B.B
        .W.
    """)
    found = connectivity_reasoning(adj, state, root)
    assert found.unreached == [] and found.fence == []
    # (1,1) alone joins the bottom row (with its white cell) to the root; (0,1) alone joins
    # (1,1) to the root. Both are fenced off by the same two black cells.
    assert [(a.cell, a.fence, a.white) for a in found.articulations] == [(4, [3, 5], 7), (1, [3, 5], 7)]


def test_an_articulation_guarding_no_white_cell_is_not_forced() -> None:
    adj, state, root = board("""
        R..
        B.B
        ...
    """)
    assert connectivity_reasoning(adj, state, root).articulations == []


def test_cells_behind_a_black_wall_are_unreached_with_the_wall_as_fence() -> None:
    adj, state, root = board("""
        R.B.
        .B..
        B...
    """)
    found = connectivity_reasoning(adj, state, root)
    # only the three cells at the top left are reached; the wall (0,2), (1,1), (2,0) fences them
    assert found.unreached == [3, 6, 7, 9, 10, 11]
    assert found.fence == [2, 5, 8]
    assert found.articulations == []


def test_a_white_cell_behind_a_wall_reports_no_articulation() -> None:
    adj, state, root = board("""
        R..B.
        ...BW
        B..B.
    """)
    found = connectivity_reasoning(adj, state, root)
    assert found.unreached == [4, 9, 14] and found.fence == [3, 8, 10, 13]
    assert found.articulations == []  # a conflict already: white (1,4) is cut off


def test_cells_on_both_sides_of_the_root_are_forced_white_with_empty_fences() -> None:
    adj, state, root = board("W.R.W")
    found = connectivity_reasoning(adj, state, root)
    assert sorted((a.cell, a.fence, a.white) for a in found.articulations) == [(1, [], 0), (3, [], 4)]


# -- random partial assignments against a plain flood fill --------------------------------------


def reach(adj: list[list[int]], state: list[int], root: int, removed: int = -1) -> set[int]:
    seen, stack = {root}, [root]
    while stack:
        v = stack.pop()
        for u in adj[v]:
            if u not in seen and u != removed and state[u] != BLACK:
                seen.add(u)
                stack.append(u)
    return seen


def test_inferences_are_exactly_what_a_flood_fill_finds_on_random_boards() -> None:
    rng = random.Random(5)
    articulations = unreached = 0
    for _ in range(1500):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        n = rows * cols
        adj = grid_adj(rows, cols)
        p_black, p_white = rng.uniform(0, 0.4), rng.uniform(0, 0.3)
        state = [
            BLACK if x < p_black else WHITE if x < p_black + p_white else UNKNOWN
            for x in (rng.random() for _ in range(n))
        ]
        root = rng.randrange(n)
        state[root] = WHITE
        found = connectivity_reasoning(adj, state, root)

        reached = reach(adj, state, root)
        assert found.unreached == [i for i in range(n) if i not in reached and state[i] != BLACK]
        border = sorted({u for v in reached for u in adj[v] if state[u] == BLACK})
        assert found.fence == (border if found.unreached else [])
        unreached += len(found.unreached)
        if any(state[i] == WHITE for i in found.unreached):
            assert found.articulations == []
            continue

        # forced white: exactly the undecided non-root cells whose removal cuts a white cell off
        whites = {i for i in reached if state[i] == WHITE}
        expected = {
            p
            for p in reached
            if p != root and state[p] == UNKNOWN and not whites - {p} <= reach(adj, state, root, removed=p)
        }
        assert {a.cell for a in found.articulations} == expected
        assert len(found.articulations) == len(expected)
        for a in found.articulations:
            assert state[a.white] == WHITE and a.white not in reach(adj, state, root, removed=a.cell)
            # the fence is the black border of the white cell's part once the cell is removed
            part = reach(adj, state, a.white, removed=a.cell)
            assert a.fence == sorted({u for v in part for u in adj[v] if u != a.cell and u not in part})
            assert all(state[b] == BLACK for b in a.fence)
        articulations += len(found.articulations)
    assert articulations > 200 and unreached > 200


def test_a_root_that_is_not_white_is_an_error() -> None:
    adj, state, root = board("R.B")
    with pytest.raises(ValueError, match="root"):
        connectivity_reasoning(adj, state, 2)


# -- the clingo propagator ----------------------------------------------------------------------


def answers(puzzle: Kuromasu, paradigm: str, **options) -> set[frozenset]:
    result = solve(puzzle, paradigm, count=0, timeout=60, **options)
    assert result.status in (Status.SAT, Status.UNSAT) and result.exhausted, result.error
    for s in result.solutions:
        assert not puzzle.verify(s), (puzzle.key(), s.cells)
    return {s.cells for s in result.solutions}


def test_asp_propagator_enumerates_the_brute_force_answers() -> None:
    rng = random.Random(23)
    cases = [
        random_kuromasu(rng, rng.randint(1, 4), rng.randint(1, 4), clue_p=rng.choice((0.0, 0.15, 0.3)))
        for _ in range(40)
    ]
    cases = [p for p in cases if not p.unknown] + [Kuromasu(4, 4), Kuromasu(3, 5, numbers={(1, 2): 3})]
    counts = []
    for puzzle in cases:
        truth = all_solutions(puzzle)
        assert answers(puzzle, "asp", connectivity="propagator") == truth, puzzle.key()
        counts.append(len(truth))
    assert 0 in counts and max(counts) > 3, "cases should mix counts"


def test_asp_propagator_agrees_with_sat_and_reach_on_larger_boards() -> None:
    rng = random.Random(8)
    cases = [random_kuromasu(rng, 5, 6, clue_p=0.2) for _ in range(6)] + [Kuromasu(5, 5, numbers={(2, 2): 5})]
    for puzzle in cases:
        got = answers(puzzle, "asp", connectivity="propagator")
        assert got == answers(puzzle, "sat", connectivity="propagator"), puzzle.key()
        assert got == answers(puzzle, "asp", connectivity="reach"), puzzle.key()


def test_asp_propagator_finds_articulations_and_reports_them(janko_dir) -> None:
    # The bare puzzles: the default deduction settles these boards before the propagator runs.
    entries = list(itertools.islice(iter_janko(janko_dir / "Kuromasu_dataset.json"), 5))
    total = 0
    for entry in entries:
        result = solve(entry.puzzle, "asp", count=2, connectivity="propagator", deduce="none")
        assert result.exhausted and [s.cells for s in result.solutions] == [entry.solution.cells], entry.id
        extra = result.extra
        assert extra["propagator_calls"] > 0
        assert extra["propagator_inferred"] >= extra["propagator_articulations"]
        assert extra["propagator_clauses"] >= extra["propagator_inferred"]
        total += extra["propagator_articulations"]
    assert total > 0


def test_sat_propagator_reports_articulations_too(janko_dir) -> None:
    pytest.importorskip("pysat")
    entries = list(itertools.islice(iter_janko(janko_dir / "Kuromasu_dataset.json"), 10))
    results = [solve(e.puzzle, "sat", count=2, connectivity="propagator", deduce="none") for e in entries]
    assert all(
        r.exhausted and [s.cells for s in r.solutions] == [e.solution.cells] for r, e in zip(results, entries)
    )
    assert sum(r.extra["propagator_articulations"] for r in results) > 0


def test_connectivity_cuts_fence_every_region_of_a_split_candidate():
    from puzzlebench.encodings.regions import connectivity_cuts

    # 3x3 with a black wall down the middle column: two white regions of three cells each
    wall = frozenset({(0, 1), (1, 1), (2, 1)})
    everything = {(r, c) for r in range(3) for c in range(3)}
    fence = [((0, 1), False), ((1, 1), False), ((2, 1), False)]
    cuts = connectivity_cuts(3, 3, wall, everything, isolated=False)
    assert cuts[:2] == [
        fence + [((0, 0), True), ((1, 0), True), ((2, 0), True), ((0, 2), True)],
        fence + [((0, 2), True), ((1, 2), True), ((2, 2), True), ((0, 0), True)],
    ]
    # each cut also names a white witness outside its region: the anchor when it lies outside;
    # cells that can never be marked drop out
    general = connectivity_cuts(3, 3, wall, everything, anchor=(2, 2), isolated=False)
    assert general[0][-1] == ((2, 2), True) and general[1][-1] == ((0, 0), True)
    clue = connectivity_cuts(3, 3, wall, everything - {(2, 2)}, anchor=(2, 2), isolated=False)
    assert clue[0] == fence + [((0, 0), True), ((1, 0), True), ((2, 0), True)]  # the clue anchor drops out
    # isolated marks (no two share a side): the fence alone, and no cut for the largest region
    corner = frozenset({(0, 1), (1, 0)})
    assert connectivity_cuts(3, 3, corner, everything) == [[((0, 1), False), ((1, 0), False)]]
    # a connected board has nothing to cut
    assert connectivity_cuts(3, 3, frozenset({(1, 1)}), everything) == []
