"""Board geometry the connectivity rules share.

``white_regions`` finds the white regions of a candidate answer, and ``connectivity_cuts`` turns
a split candidate into the cuts of the lazy rule, over cell literals, for every paradigm. ``connectivity_reasoning`` is the graph reasoning of the
connectivity propagators (sat's IPASIR-UP engine, asp's clingo propagator) on a partial
assignment: which cells must be black (unreachable from the root) or white (articulation
points guarding a white cell), each with the black fence that forces it. It works on cell
indices and plain lists, no solver types. The verifier in ``puzzlebench.model.verify`` keeps
its own flood fill, so that it shares no code with them.
"""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from ..model import Cell
from .base import CellClause, LazyRule


def white_regions(rows: int, cols: int, marked: frozenset[Cell]) -> list[list[Cell]]:
    """Orthogonally connected regions of unmarked (white) cells, in row-major order of first cell
    (each region's cells in the order of a depth-first search: up, down, left, right)."""
    # flat indices and a bytearray: the lazy loops call this on every candidate
    around, cell = _grid(rows, cols)
    seen = bytearray(rows * cols)  # 1: marked or visited
    for r, c in marked:
        seen[r * cols + c] = 1
    regions = []
    start = seen.find(0)
    while start >= 0:
        seen[start] = 1
        region, stack = [start], [start]
        while stack:
            for j in around[stack.pop()]:
                if not seen[j]:
                    seen[j] = 1
                    region.append(j)
                    stack.append(j)
        regions.append([cell[i] for i in region])
        start = seen.find(0, start + 1)
    return regions


#: bytes.translate table swapping 0 and 1
_FLIP = bytes([1, 0]) + bytes(254)


@lru_cache(maxsize=8)
def _grid(rows: int, cols: int) -> tuple[list[tuple[int, ...]], list[Cell]]:
    """Per flat index of a rows x cols grid: its neighbours' indices (up, down, left, right) and its cell."""
    around = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        around.append(
            tuple(
                r2 * cols + c2
                for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= r2 < rows and 0 <= c2 < cols
            )
        )
    return around, [divmod(i, cols) for i in range(rows * cols)]


def connectivity_cuts(
    rows: int,
    cols: int,
    marked: frozenset[Cell],
    markable: Container[Cell],
    anchor: Cell | None = None,
    isolated: bool = True,
    of_marked: bool = False,
) -> list[CellClause]:
    """The lazy rule "all unmarked (white) cells are connected": the cuts a candidate violates.

    Let C be a white region of the candidate and B the marked cells around it. In any answer
    where C is white and B marked, C is a whole white region, so it holds every white cell.
    When the candidate has another white region, each region C gets the cut "some cell of B
    turns white, or some cell of C turns marked, or a white cell outside C turns marked" (the
    witness: ``anchor`` when it lies outside C, else a cell of another region; a cell that can
    never be marked drops out of the clause). ``[]``: the white cells are connected. Cells
    beyond ``markable`` never appear in a cut.

    ``isolated=True`` says marked cells never share a side (Kuromasu, Hitori). Then the cut is
    B alone, "some cell of B turns white": with B marked, C cannot turn all marked (its cells
    touch B) and the cells beyond C and B cannot either (some touch B), so a white cell would
    stay on each side of B. The largest region's fence, the longest of these clauses, is left
    out: the other regions' cuts already exclude the candidate.

    ``of_marked=True`` states the same rule for the marked cells instead (Nurikabe's wall): the
    regions are then the marked ones, the fence their unmarked neighbours, and every literal
    flips (a fence cell turns marked, a region cell or the witness turns unmarked).
    """
    size = rows * cols
    around, cell = _grid(rows, cols)
    black = bytearray(size)  # 1: outside the cells that must be connected
    for r, c in marked:
        black[r * cols + c] = 1
    if of_marked:
        black = black.translate(_FLIP)
    region = [0] * size  # region number + 1 of each white cell, 0 while unvisited
    regions: list[list[int]] = []
    for start in range(size):
        if black[start] or region[start]:
            continue
        regions.append([start])
        members, stack = regions[-1], [start]
        region[start] = len(regions)
        while stack:
            for j in around[stack.pop()]:
                if not black[j] and not region[j]:
                    region[j] = len(regions)
                    members.append(j)
                    stack.append(j)
    if len(regions) <= 1:
        return []
    anchor_index = None if anchor is None else anchor[0] * cols + anchor[1]
    cuts: list[CellClause] = []
    largest = max(range(len(regions)), key=lambda k: len(regions[k])) + 1
    for number, members in enumerate(regions, start=1):
        if isolated and number == largest:
            continue
        boundary = {j for i in members for j in around[i] if black[j]}
        # a fence cell joins the region's kind,
        clause: CellClause = [(cell[j], of_marked) for j in sorted(boundary)]
        if not isolated:  # or a region cell leaves it, or the cell outside the region does too
            clause += [(cell[i], not of_marked) for i in members]
            outside = anchor_index if anchor_index is not None and region[anchor_index] != number else None
            if outside is None:
                outside = regions[0][0] if number != 1 else regions[1][0]
            clause.append((cell[outside], not of_marked))
        # a cell that can never be marked drops out ((cell, False) is always true for it)
        cuts.append([(c, v) for c, v in clause if not v or c in markable])
    return cuts


