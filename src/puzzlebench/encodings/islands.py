"""What every Nurikabe encoding knows before solving: where each island can reach.

A clue is a numbered cell or a '?' cell (an island of unknown size). Every clue's island gets a
size bound: its number, or for a '?' the smallest of these sound bounds, each with its reason:

* the board's cells minus the numbers' sum, minus one per other '?' clue, minus one when there
  are two clues or more: the islands are disjoint, each '?' island has a cell at least, and two
  islands are apart only if some cell between them is wall;
* the cells the search below reaches from the '?' (within the bound less one steps): the island
  lies among them; when that count is smaller it becomes the bound and the search is redone.

The precomputations are sound (they hold in every answer), each with its reason:

* an island of bound b is connected and has at most b cells, so each of its cells lies fewer
  than b steps from its clue along island cells;
* an island holds one clue, so it never contains another clue cell nor a neighbour of one
  (that neighbour, unshaded, would join the two islands); in particular a cell next to two
  different clues is wall;
* a number's island whose cells (as above) can be no more than its number holds all of them in
  every answer: these cells are forced, and another island never holds a forced cell nor a
  neighbour of one (the searches are redone with the forced cells until none is added);
* a cell no island can reach is wall, and so is a neighbour of a forced cell (a clue's own
  included) whose island cannot hold it (a neighbour of a 1: unshaded, it would join that island);
* two clues side by side share an island: the puzzle has no answer (``clash``);
* of two diagonally adjacent clues, the wall encloses one island, in a box it can afford
  (:func:`enclosure_boxes`): when one of the two cannot be enclosed (it lies on the border, or no
  box the wall can afford holds its island), the other's island lies in such a box.
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Container, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .. import deduce as deduction
from ..model import Cell, Nurikabe, Subgrid
from .base import BUILD_DEADLINE, CellClause, LazyRule, Option
from .regions import (
    BLACK,
    UNKNOWN,
    WHITE,
    _around,
    _bfs,
    all_rules,
    connectivity_rule,
    island_cuts,
    island_rule,
    white_regions,
)

#: A box: its first row, first column, last row, last column.
Box = tuple[int, int, int, int]


def wall_option(*eager: str, default: str = "lazy") -> Option:
    """The ``connectivity`` option of an encoding whose wall rule is stated by lazy cuts or by
    the paradigm's ``eager`` statements over :func:`wall_region` (rank levels, flow)."""
    described = {"rank": "rank (levels)", "flow": "flow (single-commodity flow)"}
    return Option(
        "connectivity",
        default,
        ("lazy", *eager, "none"),
        "how 'the wall is connected' is enforced: lazy (cuts on split candidates), "
        + "".join(f"{described[e]}, " for e in eager)
        + "none (rule dropped)",
        relaxing=("none",),
    )


