"""LightBulbs generator: seed 003's method, and a mode that makes the planted answer unique.

Seed 003's method (all randomness from one ``random.Random(seed)``): each cell is lit with
probability ``density`` (at least one cell is); a lit cell gets the number of lit cells in its
3x3 block (itself included), an unlit cell a random number 1..9 other than that count. The
planted lit set is then an answer, and usually one of many: the generator records how many
(enumeration by the proof paradigm with ``count=0``, when it finishes in time).

Unique mode (``unique=True``): while the incremental oracle finds another answer, change the
number of one unlit cell (lit cells' numbers are forced by the rule) so that the other answer
breaks the rule there and the planted one still keeps it; when no unlit cell can do that, a new
lit set is drawn.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

from ..model import LightBulbs, LightBulbsSolution
from ..model.grid import Cell, Grid
from .cnf import Cnf
from .common import Generated, GenerationError, check_fraction

GENERATOR = "puzzlebench.generate.lightbulbs"
NUMBERS = range(1, 10)


@dataclass(frozen=True)
class LightBulbsOptions:
    density: float = 0.5  # probability that a cell is lit in the planted answer
    unique: bool = False  # change numbers until the planted answer is the only one

    def check(self) -> LightBulbsOptions:
        check_fraction("density", self.density, 0.01, 1.0)
        return self


class LightBulbsOracle:
    """Incremental SAT model of one board; each cell's number is chosen by assumption."""

    def __init__(self, rows: int, cols: int, planted: frozenset[Cell]):
        self.grid = grid = Grid(rows, cols)
        self.cnf = cnf = Cnf()
        self.lit = {c: cnf.var(("lit", c)) for c in grid.cells()}
        self.selector: dict[tuple[Cell, int], int] = {}
        for c in grid.cells():
            outs = cnf.totalizer(("block", c), [self.lit[n] for n in grid.block3x3(c)], 10)
            for n in NUMBERS:
                # Cell c shows n: c is lit iff exactly n cells of its 3x3 block are lit.
                sel = self.selector[(c, n)] = cnf.var(("shows", c, n))
                exact = cnf.var(("exactly", c, n))
                if n <= len(outs):
                    cnf.equiv_and(exact, [outs[n - 1], *([-outs[n]] if n < len(outs) else [])])
                else:  # more than the block holds
                    cnf.clause([-exact])
                cnf.clause([-sel, -self.lit[c], exact])
                cnf.clause([-sel, self.lit[c], -exact])
        # An answer lights at least one cell.
        cnf.clause(list(self.lit.values()))
        self.other = cnf.var(("other",))
        cnf.block(
            self.other, [self.lit[c] for c in planted], [v for c, v in self.lit.items() if c not in planted]
        )

    def alternative(self, numbers: dict[Cell, int]) -> frozenset[Cell] | None:
        model = self.cnf.solve([self.other, *(self.selector[(c, n)] for c, n in sorted(numbers.items()))])
        if model is None:
            return None
        return self.cnf.true_keys(model, self.lit)

    def propagation_solves(self, numbers: dict[Cell, int]) -> bool:
        """Does unit propagation from the numbers alone decide every cell?"""
        implied = self.cnf.propagated([self.selector[(c, n)] for c, n in sorted(numbers.items())])
        return implied is not None and all(v in implied or -v in implied for v in self.lit.values())

    def close(self) -> None:
        self.cnf.close()


def block_count(grid: Grid, lit: frozenset[Cell] | set[Cell], cell: Cell) -> int:
    """Lit cells in the 3x3 block of ``cell``, itself included."""
    return sum(n in lit for n in grid.block3x3(cell))


def _plant(rng: random.Random, grid: Grid, density: float) -> tuple[frozenset[Cell], dict[Cell, int]]:
    """Seed 003's board: a random lit set, numbers derived from it."""
    lit: set[Cell] = set()
    while not lit:
        lit = {c for c in grid.cells() if rng.random() < density}
    numbers = {}
    for c in grid.cells():
        k = block_count(grid, lit, c)
        # Lit: the count itself. Unlit: anything but the count (or it would have to be lit).
        numbers[c] = k if c in lit else rng.choice([n for n in NUMBERS if n != k])
    return frozenset(lit), numbers


def _make_unique(
    rng: random.Random, grid: Grid, lit: frozenset[Cell], numbers: dict[Cell, int]
) -> int | None:
    """Change unlit cells' numbers until ``lit`` is the only answer; the changes made, or None if stuck."""
    oracle = LightBulbsOracle(grid.rows, grid.cols, lit)
    changes = 0
    try:
        while (other := oracle.alternative(numbers)) is not None:
            choices: list[tuple[Cell, int]] = []
            for c in sorted(set(grid.cells()) - lit):
                mine, theirs = block_count(grid, lit, c), block_count(grid, other, c)
                if c in other:  # the other answer needs n == theirs: any other value breaks it
                    choices += [(c, n) for n in NUMBERS if n not in (mine, theirs)]
                elif theirs != mine and theirs in NUMBERS:  # it needs n != theirs: show theirs
                    choices.append((c, theirs))
            if not choices:
                return None
            cell, n = rng.choice(choices)
            numbers[cell] = n
            changes += 1
            if changes > 20 * grid.size:
                return None
    finally:
        oracle.close()
    return changes


def generate_lightbulbs(
    rows: int, cols: int, seed: int, options: LightBulbsOptions | None = None
) -> Generated:
    """A LightBulbs puzzle by seed 003's method (many answers) or, with ``unique``, a unique one."""
    opts = (options or LightBulbsOptions()).check()
    rng = random.Random(seed)
    grid = Grid(rows, cols)
    for attempt in range(1, 101):  # noqa: B007  (read after the loop)
        lit, numbers = _plant(rng, grid, opts.density)
        changes = _make_unique(rng, grid, lit, numbers) if opts.unique else 0
        if changes is not None:
            break
    else:
        raise GenerationError(f"LightBulbs {rows}x{cols} seed {seed}: no unique board in 100 lit sets")
    # Unit propagation on a fresh model of the finished puzzle (no learnt clauses).
    fresh = LightBulbsOracle(rows, cols, lit)
    easy = fresh.propagation_solves(numbers)
    fresh.close()
    meta = {
        "generator": GENERATOR,
        "seed": seed,
        "options": asdict(opts),
        "lit": len(lit),
        "attempts": attempt,
        "numbers_changed": changes,
        "difficulty": {"unit_propagation": easy},
    }
    puzzle = LightBulbs.from_rows(
        [[numbers[(r, c)] for c in range(cols)] for r in range(rows)],
        name=f"gen-lightbulbs-{rows}x{cols}-s{seed}{'-u' if opts.unique else ''}",
        meta=meta,
    )
    solution = LightBulbsSolution(lit)
    if puzzle.verify(solution):
        raise GenerationError(f"internal error: planted answer fails the verifier on {puzzle.name}")
    return Generated(puzzle, solution, 1 if opts.unique else None)
