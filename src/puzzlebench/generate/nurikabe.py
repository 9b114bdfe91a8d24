"""Nurikabe generator: a planted wall carved into islands, one number per island, clues moved
until the answer is unique.

Method (all randomness from one ``random.Random(seed)``):

1. Wall: every cell starts shaded; in random order, a cell is unshaded when the wall stays
   connected and the island it joins (or starts) stays within ``max_island`` cells. Passes
   repeat until no cell changes; a board left with a 2x2 block of wall is drawn again (up to
   ``attempts`` boards).
2. Numbers: each island shows its size on one random cell of it.
3. Repair: while a second answer exists (``puzzlebench.solve`` in the ``oracle`` paradigm,
   ``count=2``): a planted wall cell the other answer unshades becomes an island of 1 where it
   touches no island and the wall stays connected without it; otherwise the number of an island
   the other answer changes moves to another random cell of that island (at most ``repairs``
   repairs per board; then a new board is drawn).

The caller's proof of record (:func:`puzzlebench.generate.generate`) proves the result unique.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

from ..model import Nurikabe, NurikabeSolution
from ..model.grid import Cell, Grid
from .common import GenerationError, Generated, shuffled, white_components

GENERATOR = "puzzlebench.generate.nurikabe"


@dataclass(frozen=True)
class NurikabeOptions:
    max_island: int = 3  # the largest island carved
    attempts: int = 50  # boards drawn before giving up
    repairs: int = 30  # number moves tried per board
    oracle: str = "sat"  # the paradigm that looks for a second answer

    def check(self) -> "NurikabeOptions":
        for name in ("max_island", "attempts", "repairs"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise GenerationError(f"{name} must be a positive integer, got {value!r}")
        return self


def _connected(grid: Grid, cells: set[Cell]) -> bool:
    """Whether ``cells`` form one orthogonally connected group (an empty set does)."""
    if not cells:
        return True
    start = next(iter(cells))
    seen, stack = {start}, [start]
    while stack:
        for nb in grid.neighbours4(stack.pop()):
            if nb in cells and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) == len(cells)


def _island_of(grid: Grid, wall: set[Cell], start: Cell) -> set[Cell]:
    seen, stack = {start}, [start]
    while stack:
        for nb in grid.neighbours4(stack.pop()):
            if nb not in wall and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen


def _carve(rng: random.Random, grid: Grid, max_island: int) -> set[Cell] | None:
    """A connected wall with islands of at most ``max_island`` cells and no 2x2 block, or None."""
    wall = set(grid.cells())
    changed = True
    while changed:
        changed = False
        for cell in shuffled(rng, wall):
            joined: set[Cell] = set()
            for nb in grid.neighbours4(cell):
                if nb not in wall and nb not in joined:
                    joined |= _island_of(grid, wall, nb)
            if len(joined) + 1 > max_island:
                continue
            wall.discard(cell)
            if _connected(grid, wall):
                changed = True
            else:
                wall.add(cell)
    for r in range(grid.rows - 1):
        for c in range(grid.cols - 1):
            if {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)} <= wall:
                return None
    return wall


def generate_nurikabe(rows: int, cols: int, seed: int, options: NurikabeOptions | None = None) -> Generated:
    """A Nurikabe puzzle whose planted wall is its only answer (checked by the oracle)."""
    from ..solvers import solve

    opts = (options or NurikabeOptions()).check()
    rng = random.Random(seed)
    grid = Grid(rows, cols)
    moves = 0
    for attempt in range(1, opts.attempts + 1):
        wall = _carve(rng, grid, opts.max_island)
        if wall is None:
            continue
        islands = white_components(rows, cols, wall)
        if not islands:
            continue  # all wall: no number to show
        clue = {tuple(island): rng.choice(sorted(island)) for island in islands}
        for _ in range(opts.repairs + 1):
            puzzle = Nurikabe(rows, cols, numbers={cell: len(island) for island, cell in clue.items()})
            result = solve(puzzle, opts.oracle, count=2)
            others = [s.cells for s in result.solutions if s.cells != frozenset(wall)]
            if result.exhausted and not others:
                meta = {"generator": GENERATOR, "seed": seed, "options": asdict(opts), "wall": len(wall),
                        "islands": len(clue), "attempts": attempt, "repairs": moves}
                puzzle = puzzle.with_meta(name=f"gen-nurikabe-{rows}x{cols}-s{seed}", **meta)
                solution = NurikabeSolution(wall)
                if puzzle.verify(solution):
                    raise GenerationError(f"internal error: planted answer fails the verifier on {puzzle.name}")
                return Generated(puzzle, solution, 1, stats={"attempts": attempt, "repairs": moves})
            if not others:
                break  # the oracle gave up: draw a new board
            moves += 1
            other, freed = others[0], wall - others[0]
            # a planted wall cell the other answer unshades becomes an island of 1, where it
            # touches no island and the wall stays connected without it
            lone = [cell for cell in sorted(freed) if all(nb in wall for nb in grid.neighbours4(cell))
                    and _connected(grid, wall - {cell})]
            if lone:
                cell = rng.choice(lone)
                wall.discard(cell)
                clue[(cell,)] = cell
                continue
            # else the number of an island the other answer changes moves to another of its cells
            changed = [island for island in clue if len(island) > 1 and (
                any(cell in other for cell in island)
                or any(nb in freed for cell in island for nb in grid.neighbours4(cell)))]
            if not changed:
                break
            island = rng.choice(sorted(changed))
            clue[island] = rng.choice([cell for cell in island if cell != clue[island]])
    raise GenerationError(f"no unique {rows}x{cols} Nurikabe within {opts.attempts} boards (seed {seed}); "
                          "try a larger max_island or more attempts")