def connectivity_rule(
    rows: int,
    cols: int,
    markable: Collection[Cell],
    anchor: Cell | None = None,
    isolated: bool = True,
    of_marked: bool = False,
) -> LazyRule:
    """:func:`connectivity_cuts` as an artefact's lazy rule (``Artifact.lazy``)."""
    markable = frozenset(markable)  # cells only: the rule must not hold solver objects
    return lambda marked: connectivity_cuts(rows, cols, marked, markable, anchor, isolated, of_marked)


def island_cuts(
    rows: int,
    cols: int,
    numbers: Mapping[Cell, int],
    marked: frozenset[Cell],
    unknown: Container[Cell] = frozenset(),
) -> list[CellClause]:
    """The lazy rule "every island holds one clue, a number equal to its size or a '?' of
    ``unknown`` (any size)" (Nurikabe): the cuts a candidate violates, one per faulty island R (an
    unmarked region) with marked fence B.

    - no clue, or fewer cells than its number: with R unmarked and B marked, R is that island,
      so "a cell of R turns marked or a cell of B unmarked";
    - two clues: a shortest path inside R joins two of them, so "a cell between them turns
      marked" (empty when the clues are neighbours: no answer exists);
    - more cells than its number n: the first n + 1 cells of a breadth-first search from the
      number inside R form a connected unmarked set too large for one island, so "one of its
      unnumbered cells turns marked".
    """
    cuts: list[CellClause] = []
    for region in white_regions(rows, cols, marked):
        inside = set(region)
        clues = [cell for cell in region if cell in numbers or cell in unknown]
        if len(clues) >= 2:
            parent = _bfs(rows, cols, clues[0], inside)
            end = min((cell for cell in clues[1:]), key=lambda c: parent[c][1])
            path, cell = [], parent[end][0]
            while cell != clues[0]:
                path.append((cell, True))
                cell = parent[cell][0]
            cuts.append(path)
        elif not clues or len(region) < numbers.get(clues[0], 1):
            fence = sorted({nb for cell in region for nb in _around(rows, cols, cell) if nb not in inside})
            cuts.append(
                [(cell, True) for cell in region if cell not in numbers] + [(b, False) for b in fence]
            )
        elif clues[0] in numbers and len(region) > numbers[clues[0]]:
            order = list(_bfs(rows, cols, clues[0], inside))[: numbers[clues[0]] + 1]
            cuts.append([(cell, True) for cell in order if cell not in numbers])
    return cuts


def island_rule(
    rows: int, cols: int, numbers: Mapping[Cell, int], unknown: frozenset[Cell] = frozenset()
) -> LazyRule:
    """:func:`island_cuts` as an artefact's lazy rule."""
    numbers = dict(numbers)
    return lambda marked: island_cuts(rows, cols, numbers, marked, unknown)


def all_rules(*rules: LazyRule | None) -> LazyRule | None:
    """One lazy rule checking each of ``rules`` (None ones skipped): the cuts of all of them."""
    active = [rule for rule in rules if rule is not None]
    if len(active) <= 1:
        return active[0] if active else None
    return lambda marked: [cut for rule in active for cut in rule(marked)]


def _around(rows: int, cols: int, cell: Cell) -> list[Cell]:
    r, c = cell
    out = []
    if r:
        out.append((r - 1, c))
    if r + 1 < rows:
        out.append((r + 1, c))
    if c:
        out.append((r, c - 1))
    if c + 1 < cols:
        out.append((r, c + 1))
    return out


def _bfs(
    rows: int, cols: int, start: Cell, within: Container[Cell], also: Iterable[Cell] = ()
) -> dict[Cell, tuple[Cell, int]]:
    """Breadth-first search from ``start`` (and the cells ``also``, each at distance 0) over
    ``within``: cell -> (parent, distance), in visiting order."""
    parent = {cell: (cell, 0) for cell in (start, *also)}
    queue = list(parent)
    for cell in queue:
        for nb in _around(rows, cols, cell):
            if nb in within and nb not in parent:
                parent[nb] = (cell, parent[cell][1] + 1)
                queue.append(nb)
    return parent


