"""Light Up generator: walls, a maximal planted bulb layout, numbers, then minimal numbers.

Method (all randomness from one ``random.Random(seed)``):

1. Walls: ``round(density * R * C)`` cells drawn at random; with ``symmetric`` each wall comes
   with its 180-degree rotation.
2. Bulbs: open cells in random order; a bulb goes on every cell still unlit. The layout is a
   maximal set of bulbs that do not see each other, so every open cell is lit.
3. Numbers: a ``numbered`` fraction of the walls (all of them by default) gets its count of
   neighbouring bulbs.
4. Repair: while some other answer exists (found by the incremental oracle), number, in each
   cluster of cells where the two answers differ, an unnumbered wall whose count tells them
   apart; if no wall does, turn one cell per cluster that carries a bulb only in the other
   answer into a numbered wall (with its rotation when symmetric), light what it darkens with
   new bulbs, and renumber. Each repair removes the found answer, and walls can only be added
   finitely often.
5. Removal (``minimize``): numbers in random order, dropped (the wall stays, plain) while the
   oracle proves the planted layout is still the only answer. Each question asks for an answer
   that breaks one of the numbers being dropped (see ``common.minimize``); numbers kept for
   good become fixed clauses. Up to 100 numbers one is tried per question, which leaves a
   minimal set; bigger boards try about 1% of their numbers together.
6. Difficulty: whether unit propagation on a fresh clause model of the finished puzzle decides
   every cell (``difficulty.unit_propagation``); the proof paradigm adds its own figures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from ..model import LightUp, LightUpSolution
from ..model.grid import Cell, Grid
from .cnf import Cnf
from .common import Generated, GenerationError, auto_batch, check_fraction, clusters, minimize, shuffled

GENERATOR = "puzzlebench.generate.lightup"


@dataclass(frozen=True)
class LightUpOptions:
    density: float = 0.2  # fraction of cells that are walls
    symmetric: bool = False  # 180-degree rotational symmetry of the walls
    numbered: float = 1.0  # fraction of walls numbered before removal
    minimize: bool = True  # drop numbers while the answer stays unique
    batch: int = 0  # numbers tried together per removal question (0: automatic)

    def check(self) -> LightUpOptions:
        check_fraction("density", self.density, 0.0, 0.9)
        check_fraction("numbered", self.numbered)
        if not isinstance(self.batch, int) or self.batch < 0:
            raise GenerationError(f"batch must be a non-negative integer, got {self.batch!r}")
        return self


class LightUpOracle:
    """Incremental SAT model of one board: is the planted bulb layout the only answer?"""

    def __init__(self, rows: int, cols: int, walls: frozenset[Cell], planted: frozenset[Cell]):
        self.rows, self.cols, self.walls, self.planted = rows, cols, walls, planted
        self.cnf = cnf = Cnf()
        grid = Grid(rows, cols)
        self.open = [c for c in grid.cells() if c not in walls]
        self.bulb = {c: cnf.var(("bulb", c)) for c in self.open}
        seen: dict[Cell, list[int]] = {c: [] for c in self.open}
        for seg in grid.segments(lambda c: c not in walls):
            lits = [self.bulb[c] for c in seg.cells]
            # No bulb is lit by another bulb: at most one bulb per run of open cells.
            cnf.at_most_one(("seg", seg.horizontal, seg.cells[0]), lits)
            for c in seg.cells:
                seen[c].extend(lits)
        # Every open cell is lit: some bulb in its row run or column run.
        for c in self.open:
            cnf.clause(sorted(set(seen[c])))
        # A numbered wall has exactly that many bulbs next to it (guarded by the wall's selector).
        self.selector: dict[Cell, int] = {}
        self.fixed: set[Cell] = set()
        self.broken: dict[Cell, int] = {}
        self.count_outs: dict[Cell, list[int]] = {}
        for w in sorted(walls):
            around = [self.bulb[n] for n in grid.neighbours4(w) if n in self.bulb]
            self.count_outs[w] = cnf.totalizer(("around", w), around, 5)
        # The planted layout itself is excluded when `other` is assumed.
        self.other = cnf.var(("other",))
        cnf.block(
            self.other, [self.bulb[c] for c in planted], [self.bulb[c] for c in self.open if c not in planted]
        )

    def set_number(self, wall: Cell, n: int) -> None:
        """Give ``wall`` the number ``n`` (active whenever the wall is in the numbered set)."""
        cnf, outs = self.cnf, self.count_outs[wall]
        sel = cnf.var(("number", wall, n))
        cnf.exactly(sel, outs, n)
        self.selector[wall] = sel
        # `broken` -> the wall does not have n bulbs around it (fewer or more).
        broken = self.broken[wall] = cnf.var(("broken", wall, n))
        cnf.clause(
            [-broken, *([-outs[n - 1]] if 0 < n <= len(outs) else []), *([outs[n]] if n < len(outs) else [])]
        )

    def alternative(self, numbered: set[Cell], breaking: Sequence[Cell] = ()) -> frozenset[Cell] | None:
        """Another answer under the numbers on ``numbered`` walls, or None if the planted one is unique.

        With ``breaking``, only answers that break the number of one of those walls are sought.
        """
        cnf = self.cnf
        goal = cnf.question([self.broken[w] for w in breaking]) if breaking else self.other
        try:
            model = cnf.solve([goal, *(self.selector[w] for w in sorted(numbered - self.fixed))])
        finally:
            if breaking:
                cnf.retire(goal)
        if model is None:
            return None
        return self.cnf.true_keys(model, self.bulb)

    def fix(self, clue: Cell) -> None:
        """Keep ``clue`` for good: its selector becomes a root-level unit, no longer assumed."""
        self.cnf.fix(self.selector[clue])
        self.fixed.add(clue)

    def propagation_solves(self, numbered: set[Cell]) -> bool:
        """Does unit propagation from the numbers alone decide every open cell?"""
        implied = self.cnf.propagated([self.selector[w] for w in sorted(numbered)])
        return implied is not None and all(v in implied or -v in implied for v in self.bulb.values())

    def close(self) -> None:
        self.cnf.close()


def _rotate(cell: Cell, rows: int, cols: int) -> Cell:
    return (rows - 1 - cell[0], cols - 1 - cell[1])


def _choose_walls(rng: random.Random, rows: int, cols: int, opts: LightUpOptions) -> set[Cell]:
    target = round(opts.density * rows * cols)
    walls: set[Cell] = set()
    for cell in shuffled(rng, Grid(rows, cols).cells()):
        if len(walls) >= target:
            break
        walls |= {cell, _rotate(cell, rows, cols)} if opts.symmetric else {cell}
    return walls


def _lit_by(grid: Grid, walls: set[Cell], bulb: Cell) -> list[Cell]:
    return [bulb, *(c for ray in grid.rays(bulb, lambda c: c in walls).values() for c in ray)]


def _extend_bulbs(rng: random.Random, grid: Grid, walls: set[Cell], bulbs: set[Cell]) -> set[Cell]:
    """Add bulbs on unlit open cells in random order until every open cell is lit."""
    lit: set[Cell] = set()
    for b in bulbs:
        lit.update(_lit_by(grid, walls, b))
    for cell in shuffled(rng, (c for c in grid.cells() if c not in walls)):
        if cell not in lit:
            bulbs.add(cell)
            lit.update(_lit_by(grid, walls, cell))
    return bulbs


def _count(grid: Grid, bulbs: set[Cell] | frozenset[Cell], wall: Cell) -> int:
    return sum(n in bulbs for n in grid.neighbours4(wall))


def generate_lightup(rows: int, cols: int, seed: int, options: LightUpOptions | None = None) -> Generated:
    """A Light Up puzzle whose planted bulb layout is its only answer (proved by the oracle)."""
    opts = (options or LightUpOptions()).check()
    rng = random.Random(seed)
    grid = Grid(rows, cols)
    walls = _choose_walls(rng, rows, cols, opts)
    bulbs = _extend_bulbs(rng, grid, walls, set())
    numbered = set(shuffled(rng, walls)[: round(opts.numbered * len(walls))])
    repairs = 0
    while True:
        oracle = LightUpOracle(rows, cols, frozenset(walls), frozenset(bulbs))
        for w in walls:
            oracle.set_number(w, _count(grid, bulbs, w))
        while (other := oracle.alternative(numbered)) is not None:
            repairs += 1
            # Repair by numbers: per cluster of the difference, an unnumbered wall whose count
            # differs between the two answers.
            telling = [w for w in walls - numbered if _count(grid, bulbs, w) != _count(grid, other, w)]
            if not telling:
                break
            numbered.update(rng.choice(group) for group in clusters(telling))
        else:
            break
        # Repair by walls: per cluster of the difference, a cell holding a bulb only in the other answer.
        oracle.close()
        new: set[Cell] = set()
        for group in clusters(other - bulbs):
            cell = rng.choice(group)
            new |= {cell, _rotate(cell, rows, cols)} if opts.symmetric else {cell}
        walls |= new
        numbered |= new
        bulbs = _extend_bulbs(rng, grid, walls, bulbs - new)
        if repairs > rows * cols:
            raise GenerationError(f"Light Up {rows}x{cols} seed {seed}: repair did not converge")
    start_numbers = len(numbered)

    if opts.minimize:
        order = shuffled(rng, numbered)
        minimize(
            numbered,
            order,
            opts.batch or auto_batch(len(order)),
            oracle.alternative,
            lambda other, w: _count(grid, other, w) != _count(grid, bulbs, w),
            keep=oracle.fix,
        )
    stats = {**oracle.cnf.stats(), "repairs": repairs}
    oracle.close()
    numbers = {w: _count(grid, bulbs, w) for w in numbered}
    # Unit propagation on a fresh model of the finished puzzle (no learnt clauses).
    with_numbers = LightUpOracle(rows, cols, frozenset(walls), frozenset(bulbs))
    for w, n in numbers.items():
        with_numbers.set_number(w, n)
    easy = with_numbers.propagation_solves(set(numbers))
    with_numbers.close()
    meta = {
        "generator": GENERATOR,
        "seed": seed,
        "options": asdict(opts),
        "walls": len(walls),
        "numbers": len(numbers),
        "numbers_before_removal": start_numbers,
        "repairs": repairs,
        "difficulty": {"unit_propagation": easy},
    }
    puzzle = LightUp(
        rows,
        cols,
        walls=frozenset(walls),
        numbers=numbers,
        name=f"gen-lightup-{rows}x{cols}-s{seed}",
        meta=meta,
    )
    solution = LightUpSolution(bulbs)
    if puzzle.verify(solution):
        raise GenerationError(f"internal error: planted layout fails the verifier on {puzzle.name}")
    return Generated(puzzle, solution, 1, stats=stats)
