"""Hitori generator: planted shaded cells, a Latin filling, then numbers changed until unique.

Method (all randomness from one ``random.Random(seed)``):

1. Shaded cells: cells in random order; a cell is shaded when no neighbour is and the unshaded
   cells stay connected, until ``round(density * R * C)`` cells are shaded (``plant_black``,
   shared with Kuromasu).
2. Numbers: a random Latin square of order max(R, C) (rows, columns and symbols permuted),
   cut to R x C, gives every unshaded cell its number, so no number repeats among the unshaded
   cells of a line. A shaded cell copies the number of a random unshaded cell of its row or
   column (its shading is then needed by the Latin rule).
3. Repair: while another answer exists (incremental oracle), change one number so that it
   breaks: a cell the planted answer shades and the other leaves unshaded copies the number
   of a cell of its row or column that the other answer leaves unshaded (the planted answer,
   which shades it, stays valid). When the other answer shades every cell the planted one
   shades and more, it becomes the planted answer (its extra cells' numbers are then free).
4. Difficulty: whether unit propagation on a fresh clause model of the finished puzzle (with
   the one-cell connectivity cut only) decides every cell (``difficulty.unit_propagation``).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

from ..model import Hitori, HitoriSolution
from ..model.grid import Cell, Grid
from .cnf import Cnf
from .common import Generated, GenerationError, check_fraction, plant_black, white_components

GENERATOR = "puzzlebench.generate.hitori"


@dataclass(frozen=True)
class HitoriOptions:
    density: float = 0.3  # target fraction of shaded cells
    repairs: int = 0  # most numbers changed before giving up (0: 4 x the number of cells)

    def check(self) -> HitoriOptions:
        check_fraction("density", self.density, 0.0, 0.5)
        if not isinstance(self.repairs, int) or self.repairs < 0:
            raise GenerationError(f"repairs must be a non-negative integer, got {self.repairs!r}")
        return self


def _line_pairs(grid: Grid) -> list[tuple[Cell, Cell]]:
    """Every pair of distinct cells sharing a row or a column."""
    pairs = []
    for a in grid.cells():
        for b in grid.cells():
            if a < b and (a[0] == b[0] or a[1] == b[1]):
                pairs.append((a, b))
    return pairs


class HitoriOracle:
    """Incremental SAT model of one board's answers, whatever its numbers.

    The Latin rule is stated once for every pair of cells sharing a line, each clause guarded by
    a literal "these two hold the same number" that the questions assume for the pairs equal now;
    connectivity is added lazily as cuts (valid whatever the numbers), kept across questions.
    """

    def __init__(self, rows: int, cols: int):
        self.grid = grid = Grid(rows, cols)
        self.cnf = cnf = Cnf()
        self.shaded = {c: cnf.var(("shaded", c)) for c in grid.cells()}
        self.same: dict[tuple[Cell, Cell], int] = {}
        # No two shaded cells share a side.
        for a, b in grid.edges():
            cnf.clause([-self.shaded[a], -self.shaded[b]])
        # Connectivity, the one-cell cut: an unshaded cell is not walled in by shaded neighbours
        # (wherever the cell and its neighbours are not the whole board).
        for c in grid.cells():
            around = grid.neighbours4(c)
            if len(around) + 1 < grid.size:
                cnf.clause([self.shaded[c], *(-self.shaded[n] for n in around)])
        # No number twice among the unshaded cells of a line, for the pairs holding equal numbers.
        for a, b in _line_pairs(grid):
            eq = self.same[(a, b)] = cnf.var(("same", a, b))
            cnf.clause([-eq, self.shaded[a], self.shaded[b]])
        self.cuts = 0
        self.guards = 0

    def alternative(self, numbers: dict[Cell, int], planted: frozenset[Cell]) -> frozenset[Cell] | None:
        """An answer of the board ``numbers`` other than ``planted``, or None when there is none."""
        cnf = self.cnf
        self.guards += 1
        other = cnf.var(("other", self.guards))
        cnf.block(
            other, [self.shaded[c] for c in planted], [v for c, v in self.shaded.items() if c not in planted]
        )
        assumptions = [other] + [eq for (a, b), eq in self.same.items() if numbers[a] == numbers[b]]
        try:
            while True:
                model = cnf.solve(assumptions)
                if model is None:
                    return None
                shaded = cnf.true_keys(model, self.shaded)
                comps = white_components(self.grid.rows, self.grid.cols, shaded)
                if len(comps) <= 1:
                    return shaded
                self._cut(shaded, comps)
        finally:
            cnf.retire(other)

    def _cut(self, shaded: frozenset[Cell], comps: list[list[Cell]]) -> None:
        """All unshaded cells connected, as cuts: for a component K of the unshaded cells, its
        shaded border B, a cell k in K and a cell w in another component, not (all of B shaded,
        k unshaded, w unshaded). Valid for every answer of every filling."""
        w = comps[0][0]
        for comp in comps[1:]:
            border = sorted({n for c in comp for n in self.grid.neighbours4(c) if n in shaded})
            self.cnf.clause([*(-self.shaded[b] for b in border), self.shaded[comp[0]], self.shaded[w]])
            self.cuts += 1

    def propagation_solves(self, numbers: dict[Cell, int]) -> bool:
        """Does unit propagation from the numbers (and the cuts added so far) decide every cell?"""
        implied = self.cnf.propagated([eq for (a, b), eq in self.same.items() if numbers[a] == numbers[b]])
        return implied is not None and all(v in implied or -v in implied for v in self.shaded.values())

    def close(self) -> None:
        self.cnf.close()


def _latin_filling(rng: random.Random, grid: Grid) -> dict[Cell, int]:
    """A random Latin square of order max(R, C), cut to the board: no number twice in a line."""
    n = max(grid.rows, grid.cols)
    rows, cols, symbols = (rng.sample(range(n), n) for _ in range(3))
    return {(r, c): symbols[(rows[r] + cols[c]) % n] + 1 for r, c in grid.cells()}


def _line_mates(grid: Grid, cell: Cell) -> list[Cell]:
    """The other cells of ``cell``'s row and column."""
    r, c = cell
    return [(r, k) for k in range(grid.cols) if k != c] + [(k, c) for k in range(grid.rows) if k != r]


