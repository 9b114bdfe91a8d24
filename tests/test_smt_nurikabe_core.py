"""SMT Nurikabe's ``islands=auto`` on boards of 150 cells and more: ``levels`` (the SAT encoding's
levels for every clue) where they are few and the hybrid's budget holds most of them anyway, else
``hybrid`` (:func:`~puzzlebench.encodings.smt.nurikabe.auto_islands`).

The choice is held to the sizes of hand-made boards' levels (a clue's bound times the cells its
island may reach, counted here by a flood fill of its own); the answers of the puzzles it moves
to levels are held to the published janko answers and to the verifier, with the uniqueness proof.
"""

from __future__ import annotations

import pytest

pytest.importorskip("z3", reason="z3 is not installed")

import puzzlebench as pb
from puzzlebench import registry
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.encodings.smt.nurikabe import AUTO_LEVELS_MOST, AUTO_LEVELS_SHARE, auto_islands
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe


def _islands(puzzle: Nurikabe) -> str:
    """The islands variant the default picks on the searched plan (the bare puzzle, built outside
    the deduction stage; the probed plan's islands are smaller): the one ``islands=lazy``
    escalates to, if any."""
    spec = registry.get(Family.NURIKABE, "smt")
    notes = spec.build(puzzle, spec.resolve({})).notes
    return notes["escalate_to"] or notes["islands"]


def _reach(puzzle: Nurikabe, clue: tuple[int, int]) -> int:
    """Cells fewer than n steps from a lone number n on an otherwise empty board (a plain BFS)."""
    n = puzzle.numbers[clue]
    seen, frontier = {clue}, [clue]
    for _ in range(n - 1):
        frontier = [nb for cell in frontier for nb in puzzle.grid.neighbours4(cell) if nb not in seen]
        seen.update(frontier)
        frontier = list(dict.fromkeys(frontier))
    return len(seen)


def test_a_large_board_whose_levels_the_hybrid_mostly_gives_takes_levels() -> None:
    # 12x13: two big numbers in opposite corners, levelled by the hybrid's budget, and a 1
    puzzle = Nurikabe(12, 13, numbers={(0, 0): 30, (11, 12): 40, (6, 6): 1})
    levels = 30 * _reach(puzzle, (0, 0)) + 40 * _reach(puzzle, (11, 12))
    assert puzzle.grid.size >= 150 and levels <= AUTO_LEVELS_MOST
    assert auto_islands(puzzle, IslandPlan.of(puzzle)) == "levels"
    assert _islands(puzzle) == "levels"


def test_too_many_levels_keep_the_hybrid() -> None:
    # 30x30: a 16 the hybrid levels, and a 100 whose levels (100 x some 900 cells) exceed the limit
    puzzle = Nurikabe(30, 30, numbers={(0, 0): 16, (29, 29): 100})
    assert 100 * _reach(puzzle, (29, 29)) > AUTO_LEVELS_MOST
    assert auto_islands(puzzle, IslandPlan.of(puzzle)) == "hybrid"


def test_a_small_share_of_levels_in_the_hybrid_keeps_the_hybrid() -> None:
    # 13x13: the hybrid levels the 16 alone (its smallest levelled number), the four 15s not
    numbers = {(0, 0): 16, (12, 12): 15, (0, 12): 15, (12, 0): 15, (6, 6): 15}
    puzzle = Nurikabe(13, 13, numbers=numbers)
    # the 16's island reaches at most its 136 cells of the corner's triangle
    assert 16 * _reach(puzzle, (0, 0)) < AUTO_LEVELS_SHARE * 4 * 15 * _reach(puzzle, (6, 6))
    assert auto_islands(puzzle, IslandPlan.of(puzzle)) == "hybrid"
    assert _islands(puzzle) == "hybrid"


def test_a_large_board_of_small_numbers_is_left_to_the_lazy_cuts() -> None:
    puzzle = Nurikabe(13, 13, numbers={(0, 0): 2, (12, 12): 3, (6, 6): 1})
    assert auto_islands(puzzle, IslandPlan.of(puzzle)) == "hybrid"
    assert _islands(puzzle) == "lazy"  # no number worth levels: the hybrid is the lazy rule


def test_small_boards_stay_levels() -> None:
    puzzle = Nurikabe(10, 10, numbers={(0, 0): 2, (9, 9): 3, (5, 5): 1})
    assert auto_islands(puzzle, IslandPlan.of(puzzle)) == "levels"


#: janko puzzles of 150 cells and more that the choice moves from hybrid to levels, among them
#: two that the hybrid left unproved in 10 s (670_20x36, 688_20x20)
MOVED = ("180_10x18", "216_17x17", "341_10x18", "762_13x13", "156_14x24", "670_20x36", "688_20x20")


def test_the_puzzles_moved_to_levels_have_their_published_answer_proved_unique(janko_dir) -> None:
    entries = {e.id: e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family.NURIKABE, [])}
    for pid in MOVED:
        entry = entries[pid]
        assert entry.puzzle.grid.size >= 150
        assert _islands(entry.puzzle) == "levels", pid
        result = pb.solve(entry.puzzle, "smt", count=2, timeout=120)
        assert result.exhausted and result.verified, pid
        assert [s.cells for s in result.solutions] == [entry.solution.cells], pid
