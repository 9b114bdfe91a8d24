"""Brute-force oracle for tiny puzzles: try every subset of candidate cells against the verifier."""

from __future__ import annotations

import random
from itertools import combinations

from puzzlebench.model import Kuromasu, LightBulbs, LightUp, Puzzle


def candidates(puzzle: Puzzle) -> list[tuple[int, int]]:
    """Cells that may be marked: open cells, non-clue cells, or every cell."""
    cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
    if isinstance(puzzle, LightUp):
        return [x for x in cells if x not in puzzle.walls]
    if isinstance(puzzle, Kuromasu):
        return [x for x in cells if x not in puzzle.clue_cells]
    return cells


#: Answers by ``Puzzle.content_hash()`` (family and board, not name or metadata).
_KNOWN: dict[str, frozenset[frozenset]] = {}


def all_solutions(puzzle: Puzzle, max_cells: int = 16) -> set[frozenset]:
    """Every valid answer, by exhaustive search (refuses boards with too many candidates).

    Answers are remembered per puzzle content, since several tests ask about the same boards
    (two equal puzzles built separately share one search)."""
    key = puzzle.content_hash()
    if key not in _KNOWN:
        _KNOWN[key] = frozenset(_search(puzzle, max_cells))
    return set(_KNOWN[key])


def _search(puzzle: Puzzle, max_cells: int) -> set[frozenset]:
    cand = candidates(puzzle)
    if len(cand) > max_cells:
        raise ValueError(f"{len(cand)} candidate cells is too many for brute force")
    found = set()
    for k in range(len(cand) + 1):
        for subset in combinations(cand, k):
            if not puzzle.verify(subset):
                found.add(frozenset(subset))
    return found


def random_lightup(rng: random.Random, rows: int, cols: int, wall_p: float = 0.3, number_p: float = 0.5) -> LightUp:
    walls = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < wall_p}
    numbers = {}
    for r, c in walls:
        if rng.random() < number_p:
            free = sum((r + dr, c + dc) not in walls and 0 <= r + dr < rows and 0 <= c + dc < cols
                       for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
            numbers[(r, c)] = rng.randint(0, min(4, free))
    return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers, name=f"rand-lightup-{rows}x{cols}")


def random_kuromasu(rng: random.Random, rows: int, cols: int, clue_p: float = 0.25) -> Kuromasu:
    numbers = {}
    for r in range(rows):
        for c in range(cols):
            if rng.random() < clue_p:
                numbers[(r, c)] = rng.randint(1, min(rows + cols - 1, 5))
    return Kuromasu(rows, cols, numbers=numbers, name=f"rand-kuromasu-{rows}x{cols}")


def random_lightbulbs(rng: random.Random, rows: int, cols: int) -> LightBulbs:
    return LightBulbs.from_rows(
        [[rng.randint(1, 4) for _ in range(cols)] for _ in range(rows)], name=f"rand-lightbulbs-{rows}x{cols}"
    )
