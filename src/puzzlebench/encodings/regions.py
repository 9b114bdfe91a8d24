"""Board geometry the connectivity rules share.

``white_regions`` finds the white regions of a candidate answer, and ``split_cuts`` turns a
split candidate into the cuts of the lazy rules (cp, smt). ``connectivity_reasoning`` is the graph reasoning of the
connectivity propagators (sat's IPASIR-UP engine, asp's clingo propagator) on a partial
assignment: which cells must be black (unreachable from the root) or white (articulation
points guarding a white cell), each with the black fence that forces it. It works on cell
indices and plain lists, no solver types. The verifier in ``puzzlebench.model.verify`` keeps
its own flood fill, so that it shares no code with them.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..model import Cell


def white_regions(rows: int, cols: int, marked: frozenset[Cell]) -> list[list[Cell]]:
    """Orthogonally connected regions of unmarked (white) cells, in row-major order of first cell."""
    seen: set[Cell] = set()
    regions = []
    for start in ((r, c) for r in range(rows) for c in range(cols)):
        if start in marked or start in seen:
            continue
        seen.add(start)
        region, stack = [start], [start]
        while stack:
            r, c = stack.pop()
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nb[0] < rows and 0 <= nb[1] < cols and nb not in marked and nb not in seen:
                    seen.add(nb)
                    region.append(nb)
                    stack.append(nb)
        regions.append(region)
    return regions


class Cut(NamedTuple):
    """A white region cut off from the kept one: its cells and the black cells around it.

    The lazy rules' cut: some ``border`` cell turns white, or some ``cells`` cell turns black.
    """

    cells: list[Cell]
    border: list[Cell]


def split_cuts(rows: int, cols: int, marked: frozenset[Cell], anchor: Cell | None) -> tuple[list[Cell], list[Cut]]:
    """A candidate's white regions as the kept one (holding ``anchor``, else the largest) and a
    :class:`Cut` for every other one (none when the white cells are connected)."""
    regions = white_regions(rows, cols, marked)
    main = next((r for r in regions if anchor in r), None) if anchor is not None else None
    if main is None:
        main = max(regions, key=len, default=[])
    cuts = []
    for region in regions:
        if region is main:
            continue
        border = {(r + dr, c + dc) for r, c in region for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))}
        cuts.append(Cut(sorted(region), sorted(border & marked)))
    return main, cuts


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
