"""Kuromasu generator: planted black cells, visible counts as clues, then minimal clues.

Method (all randomness from one ``random.Random(seed)``):

1. Black cells: cells in random order; a cell turns black when no neighbour is black and the
   white cells stay connected, until ``round(density * R * C)`` cells are black.
2. Clues: a ``clues`` fraction of the white cells shows its visible count.
3. Repair: while another answer exists (incremental oracle), add one clue per cluster of cells
   where the answers differ: on a cell the other answer blackens, or else beside a cell only the
   planted answer blackens (whose count the other answer changes). Every repair removes the
   answer found; with every white cell numbered the planted answer is the only one. Once an
   answer found is within two cells of the planted one, the answers one cell away that no clue
   rules out are repaired in one sweep (:func:`one_flips`), without the oracle.
4. Removal (``minimize``): clues in random order, one per question, dropped while the oracle
   proves the planted answer is still the only one; each question asks for an answer that
   breaks the clue being dropped (see ``common.minimize``). Connectivity is added lazily as
   cuts, and proofs near a minimal clue set get hard, so each question has a conflict
   ``budget``: a clue whose question is not settled within it stays (``stats`` counts them as
   ``oracle_undecided``; with none, the clue set is minimal). Most questions never reach the
   oracle: a :class:`Witnesses` answer (one or two cell flips from the planted answer) that
   breaks only the clue asked about proves it needed, and a clue a witness breaks alone among
   the clues left is fixed in the oracle at once. The oracle states the rules at the root
   level; a clue kept is a root-level unit, a clue dropped is ruled out at the root, and only
   the clues not yet asked about are assumed. With ``batch`` > 1 a batch that an answer breaks
   in several clues is halved (group testing), so the clues kept are those of ``batch=1``.
   Every question derives the assumed clues' counts again, so a clue's count is stated with few
   auxiliary variables: unary "sees at least k" chains per direction (the first link is the
   cell's own literal; a stretch is named by its end cells, shared by a number looking back),
   two merged, the other two and the merge compared by direct clauses (``Cnf.sum_equals``),
   a stretch past another number tied to that number's stretch beyond it, and a question asks
   for a change among the cells the clue's count depends on.
5. Difficulty: whether unit propagation on a fresh clause model of the finished puzzle (with
   the one-cell connectivity cut only) decides every cell (``difficulty.unit_propagation``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass

from ..encodings.sat.kuromasu import white_connected
from ..model import Kuromasu, KuromasuSolution
from ..model.grid import Cell, Direction, Grid
from .cnf import Cnf
from .common import (
    Generated,
    GenerationError,
    _keeps_whites_connected,
    auto_batch,
    check_fraction,
    clusters,
    cut_cells,
    minimize,
    plant_black,
    shuffled,
    white_components,
)

GENERATOR = "puzzlebench.generate.kuromasu"


@dataclass(frozen=True)
class KuromasuOptions:
    density: float = 0.25  # target fraction of black cells
    clues: float = 0.1  # fraction of white cells numbered before repair and removal
    minimize: bool = True  # drop clues while the answer stays unique
    batch: int = 1  # clues tried together per removal question (0: about 1% of the clues)
    # Conflicts per removal question; an undecided clue stays (0: no limit). Just under
    # MiniSat's first restart (at 100 conflicts), which would derive every assumed clue again.
    budget: int = 99

    def check(self) -> KuromasuOptions:
        check_fraction("density", self.density, 0.0, 0.5)
        check_fraction("clues", self.clues)
        if not isinstance(self.batch, int) or self.batch < 0:
            raise GenerationError(f"batch must be a non-negative integer, got {self.batch!r}")
        if not isinstance(self.budget, int) or self.budget < 0:
            raise GenerationError(f"budget must be a non-negative integer, got {self.budget!r}")
        return self


def visible(grid: Grid, black: frozenset[Cell] | set[Cell], cell: Cell) -> int:
    """The white cells ``cell`` sees in its row and column up to a black cell, itself included."""
    return 1 + sum(len(ray) for ray in grid.rays(cell, lambda c: c in black).values())


class Witnesses:
    """Answers one or two cell flips away from the planted one, and the clues each breaks.

    An answer of the rules (no two black cells adjacent, white cells connected) other than the
    planted one that breaks, among the clues kept, only clues of the trial is an answer of the
    other kept clues: it settles a removal question ("needed") without asking the oracle. The
    flips tried: a white cell turns black, a black cell turns white, and a black cell moves to a
    spot where a clue sees both changes and may keep its count.
    """

    def __init__(self, grid: Grid, black: frozenset[Cell], count: dict[Cell, int], clues: set[Cell]):
        self.black = black
        self.kept = set(clues)
        self.by_clue: dict[Cell, list[tuple[frozenset[Cell], frozenset[Cell], frozenset[Cell]]]] = {}
        board = set(black)

        def seen(cell: Cell) -> set[Cell]:
            # The clues in the four rays of ``cell`` over the white cells of ``board``.
            return {c for ray in grid.rays(cell, board.__contains__).values() for c in ray if c in clues}

        def add(removed: frozenset[Cell], added: frozenset[Cell], broken: set[Cell]) -> None:
            for c in sorted(broken):
                self.by_clue.setdefault(c, []).append((removed, added, frozenset(broken)))

        none: frozenset[Cell] = frozenset()
        cuts = cut_cells(grid.rows, grid.cols, black)
        for cell in grid.cells():
            if cell in black:
                # A black cell turns white: every clue it blocked sees further.
                add(frozenset([cell]), none, seen(cell))
            elif not any(n in black for n in grid.neighbours4(cell)) and cell not in cuts:
                # A white cell turns black: a clue there is broken, and every clue that saw it sees less.
                add(none, frozenset([cell]), seen(cell) | ({cell} & clues))
        for b in sorted(black):
            board.discard(b)
            near = seen(b)
            # Where a new black cell undoes what b's turning white adds to a clue's count: in
            # another line of that clue, as many cells before the end of its view.
            spots = set(grid.neighbours4(b))
            for c in near:
                toward = next(
                    d
                    for d in Direction
                    if (b[0] - c[0]) * d.step[0] + (b[1] - c[1]) * d.step[1] > 0
                    and (b[0] - c[0]) * d.step[1] == (b[1] - c[1]) * d.step[0]
                )
                gain = len(grid.ray(c, toward, board.__contains__)) - (
                    abs(b[0] - c[0]) + abs(b[1] - c[1]) - 1
                )
                for d in Direction:
                    if d is not toward:
                        ray = grid.ray(c, d, board.__contains__)
                        if 0 < gain <= len(ray):
                            spots.add(ray[len(ray) - gain])
            for x in sorted(spots):
                # The moved cell touches no black cell and (checked near it only) splits no white region.
                if any(n in board for n in grid.neighbours4(x)) or not _keeps_whites_connected(
                    grid, board, x, True
                ):
                    continue
                # A black cell moves: a clue in the lines of both cells may keep its count.
                lines = near | seen(x) | ({x} & clues)
                board.add(x)
                broken = {c for c in lines if c == x or visible(grid, board, c) != count[c]}
                board.discard(x)
                add(frozenset([b]), frozenset([x]), broken)
            board.add(b)

    def needed(self) -> list[Cell]:
        """The clues some witness breaks alone: needed now, and in every smaller clue set."""
        return sorted(c for c, ws in self.by_clue.items() if any(len(w[2] & self.kept) == 1 for w in ws))

    def drop(self, clue: Cell) -> list[Cell]:
        """Take ``clue`` out of the kept clues; the clues that a witness now breaks alone."""
        self.kept.discard(clue)
        out: set[Cell] = set()
        for _, _, broken in self.by_clue.get(clue, ()):
            left = broken & self.kept
            if len(left) == 1:
                out |= left
        return sorted(out)

    def find(self, rest: set[Cell], trial: Sequence[Cell]) -> frozenset[Cell] | None:
        """A witnessed answer that breaks some of ``trial`` and none of ``rest``, or None."""
        for clue in trial:
            for removed, added, broken in self.by_clue.get(clue, ()):
                if broken.isdisjoint(rest):
                    return (self.black - removed) | added
        return None


def one_flips(grid: Grid, black: frozenset[Cell], clues: set[Cell]) -> Iterator[frozenset[Cell]]:
    """Answers one cell away from ``black`` that break no clue of ``clues`` (read as it grows).

    A black cell turning white keeps every rule but the counts of the clues that see it; a white
    cell turning black keeps them where no black cell touches it and it splits no white region,
    and breaks its own clue and those that see it. Cells are tried in row-major order, each
    against the clues of that moment.
    """
    cuts = cut_cells(grid.rows, grid.cols, black)
    for cell in grid.cells():
        if cell in black:
            flipped = black - {cell}
        elif cell in clues or cell in cuts or any(n in black for n in grid.neighbours4(cell)):
            continue
        else:
            flipped = black | {cell}
        if not any(c in clues for ray in grid.rays(cell, black.__contains__).values() for c in ray):
            yield flipped


class KuromasuOracle:
    """Incremental SAT model of one board with connectivity added lazily as cuts.

    ``guarded=False`` (the removal oracle) states the rules at the root level; a guarded oracle
    keeps them behind the activation literal, as :meth:`propagation_solves` needs.
    """

    def __init__(self, rows: int, cols: int, planted: frozenset[Cell], guarded: bool = True):
        self.grid = grid = Grid(rows, cols)
        self.planted = planted
        self.cnf = cnf = Cnf(guarded)
        self.black = {c: cnf.var(("black", c)) for c in grid.cells()}
        # No two black cells share a side.
        for a, b in grid.edges():
            cnf.clause([-self.black[a], -self.black[b]])
        # Connectivity, the one-cell cut: a white cell is not walled in by black neighbours
        # (on boards at least 2x2 another white cell then always exists).
        if rows >= 2 and cols >= 2:
            for c in grid.cells():
                cnf.clause([self.black[c], *(-self.black[n] for n in grid.neighbours4(c))])
        self.other = cnf.var(("other",))
        cnf.block(
            self.other,
            [self.black[c] for c in planted],
            [v for c, v in self.black.items() if c not in planted],
        )
        self.selector: dict[Cell, int] = {}
        self.fixed: set[Cell] = set()
        self.differs: dict[Cell, list[int]] = {}
        self.chains: dict[tuple[Cell, Direction], list[int]] = {}
        self.number: dict[Cell, int] = {}
        self.longest = 0  # the longest chain so far
        self.cuts = 0

    def add_clue(self, cell: Cell, n: int) -> None:
        """Encode "``cell`` is white and sees ``n`` cells", active when its selector is assumed."""
        cnf, black = self.cnf, self.black
        sel = cnf.var(("clue", cell, n))
        self.selector[cell] = sel
        # A numbered cell is white.
        cnf.clause([-sel, -black[cell]])
        # Seeing k cells one way: the first k cells that way are all white (a sorted unary
        # number). The first is its cell's own literal; a longer stretch is named by its end
        # cells, so a number at the far end looking back shares it.
        rays: list[list[int]] = []
        differs = [black[cell]]  # the cells this count depends on, as "not as planted"
        for d in Direction:
            ray = self._line(cell, d.step, n)
            seen: list[int] = []
            view = True  # within the planted view, or its closing black cell
            for k, c in enumerate(ray, start=1):
                if view:
                    differs.append(-black[c] if c in self.planted else black[c])
                    view = c not in self.planted
                if k == n:
                    # The number cannot see n cells one way (it counts itself too).
                    cnf.clause([-sel, -seen[-1], black[c]] if seen else [-sel, black[c]])
                    break
                if not seen:
                    seen.append(-black[c])
                    continue
                v = cnf.var(("white", *sorted((ray[0], c))))
                cnf.equiv_and(v, [seen[-1], -black[c]])
                seen.append(v)
            rays.append(seen)
            self.chains[(cell, d)] = seen
            self.longest = max(self.longest, len(seen))
            self._link(cell, d, ray, seen, n)
        self.number[cell] = n
        # The number counts the cell itself plus what it sees.
        cnf.sum_equals(("seen", cell), sel, rays, n - 1)
        # Breaking the number changes one of these cells (planted black cells end each view).
        self.differs[cell] = sorted(set(differs), key=abs)

    def _line(self, cell: Cell, step: Cell, limit: int) -> list[Cell]:
        """Up to ``limit`` cells from ``cell`` (exclusive) by ``step``, to the border."""
        (r, c), (dr, dc) = cell, step
        k = min(
            limit,
            r if dr < 0 else self.grid.rows - 1 - r if dr > 0 else limit,
            c if dc < 0 else self.grid.cols - 1 - c if dc > 0 else limit,
        )
        return [(r + dr * i, c + dc * i) for i in range(1, k + 1)]

    def _link(self, cell: Cell, d: Direction, ray: list[Cell], seen: list[int], n: int) -> None:
        """Stretches through another number, both ways round: a stretch past a number implies
        that number's stretch beyond it, or is impossible when that number cannot see so far."""
        # Numbers inside this chain.
        for j, other in enumerate(ray[: len(seen) - 1], start=1):
            if (other, d) in self.chains:
                self._pass(seen, j, self.chains[(other, d)], self.selector[other], self.number[other])
        # Numbers whose chain this way runs through this cell.
        for j, other in enumerate(self._line(cell, (-d.step[0], -d.step[1]), self.longest), start=1):
            chain = self.chains.get((other, d))
            if chain is not None and len(chain) > j:
                self._pass(chain, j, seen, self.selector[cell], n)

    def _pass(self, outer: list[int], j: int, inner: list[int], sel: int, n: int) -> None:
        """``outer``'s stretches run through a number ``j`` cells on, whose chain is ``inner``."""
        for k in range(j + 1, len(outer) + 1):
            m = k - j  # cells seen past the number
            if m <= len(inner):
                self.cnf.clause([-outer[k - 1], inner[m - 1]])
            else:
                if m >= n:
                    self.cnf.clause([-sel, -outer[k - 1]])
                break

    def alternative(
        self, clues: set[Cell], breaking: Sequence[Cell] = (), budget: int | None = None
    ) -> frozenset[Cell] | None:
        """Another answer under ``clues``, or None if the planted one is unique.

        With ``breaking``, only answers that change a cell one of those clues' counts depend on
        (the clue's cell, the cells it sees and the black cells ending its view) are sought:
        since the planted answer is the only one of ``clues`` plus ``breaking``, such an answer
        of ``clues`` breaks one of them, and an answer that breaks one changes such a cell.
        ``budget`` caps the conflicts of each solver call (raising ``Undecided`` when spent).
        """
        cnf = self.cnf
        goal = cnf.question([x for c in breaking for x in self.differs[c]]) if breaking else self.other
        if breaking:
            # Clues in order of decreasing distance to the clues asked about, the question last:
            # a conflict near those clues sends the solver back past few assumptions.
            def far(c: Cell) -> tuple[int, Cell]:
                r, k = c
                return (-min(max(abs(r - t[0]), abs(k - t[1])) for t in breaking), c)

            assumptions = [*(self.selector[c] for c in sorted(clues - self.fixed, key=far)), goal]
        else:
            assumptions = [goal, *(self.selector[c] for c in sorted(clues - self.fixed))]
        try:
            while True:
                model = cnf.solve(assumptions, budget)
                if model is None:
                    return None
                black = cnf.true_keys(model, self.black)
                if white_connected(self.grid.rows, self.grid.cols, black):
                    return black
                self._cut(black, white_components(self.grid.rows, self.grid.cols, black), clues)
        finally:
            if breaking:
                cnf.retire(goal)

    def _cut(self, black: frozenset[Cell], comps: list[list[Cell]], clues: set[Cell]) -> None:
        """All white cells connected, as cuts: a closed-off white region needs a gap in its border.

        For a component K of the white cells, its black border B, a cell k in K and a cell w
        in another component: not (all of B black, k white, w white). Valid for every answer,
        whatever the clues, so the cuts stay for later questions.
        """
        main = comps[0]
        w = next((c for c in main if c in clues), main[0])
        for comp in comps[1:]:
            k = next((c for c in comp if c in clues), comp[0])
            border = sorted({n for c in comp for n in self.grid.neighbours4(c) if n in black})
            self.cnf.clause([*(-self.black[b] for b in border), self.black[k], self.black[w]])
            self.cuts += 1

    def fix(self, clue: Cell) -> None:
        """Keep ``clue`` for good: its selector becomes a root-level unit, no longer assumed."""
        if clue in self.fixed:
            return
        self.cnf.fix(self.selector[clue])
        self.fixed.add(clue)

    def drop(self, clue: Cell) -> None:
        """Remove ``clue`` for good: its selector becomes false at the root (its clauses hold)."""
        self.cnf.fix(-self.selector[clue])

    def propagation_solves(self, clues: set[Cell]) -> bool:
        """Does unit propagation from the clues (and the cuts added so far) decide every cell?"""
        implied = self.cnf.propagated([self.selector[c] for c in sorted(clues)])
        return implied is not None and all(v in implied or -v in implied for v in self.black.values())

    def close(self) -> None:
        self.cnf.close()