def root_cell(puzzle: Any) -> Cell | None:
    """The clue nearest the centre of the board (ties: row-major first), or None without clues;
    ``puzzle`` has ``rows``, ``cols`` and ``clue_cells``."""
    cells = sorted(puzzle.clue_cells)
    if not cells:
        return None
    mid_r, mid_c = (puzzle.rows - 1) / 2, (puzzle.cols - 1) / 2
    return min(cells, key=lambda c: (abs(c[0] - mid_r) + abs(c[1] - mid_c), c))


# -- connectivity reasoning on partial assignments ------------------------------------------------
#: cell states of a partial assignment (plain ints: the search below runs at every fixpoint)
UNKNOWN, WHITE, BLACK = -1, 0, 1


class Articulation(NamedTuple):
    """An undecided cell whose blackening would cut ``white`` off from the root.

    ``fence`` holds the black cells around the cut-off part (the cells reached through
    ``cell`` only): with them black, the root white and ``white`` white, ``cell`` must be white.
    """

    cell: int
    fence: list[int]
    white: int


class Reasoning(NamedTuple):
    """What "white cells are connected" implies for one partial assignment.

    ``unreached``: the non-black cells no path of non-black cells joins to the root (an
    unknown one must be black; a white one is a conflict). ``fence``: the black cells bordering
    the reached region (empty when every non-black cell is reached); they, with the root white,
    are the reason for every ``unreached`` inference. ``articulations``: cells that must be
    white (none are reported when a white cell is unreached: the assignment fails anyway).
    """

    unreached: list[int]
    fence: list[int]
    articulations: list[Articulation]


def connectivity_reasoning(adj: Sequence[Sequence[int]], state: Sequence[int], root: int) -> Reasoning:
    """Cells forced black or white by the connectivity of the white cells, with their fences.

    Cells are indices ``0..n-1``; ``adj[i]`` lists the side-neighbours of cell ``i`` (a simple
    graph); ``state[i]`` is ``UNKNOWN``, ``WHITE`` or ``BLACK``; ``root`` is a white cell.
    A depth-first search from the root over the non-black cells keeps Tarjan's low-links:
    a child subtree whose low-link does not climb above its parent ``p`` touches the rest of
    the reached region only through ``p`` (every other neighbour is black), so when that
    subtree holds a white cell and ``p`` (not the root) is undecided, ``p`` must be white.
    """
    if state[root] != WHITE:
        raise ValueError(f"the root (cell {root}) must be white, its state is {state[root]}")
    n = len(state)
    disc = [-1] * n  # preorder number; -1: not reached
    low = [0] * n
    parent = [-1] * n
    whites_before = [0] * n  # white cells discovered before each cell
    preorder = [root]  # a subtree is a contiguous slice of the preorder
    disc[root] = 0
    whites = 1
    last_white = root  # the latest white cell discovered: in a subtree iff whites grew since
    cut: list[tuple[int, int, int, int]] = []  # (articulation, slice start, slice end, a white cell)
    cut_cells: set[int] = set()
    stack = [(root, iter(adj[root]))]
    while stack:
        v, it = stack[-1]
        for u in it:
            if state[u] == BLACK:
                continue
            du = disc[u]
            if du < 0:
                disc[u] = low[u] = len(preorder)
                preorder.append(u)
                parent[u] = v
                whites_before[u] = whites
                if state[u] == WHITE:
                    whites += 1
                    last_white = u
                stack.append((u, iter(adj[u])))
                break
            if du < low[v] and u != parent[v]:
                low[v] = du
        else:
            stack.pop()
            if stack:
                p = parent[v]
                if low[v] < low[p]:
                    low[p] = low[v]
                # the subtree of v hangs on p alone and holds a white cell: p stays white
                if (
                    p != root
                    and state[p] == UNKNOWN
                    and low[v] >= disc[p]
                    and whites > whites_before[v]
                    and p not in cut_cells
                ):
                    cut_cells.add(p)
                    cut.append((p, disc[v], len(preorder), last_white))

    unreached = [i for i in range(n) if disc[i] < 0 and state[i] != BLACK] if len(preorder) < n else []
    fence: list[int] = []
    if unreached:
        fence = sorted({u for v in preorder for u in adj[v] if disc[u] < 0})
        if any(state[i] == WHITE for i in unreached):
            return Reasoning(unreached, fence, [])
    articulations = []
    for p, lo, hi, white in cut:
        # the part's neighbours outside it, p aside, are black (no edge climbs above p)
        part_fence = {u for v in preorder[lo:hi] for u in adj[v] if u != p and not lo <= disc[u] < hi}
        articulations.append(Articulation(p, sorted(part_fence), white))
    return Reasoning(unreached, fence, articulations)