@dataclass(frozen=True)
class IslandPlan:
    """``reach[clue]``: cell -> its fewest steps from the clue inside the island's possible cells;
    ``owners[cell]``: the clues whose island may hold the (non-clue) cell; ``wall``: the
    non-clue cells known to be wall (no island reaches them, or they touch a clue, or a cell
    its island holds in every answer, and that island cannot hold them); ``open``: the
    non-clue cells that may be unshaded;
    ``clash``: two clue cells side by side, if any (then no answer exists); ``bound[clue]``: the
    most cells the clue's island may hold (its number; for a '?', the module's sound bound).
    Clues are the numbered cells (in the puzzle's order), then the '?' cells (row-major).
    ``white``: the non-clue cells known to be unshaded (found by probing, see :meth:`of`)."""

    reach: dict[Cell, dict[Cell, int]]
    owners: dict[Cell, tuple[Cell, ...]]
    wall: frozenset[Cell]
    open: tuple[Cell, ...]
    clash: tuple[Cell, Cell] | None = None
    bound: dict[Cell, int] = field(default_factory=dict)
    white: frozenset[Cell] = frozenset()

    @classmethod
    def of(cls, p: Nurikabe, enclosure: bool = True, deduce: bool = False, depth: int = 1) -> IslandPlan:
        """The plan of ``p``; ``enclosure`` False leaves out the diagonal clues' enclosure
        (:func:`enclosure_boxes`), for tests that check it against the plan without it;
        ``deduce`` True adds the cells failed-literal probing settles
        (:func:`~puzzlebench.encodings.nurikabe_deduce.refine`, within ``DEDUCE_BUDGET``, every
        pass run to the budget: ``stop="budget"``). The encodings' default ``plan=probe`` asks
        for it: the compiled probe settles cells that every paradigm would otherwise learn by
        search or lazy rounds, for less than they cost (docs/decisions); ``deduce`` is off here
        for the callers that want the searched plan alone. ``depth`` 2 probes at depth 2 too,
        within the same budget, until
        ``DEEP_STALL`` CPU seconds pass without a cell settled (``plan=deep``)."""
        plan = cls.searched(p, enclosure)
        if deduce:
            from .nurikabe_deduce import refine

            budget = DEDUCE_BUDGET
            deadline = BUILD_DEADLINE.get()  # never past the solve's deadline
            if deadline is not None:
                budget = min(budget, max(0.0, deadline - time.perf_counter()))
            plan = refine(
                p,
                plan,
                time.process_time() + budget,
                depth=depth,
                stop="budget",
                stall=DEEP_STALL if depth > 1 else None,
            )
        return plan

    @classmethod
    def searched(cls, p: Nurikabe, enclosure: bool = True) -> IslandPlan:
        """The plan of ``p`` from the searches alone (no probing)."""
        grid = p.grid
        numbers = p.numbers
        clues = p.clue_cells
        pairs = diagonal_clues(p) if enclosure else []
        most_wall = p.rows * p.cols - sum(numbers.values()) - len(p.unknown)
        # forced[cell]: the clue whose island holds the cell in every answer (each clue its own,
        # and every cell of a number's island whose search reaches exactly its number's cells)
        forced: dict[Cell, Cell] = {clue: clue for clue in clues}
        while True:
            near: dict[Cell, set[Cell]] = {}  # cell -> the clues whose forced cells it touches
            for cell, clue in forced.items():
                for nb in grid.neighbours4(cell):
                    near.setdefault(nb, set()).add(clue)

            def search(clue: Cell, n: int, box: Box | None = None) -> dict[Cell, int]:
                dist = {clue: 0}
                frontier = [clue]
                for step in range(1, n):  # island cells lie fewer than n steps away
                    nxt = []
                    for cell in frontier:
                        for nb in grid.neighbours4(cell):
                            # never another island's forced cell, nor a cell touching one (nor,
                            # for an enclosed island, a cell outside its box)
                            if (
                                nb in dist
                                or forced.get(nb, clue) != clue
                                or near.get(nb, {clue}) - {clue}  # noqa: B023  (called within this iteration)
                                or box is not None
                                and not (box[0] <= nb[0] <= box[2] and box[1] <= nb[1] <= box[3])
                            ):
                                continue
                            dist[nb] = step
                            nxt.append(nb)
                    frontier = nxt
                return dist

            def enclosed(clue: Cell, n: int, first: bool = False) -> dict[Cell, int]:
                """The cells (fewest steps) the island may hold if the wall encloses it: the
                searches inside each box of :func:`enclosure_boxes` that reach n cells or more
                (with ``first``, the first such search only: whether one exists)."""
                boxes = enclosure_boxes(p.rows, p.cols, clue, n, most_wall)
                if len(boxes) > ENCLOSURE_BOXES:  # too many: per height, the union of its boxes
                    spans: dict[int, Box] = {}
                    for r0, c0, r1, c1 in boxes:
                        u = spans.get(r1 - r0, (r0, c0, r1, c1))
                        spans[r1 - r0] = (min(u[0], r0), min(u[1], c0), max(u[2], r1), max(u[3], c1))
                    boxes = list(spans.values())
                out: dict[Cell, int] = {}
                for box in boxes:
                    dist = search(clue, n, box)
                    if len(dist) >= n:
                        if first:
                            return dist
                        for cell, d in dist.items():
                            out[cell] = min(d, out.get(cell, d))
                return out

            reach: dict[Cell, dict[Cell, int]] = {}
            bound: dict[Cell, int] = {}
            for clue, n in numbers.items():
                reach[clue], bound[clue] = search(clue, n), n
            # of two diagonal clues the wall encloses one: when a cannot be enclosed (on the
            # border, or in no box the wall affords), b's island lies in such a box
            for a, b in pairs:
                if b not in numbers:
                    continue
                if (
                    a in numbers
                    and enclosed(a, numbers[a], first=True)
                    or a in p.unknown
                    and enclosure_boxes(p.rows, p.cols, a, 1, most_wall)
                ):
                    continue  # a may be the enclosed one (a '?' island may have one cell)
                inside = enclosed(b, numbers[b])
                if inside:  # (neither can be enclosed: no answer; the solvers find that out)
                    reach[b] = inside
            # an island that can reach no more cells than its number holds them all
            grown = {
                cell: clue
                for clue, n in numbers.items()
                if len(reach[clue]) == n
                for cell in reach[clue]
                if cell not in forced
            }
            if not grown:
                break
            forced.update(grown)
        # a '?' island: the board less the numbers' islands, one cell per other '?' and one wall
        # cell when there are other islands; then no more cells than its search reaches
        spare = p.rows * p.cols - sum(numbers.values()) - (len(p.unknown) - 1) - (len(clues) > 1)
        for clue in sorted(p.unknown):
            n = max(spare, 1)
            dist = search(clue, n)
            while len(dist) < n:
                n = len(dist)
                dist = {cell: d for cell, d in dist.items() if d < n}
            reach[clue], bound[clue] = dist, n
        owners: dict[Cell, list[Cell]] = {}
        for clue, dist in reach.items():
            for cell in dist:
                if cell != clue:
                    owners.setdefault(cell, []).append(clue)
        candidates = [cell for cell in grid.all_cells if cell not in clues]
        # a cell no island reaches is wall; so is a neighbour of a forced cell (a clue's own
        # included) that this island cannot hold (unshaded, it would join that island)
        wall = frozenset(
            cell
            for cell in candidates
            if cell not in owners or any(cell not in reach[clue] for clue in near.get(cell, ()))
        )
        clash = next(((a, b) for a in reach for b in grid.neighbours4(a) if b in clues), None)
        return cls(
            reach,
            {c: tuple(o) for c, o in owners.items()},
            wall,
            tuple(c for c in candidates if c not in wall),
            clash,
            bound,
        )

    def core(self, p: Nurikabe, clue: Cell) -> dict[Cell, int]:
        """The cells the island of ``clue`` may hold, by their fewest steps (inside those cells)
        from its core: the clue and the cells joined to it through cells the island holds in every
        answer (known unshaded, no other island may hold them); the core's cells at step 0."""
        dist = self.reach[clue]
        held = {cell for cell in dist if cell in self.white and self.owners[cell] == (clue,)}
        core = _bfs(p.rows, p.cols, clue, held)
        return {cell: d for cell, (_, d) in _bfs(p.rows, p.cols, clue, dist, also=core).items()}

    def levelled(
        self, p: Nurikabe, budget: bool, smallest: int = 1, limit: int | None = None, spread: float = 0
    ) -> set[Cell]:
        """The clues an encoding gives distance levels: every clue, or with ``budget`` the clues
        of bound at least ``smallest`` (and, with ``spread``, whose island may hold at most
        ``spread`` times its bound's cells) taken in increasing order of bound x (cells the island
        may hold) while these products sum to at most ``limit`` (``HYBRID_LEVELS`` unless given)."""
        if not budget:
            return set(self.reach)
        limit = HYBRID_LEVELS if limit is None else limit
        out, spent = set(), 0
        for clue, dist in sorted(self.reach.items(), key=lambda item: self.bound[item[0]] * len(item[1])):
            if self.bound[clue] < smallest or spread and len(dist) > spread * self.bound[clue]:
                continue
            spent += self.bound[clue] * len(dist)
            if spent > limit:
                break
            out.add(clue)
        return out

    def steps(self, p: Nurikabe) -> Iterator[tuple[Cell, Cell | None, Cell, bool]]:
        """``(clue, cell, nb, inside)`` for each cell the island of ``clue`` may hold (``cell`` None
        for the clue itself) and each non-clue side-neighbour ``nb`` whose status the island
        decides: an island holding ``cell`` holds an unshaded ``nb`` too when ``inside`` (and
        ``nb`` has several possible owners; with one, owned means unshaded already), and
        needs ``nb`` to be wall when not."""
        clues = p.clue_cells
        for clue, dist in self.reach.items():
            for cell in dist:
                for nb in p.grid.neighbours4(cell):
                    if nb in clues:
                        continue
                    inside = nb in dist
                    if inside and len(self.owners[nb]) == 1:
                        continue
                    yield clue, None if cell == clue else cell, nb, inside


#: IslandPlan: the most boxes searched one at a time for an enclosed island (beyond it, one search
#: per box height, inside the union of the boxes of that height)
ENCLOSURE_BOXES = 64


def diagonal_clues(p: Nurikabe) -> list[tuple[Cell, Cell]]:
    """``(a, b)`` for each two clues that touch diagonally, both orders: their two common
    neighbours are wall (unshaded, each would join two islands)."""
    clues = p.clue_cells
    out = []
    for r, c in sorted(clues):
        for dr, dc in ((1, 1), (1, -1)):
            b = (r + dr, c + dc)
            if b in clues:
                out += [((r, c), b), (b, (r, c))]
    return out


def enclosure_boxes(rows: int, cols: int, clue: Cell, n: int, most_wall: int) -> list[Box]:
    """The boxes (rectangles of cells) one of which holds the island of ``clue`` (n cells or
    more) when the wall encloses it, given that the wall has at most ``most_wall`` cells; empty
    when no box will do.

    Why the wall encloses one of two diagonal clues a and b: their common neighbours x and y are
    wall, and the wall is connected, so a path P of wall cells joins x to y. Through the cells'
    centres, P closed by the diagonal step from y back to x is a closed curve C; the segment from
    a to b crosses C once (at the diagonal step: P's cells are wall, a and b are not), so one of
    a and b lies inside C. An island never crosses C (its steps join unshaded cells; C's join
    wall cells, or x and y across the 2x2 block), so that island lies inside C: it touches no
    border cell (C lies within the board's cells' centres).

    The cost: let the enclosed island's bounding box have h rows r0..r1 and w columns. A ray up
    from the island's cell in row r0 meets C in a cell of P (C crosses a whole column only at
    cells' centres), so P has a cell in row r0 - 1 or above; likewise below r1, left and right. A
    closed curve moves vertically at least twice its height and horizontally twice its width, and
    C moves |P| - 1 unit steps plus the diagonal (one row, one column): |P| + 1 >= 2(h + 1) +
    2(w + 1), so the wall holds at least 2(h + w) + 3 cells, and hw >= n. So the island lies in an
    h x w box within the board less its border, with 2(h + w) + 3 <= ``most_wall`` and hw >= n:
    listed are the largest such boxes that hold the clue (w as large as h and the board allow;
    every smaller box lies in one of them)."""
    r, c = clue
    if not (0 < r < rows - 1 and 0 < c < cols - 1):
        return []
    span = (most_wall - 3) // 2  # the most h + w
    out = []
    for h in range(1, min(rows - 2, span - 1) + 1):
        w = min(cols - 2, span - h)
        if h * w < n:
            continue
        for r0 in range(max(1, r - h + 1), min(r, rows - 1 - h) + 1):
            for c0 in range(max(1, c - w + 1), min(c, cols - 1 - w) + 1):
                out.append((r0, c0, r0 + h - 1, c0 + w - 1))
    return out