def generate_hitori(rows: int, cols: int, seed: int, options: HitoriOptions | None = None) -> Generated:
    """A Hitori puzzle whose planted shaded cells are its only answer (proved by the oracle)."""
    opts = (options or HitoriOptions()).check()
    rng = random.Random(seed)
    grid = Grid(rows, cols)
    shaded = frozenset(plant_black(rng, grid, opts.density))
    numbers = _latin_filling(rng, grid)
    for cell in sorted(shaded):
        kept = [m for m in _line_mates(grid, cell) if m not in shaded]
        if kept:
            numbers[cell] = numbers[rng.choice(kept)]
    oracle = HitoriOracle(rows, cols)
    limit = opts.repairs or 4 * grid.size
    repairs = 0
    while (other := oracle.alternative(numbers, shaded)) is not None:
        breakable = sorted(shaded - other)
        if not breakable:  # the other answer shades more: it becomes the planted one
            shaded = other
            continue
        repairs += 1
        if repairs > limit:
            oracle.close()
            raise GenerationError(
                f"no unique {rows}x{cols} Hitori after {limit} changed numbers (seed {seed})"
            )
        # A cell only the planted answer shades copies a number the other answer keeps in its line,
        # preferring numbers the planted answer keeps too (those are never changed again).
        choices = [(cell, m) for cell in breakable for m in _line_mates(grid, cell) if m not in other]
        if not choices:
            oracle.close()
            raise GenerationError(
                f"internal error: no number tells the answers apart on {rows}x{cols} seed {seed}"
            )
        lasting = [(cell, m) for cell, m in choices if m not in shaded]
        cell, mate = rng.choice(lasting or choices)
        numbers[cell] = numbers[mate]
    stats = {**oracle.cnf.stats(), "repairs": repairs, "cuts": oracle.cuts}
    oracle.close()
    # Unit propagation on a fresh model of the finished puzzle (no learnt clauses, no cuts).
    fresh = HitoriOracle(rows, cols)
    easy = fresh.propagation_solves(numbers)
    fresh.close()
    meta = {
        "generator": GENERATOR,
        "seed": seed,
        "options": asdict(opts),
        "shaded": len(shaded),
        "repairs": repairs,
        "difficulty": {"unit_propagation": easy},
    }
    puzzle = Hitori(
        rows,
        cols,
        numbers=tuple(tuple(numbers[(r, c)] for c in range(cols)) for r in range(rows)),
        name=f"gen-hitori-{rows}x{cols}-s{seed}",
        meta=meta,
    )
    solution = HitoriSolution(shaded)
    if puzzle.verify(solution):
        raise GenerationError(f"internal error: planted answer fails the verifier on {puzzle.name}")
    return Generated(puzzle, solution, 1, stats=stats)
