"""Nurikabe's failed-literal probe (:mod:`.nurikabe_deduce`) compiled with numba: the same four
rules, the same closure and the same fixpoint of the probe, over flat arrays.

:func:`.nurikabe_deduce.settle` and :func:`.nurikabe_deduce.probe` state the rules and the probe
in readable Python (the reference, used where numba is missing and for probes deeper than one
level); this module runs them over arrays, and both reach the same cells (the tests compare them
on corpus, thinned and random boards). The pieces, and the reference each follows:

* ``_islands``: the island rule without reasons
  (:func:`~puzzlebench.encodings.islands.island_reasoning` with ``reasons=False``); what it
  implies is marked per cell (wall, unshaded, or both: a conflict);
* ``_wall_joined``: the wall is connected
  (:func:`~puzzlebench.encodings.regions.connectivity_reasoning` with the wall as the connected
  colour): an iterative depth-first search with Tarjan's low-links;
* ``_crossing``: :func:`.nurikabe_deduce.crossing`. There, a clue's chain and a stray unshaded
  part's cross the wall when some rim cell c of one and t of the other have a wall part on the
  rim strictly between them one way round and a different one the other way round; the check
  runs only when the rim holds two wall parts or more, so "different" always holds once both
  arcs hold a wall cell, which is what is counted here (prefix sums of the rim's wall cells);
* ``settle`` (:func:`.nurikabe_deduce.settle`) and ``probe_slice``, a slice of one probing pass
  (:func:`.nurikabe_deduce.probe` at depth 1), so that the caller checks the deadline and the
  pass's pace between slices. Where the reference probes every open cell pass after pass, a pass
  here probes the cells marked due: all of them in a whole pass, after it the cells beside those
  settled, until none is due and a whole pass settles nothing (``_close``); the fixpoint is the
  same, with a quarter of the probes on the largest boards.

The arguments: ``g``, the board (side neighbours and the eight around each cell, -1 padded; the
2x2 blocks; the rim in order; the clue cells, their bounds and least sizes; each cell's clue; the
clues' domains, one row of 0/1 per clue; the owners of each cell as CSR: start, clue), and
``ws``, scratch arrays of the board's size (:func:`workspace`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNKNOWN, WHITE, BLACK = -1, 0, 1  # as in :mod:`.regions`
# probe_slice's outcomes
MORE, PASS_DONE, CONFLICT = 0, 1, 2


def workspace(n: int, clues: int) -> tuple:
    """Scratch arrays for a board of ``n`` cells and ``clues`` clues."""
    cells = lambda: np.empty(n, np.int32)
    # 0-7: parts and searches (comp, cells, part starts and ends, part clue, touch, order,
    # stopped; reused by the wall's search and the crossing's labels), 8 depth, 9 covered (and
    # articulations), 10 mark, 11 marked cells, 12-13 search stack or queue, 14 counts per clue,
    # 15 the part of each clue
    return (
        cells(),
        cells(),
        cells(),
        cells(),
        cells(),
        cells(),
        cells(),
        cells(),
        np.full(n, -1, np.int32),
        np.zeros(n, np.int8),
        np.zeros(n, np.int8),
        cells(),
        cells(),
        cells(),
        np.zeros(clues, np.int32),
        np.empty(clues, np.int32),
    )


@njit(cache=True)
def _mark(mark, marked, nm, i, bit):
    """Mark cell i implied wall (bit 1) or unshaded (bit 2); the new count of marked cells."""
    if mark[i] == 0:
        marked[nm] = i
        nm += 1
    mark[i] |= bit
    return nm


@njit(cache=True)
def _islands(g, ws, state):
    """The island rule: marks ``ws``'s ``mark`` and returns the count of marked cells (listed in
    ``marked``), or -1 on a conflict."""
    adj, clues, sizes, least, clue_at, domain = g[0], g[4], g[5], g[6], g[7], g[8]
    comp, cells, pstart, pend, pclue, touch, order, stopped = (
        ws[0],
        ws[1],
        ws[2],
        ws[3],
        ws[4],
        ws[5],
        ws[6],
        ws[7],
    )
    depth, covered, mark, marked, part_of = ws[8], ws[9], ws[10], ws[11], ws[15]
    n = state.size
    comp[:] = -1
    nparts = 0
    filled = 0
    # unshaded parts: two numbers, a cell outside the number's domain, or more cells than the
    # number in one part is a conflict
    for start in range(n):
        if state[start] != WHITE or comp[start] >= 0:
            continue
        cid = nparts
        nparts += 1
        pstart[cid] = filled
        comp[start] = cid
        cells[filled] = start
        filled += 1
        h = pstart[cid]
        while h < filled:
            v = cells[h]
            h += 1
            for j in range(4):
                u = adj[v, j]
                if u < 0:
                    break
                if state[u] == WHITE and comp[u] < 0:
                    comp[u] = cid
                    cells[filled] = u
                    filled += 1
        pend[cid] = filled
        k = -1
        for h in range(pstart[cid], filled):
            if clue_at[cells[h]] >= 0:
                if k >= 0:
                    return -1
                k = clue_at[cells[h]]
        pclue[cid] = k
        if k >= 0:
            part_of[k] = cid
            if filled - pstart[cid] > sizes[k]:
                return -1
            for h in range(pstart[cid], filled):
                if domain[k, cells[h]] == 0:
                    return -1
    # touch[i]: the clue whose part holds or borders cell i (-1 none, -2 two or more); covered
    # flags the undecided cells beside a part
    touch[:] = -1
    covered[:] = 0
    for cid in range(nparts):
        k = pclue[cid]
        for h in range(pstart[cid], pend[cid]):
            v = cells[h]
            for j in range(-1, 4):
                u = v if j < 0 else adj[v, j]
                if u < 0:
                    break
                if k >= 0:
                    t = touch[u]
                    touch[u] = k if t == -1 or t == k else -2
                if state[u] == UNKNOWN:
                    covered[u] = 1
    nm = 0
    near = np.empty(4, np.int32)
    # an undecided cell beside parts that would join two numbers, bring a cell outside the
    # number's domain into its island, or grow it past its number is wall
    for i in range(n):
        if covered[i] == 0:
            continue
        nn = 0
        owned = 0
        first = -1
        for j in range(4):
            u = adj[i, j]
            if u < 0:
                break
            c = comp[u] if state[u] == WHITE else -1
            if c < 0:
                continue
            seen = False
            for m in range(nn):
                if near[m] == c:
                    seen = True
            if seen:
                continue
            near[nn] = c
            nn += 1
            if pclue[c] >= 0:
                owned += 1
                if first < 0:
                    first = c
        if owned >= 2:
            nm = _mark(mark, marked, nm, i, 1)
        elif owned == 1:
            k = pclue[first]
            grown = 1
            for m in range(nn):
                grown += pend[near[m]] - pstart[near[m]]
            if domain[k, i] == 0 or grown > sizes[k]:
                nm = _mark(mark, marked, nm, i, 1)
    # a search from each number's part through its domain, at most its number less the part's
    # cells steps deep, past no wall and no other number's part (nor a cell beside one)
    covered[:] = 0
    for k in range(clues.size):
        cid = part_of[k]
        q = 0
        for h in range(pstart[cid], pend[cid]):
            depth[cells[h]] = 0
            order[q] = cells[h]
            q += 1
        budget = sizes[k] - q
        ns = 0
        h = 0
        while h < q:
            v = order[h]
            h += 1
            d = depth[v]
            if d >= budget:
                continue
            for j in range(4):
                u = adj[v, j]
                if u < 0:
                    break
                if domain[k, u] == 0 or depth[u] != -1:
                    continue
                if state[u] == BLACK or (touch[u] != -1 and touch[u] != k):
                    depth[u] = -2
                    stopped[ns] = u
                    ns += 1
                    continue
                depth[u] = d + 1
                order[q] = u
                q += 1
        for h in range(q):
            depth[order[h]] = -1
            covered[order[h]] = 1
        for h in range(ns):
            depth[stopped[h]] = -1
        if q < least[k]:  # too little room for the island
            return -1
        if q == least[k]:  # exactly room: every cell reached is unshaded
            for h in range(q):
                if state[order[h]] == UNKNOWN:
                    nm = _mark(mark, marked, nm, order[h], 2)
    # a cell no number's search reaches is wall
    for i in range(n):
        if covered[i] or state[i] == BLACK or clue_at[i] >= 0:
            continue
        if state[i] == WHITE:
            return -1
        nm = _mark(mark, marked, nm, i, 1)
    return nm


@njit(cache=True)
def _wall_joined(g, ws, state):
    """The wall is connected: undecided cells that no path of possible wall cells joins to the
    first wall cell turn unshaded, articulations that cut a wall cell off turn wall. 0 nothing
    changed, 1 changed, -1 a conflict (a wall cell cut off)."""
    adj = g[0]
    disc, low, parent, before, sv, si = ws[0], ws[1], ws[2], ws[3], ws[12], ws[13]
    art = ws[9]
    n = state.size
    root = -1
    for i in range(n):
        if state[i] == BLACK:
            root = i
            break
    if root < 0:
        return 0
    disc[:] = -1
    art[:] = 0
    disc[root] = low[root] = 0
    parent[root] = -1
    reached = 1
    walls = 1  # wall cells discovered so far
    sp = 1
    sv[0], si[0] = root, 0
    changed = 0
    while sp > 0:
        v = sv[sp - 1]
        pushed = False
        while si[sp - 1] < 4:
            u = adj[v, si[sp - 1]]
            si[sp - 1] += 1
            if u < 0:
                si[sp - 1] = 4
                break
            if state[u] == WHITE:
                continue
            du = disc[u]
            if du < 0:
                disc[u] = low[u] = reached
                reached += 1
                parent[u] = v
                before[u] = walls
                if state[u] == BLACK:
                    walls += 1
                sv[sp], si[sp] = u, 0
                sp += 1
                pushed = True
                break
            if du < low[v] and u != parent[v]:
                low[v] = du
        if pushed:
            continue
        sp -= 1
        if sp > 0:
            p = parent[v]
            if low[v] < low[p]:
                low[p] = low[v]
            # the subtree of v hangs on p alone and holds a wall cell: p is wall
            if p != root and state[p] == UNKNOWN and low[v] >= disc[p] and walls > before[v]:
                art[p] = 1
    if reached < n:
        for i in range(n):
            if disc[i] < 0 and state[i] == BLACK:
                return -1
        for i in range(n):
            if disc[i] < 0 and state[i] == UNKNOWN:
                state[i] = WHITE
                changed = 1
    for i in range(n):
        if art[i] and state[i] == UNKNOWN:
            state[i] = BLACK
            changed = 1
    return changed


@njit(cache=True)
def _label(adj, state, colour, lab, queue):
    """``lab``: the part of each cell of ``colour`` joined through ``adj`` (-1 the others); the
    count of parts."""
    lab[:] = -1
    parts = 0
    for start in range(state.size):
        if state[start] != colour or lab[start] >= 0:
            continue
        lab[start] = parts
        queue[0] = start
        tail = 1
        h = 0
        while h < tail:
            v = queue[h]
            h += 1
            for j in range(adj.shape[1]):
                u = adj[v, j]
                if u < 0:
                    break
                if state[u] == colour and lab[u] < 0:
                    lab[u] = parts
                    queue[tail] = u
                    tail += 1
        parts += 1
    return parts


@njit(cache=True)
def _crossing(g, ws, state):
    """Whether the wall and an island must cross (:func:`.nurikabe_deduce.crossing`)."""
    adj, adj8, rim, clues, own_start, own_list = g[0], g[1], g[3], g[4], g[9], g[10]
    wall, w4, w8, queue, counts = ws[0], ws[1], ws[2], ws[12], ws[14]
    _label(adj, state, BLACK, wall, queue)
    m = rim.size
    first = -1
    two = False
    for pos in range(m):
        a = wall[rim[pos]]
        if a >= 0:
            if first < 0:
                first = a
            elif a != first:
                two = True
    if not two:
        return False
    pre = np.zeros(m + 1, np.int32)  # rim wall cells before each position
    for pos in range(m):
        pre[pos + 1] = pre[pos] + (wall[rim[pos]] >= 0)
    total = pre[m]
    parts4 = _label(adj, state, WHITE, w4, queue)
    _label(adj8, state, WHITE, w8, queue)
    clued = np.zeros(parts4, np.bool_)
    for k in range(clues.size):
        clued[w4[clues[k]]] = True
    # the cells of each unshaded part, together (``members[start[p]:start[p + 1]]``)
    start = np.zeros(parts4 + 1, np.int32)
    for i in range(state.size):
        if w4[i] >= 0:
            start[w4[i] + 1] += 1
    for part in range(parts4):
        start[part + 1] += start[part]
    members = np.empty(start[parts4], np.int32)
    fill = start[:parts4].copy()
    for i in range(state.size):
        if w4[i] >= 0:
            members[fill[w4[i]]] = i
            fill[w4[i]] += 1
    cs = np.empty(m, np.int32)
    ts = np.empty(m, np.int32)
    for part in range(parts4):
        if clued[part]:
            continue
        lc = w8[members[start[part]]]
        nc = _on_rim(w8, rim, lc, cs)
        if nc == 0:
            continue
        # the clues that may take every cell of the part
        size = start[part + 1] - start[part]
        for x in range(start[part], start[part + 1]):
            i = members[x]
            for y in range(own_start[i], own_start[i + 1]):
                counts[own_list[y]] += 1
        f = members[start[part]]
        takers = 0
        every = True
        for y in range(own_start[f], own_start[f + 1]):
            k = own_list[y]
            if counts[k] != size:
                continue
            takers += 1
            if every:
                lt = w8[clues[k]]
                nt = _on_rim(w8, rim, lt, ts) if lt != lc else 0
                if not _interleaved(cs[:nc], ts[:nt], pre, total):
                    every = False
        for x in range(start[part], start[part + 1]):
            i = members[x]
            for y in range(own_start[i], own_start[i + 1]):
                counts[own_list[y]] = 0
        if takers and every:
            return True
    return False


@njit(cache=True)
def _on_rim(w8, rim, label, out):
    """The rim positions of the cells of chain ``label`` (into ``out``); their count."""
    k = 0
    for pos in range(rim.size):
        if w8[rim[pos]] == label:
            out[k] = pos
            k += 1
    return k


@njit(cache=True)
def _interleaved(cs, ts, pre, total):
    """Whether some rim position in ``cs`` and one in ``ts`` (of two different chains) have a rim
    wall cell strictly between them both ways round."""
    for c in cs:
        for t in ts:
            a, b = min(c, t), max(c, t)
            inner = pre[b] - pre[a + 1]
            if inner > 0 and total - inner > 0:
                return True
    return False


@njit(cache=True)
def settle(g, ws, state):
    """Close ``state`` under the four rules (in place, as :func:`.nurikabe_deduce.settle`);
    False on a conflict."""
    blocks = g[2]
    mark, marked = ws[10], ws[11]
    while True:
        changed = False
        # no 2x2 block is all wall
        for b in range(blocks.shape[0]):
            walls = 0
            for j in range(4):
                walls += state[blocks[b, j]] == BLACK
            if walls == 4:
                return False
            if walls == 3:
                for j in range(4):
                    if state[blocks[b, j]] == UNKNOWN:
                        state[blocks[b, j]] = WHITE
                        changed = True
        # the island rule
        nm = _islands(g, ws, state)
        ok = nm >= 0
        for x in range(max(nm, 0)):
            i = marked[x]
            if mark[i] == 3:
                ok = False
            elif state[i] == UNKNOWN:
                state[i] = BLACK if mark[i] == 1 else WHITE
                changed = True
            mark[i] = 0
        if not ok:
            mark[:] = 0
            return False
        if changed:
            continue
        # the wall is connected
        joined = _wall_joined(g, ws, state)
        if joined < 0:
            return False
        if joined == 0:
            return not _crossing(g, ws, state)


@njit(cache=True)
def _agree(state, wall, white):
    """Settle the open cells both sides of a probe settled alike; whether there was one."""
    agreed = False
    for j in range(state.size):
        if state[j] == UNKNOWN and wall[j] == white[j] and wall[j] != UNKNOWN:
            state[j] = wall[j]
            agreed = True
    return agreed


@njit(cache=True)
def _due_around(g, state, before, due):
    """Mark due the cells beside (the eight around) each cell ``state`` settled since ``before``."""
    adj8 = g[1]
    for j in range(state.size):
        if state[j] != before[j]:
            for k in range(adj8.shape[1]):
                if adj8[j, k] >= 0:
                    due[adj8[j, k]] = 1


@njit(cache=True)
def probe_slice(g, ws, state, due, i, limit):
    """Probe the undecided cells marked ``due`` from cell ``i`` on, ``limit`` of them at most:
    each set wall, then unshaded, and closed (:func:`settle`); a side that fails settles the cell
    the other way, and the cells both sides agree on are settled. A probed cell is no longer due;
    the cells around each cell settled become due. Returns (outcome, the next cell, whether a cell
    was settled, the cells probed): ``PASS_DONE`` at the end of the board, ``MORE``, or
    ``CONFLICT`` (no answer)."""
    n = state.size
    progress = False
    tried = 0
    while i < n:
        if state[i] != UNKNOWN or not due[i]:
            due[i] = 0
            i += 1
            continue
        if tried == limit:
            return MORE, i, progress, tried
        tried += 1
        due[i] = 0
        wall = state.copy()
        wall[i] = BLACK
        wall_ok = settle(g, ws, wall)
        white = state.copy()
        white[i] = WHITE
        white_ok = settle(g, ws, white)
        if not wall_ok and not white_ok:
            return CONFLICT, i, progress, tried
        if not wall_ok or not white_ok:
            side = white if not wall_ok else wall
            _due_around(g, side, state, due)
            state[:] = side
            progress = True
        else:
            before = state.copy()
            if _agree(state, wall, white):
                if not settle(g, ws, state):
                    return CONFLICT, i, progress, tried
                _due_around(g, state, before, due)
                progress = True
        i += 1
    return PASS_DONE, i, progress, tried


@njit(cache=True)
def pending(state, due):
    """Whether an open cell is due."""
    for j in range(due.size):
        if due[j] and state[j] == UNKNOWN:
            return True
    return False


@njit(cache=True)
def _close(g, ws, state, due, whole):
    """Probe at depth 1 until a pass over every open cell settles nothing (``whole``: ``due`` marks
    them all), starting with the cells ``due``: passes over the due cells while any is due, then a
    whole pass; False on a conflict. Past the first pass only the cells beside those settled are
    probed (a fraction of the probes on the largest boards, the same cells settled: a settled cell
    mostly changes what its neighbours' probes find); the whole pass at the end keeps the fixpoint
    that of whole passes."""
    while True:
        outcome, i, progress, tried = probe_slice(g, ws, state, due, 0, state.size)
        if outcome == CONFLICT:
            return False
        if whole and not progress:
            return True
        whole = not pending(state, due)
        if whole:
            due[:] = 1


@njit(cache=True)
def probe_whole(g, ws, state):
    """:func:`settle`, then depth-1 probing to its fixpoint (no deadline: for the sides of a deeper
    probe, on boards where a pass is short); False on a conflict."""
    if not settle(g, ws, state):
        return False
    return _close(g, ws, state, np.ones(state.size, np.int8), True)


@njit(cache=True)
def _side(g, ws, state, i, colour):
    """``state`` with cell ``i`` set to ``colour`` and closed at depth 1 (the probe starting from
    the cells around those the closure settled: ``state`` is mostly closed at depth 1 already);
    None on a conflict."""
    side = state.copy()
    side[i] = colour
    if not settle(g, ws, side):
        return None
    due = np.zeros(state.size, np.int8)
    _due_around(g, side, state, due)
    if not _close(g, ws, side, due, False):
        return None
    return side


@njit(cache=True)
def probe2_slice(g, ws, state, i, limit):
    """As :func:`probe_slice` over every open cell, each side closed at depth 1 (:func:`_side`)
    instead of by :func:`settle` (failed-literal probing at depth 2), returning at the first cell
    settled: the caller closes the state at depth 1 again before going on
    (:func:`.nurikabe_deduce.probe` at depth 2)."""
    n = state.size
    tried = 0
    while i < n:
        if state[i] != UNKNOWN:
            i += 1
            continue
        if tried == limit:
            return MORE, i, False, tried
        tried += 1
        wall = _side(g, ws, state, i, BLACK)
        white = _side(g, ws, state, i, WHITE)
        if wall is None and white is None:
            return CONFLICT, i, False, tried
        if wall is None or white is None:
            state[:] = white if wall is None else wall
            return MORE, i + 1, True, tried
        if _agree(state, wall, white):
            return MORE, i + 1, True, tried
        i += 1
    return PASS_DONE, i, False, tried


def arrays(board) -> tuple:
    """``g`` for a :class:`.nurikabe_deduce.Board`."""
    ig = board.g
    n = len(ig.adj)

    def padded(lists, width):
        out = np.full((n, width), -1, np.int32)
        for i, nbs in enumerate(lists):
            out[i, : len(nbs)] = nbs
        return out

    starts = np.zeros(n + 1, np.int32)
    starts[1:] = np.cumsum([len(o) for o in ig.owners])
    domain = (
        np.frombuffer(b"".join(ig.domain), np.uint8).reshape(len(ig.clues), n)
        if ig.clues
        else np.zeros((0, n), np.uint8)
    )
    return (
        padded(ig.adj, 4),
        padded(board.adj8, 8),
        np.array(board.blocks, np.int32).reshape(-1, 4),
        np.array(board.rim, np.int32),
        np.array(ig.clues, np.int32),
        np.array(ig.sizes, np.int32),
        np.array(ig.least, np.int32),
        np.array(ig.clue_at, np.int32),
        domain,
        starts,
        np.array([k for o in ig.owners for k in o], np.int32),
    )


def warm_up() -> None:
    """Compile every entry point, or load it from numba's cache beside this file (``make setup``
    runs this module for it)."""
    from ..model import Nurikabe
    from . import nurikabe_deduce
    from .islands import IslandPlan

    p = Nurikabe(4, 4, numbers={(0, 1): 3, (2, 3): 3, (3, 0): 1}, name="warm-up")  # two answers
    board, state = nurikabe_deduce.initial(p, IslandPlan.searched(p))
    g, ws, s = arrays(board), workspace(len(state), len(board.g.clues)), np.array(state, np.int8)
    settle(g, ws, s)
    due = np.ones(len(state), np.int8)
    probe_slice(g, ws, s, due, 0, len(state))
    pending(s, due)
    probe2_slice(g, ws, s.copy(), 0, 1)
    probe_whole(g, ws, s)


if __name__ == "__main__":
    warm_up()