def wall_blocks(p: Nurikabe) -> list[tuple[Cell, Cell, Cell, Cell]]:
    """The 2x2 blocks of non-clue cells (those with a clue are never all wall)."""
    clues = p.clue_cells
    out = []
    for r in range(p.rows - 1):
        for c in range(p.cols - 1):
            block = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            if not any(cell in clues for cell in block):
                out.append(block)
    return out


# -- the islands' corner contacts ------------------------------------------------------------------
# Two islands touching at a corner leave the block's other two cells wall (each borders both). A
# cycle of islands joined at such corners, or of islands so joined and the board's edge, is a closed
# curve through unshaded cells, the corners and the outside of the board that parts the two wall
# cells of each of its corners: the wall would be split. So in every answer the contact graph (the
# clues and the edge as nodes; an edge per pair of islands touching at a corner, at most one corner
# per pair, and per island on the board's edge) is a forest.

#: the board's edge as a node of the contact graph (before every cell)
EDGE: Cell = (-1, -1)


def corner_diagonals(p: Nurikabe) -> Iterator[tuple[Cell, Cell]]:
    """The two diagonals of every 2x2 block, as pairs of cells."""
    for r in range(p.rows - 1):
        for c in range(p.cols - 1):
            yield (r, c), (r + 1, c + 1)
            yield (r, c + 1), (r + 1, c)


def rim_cells(p: Nurikabe) -> list[Cell]:
    """The cells on the board's edge."""
    return [
        (r, c) for r in range(p.rows) for c in range(p.cols) if r in (0, p.rows - 1) or c in (0, p.cols - 1)
    ]


def corner_contacts(
    p: Nurikabe, plan: IslandPlan, owns: Container[tuple[Cell, Cell]]
) -> tuple[list[tuple[Cell, Cell, Cell, Cell]], list[tuple[Cell, Cell]]]:
    """Where islands may touch, for an encoding whose "clue's island holds cell" literals are
    keyed ``owns`` (``(clue, cell)``; a clue holds its own cell): ``(a, x, b, y)`` per corner
    diagonal x-y and clues a != b whose islands may hold x and y, and ``(a, cell)`` per clue
    whose island may hold a cell on the board's edge."""
    clues = p.clue_cells

    def owners(cell: Cell) -> list[Cell]:
        if cell in clues:
            return [cell]
        return [] if cell in plan.wall else [a for a in plan.owners.get(cell, ()) if (a, cell) in owns]

    corners = [(a, x, b, y) for x, y in corner_diagonals(p) for a in owners(x) for b in owners(y) if a != b]
    return corners, [(a, cell) for cell in rim_cells(p) for a in owners(cell)]


def contact_triangles(pairs: Sequence[tuple[Cell, Cell]]) -> Iterator[tuple[tuple[Cell, Cell], ...]]:
    """Each triangle of the contact graph with edges ``pairs`` (each ``(a, b)`` with ``a < b``),
    once, as its three edges."""
    near: dict[Cell, set[Cell]] = {}
    for a, b in pairs:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    for a, b in pairs:
        for c in sorted(near[a] & near[b]):
            if b < c:
                yield (a, b), (a, c), (b, c)


def contact_cycles(
    p: Nurikabe, marked: frozenset[Cell], regions: Sequence[Sequence[Cell]]
) -> list[list[tuple[Cell, Cell]]]:
    """The cycles a candidate's contact graph closes: its islands with one clue (``regions``, the
    candidate's unshaded regions), an edge per pair touching at a corner (the block's other two
    cells ``marked``) and per island on the board's edge; each edge that closes a cycle of a
    spanning forest (Kruskal's) gives its cycle, as edges ``(a, b)`` with ``a < b``."""
    clues = p.clue_cells
    island: dict[Cell, Cell] = {}
    for region in regions:
        here = [cell for cell in region if cell in clues]
        if len(here) == 1:
            island.update((cell, here[0]) for cell in region)
    found: list[tuple[Cell, Cell]] = []
    for (r1, c1), (r2, c2) in corner_diagonals(p):
        a, b = island.get((r1, c1)), island.get((r2, c2))
        if a is not None and b is not None and a != b and (r1, c2) in marked and (r2, c1) in marked:
            found.append((min(a, b), max(a, b)))
    found += sorted({(EDGE, island[cell]) for cell in rim_cells(p) if cell in island})
    root: dict[Cell, Cell] = {}

    def find(x: Cell) -> Cell:
        while root.get(x, x) != x:
            x = root[x]
        return x

    tree: dict[Cell, list[tuple[Cell, tuple[Cell, Cell]]]] = {}
    cycles = []
    for edge in dict.fromkeys(found):
        a, b = edge
        if find(a) != find(b):
            root[find(a)] = find(b)
            tree.setdefault(a, []).append((b, edge))
            tree.setdefault(b, []).append((a, edge))
            continue
        back: dict[Cell, tuple[Cell, tuple[Cell, Cell]] | None] = {a: None}
        stack = [a]
        while stack and b not in back:
            x = stack.pop()
            for y, e in tree.get(x, ()):
                if y not in back:
                    back[y] = (x, e)
                    stack.append(y)
        cycle, x = [edge], b
        while (step := back[x]) is not None:
            x, e = step
            cycle.append(e)
        cycles.append(cycle)
    return cycles


def lonely_cells(p: Nurikabe, plan: IslandPlan) -> list[tuple[Cell, list[Cell]]]:
    """``(cell, neighbours)`` for the cells that may be unshaded and touch no clue: unshaded,
    such a cell needs an unshaded neighbour (its island holds a clue besides it)."""
    clues = p.clue_cells
    out = []
    for cell in plan.open:
        around = p.grid.neighbours4(cell)
        if not any(nb in clues for nb in around):
            out.append((cell, around))
    return out


def wall_region(p: Nurikabe, plan: IslandPlan) -> tuple[Subgrid, Cell | None]:
    """The wall as a region for the eager connectivity statements shared with Kuromasu and Hitori:
    the cells that may be wall (clue cells never are) and a root, a cell wall in every
    answer (one of ``IslandPlan.wall``), or None when there is none."""
    clues = p.clue_cells
    return Subgrid(p.grid, (c for c in p.grid.all_cells if c not in clues)), min(plan.wall, default=None)


#: IslandPlan.of: the most CPU seconds the probe may spend (past it, what it settled so far is
#: kept); the compiled probe ends within it on every janko board, at depth 1 and at depth 2
DEDUCE_BUDGET = 5.0

