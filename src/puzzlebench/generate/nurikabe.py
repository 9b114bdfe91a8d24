"""Nurikabe generator: a planted wall carved into small islands, one number per island, repaired
where a second answer differs until the planted answer is the only one.

Method (all randomness from one ``random.Random(seed)``):

1. Wall: every cell starts shaded. First every 2x2 block gets an unshaded cell (blocks in
   row-major order, a random cell of each block that still is all wall, preferring cells that
   join the biggest island allowed), then, in random order, more cells are unshaded. A cell is
   only unshaded when the wall stays connected and the island it joins (or starts) stays
   within ``max_island`` cells; since cells are only ever unshaded, no 2x2 block of wall comes
   back. (Carving first and checking the blocks last leaves dozens of 2x2 blocks on a 30x30
   board, so bigger boards almost never survived.) A block whose four cells all break a rule
   draws a new board (at most ``attempts`` boards; about one 30x30 board in four).
2. Numbers: each island shows its size on one random cell of it.
3. Repair: an incremental SAT oracle (:class:`NurikabeOracle`) looks for an answer other than
   the planted one. Where the two answers differ (cells grouped into clusters), each cluster
   gets one change of the board (planted wall and numbers) that rules the other answer out,
   the first that applies of: an island the other answer changes shrinks by a cell or grows by
   one (its number no longer fits the other answer), a wall cell among wall neighbours becomes
   an island of 1, an island nearby shrinks, a number moves onto a cell the other answer
   shades. Some change always applies: an answer that unshades every planted island cell
   keeps every island (each has its size already) and has no other unshaded cell, so it is
   the planted one; a cell it shades can carry the number. A board that comes back to an
   earlier state gets a random change instead (breaking the cycle); after ``repairs`` rounds
   a new board is drawn.

The oracle states the rules that hold whatever the numbers once (no 2x2 wall block) and the
rest through selector literals assumed per question (a cell holds number n; a cell holds no
number), so clauses learnt on one question serve the next. Wall connectivity and the island
rule are added lazily as cuts, each guarded by the numbers it relies on. Cuts stay few for
islands of up to 4 cells; looser boards (islands of 6 on a 20x20 board) need so many rounds of
cuts that a question has a ``budget`` of them, and running out is an error. The caller's proof of
record (:func:`puzzlebench.generate.generate`, ``solve(count=2)`` in a registered paradigm)
proves the result unique independently of this oracle.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from ..encodings.islands import IslandPlan
from ..model import Nurikabe, NurikabeSolution
from ..model.grid import Cell, Grid
from .cnf import Cnf, Undecided
from .common import Generated, GenerationError, clusters, shuffled, white_components

GENERATOR = "puzzlebench.generate.nurikabe"


@dataclass(frozen=True)
class NurikabeOptions:
    max_island: int = 4  # the largest island carved
    attempts: int = 10  # boards drawn before giving up
    repairs: int = 0  # repair rounds per board (0: twice the board's rows plus columns)
    budget: int = 5000  # rounds of cuts per oracle question before giving up (0: no limit)

    def check(self) -> NurikabeOptions:
        for name in ("max_island", "attempts"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise GenerationError(f"{name} must be a positive integer, got {value!r}")
        for name in ("repairs", "budget"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise GenerationError(f"{name} must be a non-negative integer, got {value!r}")
        return self


# -- planting ------------------------------------------------------------------------------------


def _search(
    grid: Grid,
    start: Cell,
    member: Callable[[Cell], bool],
    goal: set[Cell],
    inside: Callable[[Cell], bool] = lambda cell: True,
) -> bool:
    """Does a breadth-first search from ``start`` over ``member`` cells ``inside`` reach all of ``goal``?"""
    goal = set(goal) - {start}
    seen, todo = {start}, deque([start])
    while todo and goal:
        for nb in grid.neighbours4(todo.popleft()):
            if nb not in seen and member(nb) and inside(nb):
                seen.add(nb)
                goal.discard(nb)
                todo.append(nb)
    return not goal


def wall_stays_connected(grid: Grid, wall: set[Cell], cell: Cell) -> bool:
    """Would the wall stay connected without ``cell`` (a wall cell of a connected wall)?

    Exactly when its wall neighbours stay connected to each other: a search inside the 5x5
    window around ``cell`` settles most cells, a search over the whole wall the rest.
    """
    around = [nb for nb in grid.neighbours4(cell) if nb in wall]
    if len(around) <= 1:
        return True  # a leaf of the wall
    member = lambda c: c in wall and c != cell
    r0, c0 = cell
    if _search(
        grid, around[0], member, set(around[1:]), lambda c: abs(c[0] - r0) <= 2 and abs(c[1] - c0) <= 2
    ):
        return True
    return _search(grid, around[0], member, set(around[1:]))


def _island_of(grid: Grid, wall: set[Cell], start: Cell) -> set[Cell]:
    """The unshaded cells connected to ``start`` (an unshaded cell)."""
    seen, stack = {start}, [start]
    while stack:
        for nb in grid.neighbours4(stack.pop()):
            if nb not in wall and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen


def _joined(grid: Grid, wall: set[Cell], cell: Cell) -> int:
    """The size of the island ``cell`` would make if unshaded (its neighbouring islands joined)."""
    joined: set[Cell] = {cell}
    for nb in grid.neighbours4(cell):
        if nb not in wall and nb not in joined:
            joined |= _island_of(grid, wall, nb)
    return len(joined)


def _may_unshade(grid: Grid, wall: set[Cell], cell: Cell, max_island: int) -> bool:
    """Islands stay within ``max_island`` cells and the wall stays connected."""
    return _joined(grid, wall, cell) <= max_island and wall_stays_connected(grid, wall, cell)


def _may_shade(grid: Grid, wall: set[Cell], cell: Cell) -> bool:
    """Shading ``cell`` (an unshaded cell beside the wall) makes no 2x2 block of wall."""
    if not any(nb in wall for nb in grid.neighbours4(cell)):
        return False
    r, c = cell
    for dr in (-1, 0):
        for dc in (-1, 0):
            block = [(r + dr + i, c + dc + j) for i in (0, 1) for j in (0, 1)]
            if all(x in grid for x in block) and all(x in wall or x == cell for x in block):
                return False
    return True


def plant(rng: random.Random, grid: Grid, max_island: int) -> set[Cell] | None:
    """A connected wall with no 2x2 block and islands of at most ``max_island`` cells, or None."""
    wall = set(grid.cells())
    # No 2x2 block is all wall: blocks in row-major order each get an unshaded cell, a random
    # one among those making the biggest island allowed (a random block order runs into
    # blocks whose four cells all break a rule on most 30x30 boards; preferring new islands of
    # 1 makes half the islands 1s).
    for r in range(grid.rows - 1):
        for c in range(grid.cols - 1):
            block = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            if not all(cell in wall for cell in block):
                continue
            choices = sorted(shuffled(rng, block), key=lambda cell: -_joined(grid, wall, cell))
            cell = next((x for x in choices if _may_unshade(grid, wall, x, max_island)), None)
            if cell is None:
                return None
            wall.discard(cell)
    # Islands grow (up to max_island cells) while the wall stays connected.
    changed = True
    while changed:
        changed = False
        for cell in shuffled(rng, wall):
            if _may_unshade(grid, wall, cell, max_island):
                wall.discard(cell)
                changed = True
    return wall


# -- the incremental oracle ------------------------------------------------------------------------


class NurikabeOracle:
    """Incremental SAT model of one board's answers, for whatever numbers a question assumes.

    ``wall`` variables per cell; the no-2x2 rule is stated once. Number facts are selector
    literals (``number(cell, n)``; ``free[cell]``: the cell holds no number) that each question
    assumes, so rules and cuts that rely on numbers hold only while their numbers do.
    """

    def __init__(self, rows: int, cols: int):
        self.grid = grid = Grid(rows, cols)
        self.adj = {c: tuple(grid.neighbours4(c)) for c in grid.cells()}
        self.cells = list(grid.cells())
        self.index = {c: i for i, c in enumerate(self.cells)}
        self.adjacency = [tuple(self.index[nb] for nb in self.adj[c]) for c in self.cells]
        self.cnf = cnf = Cnf()
        self.wall = {c: cnf.var(("wall", c)) for c in grid.cells()}
        self.wall_var = [self.wall[c] for c in self.cells]
        self.free = {c: cnf.var(("free", c)) for c in grid.cells()}
        self.selector: dict[tuple[Cell, int], int] = {}
        self.cuts = 0
        # No 2x2 block is all wall.
        for r in range(rows - 1):
            for c in range(cols - 1):
                cnf.clause([-self.wall[cell] for cell in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))])
        # An unshaded cell without a number has an unshaded neighbour (its island's number is
        # elsewhere).
        for cell in grid.cells():
            cnf.clause(
                [-self.free[cell], self.wall[cell], *(-self.wall[nb] for nb in grid.neighbours4(cell))]
            )
        # A connected wall of two cells or more (the numbers fix its size: the cells they leave
        # over) gives every wall cell a wall neighbour.
        self.walls = cnf.var(("walls", 2))
        for cell in grid.cells():
            cnf.clause([-self.walls, -self.wall[cell], *(self.wall[nb] for nb in grid.neighbours4(cell))])

    def number(self, cell: Cell, n: int) -> int:
        """The selector "``cell`` holds the number ``n``" (made on first use)."""
        key = (cell, n)
        if key not in self.selector:
            sel = self.selector[key] = self.cnf.var(("number", cell, n))
            cnf, wall, adj = self.cnf, self.wall, self.adj
            # A numbered cell is unshaded.
            cnf.clause([-sel, -wall[cell]])
            if n == 1:
                # The neighbours of a 1 are wall.
                for nb in adj[cell]:
                    cnf.clause([-sel, wall[nb]])
            else:
                # A bigger island reaches out: some neighbour is unshaded.
                cnf.clause([-sel, *(-wall[nb] for nb in adj[cell])])
            if n == 2:
                # A 2 has one unshaded neighbour, whose other neighbours are wall.
                for i, x in enumerate(adj[cell]):
                    for y in adj[cell][i + 1 :]:
                        cnf.clause([-sel, wall[x], wall[y]])
                    for z in adj[x]:
                        if z != cell:
                            cnf.clause([-sel, wall[x], wall[z]])
        return self.selector[key]

    def assumptions(self, numbers: dict[Cell, int]) -> list[int]:
        """The number facts of a board, "the wall has two cells or more" when the numbers leave
        that many cells over, and "wall" for the cells no island can reach."""
        out = [self.number(cell, n) for cell, n in sorted(numbers.items())]
        out += [self.free[cell] for cell in self.grid.cells() if cell not in numbers]
        if self.grid.size - sum(numbers.values()) >= 2:
            out.append(self.walls)
        # A cell no island can reach is wall (IslandPlan's sound precomputation).
        plan = IslandPlan.of(Nurikabe(self.grid.rows, self.grid.cols, numbers=numbers))
        out += [self.wall[cell] for cell in sorted(plan.wall)]
        return out

    def alternative(
        self, numbers: dict[Cell, int], planted: set[Cell] | frozenset[Cell], budget: int | None = None
    ) -> frozenset[Cell] | None:
        """An answer of ``numbers`` other than ``planted`` (wall cells), or None if there is none.

        ``budget`` caps the solver calls (rounds of cuts) of the question: :class:`Undecided`
        when they run out."""
        cnf, cells = self.cnf, self.cells
        # Some cell differs from the planted answer.
        other = cnf.question([-v if c in planted else v for c, v in self.wall.items()])
        assumptions = [other, *self.assumptions(numbers)]
        at = {self.index[c]: n for c, n in numbers.items()}
        try:
            for _ in itertools.count() if budget is None else range(budget):
                model = cnf.solve(assumptions)
                if model is None:
                    return None
                is_wall = [model[v - 1] > 0 for v in self.wall_var]
                cuts = self._wall_cuts(is_wall) + self._island_cuts(at, is_wall)
                if not cuts:
                    return frozenset(cells[i] for i, x in enumerate(is_wall) if x)
                for cut in cuts:
                    cnf.clause(cut)
                self.cuts += len(cuts)
            raise Undecided(f"no answer within {budget} rounds of cuts")
        finally:
            cnf.retire(other)

    def _parts(self, is_wall: list[bool], kind: bool) -> list[list[int]]:
        """The orthogonally connected regions of wall (``kind`` True) or unshaded cells, by index."""
        adj, seen, out = self.adjacency, bytearray(len(is_wall)), []
        for start, x in enumerate(is_wall):
            if seen[start] or x != kind:
                continue
            seen[start] = 1
            part = [start]
            for i in part:  # breadth-first: the list grows while it is read
                for j in adj[i]:
                    if not seen[j] and is_wall[j] == kind:
                        seen[j] = 1
                        part.append(j)
            out.append(part)
        return out

    def _wall_cuts(self, is_wall: list[bool]) -> list[list[int]]:
        """All wall cells connected: for a wall region K with unshaded fence B, a cell k of K and
        a wall cell w beyond K, not (all of B unshaded, k and w wall). Valid whatever the numbers."""
        parts = self._parts(is_wall, True)
        if len(parts) <= 1:
            return []
        var, adj = self.wall_var, self.adjacency
        main = max(parts, key=len)
        cuts = []
        for part in parts:
            if part is not main:
                fence = sorted({j for i in part for j in adj[i] if not is_wall[j]})
                cuts.append([*(var[j] for j in fence), -var[part[0]], -var[main[0]]])
        return cuts

    def _island_cuts(self, at: dict[int, int], is_wall: list[bool]) -> list[list[int]]:
        """Every island holds one number equal to its size: one cut per faulty island R (fence F),
        guarded by the number facts it relies on (``at``: cell index -> number).

        - no number: not (R unshaded, F wall) while no cell of R holds a number;
        - fewer cells than its number n: not (R unshaded, F wall) while the number is n;
        - more cells than n: the first n + 1 cells of a search from the number are not all
          unshaded, while the number is n;
        - two numbers: the cells of a shortest path between two of them are not all unshaded,
          while both are numbers.
        """
        var, adj, cells, cuts = self.wall_var, self.adjacency, self.cells, []
        for region in self._parts(is_wall, False):
            clues = [i for i in region if i in at]
            if len(clues) == 1 and len(region) == at[clues[0]]:
                continue  # a good island
            inside = set(region)
            if len(clues) >= 2:
                path = _path(adj, inside, clues[0], set(clues[1:]))
                a, b = clues[0], path[-1]
                guard = [-self.number(cells[a], at[a]), -self.number(cells[b], at[b])]
                cuts.append([*guard, *(var[i] for i in path[:-1])])
                continue
            if clues and len(region) > at[clues[0]]:
                a, n = clues[0], at[clues[0]]
                first = _path(adj, inside, a, set())[:n]  # the first n cells after a
                cuts.append([-self.number(cells[a], n), *(var[i] for i in first)])
                continue
            fence = sorted({j for i in region for j in adj[i] if j not in inside})
            closed = [*(var[i] for i in region if i not in at), *(-var[j] for j in fence)]
            if not clues:
                cuts.append([*(-self.free[cells[i]] for i in region), *closed])
            else:
                cuts.append([-self.number(cells[clues[0]], at[clues[0]]), *closed])
        return cuts

    def propagation_solves(self, numbers: dict[Cell, int]) -> bool:
        """Does unit propagation from the numbers (and the cuts added so far) decide every cell?"""
        implied = self.cnf.propagated(self.assumptions(numbers))
        return implied is not None and all(v in implied or -v in implied for v in self.wall.values())

    def close(self) -> None:
        self.cnf.close()


def _path(adj: Sequence[Sequence[int]], inside: set[int], start: int, goals: set[int]) -> list[int]:
    """Breadth-first search from ``start`` inside ``inside``: with ``goals``, the path (after
    ``start``) to the nearest goal; without, every reached cell after ``start`` in visiting order."""
    parent = {start: start}
    order, todo = [], deque([start])
    while todo:
        cell = todo.popleft()
        for nb in adj[cell]:
            if nb in inside and nb not in parent:
                parent[nb] = cell
                if nb in goals:
                    path = [nb]
                    while parent[path[-1]] != start:
                        path.append(parent[path[-1]])
                    return path[::-1]
                order.append(nb)
                todo.append(nb)
    return order


# -- the generator -------------------------------------------------------------------------------


def _renumber(
    rng: random.Random, grid: Grid, wall: set[Cell], numbers: dict[Cell, int], cells: set[Cell]
) -> None:
    """Number the islands now covering ``cells`` (an old island's number stays on its piece)."""
    old = [c for c in cells if c in numbers]
    for c in old:
        del numbers[c]
    pieces = white_components(grid.rows, grid.cols, set(grid.cells()) - cells | wall)
    for piece in pieces:
        keep = [c for c in piece if c in old]
        numbers[keep[0] if keep else rng.choice(piece)] = len(piece)


def _repair(
    rng: random.Random,
    grid: Grid,
    wall: set[Cell],
    numbers: dict[Cell, int],
    other: frozenset[Cell],
    max_island: int,
    shake: bool = False,
) -> int:
    """Change the board (``wall`` and ``numbers`` in place) so that ``other`` is no answer,
    once per cluster of cells where the answers differ; the number of changes.

    Each change rules ``other`` out: a new island of 1 is shaded or joined to a bigger island
    by ``other``; an island that shrinks or grows no longer has the size ``other`` gives its
    number; a number moved onto a cell ``other`` shades is shaded there. The first kind of
    change that applies is made, in the order below; with ``shake`` (the board came back to an
    earlier state) a random one of all that apply, which breaks the cycle.
    """
    changes = 0
    differ = {c for c in grid.cells() if (c in wall) != (c in other)}
    for group in clusters(differ):
        near = sorted({nb for c in group for nb in [c, *grid.neighbours8(c)]})
        touched = {frozenset(_island_of(grid, wall, c)) for c in group if c not in wall}
        touched |= {
            frozenset(_island_of(grid, wall, nb))
            for c in group
            if c in wall
            for nb in grid.neighbours4(c)
            if nb not in wall
        }
        changed = sorted(touched, key=min)
        beside = sorted(
            {frozenset(_island_of(grid, wall, c)) for c in near if c not in wall} - touched, key=min
        )
        shaded = [c for c in shuffled(rng, group) if c not in wall and c in other and c not in numbers]
        options: list[list[tuple[str, Cell]]] = [
            # an island the other answer changes shrinks by a cell, preferably one it shades
            # (no 2x2 block of wall appears; a piece cut off gets its own number);
            [("shade", c) for c in shaded]
            + [
                ("shade", c)
                for i in changed
                for c in shuffled(rng, i)
                if c not in numbers and c not in shaded
            ],
            # or grows by a wall cell the other answer unshades (within max_island cells);
            [("grow", c) for c in shuffled(rng, group) if c in wall],
            # a wall cell among wall neighbours, unshaded by the other answer or beside a cell
            # it unshades, becomes an island of 1 (the wall staying connected without it);
            [
                ("one", c)
                for c in shuffled(rng, near)
                if c in wall
                and all(nb in wall for nb in grid.neighbours4(c))
                and (c not in other or any(nb not in other for nb in grid.neighbours4(c)))
            ],
            # an island beside the difference shrinks by a cell;
            [("shade", c) for i in beside for c in shuffled(rng, i) if c not in numbers],
            # the number of a planted island moves onto a cell of it the other answer shades.
            [("move", c) for c in shaded],
        ]
        tiers = [[x for tier in options for x in tier]] if shake else options
        for tier in tiers:
            if shake:
                rng.shuffle(tier)
            made = next((x for x in tier if _apply(rng, grid, wall, numbers, *x, max_island)), None)
            if made:
                changes += 1
                break
    return changes


def _apply(
    rng: random.Random,
    grid: Grid,
    wall: set[Cell],
    numbers: dict[Cell, int],
    kind: str,
    cell: Cell,
    max_island: int,
) -> bool:
    """Make one change of :func:`_repair` if its rules allow it; whether it was made."""
    if kind == "one":
        if not wall_stays_connected(grid, wall, cell):
            return False
        wall.discard(cell)
        numbers[cell] = 1
    elif kind == "shade":
        if not _may_shade(grid, wall, cell):
            return False
        island = _island_of(grid, wall, cell)
        wall.add(cell)
        _renumber(rng, grid, wall, numbers, island)
    elif kind == "grow":
        if not (1 < _joined(grid, wall, cell) <= max_island and wall_stays_connected(grid, wall, cell)):
            return False
        wall.discard(cell)
        _renumber(rng, grid, wall, numbers, _island_of(grid, wall, cell))
    else:  # move
        old = next(c for c in _island_of(grid, wall, cell) if c in numbers)
        numbers[cell] = numbers.pop(old)
    return True


def generate_nurikabe(rows: int, cols: int, seed: int, options: NurikabeOptions | None = None) -> Generated:
    """A Nurikabe puzzle whose planted wall is its only answer (proved by the oracle)."""
    opts = (options or NurikabeOptions()).check()
    rng = random.Random(seed)
    grid = Grid(rows, cols)
    limit = opts.repairs or 2 * (rows + cols)
    rounds = changes = 0
    for attempt in range(1, opts.attempts + 1):
        wall = plant(rng, grid, opts.max_island)
        if wall is None:
            continue
        islands = white_components(rows, cols, wall)
        if not islands:
            continue  # all wall: no number to show
        numbers = {rng.choice(sorted(island)): len(island) for island in islands}
        oracle = NurikabeOracle(rows, cols)
        seen: set[tuple] = set()
        try:
            for _ in range(limit):
                try:
                    other = oracle.alternative(numbers, wall, opts.budget or None)
                except Undecided:
                    raise GenerationError(
                        f"the oracle needs more than {opts.budget} rounds of cuts for one question on a {rows}x{cols} "
                        f"board with islands of up to {opts.max_island} cells (seed {seed}); try a smaller max_island "
                        f"or a larger budget"
                    ) from None
                if other is None:
                    return _finish(
                        rows,
                        cols,
                        seed,
                        opts,
                        wall,
                        numbers,
                        oracle,
                        {"attempts": attempt, "rounds": rounds, "repairs": changes},
                    )
                rounds += 1
                state = (frozenset(wall), frozenset(numbers.items()))
                made = _repair(rng, grid, wall, numbers, other, opts.max_island, shake=state in seen)
                seen.add(state)
                if not made:
                    raise GenerationError(
                        f"internal error: no change tells the answers apart on {rows}x{cols} seed {seed}"
                    )
                changes += made
        finally:
            oracle.close()
    raise GenerationError(
        f"no unique {rows}x{cols} Nurikabe within {opts.attempts} boards of {limit} repair "
        f"rounds (seed {seed}); try a smaller max_island or more attempts"
    )


def _finish(
    rows: int,
    cols: int,
    seed: int,
    opts: NurikabeOptions,
    wall: set[Cell],
    numbers: dict[Cell, int],
    oracle: NurikabeOracle,
    stats: dict[str, int],
) -> Generated:
    """The puzzle, its planted answer and the generator's figures."""
    stats = {**oracle.cnf.stats(), **stats, "cuts": oracle.cuts}
    # Unit propagation on a fresh model of the finished puzzle (no learnt clauses, no cuts).
    fresh = NurikabeOracle(rows, cols)
    easy = fresh.propagation_solves(numbers)
    fresh.close()
    meta = {
        "generator": GENERATOR,
        "seed": seed,
        "options": asdict(opts),
        "wall": len(wall),
        "clues": len(numbers),
        "ones": sum(1 for n in numbers.values() if n == 1),
        "attempts": stats["attempts"],
        "repairs": stats["repairs"],
        "difficulty": {"unit_propagation": easy},
    }
    puzzle = Nurikabe(rows, cols, numbers=numbers, name=f"gen-nurikabe-{rows}x{cols}-s{seed}", meta=meta)
    solution = NurikabeSolution(wall)
    if puzzle.verify(solution):
        raise GenerationError(f"internal error: planted answer fails the verifier on {puzzle.name}")
    return Generated(puzzle, solution, 1, stats=stats)