def generate_kuromasu(rows: int, cols: int, seed: int, options: KuromasuOptions | None = None) -> Generated:
    """A Kuromasu puzzle whose planted black cells are its only answer (proved by the oracle)."""
    opts = (options or KuromasuOptions()).check()
    rng = random.Random(seed)
    grid = Grid(rows, cols)
    black = frozenset(plant_black(rng, grid, opts.density))
    white = [c for c in grid.cells() if c not in black]
    count = {c: visible(grid, black, c) for c in white}
    clues = set(shuffled(rng, white)[: max(1, round(opts.clues * len(white)))])
    oracle = KuromasuOracle(rows, cols, black, guarded=False)
    for c in white:
        if c in clues:
            oracle.add_clue(c, count[c])
    repairs = 0
    swept = False

    def repair(other: frozenset[Cell]) -> None:
        # Cells the other answer blackens, else white cells beside the planted-only black cells.
        spots = [c for c in other - black]
        if not spots:
            spots = [n for b in black - other for n in grid.neighbours4(b) if n not in clues]
        spots = [c for c in spots if c not in clues]
        if not spots:
            raise GenerationError(
                f"internal error: no clue tells the answers apart on {rows}x{cols} seed {seed}"
            )
        for group in clusters(spots):
            cell = rng.choice(group)
            clues.add(cell)
            oracle.add_clue(cell, count[cell])

    while (other := oracle.alternative(clues)) is not None:
        repairs += 1
        repair(other)
        if not swept and len(other ^ black) <= 2:
            # The other answers left are mostly one cell away from the planted one: those are
            # found and repaired here, each without a solver call.
            swept = True
            for other in one_flips(grid, black, clues):
                repairs += 1
                repair(other)
    start_clues = len(clues)
    witnessed = 0  # removal questions settled by a witness instead of the oracle
    if opts.minimize:
        order = shuffled(rng, clues)
        witnesses = Witnesses(grid, black, count, clues)

        def alternative(rest: set[Cell], trial: Sequence[Cell]) -> frozenset[Cell] | None:
            nonlocal witnessed
            found = witnesses.find(rest, trial)
            if found is not None:
                witnessed += 1
                return found
            return oracle.alternative(rest, trial, opts.budget or None)

        # A clue a witness proves needed stays in every smaller clue set: it is fixed at once,
        # so later questions no longer assume it (the clues kept are the same).
        for c in witnesses.needed():
            oracle.fix(c)

        def drop(clue: Cell) -> None:
            oracle.drop(clue)
            for c in witnesses.drop(clue):
                oracle.fix(c)

        minimize(
            clues,
            order,
            opts.batch or auto_batch(len(order)),
            alternative,
            lambda other, c: c in other or visible(grid, other, c) != count[c],
            keep=oracle.fix,
            drop=drop,
            exact=True,
        )
    stats = {**oracle.cnf.stats(), "repairs": repairs, "cuts": oracle.cuts, "witnessed": witnessed}
    oracle.close()
    # Unit propagation on a fresh model of the finished puzzle (no learnt clauses, no cuts).
    with_clues = KuromasuOracle(rows, cols, black)
    for c in clues:
        with_clues.add_clue(c, count[c])
    easy = with_clues.propagation_solves(clues)
    with_clues.close()
    meta = {
        "generator": GENERATOR,
        "seed": seed,
        "options": asdict(opts),
        "black": len(black),
        "clues": len(clues),
        "clues_before_removal": start_clues,
        "repairs": repairs,
        "difficulty": {"unit_propagation": easy},
    }
    puzzle = Kuromasu(
        rows,
        cols,
        numbers={c: count[c] for c in clues},
        name=f"gen-kuromasu-{rows}x{cols}-s{seed}",
        meta=meta,
    )
    solution = KuromasuSolution(black)
    if puzzle.verify(solution):
        raise GenerationError(f"internal error: planted answer fails the verifier on {puzzle.name}")
    return Generated(puzzle, solution, 1, stats=stats)