#: plan=deep: the CPU seconds probing at depth 2 may go without settling a cell before it stops,
#: unless its pass is estimated short (``nurikabe_deduce.DEEP_PASS``). On the janko boards where
#: depth 2 goes on to settle what depth 1 leaves open, the gaps between settled cells stay under
#: this but for boards whose passes are estimated within DEEP_PASS (``benchmarks/nurikabe_deep.py``,
#: ``results/nurikabe-deep``)
DEEP_STALL = 0.5


#: the ``plan`` option's ``deep`` value, as every Nurikabe encoding's help text states it
PLAN_DEEP = (
    "also by probing at depth 2 within the same budget, until DEEP_STALL CPU seconds settle no cell (deep)"
)


def plan_option(default: str) -> Option:
    """The ``plan`` option of CP-SAT's and SMT's encodings. The probe settles cells the searched
    plan leaves open, and costs both paradigms less than the search it saves; depth 2 pays in
    CP-SAT, whose lazy rounds are dearest, and not in SMT (``benchmarks/nurikabe_plans.py``,
    docs/decisions)."""
    return Option(
        "plan",
        default,
        ("search", "probe", "deep"),
        "the island plan to build on: the deduction stage's (search, the default; the searched plan "
        "under deduce=none), or probed by the encoding itself, failed-literal probing of the island, "
        f"wall-connectivity, 2x2 and crossing rules (probe, within DEDUCE_BUDGET CPU seconds), or {PLAN_DEEP}",
    )


def planned(p: Nurikabe, plan: str) -> IslandPlan:
    """The island plan to build on: the deduction stage's (``island_plan``, see
    :mod:`puzzlebench.deductions.nurikabe`) unless the ``plan`` option asks the encoding to probe
    on its own at depth 1 (``probe``) or 2 (``deep``); without the stage's, the searched plan
    (``search``; ``auto``, whose encodings probe later)."""
    if plan in ("search", "auto"):
        staged = deduction.current().facts.get("island_plan")
        if isinstance(staged, IslandPlan):
            return staged
    return IslandPlan.of(p, deduce=plan in ("probe", "deep"), depth=2 if plan == "deep" else 1)


#: islands=hybrid: the distance levels an encoding may spend (see :meth:`IslandPlan.levelled`)
HYBRID_LEVELS = 20000

#: wall_count=auto: the largest share of the free cells the wall may take, and the largest counter
#: (free cells x wall cells still to place), for the wall's size to be stated
WALL_COUNT_SHARE = 0.3
WALL_COUNT_BUDGET = 20000


def wall_count_pays(p: Nurikabe, plan: IslandPlan) -> bool:
    """wall_count=auto: whether the wall's size is stated (it is always sound, see
    :func:`wall_size`): when the wall is small, at most ``WALL_COUNT_SHARE`` of the cells that may
    be unshaded, and its counter within ``WALL_COUNT_BUDGET``. On such boards (a few big islands)
    the count settles what the lazy cuts take hundreds of rounds to learn; on the others it slows
    the search (a loose counter adds variables and conflicts without settling anything;
    docs/decisions). The cells counted are those still undecided: the open cells less those the
    probe settled unshaded (counted as open, a probed plan would state the count on boards where
    the wall is not small, where it slows SMT badly)."""
    free = len(plan.open) - len(plan.white)
    need = wall_size(p, plan)[1] - len(plan.wall)
    return 0 <= need <= WALL_COUNT_SHARE * free and free * need <= WALL_COUNT_BUDGET


def wall_count_option(yes: str, default: str, where: str = "") -> Option:
    """The ``wall_count`` option: the wall's size stated (``yes``: the paradigm's word for how), not
    stated, or stated when :func:`wall_count_pays`; ``where`` opens the help text (the part of the
    model it speaks of)."""
    return Option(
        "wall_count",
        default,
        ("none", yes, "auto"),
        f"{where}whether the wall's size (the cells the numbers leave over) is stated: none, {yes} "
        "(always), auto (when the wall is small and its counter too: boards of a few big islands)",
    )


WALL_RUNS_OPTION = Option(
    "wall_runs",
    "auto",
    ("none", "met", "card", "auto"),
    "the wall's runs stated up front (it is connected): met (a row or column the wall must meet "
    "holds a wall cell), card (also at most its cells plus one runs along rows and columns, and per "
    "line what the met lines leave), auto (card when the met lines make it tight and its counter is "
    "small, else met), or none",
)


def cuts_option(default: str, mixed: bool = False) -> Option:
    """How the lazy rules cut a faulty candidate: one cut per faulty region (``region``), the
    stronger cuts of :func:`cell_cuts` (``cell``), or with ``mixed`` also offered, the region cut
    for a wall part and the cell cuts for an island (``mixed``), and ``auto``: cell on a board of a
    small wall (:func:`wall_count_pays`; its parts are few cells), mixed on the others."""
    return Option(
        "cuts",
        default,
        ("cell", "region") + (("mixed", "auto", "separator") if mixed else ()),
        "lazy cuts per faulty region: region (one clause naming the region and its fence), cell "
        "(one clause per cell of a cut-off wall part or numberless island, a fence alone for an "
        "island walled in too small)"
        + (
            ", or mixed (region's cut for a wall part, cell's for an "
            "island: on large boards a candidate's wall has many parts, and a clause per cell of each "
            "swamps the solver), or auto (cell when the wall is small, else mixed)"
            if mixed
            else ""
        ),
    )


CUTS = cuts_option("auto", mixed=True)


def cell_cuts(
    rows: int,
    cols: int,
    numbers: Mapping[Cell, int],
    marked: frozenset[Cell],
    anchor: Cell | None,
    wall: bool,
    islands: bool,
    unknown: frozenset[Cell] = frozenset(),
) -> list[CellClause]:
    """The cuts of the lazy rules (``wall``: the wall is connected; ``islands``: every island holds
    one clue, a number equal to its size or a '?' of ``unknown``) that a candidate (its wall cells
    ``marked``) violates, each sound on its own:

    * a wall part W with unshaded fence F, when another wall part exists: with F unshaded, a wall
      cell w of W and a wall cell x beyond W and F lie in different wall parts, so per w "a cell
      of F turns wall, or w or x turns unshaded" (x: ``anchor``, a cell wall in every answer,
      when it lies beyond W; the largest part is left out, the others exclude the candidate);
    * an island R with one number n and fewer cells, walled in by B: with B wall the island lies
      inside R, too small, so "a cell of B turns unshaded";
    * an island R without a clue, walled in by B: with B wall, an unshaded cell r of R lies in a
      clueless island, so per r "r turns wall or a cell of B turns unshaded";
    * an island with two clues, or with more cells than its number: the cuts of
      :func:`~puzzlebench.encodings.regions.island_cuts` (a '?' island of any size is no fault).
    """
    cuts: list[CellClause] = []
    clue_cells = numbers.keys() | unknown
    if wall:
        for part, inside, fence, largest in cut_off_wall_parts(rows, cols, marked):
            x = anchor if anchor is not None and anchor not in inside else largest[0]
            base = [(f, True) for f in fence if f not in clue_cells]  # a clue never turns wall
            cuts += [base + [(w, False), (x, False)] for w in part]
    if islands:
        plain = []
        for region in white_regions(rows, cols, marked):
            clues = [cell for cell in region if cell in clue_cells]
            if len(clues) == 1 and len(region) < numbers.get(clues[0], 1) or not clues:
                inside = set(region)
                fence = [
                    (b, False)
                    for b in sorted(
                        {nb for cell in region for nb in _around(rows, cols, cell) if nb not in inside}
                    )
                ]
                cuts += [fence] if clues else [[(r, True)] + fence for r in region]
            else:
                plain.append(region)
        if plain:  # two numbers, or too many cells: the plain cuts, from these regions' cells only
            keep = frozenset(cell for region in plain for cell in region)
            everything = frozenset((r, c) for r in range(rows) for c in range(cols))
            cuts += island_cuts(rows, cols, numbers, everything - keep, unknown)
    return cuts


