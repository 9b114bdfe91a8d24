"""The deductions of :mod:`.kuromasu_probe`, compiled with numba: the same rules, the same probes
and the same bookkeeping of which branch to run again, over flat arrays.

:class:`~.kuromasu_probe.Views` states the rules, the probes and the re-run bookkeeping in
readable Python (the reference, used where numba is missing or a number is above 61, whose
lengths would not fit a 64-bit mask); this module runs them an order of magnitude faster on the
bundled 100x100 boards (``benchmarks/kuromasu_probe.py``). Both reach the same fixpoint, and
run the same branches (the tests compare them on bundled, thinned and random boards). The pieces,
and the reference method each follows:

* a cell's colour ``col`` (-1 open, 0 white, 1 black), a number's lengths ``mask`` (q, ray) as
  a bit set, and a trail of both for undoing (``_settle``, ``_set_mask``, ``_undo``);
* ``_revise``, ``_propagate``, ``_prune``; ``_still_joined`` (the white cells stay joined),
  whose local search starts from all the cut-off neighbours at once and merges where they meet,
  within a larger budget than the reference's (the whole board is searched 12 times on
  100x100 s1 instead of 14,076; the verdict is the same, the whole-board search decides);
* probing (``_probe_one``): each branch (a cell's colour, a view, a length, or a wait on a
  number) keeps its outcome, the cells it settled and the masks it revised in pools; the cells
  and numbers it read point back to it, so that a change for good wakes it.

The pools start small; a branch that finds one full stops the run with :data:`FULL`, and the
caller compacts them (``compact``: what no kept outcome needs is dropped), grows them if that is
not room enough, and runs that probe again. The probing runs in slices of probes, so that
the caller checks the solve's deadline between them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

OPEN = -1
LOCAL_BUDGET = 1_000  # cells a local connectivity search visits before the whole board is searched (the reference's 160 suits Python)

# Run states (returned by the entry points).
DONE, MORE, CONTRADICTION, FULL = 0, 1, 2, 3
# Contradictions (ctr[WHY], ctr[WHY_AT]).
BOTH, NO_VIEW, WALLED = 1, 2, 3

# The arguments: ``g``, the board (neighbours, rings of eight, numbered cells, the cells' watch
# lists as CSR: start, number, ray, position; the numbers, their rays, the rays' lengths), and
# ``s``, the state (colours, masks, trail: entry and old mask, queue, the dirty numbers: flag,
# masks at their last revision, stack; ``ctr``; scratch: stamps, search queue, kept and old masks,
# colours, counts and labels per cell).

# Counters and flags, one int64 array ``ctr``.
TL, QL, DN, NWHITE, WHY, WHY_AT, CONNECTED, ELSEWHERE, STAMP = range(9)
SP, DP, CP, RP, PEND_N, PEND_I, WOKEN_N, TRIES, PROBES_RUN, WHOLE = range(9, 19)
COUNTERS = 19

# Probe kinds (rows of ``probes``: kind, a, b, c).
CELL, VIEWS, LENGTH, WAIT = 0, 1, 2, 3


@njit(cache=True)
def _ctz(m):
    k = 0
    while (m >> k) & 1 == 0:
        k += 1
    return k


@njit(cache=True)
def _bit_length(m):
    k = 0
    while m >> k:
        k += 1
    return k


@njit(cache=True)
def _sums(a, b, full):
    """The sums (as a bit set, below ``full``) of a length from ``a`` and one from ``b``."""
    out = 0
    k = 0
    while a >> k:
        if (a >> k) & 1:
            out |= b << k
        k += 1
    return out & full


@njit(cache=True)
def _prune(n, a, b, c, d, out):
    """The lengths of each ray that the other three complete to n - 1 (into ``out``)."""
    full = (1 << n) - 1
    ab = _sums(a, b, full)
    cd = _sums(c, d, full)
    masks = (a, b, c, d)
    others = (_sums(b, cd, full), _sums(a, cd, full), _sums(d, ab, full), _sums(c, ab, full))
    for i in range(4):
        m = masks[i]
        kept = 0
        k = 0
        while m >> k:
            if (m >> k) & 1 and (others[i] >> (n - 1 - k)) & 1:  # the others make n - 1 - k
                kept |= 1 << k
            k += 1
        out[i] = kept


# -- propagation (the reference's _settle, _set_mask, _revise, _propagate, _undo) ---------------


@njit(cache=True)
def _settle(s, x, v):
    col, tra, trb, queue, ctr = s[0], s[2], s[3], s[4], s[8]
    known = col[x]
    if known == OPEN:
        col[x] = v
        t = ctr[TL]
        tra[t] = x
        trb[t] = 0
        ctr[TL] = t + 1
        queue[ctr[QL]] = x
        ctr[QL] += 1
        if v == 0:
            ctr[NWHITE] += 1
        return True
    if known != v:
        ctr[WHY] = BOTH
        ctr[WHY_AT] = x
        return False
    return True


@njit(cache=True)
def _set_mask(s, q, i, new):
    mask, tra, trb, ctr = s[1], s[2], s[3], s[8]
    t = ctr[TL]
    tra[t] = -(q * 4 + i) - 1
    trb[t] = mask[q, i]
    ctr[TL] = t + 1
    mask[q, i] = new


@njit(cache=True)
def _revise(g, s, q, olds, has_olds):
    """Keep a length only if the other three rays complete the sum; settle what the kept lengths
    agree on (only what changed since ``olds``, the masks at the number's last revision)."""
    n, rays, raylen = g[7], g[8], g[9]
    col, mask, ctr, kept = s[0], s[1], s[8], s[11]
    _prune(n[q], mask[q, 0], mask[q, 1], mask[q, 2], mask[q, 3], kept)
    for i in range(4):
        if kept[i] == 0:
            ctr[WHY] = NO_VIEW
            ctr[WHY_AT] = q
            return False
    if s[17][q] > 0 and not _without_gone(g, s, q, kept):
        return False
    for i in range(4):
        m = kept[i]
        if m != mask[q, i]:
            _set_mask(s, q, i, m)
        old = olds[i] if has_olds else -1
        if m == old:
            continue
        shortest = _ctz(m)
        start = _ctz(old) if old > 0 else 0
        for j in range(start, shortest):  # white up to the shortest length
            x = rays[q, i, j]
            if col[x] == OPEN:
                _settle(s, x, 0)
        if m & (m - 1) == 0 and shortest < raylen[q, i]:  # one length left: the cell after it is black
            if not _settle(s, rays[q, i, shortest], 1):
                return False
    return True


@njit(cache=True)
def _without_gone(g, s, q, kept):
    """``kept`` narrowed to the views of number q that no probe ruled out (unchanged past the
    ``whole_views`` limit); False when none is left."""
    gone, gone_n, out, ctr = s[16], s[17], s[18], s[8]
    nv = _views_of(g[7][q], kept[0], kept[1], kept[2], kept[3], ctr[WHOLE], out)
    if nv < 0:
        return True
    m0 = m1 = m2 = m3 = 0
    for j in range(nv):
        key = (out[j, 0] * 64 + out[j, 1]) * 64 + out[j, 2]
        dead = False
        for t in range(gone_n[q]):
            if gone[q, t] == key:
                dead = True
                break
        if not dead:
            m0 |= 1 << out[j, 0]
            m1 |= 1 << out[j, 1]
            m2 |= 1 << out[j, 2]
            m3 |= 1 << out[j, 3]
    if m0 == 0:
        ctr[WHY] = NO_VIEW
        ctr[WHY_AT] = q
        return False
    kept[0], kept[1], kept[2], kept[3] = m0, m1, m2, m3
    return True


@njit(cache=True)
def _rule_out(s, q, a, b, c):
    """Number q's view (a, b, c, ...) is in no answer: later revisions leave it out."""
    gone, gone_n = s[16], s[17]
    key = (a * 64 + b) * 64 + c
    for t in range(gone_n[q]):
        if gone[q, t] == key:
            return
    if gone_n[q] < gone.shape[1]:
        gone[q, gone_n[q]] = key
        gone_n[q] += 1


@njit(cache=True)
def _propagate(g, s):
    nbrs, is_clue, wstart, wq, wi, wpos = g[0], g[2], g[3], g[4], g[5], g[6]
    col, mask, queue, dflag, dolds, dstack, ctr = s[0], s[1], s[4], s[5], s[6], s[7], s[8]
    connected = ctr[CONNECTED] != 0
    elsewhere = ctr[ELSEWHERE] != 0
    while ctr[QL] > 0 or ctr[DN] > 0:
        if ctr[QL] == 0:
            ctr[DN] -= 1
            q = dstack[ctr[DN]]
            dflag[q] = False
            if not _revise(g, s, q, dolds[q], True):
                return False
            continue
        ctr[QL] -= 1
        x = queue[ctr[QL]]
        black = col[x]
        if black == 1:  # no two black cells share a side
            for j in range(4):
                y = nbrs[x, j]
                if y >= 0 and not _settle(s, y, 0):
                    return False
        if connected:  # a white cell walled in on all sides but one (another white cell exists)
            for jw in range(5):
                w = x if jw == 4 else nbrs[x, jw]
                if w < 0 or col[w] != 0 or not (elsewhere or not is_clue[w]):
                    continue
                last = -1
                free = 0
                for j in range(4):
                    y = nbrs[w, j]
                    if y >= 0 and col[y] != 1:
                        free += 1
                        last = y
                if free == 0:
                    ctr[WHY] = WALLED
                    ctr[WHY_AT] = w
                    return False
                if free == 1 and col[last] == OPEN:
                    _settle(s, last, 0)
        for e in range(
            wstart[x], wstart[x + 1]
        ):  # a number's lengths: a black cell ends, a white cell passes
            q, i, pos = wq[e], wi[e], wpos[e]
            m = mask[q, i]
            new = m & ((2 << pos) - 1) if black == 1 else m & ~(1 << pos)
            if new != m:
                if not dflag[q]:
                    dflag[q] = True
                    for k in range(4):
                        dolds[q, k] = mask[q, k]
                    dstack[ctr[DN]] = q
                    ctr[DN] += 1
                _set_mask(s, q, i, new)
    return True


@njit(cache=True)
def _undo(s, mark):
    col, mask, tra, trb, dflag, dstack, ctr = s[0], s[1], s[2], s[3], s[5], s[7], s[8]
    t = ctr[TL]
    while t > mark:
        t -= 1
        a = tra[t]
        if a >= 0:
            if col[a] == 0:
                ctr[NWHITE] -= 1
            col[a] = OPEN
        else:
            k = -a - 1
            mask[k // 4, k % 4] = trb[t]
    ctr[TL] = mark
    ctr[QL] = 0
    for j in range(ctr[DN]):
        dflag[dstack[j]] = False
    ctr[DN] = 0


# -- connectivity (the reference's _still_joined, _joined_nearby, _joined_everywhere) ----------


@njit(cache=True)
def _next_stamp(s):
    ctr = s[8]
    ctr[STAMP] += 1
    return ctr[STAMP]


@njit(cache=True)
def _meets_white(g, s, x):
    """Whether the new white cell x meets another white cell by a path of cells not black,
    within a short search."""
    nbrs = g[0]
    col, seen, bfs = s[0], s[9], s[10]
    mark = _next_stamp(s)
    seen[x] = mark
    bfs[0] = x
    lo, hi = 0, 1
    while lo < hi and hi < LOCAL_BUDGET:
        y = bfs[lo]
        lo += 1
        for j in range(4):
            z = nbrs[y, j]
            if z >= 0 and seen[z] != mark and col[z] != 1:
                if col[z] == 0:
                    return True
                seen[z] = mark
                bfs[hi] = z
                hi += 1
    return False


@njit(cache=True)
def _seeds_joined(g, s, seeds, nseeds):
    """Whether the cells ``seeds`` are joined by paths of cells not black, within a short
    search: one breadth-first search from all of them at once, the searches of two seeds merged
    where they meet (the reference searches from one seed; meeting halfway visits fewer cells)."""
    nbrs = g[0]
    col, seen, bfs, label = s[0], s[9], s[10], s[15]
    mark = _next_stamp(s)
    root = np.arange(4)
    groups = nseeds
    for j in range(nseeds):
        seen[seeds[j]] = mark
        label[seeds[j]] = j
        bfs[j] = seeds[j]
    lo, hi = 0, nseeds
    while groups > 1 and lo < hi and hi < LOCAL_BUDGET:
        y = bfs[lo]
        lo += 1
        a = label[y]
        while root[a] != a:
            a = root[a]
        for j in range(4):
            z = nbrs[y, j]
            if z < 0 or col[z] == 1:
                continue
            if seen[z] != mark:
                seen[z] = mark
                label[z] = a
                bfs[hi] = z
                hi += 1
            else:
                b = label[z]
                while root[b] != b:
                    b = root[b]
                if b != a:
                    root[b] = a
                    groups -= 1
    return groups == 1


@njit(cache=True)
def _joined_everywhere(g, s):
    nbrs = g[0]
    col, ctr, seen, bfs = s[0], s[8], s[9], s[10]
    total = ctr[NWHITE]
    if total == 0:
        return True
    start = 0
    while col[start] != 0:
        start += 1
    mark = _next_stamp(s)
    seen[start] = mark
    bfs[0] = start
    lo, hi, found = 0, 1, 1
    while lo < hi and found < total:
        x = bfs[lo]
        lo += 1
        for j in range(4):
            y = nbrs[x, j]
            if y >= 0 and seen[y] != mark and col[y] != 1:
                seen[y] = mark
                bfs[hi] = y
                hi += 1
                if col[y] == 0:
                    found += 1
    return found == total


@njit(cache=True)
def _still_joined(g, s, mark):
    """Whether the cells not black still join every white cell after the changes since ``mark``."""
    nbrs, rings = g[0], g[1]
    col, tra, ctr = s[0], s[2], s[8]
    seeds = np.empty(4, np.int64)
    free = np.empty(8, np.bool_)
    for t in range(mark, ctr[TL]):
        x = tra[t]
        if x < 0:
            continue
        if col[x] == 0:  # a new white cell beside no white cell: some white cell within reach
            alone = True
            for j in range(4):
                y = nbrs[x, j]
                if y >= 0 and col[y] == 0:
                    alone = False
            if alone:
                if not _meets_white(g, s, x):
                    return _joined_everywhere(g, s)
            continue
        gap = -1
        for j in range(8):
            y = rings[x, j]
            free[j] = y >= 0 and col[y] != 1
            if not free[j] and gap < 0:
                gap = j
        if gap < 0:
            continue
        arcs = 0
        touches = False  # the current arc holds one of the cell's four neighbours
        for step in range(1, 9):
            j = (gap + step) % 8
            if free[j]:
                touches = touches or j % 2 == 0
            elif touches:
                arcs += 1
                touches = False
        if arcs + (1 if touches else 0) <= 1:
            continue
        k = 0
        for j in range(4):
            y = nbrs[x, j]
            if y >= 0 and col[y] != 1:
                seeds[k] = y
                k += 1
        if not _seeds_joined(g, s, seeds, k):
            return _joined_everywhere(g, s)
    return True


# -- start: the numbers' views, propagated --------------------------------------------------------


@njit(cache=True)
def start(g, s, clue_cells):
    """Settle the numbered cells white, revise every number, propagate: DONE or CONTRADICTION."""
    n = g[7]
    olds = np.zeros(4, np.int64)
    for x in clue_cells:
        if not _settle(s, x, 0):
            return CONTRADICTION
    for q in range(len(n)):
        if not _revise(g, s, q, olds, False):
            return CONTRADICTION
    if not _propagate(g, s):
        return CONTRADICTION
    s[8][TL] = 0  # settled for good
    return DONE


# -- probing ---------------------------------------------------------------------------------------
# Branch tables, one row per branch (``br``: known, ok, version, owner, settled start, settled
# count, revised start, revised count); pools of what branches settled (``sp_x``, ``sp_v``) and
# revised (``rp_m``: a number's masks after the branch); dependencies as linked lists per cell
# and per number (``dep``, ``cdep``: branch, version, the colour the branch gave the cell or -1 /
# its revised row or -1, next), with heads ``dhead`` and ``chead``.


@njit(cache=True)
def _assume(g, s, kind, a, b, c, d):
    """Apply one branch's assumption (a cell's colour, a length, a whole view, nothing)."""
    mask, olds = s[1], s[12]
    if kind == CELL:
        return _settle(s, a, b)
    if kind == WAIT:
        return True
    for k in range(4):
        olds[k] = mask[a, k]
    if kind == LENGTH:  # number a, ray b, mask c
        _set_mask(s, a, b, c)
    else:  # a view of number a: lengths b, c, d and the rest
        lengths = (b, c, d, g[7][a] - 1 - b - c - d)
        for k in range(4):
            _set_mask(s, a, k, 1 << lengths[k])
    return _revise(g, s, a, olds, True)


@njit(cache=True)
def _try(g, s, pb, b, kind, x, y, z, w):
    """Run branch b: its assumption, propagated (and the white cells still joined); store its
    outcome and what it read, undo it. False when a pool is full."""
    col, mask, tra, ctr, seen = s[0], s[1], s[2], s[8], s[9]
    nbrs = g[0]
    br, sp_x, sp_v, rp_m, dep, dhead, cdep, chead = pb[0], pb[1], pb[2], pb[3], pb[4], pb[5], pb[6], pb[7]
    ctr[TRIES] += 1
    mark = ctr[TL]
    ok = _assume(g, s, kind, x, y, z, w) and _propagate(g, s)
    if ok and ctr[CONNECTED] != 0:
        ok = _still_joined(g, s, mark)
    cells = 0
    for t in range(mark, ctr[TL]):
        if tra[t] >= 0:
            cells += 1
    masks = ctr[TL] - mark - cells
    if ok and (
        ctr[SP] + cells > len(sp_x)
        or ctr[RP] + masks > len(rp_m)
        or ctr[DP] + 5 * cells > len(dep)
        or ctr[CP] + masks > len(cdep)
    ):
        _undo(s, mark)  # the branch stays unknown; the caller grows the pools and runs it again
        ctr[TRIES] -= 1
        return False
    br[b, 0] = 1
    br[b, 1] = 1 if ok else 0
    br[b, 4] = ctr[SP]
    br[b, 5] = 0
    br[b, 6] = ctr[RP]
    br[b, 7] = 0
    if ok:
        stamp = _next_stamp(s)
        version = br[b, 2]
        for t in range(mark, ctr[TL]):
            e = tra[t]
            if e >= 0:
                sp_x[ctr[SP]] = e
                sp_v[ctr[SP]] = col[e]
                ctr[SP] += 1
                br[b, 5] += 1
                seen[e] = stamp
                d = ctr[DP]  # the branch read this cell
                dep[d, 0], dep[d, 1], dep[d, 2], dep[d, 3] = b, version, col[e], dhead[e]
                dhead[e] = d
                ctr[DP] += 1
            else:
                q = (-e - 1) // 4
                if seen[len(col) + q] != stamp:  # numbers sit after the cells in ``seen``
                    seen[len(col) + q] = stamp
                    r = ctr[RP]
                    for k in range(4):
                        rp_m[r, k] = mask[q, k]
                    ctr[RP] += 1
                    br[b, 7] += 1
                    c = ctr[CP]
                    cdep[c, 0], cdep[c, 1], cdep[c, 2], cdep[c, 3] = b, version, r, chead[q]
                    chead[q] = c
                    ctr[CP] += 1
        for t in range(br[b, 4], br[b, 4] + br[b, 5]):  # ... and the neighbours of the cells it settled
            for j in range(4):
                e = nbrs[sp_x[t], j]
                if e >= 0 and seen[e] != stamp:
                    seen[e] = stamp
                    d = ctr[DP]
                    dep[d, 0], dep[d, 1], dep[d, 2], dep[d, 3] = b, version, -1, dhead[e]
                    dhead[e] = d
                    ctr[DP] += 1
    _undo(s, mark)
    return True


@njit(cache=True)
def _branch(g, s, pb, b, p, kind, x, y, z, w):
    """Branch b's outcome (run now, or kept): 1 survives, 0 fails, -1 a pool is full."""
    br = pb[0]
    if br[b, 3] < 0:
        br[b, 3] = p
    if br[b, 0] == 0:
        if not _try(g, s, pb, b, kind, x, y, z, w):
            return -1
    return br[b, 1]


@njit(cache=True)
def _wake(s, pb, b):
    br, queued, woken, ctr = pb[0], pb[10], pb[11], s[8]
    br[b, 0] = 0
    br[b, 2] += 1
    p = br[b, 3]
    if not queued[p]:
        queued[p] = True
        woken[ctr[WOKEN_N]] = p
        ctr[WOKEN_N] += 1


@njit(cache=True)
def _views_of(n, m0, m1, m2, m3, limit, out):
    """The views (a, b, c, d) of masks adding up to n - 1, into ``out``; -1 past ``limit``."""
    count = 0
    for a in range(_bit_length(m0)):
        if not (m0 >> a) & 1:
            continue
        for b in range(_bit_length(m1)):
            if not (m1 >> b) & 1:
                continue
            for c in range(_bit_length(m2)):
                if not (m2 >> c) & 1:
                    continue
                d = n - 1 - a - b - c
                if d >= 0 and (m3 >> d) & 1:
                    if count >= limit:
                        return -1
                    out[count, 0], out[count, 1], out[count, 2], out[count, 3] = a, b, c, d
                    count += 1
    return count


@njit(cache=True)
def _view_branch(pb, q, a, b, c):
    """The branch of number q's view (a, b, c, ...), made on first use."""
    vkey, vid, vcount, nextid = pb[8], pb[9], pb[12], pb[13]
    key = (a * 64 + b) * 64 + c
    for j in range(vcount[q]):
        if vkey[q, j] == key:
            return vid[q, j]
    j = vcount[q]
    vcount[q] += 1
    vkey[q, j] = key
    vid[q, j] = nextid[0]
    nextid[0] += 1
    return vid[q, j]


@njit(cache=True)
def _probe_one(g, s, pb, p):
    """One probe; what it rules out is settled for good and the branches that read a change are
    woken. Returns DONE, CONTRADICTION or FULL."""
    n = g[7]
    col, mask, tra, ctr, seen, auxv, auxc = s[0], s[1], s[2], s[8], s[9], s[13], s[14]
    br, sp_x, sp_v, rp_m, dep, dhead, cdep, chead = pb[0], pb[1], pb[2], pb[3], pb[4], pb[5], pb[6], pb[7]
    probes, cell_branch, len_branch, wait_branch, views = pb[14], pb[15], pb[16], pb[17], pb[18]
    learn = np.empty((0, 2), np.int64)
    learn_kind = -1  # -1 nothing, CELL: settle the rows of ``learn``, LENGTH: mask, VIEWS: masks + cells
    lq = li = lm = 0
    kept = np.zeros(4, np.int64)
    ctr[PROBES_RUN] += 1
    kind = probes[p, 0]
    if kind == CELL:
        x = probes[p, 1]
        if col[x] != OPEN:
            return DONE
        bb = cell_branch[x, 1]
        black_ok = _branch(g, s, pb, bb, p, CELL, x, 1, 0, 0)
        if black_ok < 0:
            return FULL
        if black_ok == 0:
            learn = np.empty((1, 2), np.int64)
            learn[0, 0], learn[0, 1] = x, 0
            learn_kind = CELL
        else:
            bw = cell_branch[x, 0]
            white_ok = _branch(g, s, pb, bw, p, CELL, x, 0, 0, 0)
            if white_ok < 0:
                return FULL
            if white_ok == 0:
                learn = np.empty((1, 2), np.int64)
                learn[0, 0], learn[0, 1] = x, 1
                learn_kind = CELL
            else:  # cells both colours settle alike
                stamp = _next_stamp(s)
                for t in range(br[bb, 4], br[bb, 4] + br[bb, 5]):
                    seen[sp_x[t]] = stamp
                    auxv[sp_x[t]] = sp_v[t]
                count = 0
                for t in range(br[bw, 4], br[bw, 4] + br[bw, 5]):
                    y = sp_x[t]
                    if col[y] == OPEN and seen[y] == stamp and auxv[y] == sp_v[t]:
                        count += 1
                if count:
                    learn = np.empty((count, 2), np.int64)
                    count = 0
                    for t in range(br[bw, 4], br[bw, 4] + br[bw, 5]):
                        y = sp_x[t]
                        if col[y] == OPEN and seen[y] == stamp and auxv[y] == sp_v[t]:
                            learn[count, 0], learn[count, 1] = y, sp_v[t]
                            count += 1
                    learn_kind = CELL
    elif kind == VIEWS:
        q = probes[p, 1]
        single = True
        for i in range(4):
            if mask[q, i] & (mask[q, i] - 1):
                single = False
        if single:
            return DONE
        nv = _views_of(n[q], mask[q, 0], mask[q, 1], mask[q, 2], mask[q, 3], ctr[WHOLE], views)
        if nv < 0:  # too many views: run again when the number loses a length
            b = wait_branch[q]
            if br[b, 0] == 0:
                if ctr[CP] >= len(cdep):
                    return FULL
                if br[b, 3] < 0:
                    br[b, 3] = p
                br[b, 0], br[b, 1] = 1, 1
                ctr[TRIES] += 1
                c = ctr[CP]
                cdep[c, 0], cdep[c, 1], cdep[c, 2], cdep[c, 3] = b, br[b, 2], -1, chead[q]
                chead[q] = c
                ctr[CP] += 1
            return DONE
        survivors = np.empty(nv, np.int64)
        survived = 0
        for j in range(nv):
            a, b_, c, d = views[j, 0], views[j, 1], views[j, 2], views[j, 3]
            vb = _view_branch(pb, q, a, b_, c)
            ok = _branch(g, s, pb, vb, p, VIEWS, q, a, b_, c)
            if ok < 0:
                return FULL
            if ok == 0:  # in no answer, for good
                _rule_out(s, q, a, b_, c)
                continue
            kept[0] |= 1 << a
            kept[1] |= 1 << b_
            kept[2] |= 1 << c
            kept[3] |= 1 << d
            survivors[survived] = vb
            survived += 1
        # a cell is common while every surviving view settles it alike (auxc: views so far)
        stamp = _next_stamp(s)
        for j in range(survived):
            vb = survivors[j]
            for t in range(br[vb, 4], br[vb, 4] + br[vb, 5]):
                y = sp_x[t]
                if j == 0:
                    seen[y], auxv[y], auxc[y] = stamp, sp_v[t], 1
                elif seen[y] == stamp and auxv[y] == sp_v[t] and auxc[y] == j:
                    auxc[y] = j + 1
        first = survivors[0] if survived else -1
        if survived == 0:
            ctr[WHY] = NO_VIEW
            ctr[WHY_AT] = q
            return CONTRADICTION
        count = 0
        fresh = False
        for t in range(br[first, 4], br[first, 4] + br[first, 5]):
            y = sp_x[t]
            if auxc[y] == survived:
                count += 1
                if col[y] == OPEN:
                    fresh = True
        same = True
        for i in range(4):
            if kept[i] != mask[q, i]:
                same = False
        if same and not fresh:
            return DONE
        learn = np.empty((count, 2), np.int64)
        count = 0
        for t in range(br[first, 4], br[first, 4] + br[first, 5]):
            y = sp_x[t]
            if auxc[y] == survived:
                learn[count, 0], learn[count, 1] = y, sp_v[t]
                count += 1
        learn_kind = VIEWS
        lq = q
    else:  # one length k of ray i of number q
        q, i, k = probes[p, 1], probes[p, 2], probes[p, 3]
        m = mask[q, i]
        if not (m >> k) & 1 or m == 1 << k:
            return DONE
        if (
            ctr[WHOLE] > 0
            and _views_of(n[q], mask[q, 0], mask[q, 1], mask[q, 2], mask[q, 3], ctr[WHOLE], views) >= 0
        ):
            return DONE  # the number's view probe covers it
        ok = _branch(g, s, pb, len_branch[p], p, LENGTH, q, i, 1 << k, 0)
        if ok < 0:
            return FULL
        if ok == 0:
            learn_kind = LENGTH
            lq, li, lm = q, i, m & ~(1 << k)
    if learn_kind < 0:
        return DONE

    # Learnt for good: apply, propagate, wake the branches that read a change.
    mark = ctr[TL]
    olds = s[12]
    ok = True
    if learn_kind == LENGTH:
        ok = _assume(g, s, LENGTH, lq, li, lm, 0)
    elif learn_kind == VIEWS:
        for i in range(4):
            olds[i] = mask[lq, i]
        for i in range(4):
            if kept[i] != mask[lq, i]:
                _set_mask(s, lq, i, kept[i])
        ok = _revise(g, s, lq, olds, True)
    if ok:
        for r in range(learn.shape[0]):
            if not _settle(s, learn[r, 0], learn[r, 1]):
                ok = False
                break
    if not ok or not _propagate(g, s):
        return CONTRADICTION
    stamp = _next_stamp(s)
    size = len(col)
    for t in range(mark, ctr[TL]):
        e = tra[t]
        if e >= 0:
            v = col[e]
            d = dhead[e]
            while d >= 0:
                b = dep[d, 0]
                if dep[d, 1] == br[b, 2] and dep[d, 2] != v:
                    _wake(s, pb, b)
                d = dep[d, 3]
            dhead[e] = -1  # settled for good: never read again
        else:
            seen[size + (-e - 1) // 4] = stamp
    for t in range(mark, ctr[TL]):
        e = tra[t]
        if e >= 0:
            continue
        q = (-e - 1) // 4
        if seen[size + q] != stamp:
            continue
        seen[size + q] = stamp - 1  # once per number
        c = chead[q]
        keep = -1
        while c >= 0:
            nxt = cdep[c, 3]
            b = cdep[c, 0]
            if cdep[c, 1] == br[b, 2]:
                r = cdep[c, 2]
                covered = r >= 0
                if covered:
                    for i in range(4):
                        if rp_m[r, i] & ~mask[q, i]:
                            covered = False
                if covered:  # the branch had ruled out every length lost now
                    cdep[c, 3] = keep
                    keep = c
                else:
                    _wake(s, pb, b)
            c = nxt
        chead[q] = keep
    ctr[TL] = mark  # settled for good: never undone
    return DONE


@njit(cache=True)
def _live_lists(heads, pool, out, br, old_revised, renumber):
    """Copy the entries of the branches' current runs from the linked lists ``heads`` into
    ``pool`` to ``out``, relinked in order; with ``renumber``, an entry's revised row (column 2)
    follows its branch's revised rows, moved by ``compact``. Returns the entries kept."""
    n = 0
    for key in range(len(heads)):
        d, last = heads[key], -1
        heads[key] = -1
        while d >= 0:
            b = pool[d, 0]
            if pool[d, 1] == br[b, 2]:
                out[n, 0], out[n, 1], out[n, 2], out[n, 3] = b, pool[d, 1], pool[d, 2], -1
                if renumber and pool[d, 2] >= 0:
                    out[n, 2] = pool[d, 2] - old_revised[b] + br[b, 6]
                if last < 0:
                    heads[key] = n
                else:
                    out[last, 3] = n
                last = n
                n += 1
            d = pool[d, 3]
    return n


@njit(cache=True)
def compact(s, pb, dep_out, cdep_out):
    """Keep in the pools only what a kept branch outcome still needs (on 100x100 s1, 4% of what
    was stored: most outcomes are replaced by a later run of their branch, and a cell settled for
    good is never read again): the kept outcomes' settled cells and revised masks moved down in
    the order they were stored, the live dependencies copied into ``dep_out`` and ``cdep_out``."""
    ctr = s[8]
    br, sp_x, sp_v, rp_m, dep, dhead, cdep, chead = pb[0], pb[1], pb[2], pb[3], pb[4], pb[5], pb[6], pb[7]
    kept = 0
    for b in range(len(br)):
        if br[b, 0] == 1:
            kept += 1
    known = np.empty(kept, np.int64)
    starts = np.empty(kept, np.int64)
    k = 0
    for b in range(len(br)):
        if br[b, 0] == 1:
            known[k], starts[k] = b, br[b, 4]
            k += 1
    old_revised = np.full(len(br), -1, np.int64)
    sp = rp = 0
    for b in known[np.argsort(starts, kind="mergesort")]:  # in storing order: each slice moves down
        start, count = br[b, 4], br[b, 5]
        for j in range(count):
            sp_x[sp + j], sp_v[sp + j] = sp_x[start + j], sp_v[start + j]
        br[b, 4] = sp
        sp += count
        start, count = br[b, 6], br[b, 7]
        old_revised[b] = start
        for j in range(count):
            for i in range(4):
                rp_m[rp + j, i] = rp_m[start + j, i]
        br[b, 6] = rp
        rp += count
    ctr[SP], ctr[RP] = sp, rp
    ctr[DP] = _live_lists(dhead, dep, dep_out, br, old_revised, False)  # the cells' dependencies
    ctr[CP] = _live_lists(chead, cdep, cdep_out, br, old_revised, True)  # the numbers', rows renumbered


@njit(cache=True)
def probe_slice(g, s, pb, budget):
    """Run up to ``budget`` probes of the pending rounds: DONE when no probe is left, MORE,
    CONTRADICTION or FULL."""
    ctr, pending, queued, woken = s[8], pb[19], pb[10], pb[11]
    while budget > 0:
        if ctr[PEND_I] >= ctr[PEND_N]:  # the next round: the woken probes, in order
            if ctr[WOKEN_N] == 0:
                return DONE
            nw = ctr[WOKEN_N]
            pending[:nw] = np.sort(woken[:nw])
            ctr[PEND_N], ctr[PEND_I], ctr[WOKEN_N] = nw, 0, 0
        p = pending[ctr[PEND_I]]
        ctr[PEND_I] += 1
        queued[p] = False
        status = _probe_one(g, s, pb, p)
        if status != DONE:
            return status
        budget -= 1
    return MORE


def warm_up() -> None:
    """Compile every entry point, or load it from numba's cache beside this file (the first
    compile takes long; ``make setup`` runs this module for it)."""
    from ...model import Kuromasu
    from . import kuromasu_probe

    pools = kuromasu_probe.COMPILED_POOLS
    kuromasu_probe.COMPILED_POOLS = (4, 2, 4, 2)  # pools that fill at once: ``compact`` runs too
    try:
        kuromasu_probe.Views(
            Kuromasu(5, 5, numbers={(1, 1): 5, (3, 3): 4}, name="warm-up"),  # 76 branches
            probe=True,
            whole_views=3,
            engine="compiled",
        )
    finally:
        kuromasu_probe.COMPILED_POOLS = pools


if __name__ == "__main__":
    warm_up()