def entry_cells(
    p: Nurikabe, start: Cell, within: Container[Cell], blocked: Container[Cell], fence: Sequence[Cell]
) -> list[Cell]:
    """The cells of ``fence`` next to what ``start`` reaches inside ``within`` without entering
    ``blocked``: the cells a path from ``start`` enters through."""
    seen, stack = {start}, [start]
    while stack:
        for nb in p.grid.neighbours4(stack.pop()):
            if nb not in seen and nb not in blocked and nb in within:
                seen.add(nb)
                stack.append(nb)
    return [f for f in fence if any(nb in seen for nb in p.grid.neighbours4(f))]


class OwnerSeparator(NamedTuple):
    """A number's island and a faulty island C of a candidate, walled in by B: in every answer,
    ``clue`` owns a cell of ``enter`` if it owns any cell of ``cells`` (C's cells it may reach),
    or, with ``cells`` empty, it owns a cell of ``enter`` outright."""

    clue: Cell
    cells: tuple[Cell, ...]
    enter: tuple[Cell, ...]


def owner_separators(
    p: Nurikabe, plan: IslandPlan, regions: Sequence[Sequence[Cell]]
) -> list[OwnerSeparator]:
    """The separators of a candidate's faulty islands (``regions``: its unshaded regions), stated
    over "clue's island holds cell" (MIP's ``cuts=separator``):

    * an island C holding no clue: a path inside the island of a clue c that may reach a cell v of
      C enters C through the cells S of C's fence B that touch what c reaches without crossing C
      or B, so "c owns v only if c owns a cell of S";
    * an island C with one number n and fewer cells: the number's island leaves C through B, so
      "the number owns a cell of B"."""
    numbers, clues, reach = dict(p.numbers), p.clue_cells, plan.reach
    out: list[OwnerSeparator] = []
    for region in regions:
        inside = set(region)
        here = [cell for cell in region if cell in clues]
        fence = sorted({nb for cell in region for nb in p.grid.neighbours4(cell) if nb not in inside})
        if not here:
            blocked = inside | set(fence)
            for clue in sorted({clue for cell in region for clue in plan.owners.get(cell, ())}):
                dist = reach[clue]
                enter = entry_cells(p, clue, dist, blocked, [f for f in fence if f in dist])
                out.append(OwnerSeparator(clue, tuple(v for v in region if v in dist), tuple(enter)))
        elif len(here) == 1 and here[0] in numbers and len(region) < numbers[here[0]]:
            clue = here[0]
            out.append(OwnerSeparator(clue, (), tuple(f for f in fence if f in reach[clue])))
    return out


def cut_off_wall_parts(rows: int, cols: int, marked: frozenset[Cell]):
    """The wall parts of a candidate (its cells not in ``marked``) other than the largest, each as
    ``(part, its cells as a set, its fence in sorted order, the largest part)``: the parts a
    connected wall rules out."""
    parts = white_regions(
        rows, cols, frozenset((r, c) for r in range(rows) for c in range(cols) if (r, c) not in marked)
    )
    if len(parts) < 2:
        return []
    largest = max(range(len(parts)), key=lambda k: len(parts[k]))
    found = []
    for k, part in enumerate(parts):
        if k != largest:
            inside = set(part)
            fence = sorted({nb for cell in part for nb in _around(rows, cols, cell) if nb not in inside})
            found.append((part, inside, fence, parts[largest]))
    return found


#: cuts=separator: the separator of a cut-off wall part is looked for among the cells at most this
#: many steps from the part
SEPARATOR_RADIUS = 3


def separator_cuts(
    rows: int,
    cols: int,
    clue_cells: Collection[Cell],
    marked: frozenset[Cell],
    anchor: Cell | None,
    radius: int = SEPARATOR_RADIUS,
) -> list[CellClause]:
    """The lazy rule "the wall is connected" with short separators: for each wall part W of a
    candidate whose wall is split (the anchor's part, or else the largest, left out), a set S of
    unshaded non-clue cells that, with the clue cells (never wall), separates W from the witness
    x: every path through non-clue cells from W to x passes through S. With S unshaded, a wall
    cell w of W and x lie in different wall parts, so per w "a cell of S turns wall, or w or x
    turns unshaded" (x: ``anchor``, a cell wall in every answer, when it lies beyond W).

    S is the smallest of the level sets up to ``radius`` steps from W (through non-clue cells)
    that hold no wall cell and have x beyond them, each cut down to its cells with a neighbour
    one level further (a path's steps raise the level by one at most, so it leaves level k from
    such a cell). Level 1 is W's fence less its clues: S is never larger than the fence of the
    other cuts, and smaller where clues or a narrow neck close the part off.
    """
    size = rows * cols
    wall = bytearray(size)
    for r, c in marked:
        wall[r * cols + c] = 1
    clue = bytearray(size)
    for r, c in clue_cells:
        clue[r * cols + c] = 1

    def around(i: int) -> list[int]:
        r, c = divmod(i, cols)
        out = []
        if r:
            out.append(i - cols)
        if r + 1 < rows:
            out.append(i + cols)
        if c:
            out.append(i - 1)
        if c + 1 < cols:
            out.append(i + 1)
        return out

    part_of = [-1] * size
    parts: list[list[int]] = []
    for start in range(size):
        if not wall[start] or part_of[start] >= 0:
            continue
        part_of[start] = len(parts)
        members = [start]
        for i in members:
            for j in around(i):
                if wall[j] and part_of[j] < 0:
                    part_of[j] = len(parts)
                    members.append(j)
        parts.append(members)
    if len(parts) <= 1:
        return []
    a = None if anchor is None else anchor[0] * cols + anchor[1]
    keep = part_of[a] if a is not None and wall[a] else max(range(len(parts)), key=lambda k: len(parts[k]))
    cuts: list[CellClause] = []
    for k, members in enumerate(parts):
        if k == keep:
            continue
        x = a if a is not None and part_of[a] != k else parts[keep][0]
        # the levels of the non-clue cells around the part by their steps from it (the part at 0)
        dist = {i: 0 for i in members}
        levels: list[list[int]] = [members]
        for d in range(radius + 1):
            nxt = []
            for i in levels[d]:
                for j in around(i):
                    if not clue[j] and j not in dist:
                        dist[j] = d + 1
                        nxt.append(j)
            if not nxt:
                break
            levels.append(nxt)
        # level k's cells with a neighbour at level k + 1 separate the part from every cell
        # beyond level k (a path's steps raise the level by one at most); usable when none is
        # wall (the candidate then breaks the cut) and x lies beyond
        sep = levels[1] if len(levels) > 1 else []  # the fence (none: clues close the part off)
        for k in range(1, len(levels) - 1):
            if dist.get(x, k + 1) <= k:
                break
            layer = [i for i in levels[k] if any(dist.get(j) == k + 1 for j in around(i))]
            if any(wall[i] for i in layer):
                break
            if len(layer) < len(sep):
                sep = layer
        sep = sorted(sep)
        base = [((i // cols, i % cols), True) for i in sep]
        cuts += [base + [((w // cols, w % cols), False), ((x // cols, x % cols), False)] for w in members]
    return cuts


def lazy_rules(
    p: Nurikabe, markable: Collection[Cell], options: Mapping[str, Any], anchor: Cell | None = None
) -> LazyRule | None:
    """The rules an encoding's options leave to lazy cuts, as one: the wall's connectivity
    (``connectivity=lazy``) and the islands' (``islands=lazy``, or ``hybrid`` and ``owners`` for
    what they leave); None when there is neither. ``cuts`` picks the cuts; ``anchor`` is a cell wall in
    every answer, if one is known."""
    wall = options["connectivity"] == "lazy"
    islands = options["islands"] in ("lazy", "hybrid", "owners")
    cuts = options.get("cuts", "region")
    rows, cols, numbers, unknown = p.rows, p.cols, dict(p.numbers), p.unknown
    if cuts == "cell":
        if not wall and not islands:
            return None
        return lambda marked: cell_cuts(rows, cols, numbers, marked, anchor, wall, islands, unknown)
    if cuts == "separator":
        clue_cells = frozenset(numbers) | unknown
        return all_rules(
            (lambda marked: separator_cuts(rows, cols, clue_cells, marked, anchor)) if wall else None,
            (lambda marked: cell_cuts(rows, cols, numbers, marked, anchor, False, True, unknown))
            if islands
            else None,
        )
    if cuts == "mixed":
        return all_rules(
            connectivity_rule(p.rows, p.cols, markable, anchor, isolated=False, of_marked=True)
            if wall
            else None,
            (lambda marked: cell_cuts(rows, cols, numbers, marked, anchor, False, True, unknown))
            if islands
            else None,
        )
    return all_rules(
        connectivity_rule(p.rows, p.cols, markable, isolated=False, of_marked=True) if wall else None,
        island_rule(p.rows, p.cols, p.numbers, p.unknown) if islands else None,
    )


# -- island reasoning on partial assignments -------------------------------------------------------
#: A literal over cell indices: ``(i, True)`` = "cell i is wall", ``(i, False)`` = "cell i is unshaded".
IndexLiteral = tuple[int, bool]


class IslandFindings(NamedTuple):
    """What "every island holds one clue, a number equal to its size or a '?'" implies for a
    partial assignment.

    ``conflict``: a clause over cell literals that the assignment falsifies (None: no conflict
    found). ``implied``: clauses whose first literal is the inference (an undecided cell) and
    whose other literals the assignment falsifies (its reason). Clue cells never appear
    (they are unshaded in every answer)."""

    conflict: list[IndexLiteral] | None
    implied: list[list[IndexLiteral]]


@dataclass(frozen=True)
class IslandGraph:
    """The board as cell indices (row-major) for :func:`island_reasoning`: ``adj`` the side
    neighbours, ``clues`` the clue cells (numbers and '?'), ``sizes`` the most cells each island
    may hold (:attr:`IslandPlan.bound`), ``least`` the fewest (the number; 1 for a '?'),
    ``clue_at`` the clue index of each cell (-1: none), ``domain[k]`` 1 for each cell the island
    of clue k may hold (:class:`IslandPlan`), ``owners[i]`` the clues whose domain holds the
    non-clue cell i."""

    adj: tuple[tuple[int, ...], ...]
    clues: tuple[int, ...]
    sizes: tuple[int, ...]
    least: tuple[int, ...]
    clue_at: tuple[int, ...]
    domain: tuple[bytes, ...]
    owners: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, p: Nurikabe, plan: IslandPlan) -> IslandGraph:
        cols = p.cols
        index = lambda cell: cell[0] * cols + cell[1]
        cells = p.grid.all_cells
        clue_list = list(plan.reach)
        clue_at = [-1] * len(cells)
        domain = []
        owners: list[list[int]] = [[] for _ in cells]
        for k, clue in enumerate(clue_list):
            clue_at[index(clue)] = k
            mask = bytearray(len(cells))
            for cell in plan.reach[clue]:
                mask[index(cell)] = 1
                if cell != clue:
                    owners[index(cell)].append(k)
            domain.append(bytes(mask))
        return cls(
            adj=tuple(tuple(index(nb) for nb in p.grid.neighbours4(cell)) for cell in cells),
            clues=tuple(index(clue) for clue in clue_list),
            sizes=tuple(plan.bound[clue] for clue in clue_list),
            least=tuple(p.numbers.get(clue, 1) for clue in clue_list),
            clue_at=tuple(clue_at),
            domain=tuple(domain),
            owners=tuple(tuple(o) for o in owners),
        )


def island_reasoning(g: IslandGraph, state: Sequence[int], reasons: bool = True) -> IslandFindings:
    """Cells forced wall or unshaded by the island rule, each with the cells that force it.

    ``state[i]`` is ``UNKNOWN``, ``WHITE`` (unshaded; numbered cells always) or ``BLACK`` (wall).
    The rules, each sound because an island is a connected unshaded region holding one clue and
    between ``least`` and ``sizes`` cells of it (n and n for a number n; 1 and the bound for a
    '?'; below, "the number" is the clue and n its bound), all inside that clue's domain:

    * unshaded parts (connected known-unshaded cells): one joining two numbers, holding more cells
      than its number, or holding a cell outside its number's domain is a conflict (reason: a path
      or the first n + 1 cells of a search from the number); one holding exactly n cells is a
      whole island, so its undecided neighbours are wall;
    * an undecided cell beside unshaded parts that would join two numbers, grow an island past
      its number, or bring a cell outside the number's domain into its island is wall (reason:
      the parts' cells, or paths to their numbers);
    * from each number n's unshaded part P, a search through the number's domain over cells
      not known wall and not of (or beside) another number's part, at most n - |P| steps deep,
      bounds its island (reason: P's cells, the wall cells and the other parts' paths that
      stopped the search): fewer than ``least`` cells reached is a conflict; exactly ``least``
      makes every one of them unshaded; a cell reached by no number's search is wall (a
      conflict if unshaded).

    ``reasons=False`` finds the same cells and conflicts without their reasons (every clause is
    its first literal alone, a conflict the empty clause): the probe's closure reads no more,
    and building the paths is most of the work.
    """
    adj, clue_at, sizes, least, clues, domain = g.adj, g.clue_at, g.sizes, g.least, g.clues, g.domain
    n_cells = len(state)
    comp = [-1] * n_cells  # unshaded part of each unshaded cell
    parent = [-1] * n_cells  # search tree from the part's number (or first cell)
    parts: list[tuple[list[int], int]] = []  # (cells in search order from the number, clue or -1)
    implied: list[list[IndexLiteral]] = []

    def path(i: int) -> list[IndexLiteral]:
        """ "An unnumbered cell on the search path from i back to its part's number turns wall"."""
        if not reasons:
            return []
        out = []
        while i >= 0:
            if clue_at[i] < 0:
                out.append((i, True))
            i = parent[i]
        return out

    for start in range(n_cells):
        if state[start] != WHITE or comp[start] >= 0:
            continue
        # collect the part, then search it again from its first number (for paths)
        cid = len(parts)
        comp[start] = cid
        cells = [start]
        for v in cells:
            for u in adj[v]:
                if state[u] == WHITE and comp[u] < 0:
                    comp[u] = cid
                    cells.append(u)
        numbered = [v for v in cells if clue_at[v] >= 0]
        if not numbered:
            parts.append((cells, -1))
            continue
        root = numbered[0]
        k = clue_at[root]
        order = [root]
        if reasons:
            seen = {root}
            for v in order:
                for u in adj[v]:
                    if comp[u] == cid and u not in seen:
                        seen.add(u)
                        parent[u] = v
                        order.append(u)
        else:
            order += [v for v in cells if v != root]
        # two numbers in one part: conflict
        other = next((v for v in order if clue_at[v] >= 0 and v != root), None)
        if other is not None:
            return IslandFindings(path(other), [])
        # a cell the number's island cannot hold: conflict
        outside = next((v for v in order if not domain[k][v]), None)
        if outside is not None:
            return IslandFindings(path(outside), [])
        # more cells than the number: conflict
        if len(order) > sizes[k]:
            return IslandFindings([(v, True) for v in order[: sizes[k] + 1] if clue_at[v] < 0], [])
        parts.append((order, k))

    # undecided cells beside unshaded parts; ``touch[i]``: the clue whose part holds or borders
    # cell i (-1: none, -2: two or more)
    touch = [-1] * n_cells
    beside = set()
    for cells, k in parts:
        for v in cells:
            for u in (v, *adj[v]):
                if k >= 0:
                    t = touch[u]
                    touch[u] = k if t in (-1, k) else -2
                if state[u] == UNKNOWN:
                    beside.add(u)
    for i in sorted(beside):
        near = {comp[u] for u in adj[i] if comp[u] >= 0}
        owned = [c for c in near if parts[c][1] >= 0]
        if len(owned) >= 2:  # would join two numbers
            a, b = (next(u for u in adj[i] if comp[u] == c) for c in owned[:2])
            implied.append([(i, True)] + list(dict.fromkeys(path(a) + path(b))))
            continue
        if not owned:
            continue
        k = parts[owned[0]][1]
        if not domain[k][i]:  # outside the number's domain
            implied.append([(i, True)] + path(next(u for u in adj[i] if comp[u] == owned[0])))
        elif 1 + sum(len(parts[c][0]) for c in near) > sizes[k]:  # the island would grow too big
            grown = [(v, True) for c in near for v in parts[c][0] if clue_at[v] < 0] if reasons else []
            implied.append([(i, True)] + grown)

    # searches from each number's part through its domain
    part_of = {parts[c][1]: c for c in range(len(parts)) if parts[c][1] >= 0}
    covered = bytearray(n_cells)
    why: list[list[IndexLiteral]] = []  # each clue's search reason
    depth = [-1] * n_cells
    for k in range(len(clues)):
        n, dom = sizes[k], domain[k]
        order = list(parts[part_of[k]][0])
        for v in order:
            depth[v] = 0
        budget = n - len(order)  # the island's other cells lie at most this far from the part
        reason = [(v, True) for v in order if clue_at[v] < 0] if reasons else []
        stopped: list[int] = []  # cells the search looked at and left (depth -2)
        for v in order:
            d = depth[v]
            if d >= budget:
                continue
            for u in adj[v]:
                if not dom[u] or depth[u] != -1:
                    continue
                if state[u] == BLACK:  # a wall stops the search
                    depth[u] = -2
                    stopped.append(u)
                    if reasons:
                        reason.append((u, False))
                    continue
                # a cell of another number's part, or beside one, is not this island's
                if touch[u] not in (-1, k):
                    depth[u] = -2
                    stopped.append(u)
                    if reasons:
                        c = comp[u]
                        w = (
                            u
                            if c >= 0 and parts[c][1] >= 0
                            else next(w for w in adj[u] if comp[w] >= 0 and parts[comp[w]][1] not in (-1, k))
                        )
                        reason += path(w)
                    continue
                depth[u] = d + 1
                order.append(u)
        for v in order:
            depth[v] = -1
            covered[v] = 1
        for u in stopped:
            depth[u] = -1
        reason = list(dict.fromkeys(reason))
        why.append(reason)
        if len(order) < least[k]:  # too little room for the island
            return IslandFindings(reason, [])
        if len(order) == least[k]:  # exactly room: every cell reached is unshaded
            implied += [[(v, False)] + reason for v in order if state[v] == UNKNOWN]
    for i in range(n_cells):
        if covered[i] or state[i] == BLACK or clue_at[i] >= 0:
            continue
        # no number's island can reach i: wall
        clause = [(i, True)] + list(dict.fromkeys(lit for k in g.owners[i] for lit in why[k]))
        if state[i] == WHITE:
            return IslandFindings(clause, [])
        implied.append(clause)
    return IslandFindings(None, implied)


# -- redundant wall statements (sound in every answer; they cut candidates before any lazy round) --


def wall_size(p: Nurikabe, plan: IslandPlan) -> tuple[int, int]:
    """The fewest and the most wall cells of any answer: the islands of the numbers hold exactly
    the cells their numbers say, a '?' island one cell to its bound, and every unshaded cell lies
    in an island with a clue, so the wall is the rest (both ends equal without '?' clues)."""
    left = p.rows * p.cols - sum(p.numbers.values())
    return max(0, left - sum(plan.bound[clue] for clue in p.unknown)), left - len(p.unknown)


def wall_partners(p: Nurikabe, plan: IslandPlan) -> list[tuple[Cell, list[Cell]]]:
    """``(cell, neighbours)`` for each non-clue cell and its non-clue side neighbours, when every
    answer's wall has two cells or more: a wall cell then has a wall neighbour (the wall is
    connected); empty when some answer's wall may have fewer cells."""
    if wall_size(p, plan)[0] < 2:
        return []
    clues = p.clue_cells
    return [
        (cell, [nb for nb in p.grid.neighbours4(cell) if nb not in clues])
        for cell in p.grid.all_cells
        if cell not in clues
    ]


def small_wall_parts(p: Nurikabe, plan: IslandPlan, most: int) -> list[tuple[list[Cell], list[Cell]]]:
    """``(part, fence)`` for each connected set of at most ``most`` cells that may be wall, with its
    non-clue side neighbours, when every answer's wall has more than ``most`` cells: the wall is
    connected, so such a set, all wall, is not the whole wall and some fence cell is wall too
    (:func:`wall_partners` is the case of one cell). Empty when some answer's wall may have
    ``most`` cells or fewer."""
    if most < 1 or wall_size(p, plan)[0] <= most:
        return []
    clues = p.clue_cells
    grid = p.grid
    seen: set[frozenset[Cell]] = set()
    out = []
    level = [frozenset({cell}) for cell in grid.all_cells if cell not in clues]
    for size in range(1, most + 1):
        grown = []
        for part in level:
            if part in seen:
                continue
            seen.add(part)
            fence = sorted(
                {nb for cell in part for nb in grid.neighbours4(cell) if nb not in part and nb not in clues}
            )
            out.append((sorted(part), fence))
            if size < most:
                grown += [part | {nb} for nb in fence]
        level = grown
    return out


def wall_lines(p: Nurikabe, plan: IslandPlan) -> tuple[list[list[Cell]], list[list[Cell]], int]:
    """The wall's span: each row's and each column's non-clue cells, and the most rows and columns
    the wall may meet together. The wall is connected, so the rows it meets are consecutive, and
    so are its columns; a connected set of m cells meeting h rows and w columns has
    m >= h + w - 1 (a spanning tree's m - 1 steps each change the row or the column by one), so
    h + w is at most the most wall cells of any answer (:func:`wall_size`) plus one."""
    clues = p.clue_cells
    rows = [[(r, c) for c in range(p.cols) if (r, c) not in clues] for r in range(p.rows)]
    cols = [[(r, c) for r in range(p.rows) if (r, c) not in clues] for c in range(p.cols)]
    return rows, cols, wall_size(p, plan)[1] + 1


def met_lines(p: Nurikabe, plan: IslandPlan) -> list[list[Cell]]:
    """The rows and columns (their cells, clue cells left out) that hold a wall cell in every
    answer.

    Why: suppose a line L (a whole row or column) holds no wall cell. Then L is unshaded and
    splits the board into the side before it and the side after it (either may be empty); the
    wall is connected and does not meet L, so it lies within one side, and the other side S
    holds no wall cell. Then S and L are unshaded and connected (every cell of S reaches L
    straight along its column, or row), so they lie in one island, with every clue beside them.
    That is impossible when S holds a known wall cell (:attr:`IslandPlan.wall`), when S, L and
    the clues beside them hold two clues or more, or one clue whose island's bound is smaller
    than those cells. When both sides are impossible, L holds a wall cell. (A line holding a
    known wall cell is met too.)"""
    clues = p.clue_cells
    out = []
    for axis, length, across in ((0, p.rows, p.cols), (1, p.cols, p.rows)):
        for k in range(length):
            cell_at = (lambda i, j: (i, j)) if axis == 0 else (lambda i, j: (j, i))
            line = [cell_at(k, j) for j in range(across)]
            cells = [c for c in line if c not in clues]
            if not cells:
                continue
            if any(c in plan.wall for c in cells):
                out.append(cells)
                continue

            def possible(side: range) -> bool:
                """Whether the wall may avoid L and the lines of ``side``."""
                region = set(line) | {cell_at(i, j) for i in side for j in range(across)}  # noqa: B023  (called within this iteration)
                if any(c in plan.wall for c in region):
                    return False
                held = {c for c in region if c in clues}
                held |= {nb for c in region for nb in p.grid.neighbours4(c) if nb in clues}
                if len(held) >= 2:
                    return False
                if not held:
                    return True
                clue = next(iter(held))
                return plan.bound[clue] >= len(region | held)

            if not possible(range(k)) and not possible(range(k + 1, length)):
                out.append(cells)
    return out


def wall_runs(p: Nurikabe, plan: IslandPlan) -> tuple[list[list[list[Cell]]], int, list[int]]:
    """The wall's runs (maximal stretches of wall cells along a row or a column): the stretches
    of non-clue cells of each row and column, grouped per line (a run lies within a stretch),
    the most runs of any answer's wall, and per line the most runs it may hold.

    Why: every wall cell lies in one run of its row and one of its column; join two runs when
    they share a cell. Two side-adjacent wall cells share a run, so a connected wall of m cells
    gives a connected graph of its runs with m edges (one per cell): m >= runs - 1, so the runs
    number at most the most wall cells of any answer (:func:`wall_size`) plus one. Each line of
    :func:`met_lines` holds one run at least, so a line holds at most the rest: the most runs
    less the met lines other than itself."""
    clues = p.clue_cells
    most = wall_size(p, plan)[1] + 1
    met = {frozenset(cells) for cells in met_lines(p, plan)}
    groups, per_line = [], []
    for axis, length, across in ((0, p.rows, p.cols), (1, p.cols, p.rows)):
        for k in range(length):
            stretches: list[list[Cell]] = []
            run: list[Cell] = []
            for j in range(across):
                cell = (k, j) if axis == 0 else (j, k)
                if cell in clues:
                    if run:
                        stretches.append(run)
                    run = []
                else:
                    run.append(cell)
            if run:
                stretches.append(run)
            groups.append(stretches)
            own = frozenset(c for s in stretches for c in s) in met
            per_line.append(most - len(met) + own)
    return groups, most, per_line


#: wall_runs=auto: the most runs to spare (beyond one per met line) for the runs' count to be
#: stated, and its largest counter (possible run starts x the most runs)
WALL_RUNS_SLACK = 2
WALL_RUNS_BUDGET = 20000


def wall_runs_pay(p: Nurikabe, plan: IslandPlan) -> bool:
    """wall_runs=auto: whether the runs' count is stated (it is always sound, see
    :func:`wall_runs`): when the lines the wall must meet leave it at most ``WALL_RUNS_SLACK``
    runs to spare, and its counter, the possible run starts (two per open cell) times the most
    runs, is within ``WALL_RUNS_BUDGET``. A tight count makes the wall a few straight lines,
    which settles such boards at once; a loose one only slows the search (docs/decisions)."""
    most = wall_size(p, plan)[1] + 1
    return most - len(met_lines(p, plan)) <= WALL_RUNS_SLACK and 2 * len(plan.open) * most <= WALL_RUNS_BUDGET


def most_adjacencies(n: int) -> int:
    """The most side-adjacent pairs among n cells of the grid: 2n - ceil(2 sqrt(n)) (Harary and
    Harborth, "Extremal animals", J. Combin. Inf. System Sci. 1, 1976; equivalently a polyomino of
    n cells has a perimeter of at least 2 ceil(2 sqrt(n)) cell sides)."""
    return 2 * n - math.isqrt(4 * n - 1) - 1 if n > 0 else 0


def wall_adjacency(p: Nurikabe) -> tuple[int, int] | None:
    """``(fewest, most)``: every answer's wall has at least ``fewest`` side-adjacent pairs of wall
    cells, and its wall-wall pairs plus its cells' sides on the board's border number at most
    ``most``; None with '?' clues (the wall's size is not fixed).

    Why: with m wall cells on a board of N = rows x cols cells, count each cell's four sides (to
    a wall cell, to an unshaded cell, or on the border, of which there are 2(rows + cols)):
    4m = 2 E_ww + E_wu + B_w and 4(N - m) = 2 E_uu + E_wu + B_u, so E_uu = E_ww + B_w + 2N - 4m -
    (rows + cols). Unshaded pairs lie within one island (two islands never touch), and an island
    of n cells has at most :func:`most_adjacencies` (n) of them, so E_ww + B_w is at most their sum
    less 2N - 4m - (rows + cols). The wall is connected: E_ww >= m - 1 (a spanning tree)."""
    if p.unknown:
        return None
    cells = p.rows * p.cols
    m = cells - sum(p.numbers.values())
    most = sum(most_adjacencies(n) for n in p.numbers.values()) - (2 * cells - 4 * m - (p.rows + p.cols))
    return max(0, m - 1), most


def wall_rules_option(default: str) -> Option:
    """Which redundant wall statements an encoding adds up front (:func:`wall_size`,
    :func:`wall_partners`; ``auto``: :func:`wall_rules`)."""
    return Option(
        "wall_rules",
        default,
        ("none", "count", "partners", "both", "auto"),
        "redundant wall statements: count (the wall holds the cells the numbers leave over), partners "
        "(a wall cell has a wall neighbour when the wall has 2+ cells), both, none, or auto (both where "
        "the wall is small, as wall_count=auto says, else none)",
    )


def wall_rules(p: Nurikabe, plan: IslandPlan, which: str) -> str:
    """The ``wall_rules`` option resolved: ``auto`` is ``both`` where :func:`wall_count_pays`, else
    ``none``."""
    if which != "auto":
        return which
    return "both" if wall_count_pays(p, plan) else "none"
