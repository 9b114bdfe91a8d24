"""Kuromasu deductions before solving: every number's feasible views, propagated and probed.

A number n's view is the tuple of its four ray lengths (up, down, left, right): the cells seen
that way, each at most the ray's length and n - 1, adding up to n - 1. Length k on a ray needs
the ray's first k cells white and, unless the ray ends there, its (k + 1)-th cell black. The
deductions, repeated until nothing changes, hold in every answer:

* a length is kept only while its cells can take those colours and the other three rays keep
  lengths that complete the sum (the lengths of a ray are a bit set; the sums the other rays
  can make are their bit sets shifted and or-ed together);
* a cell white in every kept view of some number is white, a cell that ends every kept view of
  a ray is black;
* the neighbours of a black cell are white (no two black cells share a side);
* a white cell whose neighbours are all black but one, the last is white (the white cells are
  connected, and the board holds another white cell; with ``connected=False``, for
  ``connectivity=none``, this rule and the probes' connectivity check are left out).

Probing (``probe=True``) assumes a cell's colour, or one length of a number's ray, and
propagates: an assumption that contradicts, or whose new black cells cut the known white cells
apart, is ruled out; a cell that takes the same colour whether a probed cell is black or white
takes it. Each branch of a probe (one colour, one view, one length) keeps its outcome and
remembers the cells it settled (and their neighbours) and the numbers it revised; it is run again
only when one of those changes for good in a way the branch had not derived itself (a fact its
propagation already reached changes nothing it reaches), not after every success.

Probing whole views (``whole_views=N``, for numbers with at most N views; these probes run
first, and the lengths of such a number are not probed: its view probe keeps only the lengths
of surviving views, which a length probe could not beat): each view of the number (its four
lengths at once) is assumed and propagated in turn.
Every answer shows the number one of its views, so the views that fail are in no answer: a ray
keeps only the lengths of the views that survive, and a cell that every surviving view settles
alike takes that colour (if none survives, the board has no answer). This is a case split over
the views, stronger than probing one length at a time: failed views need not make any single
length fail. A failed view stays out for good: every later revision of the number keeps only the
lengths of its views (under the kept lengths, while it has at most N) that no probe ruled out, where
the lengths alone would let a failed view back in, each of its lengths kept by some other view.
On the bundled 100x100 boards this is what settles them (s1: 978 cells left open without it, 3 with
it; s3: 2,835 and 2), the reasoning HiGHS's presolve does by probing the view binaries of the MIP
model (``benchmarks/highs_presolve.py``).

A number left with no length on some ray, or a cell forced both ways, is a contradiction: the
board has no answer.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

from ...model import Cell, Direction, Kuromasu
from ...model.grid import bit_region
from ..base import check_deadline
from ..compiled import compiled_ready, load

OPEN = -1
#: ``auto``: the compiled engine (:mod:`.kuromasu_probe_compiled`) where numba is installed and
#: every number's lengths fit its 64-bit masks, else this module's
ENGINES = ("auto", "python", "compiled")
COMPILED_MAX_NUMBER = 61
COMPILED_SLICE = 2_000  # probes between two checks of the solve's deadline
#: first sizes of the compiled engine's pools (cells settled, numbers revised, cells read,
#: numbers read by branches), doubled whenever a branch finds one full
COMPILED_POOLS = (1 << 18, 1 << 14, 1 << 19, 1 << 15)
LOCAL_BUDGET = 160  # cells a probe's local connectivity search visits before asking the whole board


class Contradiction(Exception):
    """Propagation reached an impossible state (the message says where)."""


class Views:
    """Every number's feasible views, pruned before solving, and the cells they settle.

    ``colour`` maps each settled cell to True (black) or False (white); ``lengths`` maps each
    number to its four rays' kept lengths; ``contradiction`` says why the board has no answer.
    """

    def __init__(
        self,
        puzzle: Kuromasu,
        probe: bool = False,
        connected: bool = True,
        whole_views: int = 0,
        engine: str = "auto",
    ):
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
        self.puzzle = puzzle
        self.whole_views = whole_views
        self.connected = connected
        rows, cols = puzzle.rows, puzzle.cols
        self.cols = cols
        size = rows * cols
        self.col = [OPEN] * size  # per flat cell r * cols + c: OPEN, 0 white, 1 black
        self.bits = [0, 0]  # the white and the black cells as bit sets
        grid = puzzle.grid
        self.rings = [
            [
                rr * cols + cc if 0 <= rr < rows and 0 <= cc < cols else -1
                for rr, cc in (
                    (r - 1, c),
                    (r - 1, c + 1),
                    (r, c + 1),
                    (r + 1, c + 1),
                    (r + 1, c),
                    (r + 1, c - 1),
                    (r, c - 1),
                    (r - 1, c - 1),
                )
            ]
            for r, c in (divmod(x, cols) for x in range(rows * cols))
        ]  # the eight around, clockwise from above
        self.nbrs = [[r * cols + c for r, c in grid.neighbours4(divmod(x, cols))] for x in range(size)]
        self.clues = list(puzzle.numbers)
        self.n = [puzzle.numbers[clue] for clue in self.clues]
        self.is_clue = [False] * size
        for r, c in puzzle.clue_cells:
            self.is_clue[r * cols + c] = True
        self.whites_elsewhere = len(puzzle.clue_cells) >= 2
        self.rays: list[list[list[int]]] = []
        self.mask: list[list[int]] = []  # per number, per ray: bit k set while length k is kept
        self.watch: list[list[tuple[int, int, int]]] = [
            [] for _ in range(size)
        ]  # cell -> (number, ray, position)
        for q, clue in enumerate(self.clues):
            n = self.n[q]
            rays = [[r * cols + c for r, c in grid.ray(clue, d)[:n]] for d in Direction]
            self.rays.append(rays)
            self.mask.append([(2 << min(len(ray), n - 1)) - 1 for ray in rays])
            for i, ray in enumerate(rays):
                for pos, x in enumerate(ray):
                    self.watch[x].append((q, i, pos))
        self.pruned: dict[tuple[int, ...], tuple[int, ...]] = {}  # (n, four masks) -> the kept masks
        self.gone: list[set[tuple[int, ...]]] = [
            set() for _ in self.clues
        ]  # per number, the views probes ruled out
        self.trail: list = []  # settled cells (int) and replaced masks ((number, ray, old mask))
        self.queue: list[int] = []
        self.dirty: dict[int, list[int]] = {}  # numbers to revise -> their masks at their last revision
        self.contradiction: str | None = None
        self.tries = self.probes_run = 0
        compiled = _compiled(engine, max(self.n, default=1))
        self.engine = "compiled" if compiled is not None else "python"
        try:
            if compiled is not None:
                self._run_compiled(compiled, probe)
            else:
                for r, c in puzzle.clue_cells:
                    self._settle(r * cols + c, 0)
                for q in range(len(self.clues)):
                    self._revise(q)
                self._propagate()
                if probe:
                    self._probe()
        except Contradiction as why:
            self.contradiction = str(why)
        self.trail = []
        self.colour: dict[Cell, bool] = {
            divmod(x, cols): bool(v) for x, v in enumerate(self.col) if v != OPEN
        }
        self.lengths: dict[Cell, list[list[int]]] = {
            clue: [[k for k in range(m.bit_length()) if m >> k & 1] for m in self.mask[q]]
            for q, clue in enumerate(self.clues)
        }

    # -- propagation ---------------------------------------------------------------------------

    def _settle(self, x: int, black: int) -> None:
        known = self.col[x]
        if known == OPEN:
            self.col[x] = black
            self.bits[black] |= 1 << x
            self.trail.append(x)
            self.queue.append(x)
        elif known != black:
            raise Contradiction(f"the numbers' views make {divmod(x, self.cols)} both black and white")

    def _set_mask(self, q: int, i: int, new: int) -> None:
        masks = self.mask[q]
        self.trail.append((q, i, masks[i]))
        masks[i] = new

    def _revise(self, q: int, olds: list[int] | None = None) -> None:
        """Keep a length only if the other three rays can complete the sum; settle the cells
        every kept length agrees on. ``olds``: the number's masks at its last revision (None: its
        first), whose cells are settled already (a revision settles the cells of its masks, and
        an undo restores masks and cells together), so only what a change adds is settled."""
        masks = self.mask[q]
        key = (self.n[q], *masks)
        kept = self.pruned.get(key)
        if kept is None:
            kept = self.pruned[key] = _prune(*key)
        if not all(kept):
            raise Contradiction(f"the {self.n[q]} at {self.clues[q]} has no view left")
        if self.gone[q]:
            kept = self._without_gone(q, kept)
        col = self.col
        for i, (ray, m) in enumerate(zip(self.rays[q], kept)):
            if m != masks[i]:
                self._set_mask(q, i, m)
            old = olds[i] if olds is not None else -1
            if m == old:
                continue
            shortest = (m & -m).bit_length() - 1
            for x in ray[
                (old & -old).bit_length() - 1 if old > 0 else 0 : shortest
            ]:  # white up to the shortest length
                if col[x] == OPEN:
                    self._settle(x, 0)
            if m & (m - 1) == 0 and shortest < len(ray):  # one length left: the cell after it is black
                self._settle(ray[shortest], 1)

    def _without_gone(self, q: int, kept: tuple[int, ...]) -> tuple[int, ...]:
        """The masks of number q's views under ``kept`` that no probe ruled out: the masks alone
        would let a ruled-out view back in (each of its lengths kept by some other view). Left as
        they are past ``whole_views`` views (no probe listed them)."""
        views = _views_of(self.n[q], list(kept), self.whole_views)
        if views is None:
            return kept
        out = [0, 0, 0, 0]
        gone = self.gone[q]
        for view in views:
            if view not in gone:
                for i, k in enumerate(view):
                    out[i] |= 1 << k
        if not out[0]:
            raise Contradiction(f"the {self.n[q]} at {self.clues[q]} has no view left")
        return tuple(out)

    def _propagate(self) -> None:
        """Apply the rules around each newly settled cell until nothing changes. A number whose
        lengths a cell cut is revised once the queued cells are done (one revision for all the
        cells of a view, not one per cell; the fixpoint is the same)."""
        col, nbrs, queue, dirty, mask = self.col, self.nbrs, self.queue, self.dirty, self.mask
        connected = self.connected
        while queue or dirty:
            if not queue:
                q, olds = dirty.popitem()
                self._revise(q, olds)
                continue
            x = queue.pop()
            black = col[x]
            if black:  # no two black cells share a side
                for y in nbrs[x]:
                    self._settle(y, 0)
            if connected:  # a white cell walled in on all sides but one (another white cell exists)
                for w in (x, *nbrs[x]):
                    if col[w] == 0 and (self.whites_elsewhere or not self.is_clue[w]):
                        last = -1
                        for y in nbrs[w]:
                            if col[y] != 1:
                                if last >= 0:
                                    break
                                last = y
                        else:
                            if last < 0:
                                raise Contradiction(f"the white cell {divmod(w, self.cols)} is walled in")
                            if col[last] == OPEN:
                                self._settle(last, 0)
            for q, i, pos in self.watch[x]:  # a number's lengths: a black cell ends, a white cell passes
                m = mask[q][i]
                new = m & ((2 << pos) - 1) if black else m & ~(1 << pos)
                if new != m:
                    if q not in dirty:
                        dirty[q] = list(mask[q])  # its masks at its last revision
                    self._set_mask(q, i, new)

    def _undo(self, mark: int) -> None:
        trail, col, bits = self.trail, self.col, self.bits
        while len(trail) > mark:
            entry = trail.pop()
            if entry.__class__ is int:
                bits[col[entry]] &= ~(1 << entry)
                col[entry] = OPEN
            else:
                q, i, old = entry
                self.mask[q][i] = old
        self.queue.clear()
        self.dirty.clear()

    # -- probing -------------------------------------------------------------------------------

    def _try(self, assume) -> tuple[bool, tuple[dict[int, int], dict[int, tuple[int, ...]]]]:
        """Whether ``assume()`` survives propagation (and, with the connectivity rule, keeps the
        known white cells joined); if so, the cells it settled (cell -> colour) and the numbers it
        revised (number -> their masks after it). The changes are undone."""
        mark = len(self.trail)
        try:
            assume()
            self._propagate()
            ok = not self.connected or self._still_joined(mark)
        except Contradiction:
            ok = False
        settled: dict[int, int] = {}
        revised: dict[int, tuple[int, ...]] = {}
        if ok:
            col, mask = self.col, self.mask
            for entry in self.trail[mark:]:
                if entry.__class__ is int:
                    settled[entry] = col[entry]
                elif entry[0] not in revised:
                    revised[entry[0]] = tuple(mask[entry[0]])
        self._undo(mark)
        return ok, (settled, revised)

    def _still_joined(self, mark: int) -> bool:
        """Whether the cells not black still join every white cell after the changes since
        ``mark`` (the board before them taken as joined). No two black cells touch, so a path
        through a new black cell enters and leaves by two of its neighbours: if those are joined
        around it (on its ring of eight, or by a short search), every path can go round it.
        Otherwise the whole board is searched."""
        col, nbrs, rings = self.col, self.nbrs, self.rings
        for x in self.trail[mark:]:
            if x.__class__ is not int:
                continue
            if col[x] == 0:  # a new white cell beside no white cell: some white cell within reach
                if all(col[y] != 0 for y in nbrs[x]) and not self._joined_nearby([x], white=True):
                    return self._joined_everywhere()
                continue
            ring = rings[x]
            free = [y >= 0 and col[y] != 1 for y in ring]
            if all(free):
                continue
            gap = free.index(False)
            arcs = 0
            touches = False  # the current arc holds one of the cell's four neighbours
            for step in range(1, 9):
                j = (gap + step) % 8
                if free[j]:
                    touches = touches or j % 2 == 0
                elif touches:
                    arcs, touches = arcs + 1, False
            if arcs + touches <= 1:
                continue
            if not self._joined_nearby([y for y in nbrs[x] if col[y] != 1]):
                return self._joined_everywhere()
        return True

    def _joined_nearby(self, seeds: list[int], white: bool = False) -> bool:
        """Whether the cells ``seeds`` meet (with ``white``: the one seed meets another white
        cell) by a path of cells not black, within a short search."""
        col, nbrs = self.col, self.nbrs
        wanted = set(seeds[1:])
        seen = {seeds[0]}
        frontier = [seeds[0]]
        while (wanted or white) and frontier and len(seen) < LOCAL_BUDGET:
            nxt = []
            for x in frontier:
                for y in nbrs[x]:
                    if y not in seen and col[y] != 1:
                        if white and col[y] == 0:
                            return True
                        seen.add(y)
                        nxt.append(y)
                        wanted.discard(y)
            frontier = nxt
        return not wanted and not white

    def _joined_everywhere(self) -> bool:
        """Whether the cells not black join every white cell, searched on the whole board."""
        white, black = self.bits
        puzzle = self.puzzle
        size = puzzle.rows * puzzle.cols
        if not white:
            return True
        reach = bit_region(puzzle.rows, puzzle.cols, white & -white, ((1 << size) - 1) & ~black, goal=white)
        return white & ~reach == 0

    def _probe_list(self) -> list[tuple[int, ...]]:
        """The probes, in their first round's order: (x,) a cell, (q, -1) a number's views,
        (q, i, k) length k of ray i of number q."""
        col = self.col
        cells = sorted(
            {x for x in range(len(col)) if self.watch[x] and col[x] == OPEN},
            key=lambda x: min(pos for _, _, pos in self.watch[x]),
        )  # cells near numbers first
        probes: list[tuple[int, ...]] = [(x,) for x in cells]
        for q, masks in enumerate(self.mask):
            for i, m in enumerate(masks):
                probes.extend((q, i, k) for k in range(m.bit_length()) if m >> k & 1)
        if self.whole_views:  # each number's views first: they settle most, and the rest then has less to do
            probes = [(q, -1) for q in range(len(self.n))] + probes
        return probes

    def _probe(self) -> None:
        """Probe every open cell seen by some number, and every length, each again only when
        something one of its branches read changed."""
        col = self.col
        probes = self.probes = self._probe_list()
        # A branch is one assumption of a probe (a cell's colour, a view, a length). Its outcome
        # is kept until something it read changes for good: a failed branch fails for good (the
        # rules only add facts, and more facts only add contradictions and cuts), and a
        # surviving branch's settled cells stay true of it (its propagation from more facts
        # settles a superset). So an outcome kept too long only learns less, never anything
        # false. A branch is re-run when a cell it settled (or a neighbour of one) is settled
        # otherwise than it settled it, or a number it revised loses a length it kept: a fact
        # the branch already derived changes nothing its propagation reaches.
        self.branch_of: dict[tuple, int] = {}
        self.outcome: list[tuple[bool, dict[int, int], dict[int, tuple[int, ...]]] | None] = []
        self.version: list[int] = []  # a dependency below is valid for its branch's version
        self.owner: list[int] = []  # branch -> its probe
        self.cell_deps: list[list[tuple[int, int]]] = [
            [] for _ in col
        ]  # cell -> (branch, version) that read it
        self.clue_deps: list[list[tuple[int, int]]] = [[] for _ in self.n]  # number -> the same
        self.queued = [True] * len(probes)
        pending = list(range(len(probes)))  # this round, in order
        self.woken: list[int] = []  # the next round: probes with a branch to run again
        self.probes_run = self.tries = 0
        while pending:
            for p in pending:
                self.queued[p] = False
                self._probe_one(p)
            pending, self.woken = sorted(self.woken), []

    def _branch(self, key: tuple, p: int, assume) -> tuple[bool, dict[int, int], dict[int, tuple[int, ...]]]:
        """The outcome of one branch of probe p (run now, or kept from its last run): whether it
        survives, the cells it settles, the masks of the numbers it revises."""
        b = self.branch_of.get(key)
        if b is None:
            b = self.branch_of[key] = len(self.outcome)
            self.outcome.append(None)
            self.version.append(0)
            self.owner.append(p)
        known = self.outcome[b]
        if known is not None:
            return known
        self.tries += 1
        ok, (settled, revised) = self._try(assume)
        known = self.outcome[b] = (ok, settled, revised)
        if ok:  # what it read: the cells it settled, their neighbours, the numbers it revised
            # (a number it only sees through a settled cell keeps the board's lengths in it, as
            # that cell cut none of them: what the board derives from those is in the cells)
            tag = (b, self.version[b])
            nbrs, cell_deps, clue_deps = self.nbrs, self.cell_deps, self.clue_deps
            cells = set(settled)
            for y in settled:
                cells.update(nbrs[y])
            for y in cells:
                cell_deps[y].append(tag)
            for r in revised:
                clue_deps[r].append(tag)
        return known

    def _wait_for(self, q: int, p: int) -> None:
        """Probe p is run again when number q loses a length (a branch that assumes nothing)."""
        b = self.branch_of.get(("wait", q))
        if b is None or self.outcome[b] is None:
            self._branch(("wait", q), p, lambda: None)
            b = self.branch_of[("wait", q)]
            self.clue_deps[q].append((b, self.version[b]))

    def _wake(self, b: int) -> None:
        self.outcome[b] = None
        self.version[b] += 1
        p = self.owner[b]
        if not self.queued[p]:
            self.queued[p] = True
            self.woken.append(p)

    def _settle_all(self, cells: list[tuple[int, int]]) -> None:
        """Settle each (cell, colour) of ``cells`` in turn."""
        for x, colour in cells:
            self._settle(x, colour)

    def _probe_one(self, p: int) -> None:
        """One probe: a cell's two colours, a number's views, or one length of a number's ray;
        what it rules out is settled for good, and the branches that read what changed (unless
        they had derived it) are run again."""
        col = self.col
        probe = self.probes[p]
        check_deadline()
        self.probes_run += 1
        if len(probe) == 1:
            x = probe[0]
            if col[x] != OPEN:
                return
            learnt: Callable[[], object] | None
            black_ok, black_set, _ = self._branch(("cell", x, 1), p, lambda: self._settle(x, 1))
            if not black_ok:
                learnt = lambda: self._settle(x, 0)
            else:
                white_ok, white_set, _ = self._branch(("cell", x, 0), p, lambda: self._settle(x, 0))
                if not white_ok:
                    learnt = lambda: self._settle(x, 1)
                else:
                    common = [
                        (y, v) for y, v in white_set.items() if col[y] == OPEN and black_set.get(y) == v
                    ]
                    learnt = (lambda: self._settle_all(common)) if common else None
        elif len(probe) == 2:
            learnt = self._probe_views(probe[0], p)
        else:
            q, i, k = probe
            m = self.mask[q][i]
            if not m >> k & 1 or m == 1 << k:
                return
            if self.whole_views and _views_of(self.n[q], self.mask[q], self.whole_views) is not None:
                # the number's view probe covers it: a length kept there has a surviving view,
                # whose propagation implies this one's (so these length probes are saved)
                return
            ok = self._branch(("length", q, i, k), p, lambda: self._assume_length(q, i, 1 << k))[0]
            learnt = None if ok else (lambda: self._assume_length(q, i, m & ~(1 << k)))
        if learnt is None:
            return
        # Learnt for good. What it settles holds in every surviving branch of this probe, so
        # those branches keep their outcomes and the probe is not run again for it.
        mark = len(self.trail)
        learnt()
        self._propagate()  # a Contradiction here: the board has no answer
        cell_deps, clue_deps, version, outcome = self.cell_deps, self.clue_deps, self.version, self.outcome
        revised = set()
        for entry in self.trail[mark:]:
            if entry.__class__ is int:
                v = col[entry]
                for b, ver in cell_deps[entry]:
                    known = outcome[b]  # kept while its version stands
                    if ver == version[b] and known is not None and known[1].get(entry) != v:
                        self._wake(b)
                cell_deps[entry] = []  # settled for good: never read again
            else:
                revised.add(entry[0])
        for q in revised:
            masks = self.mask[q]
            keep = []
            for b, ver in clue_deps[q]:
                if ver != version[b]:
                    continue
                after = outcome[b][2].get(q)
                if after is not None and all(a & ~m == 0 for a, m in zip(after, masks)):
                    keep.append((b, ver))  # the branch had ruled out every length lost now
                else:
                    self._wake(b)
            clue_deps[q] = keep
        del self.trail[mark:]  # settled for good: never undone

    def _assume_length(self, q: int, i: int, new: int) -> None:
        olds = list(self.mask[q])
        self._set_mask(q, i, new)
        self._revise(q, olds)

    def _probe_views(self, q: int, p: int):
        """Probe each kept view of number q (all four lengths at once). The answer shows q one of
        its views, and a view whose propagation fails (or cuts the white cells apart) is in no
        answer: so a ray keeps only the lengths of the views that survive, and a cell that every
        surviving view settles alike takes that colour. Returns what to learn, or None; nothing
        is probed while the number has one view or more than ``whole_views`` (it is probed again
        when its lengths change)."""
        masks = self.mask[q]
        if all(m & (m - 1) == 0 for m in masks):
            return None
        views = _views_of(self.n[q], masks, self.whole_views)
        if views is None:
            self._wait_for(q, p)
            return None
        kept = [0, 0, 0, 0]
        common: dict[int, int] | None = None
        for view in views:
            ok, settled, _ = self._branch(("view", q, view), p, lambda: self._assume_view(q, view))  # noqa: B023  (called within this iteration)
            if not ok:  # in no answer, for good: later revisions of the number leave it out
                self.gone[q].add(view)
                continue
            for i, k in enumerate(view):
                kept[i] |= 1 << k
            common = (
                dict(settled) if common is None else {y: v for y, v in common.items() if settled.get(y) == v}
            )
        if common is None:
            raise Contradiction(f"the {self.n[q]} at {self.clues[q]} has no view left")
        col = self.col
        if kept == masks and not any(col[y] == OPEN for y in common):
            return None

        def learn():
            olds = list(masks)
            for i, m in enumerate(kept):
                if m != masks[i]:
                    self._set_mask(q, i, m)
            self._revise(q, olds)
            for y, v in common.items():
                self._settle(y, v)

        return learn

    def _assume_view(self, q: int, view: tuple[int, ...]) -> None:
        olds = list(self.mask[q])
        for i, k in enumerate(view):
            self._set_mask(q, i, 1 << k)
        self._revise(q, olds)

    # -- the compiled engine ---------------------------------------------------------------------

    def _run_compiled(self, jit: Any, probe: bool) -> None:
        """The propagation and probing above, run by :mod:`.kuromasu_probe_compiled` on arrays;
        the board's colours and masks are read back into ``col`` and ``mask``."""
        size, count = len(self.col), len(self.n)
        nbrs = np.full((size, 4), -1, np.int64)
        for x, around in enumerate(self.nbrs):
            nbrs[x, : len(around)] = around
        wstart = np.zeros(size + 1, np.int64)
        wstart[1:] = np.cumsum([len(w) for w in self.watch])
        watch = np.array([entry for w in self.watch for entry in w], np.int64).reshape(-1, 3)
        longest = max((len(ray) for rays in self.rays for ray in rays), default=0)
        rays = np.zeros((count, 4, max(longest, 1)), np.int64)
        raylen = np.zeros((count, 4), np.int64)
        for q, four in enumerate(self.rays):
            for i, ray in enumerate(four):
                rays[q, i, : len(ray)] = ray
                raylen[q, i] = len(ray)
        g = (
            nbrs,
            np.array(self.rings, np.int64).reshape(size, 8),
            np.array(self.is_clue, np.bool_),
            wstart,
            watch[:, 0].copy(),
            watch[:, 1].copy(),
            watch[:, 2].copy(),
            np.array(self.n, np.int64),
            rays,
            raylen,
        )
        ctr = np.zeros(jit.COUNTERS, np.int64)
        ctr[jit.CONNECTED], ctr[jit.ELSEWHERE], ctr[jit.WHOLE] = (
            self.connected,
            self.whites_elsewhere,
            self.whole_views,
        )
        trail = size + count * 4 * 64 + 8  # each cell settled once, each mask shrinks at most 63 times
        s = (
            np.full(size, OPEN, np.int64),
            np.array(self.mask, np.int64).reshape(count, 4),
            np.zeros(trail, np.int64),
            np.zeros(trail, np.int64),
            np.zeros(size + 1, np.int64),
            np.zeros(count, np.bool_),
            np.zeros((count, 4), np.int64),
            np.zeros(count, np.int64),
            ctr,
            np.zeros(size + count, np.int64),
            np.zeros(size + 1, np.int64),
            np.zeros(4, np.int64),
            np.zeros(4, np.int64),
            np.zeros(size, np.int64),
            np.zeros(size, np.int64),
            np.zeros(size, np.int64),
            np.zeros((count, max(self.whole_views, 1)), np.int64),
            np.zeros(count, np.int64),
            np.zeros((max(self.whole_views, 1), 4), np.int64),
        )  # the views ruled out, their count, scratch
        clue_cells = np.array([r * self.cols + c for r, c in self.puzzle.clue_cells], np.int64)
        status = jit.start(g, s, clue_cells)
        if status == jit.DONE and probe:
            self.col, self.mask = s[0].tolist(), s[1].tolist()  # the probes are listed from them
            status = self._probe_compiled(jit, g, s)
        self.col, self.mask = s[0].tolist(), s[1].tolist()
        self.bits = [sum(1 << x for x, v in enumerate(self.col) if v == b) for b in (0, 1)]
        self.tries, self.probes_run = int(ctr[jit.TRIES]), int(ctr[jit.PROBES_RUN])
        if status == jit.CONTRADICTION:
            why, at = int(ctr[jit.WHY]), int(ctr[jit.WHY_AT])
            if why == jit.BOTH:
                raise Contradiction(f"the numbers' views make {divmod(at, self.cols)} both black and white")
            if why == jit.NO_VIEW:
                raise Contradiction(f"the {self.n[at]} at {self.clues[at]} has no view left")
            raise Contradiction(f"the white cell {divmod(at, self.cols)} is walled in")

    def _probe_compiled(self, jit: Any, g: tuple, s: tuple) -> int:
        """Run the probes in slices (the deadline checked between them), compacting the pools of
        branch outcomes and dependencies whenever a slice fills one, and growing them if needed."""
        size, count, whole = len(self.col), len(self.n), self.whole_views
        probes = self.probes = self._probe_list()
        kinds = np.zeros((len(probes), 4), np.int64)
        for p, probe in enumerate(probes):
            if len(probe) == 1:
                kinds[p] = (jit.CELL, probe[0], 0, 0)
            elif len(probe) == 2:
                kinds[p] = (jit.VIEWS, probe[0], 0, 0)
            else:
                kinds[p] = (jit.LENGTH, *probe)
        total = len(probes)
        branches = 2 * size + total + count + count * whole  # cells' colours, lengths, waits, views
        br = np.zeros((branches, 8), np.int64)
        br[:, 3] = -1
        settled, revised, reads, number_reads = COMPILED_POOLS
        pools: list[np.ndarray] = [
            np.zeros(settled, np.int32),
            np.zeros(settled, np.int8),
            np.zeros((revised, 4), np.int64),
            np.zeros((reads, 4), np.int32),
        ]
        cdep = np.zeros((number_reads, 4), np.int32)
        rest: tuple[np.ndarray, ...] = (
            np.full(size, -1, np.int64),
            cdep,
            np.full(count, -1, np.int64),
            np.zeros((count, max(whole, 1)), np.int64),
            np.zeros((count, max(whole, 1)), np.int64),
            np.ones(total, np.bool_),
            np.zeros(total, np.int64),
            np.zeros(count, np.int64),
            np.array([2 * size + total + count], np.int64),
            kinds,
            np.arange(2 * size, dtype=np.int64).reshape(size, 2),
            2 * size + np.arange(total, dtype=np.int64),
            2 * size + total + np.arange(count, dtype=np.int64),
            np.zeros((max(whole, 1), 4), np.int64),
            np.arange(total, dtype=np.int64),
        )
        ctr = s[8]
        ctr[jit.PEND_N] = total
        while True:
            pb = (br, *pools, *rest)
            check_deadline()
            status = jit.probe_slice(g, s, pb, COMPILED_SLICE)
            if status == jit.FULL:  # the probe that filled a pool runs again, after compaction and growth
                ctr[jit.PEND_I] -= 1
                ctr[jit.PROBES_RUN] -= 1
                rest[5][rest[14][ctr[jit.PEND_I]]] = True
                compact_reads, compact_number_reads = np.empty_like(pools[3]), np.empty_like(rest[1])
                jit.compact(s, pb, compact_reads, compact_number_reads)
                pools[3] = compact_reads
                rest = (rest[0], compact_number_reads, *rest[2:])
                need = {
                    0: (ctr[jit.SP], size),
                    1: (ctr[jit.SP], size),
                    2: (ctr[jit.RP], 4 * 64 * count),
                    3: (ctr[jit.DP], 5 * size),
                }
                for k, (used, most) in need.items():  # room for one more branch of any size
                    pools[k] = _grown(pools[k], used, most)
                rest = (rest[0], _grown(rest[1], ctr[jit.CP], 4 * 64 * count + 1), *rest[2:])
                continue
            if status != jit.MORE:
                return status

    def views(self, clue: Cell) -> list[tuple[int, ...]]:
        """The number's kept views, as (up, down, left, right) lengths."""
        n = self.puzzle.numbers[clue]
        up, down, left, right = self.lengths[clue]
        rights = set(right)
        return [
            (a, b, c, n - 1 - a - b - c)
            for a in up
            for b in down
            for c in left
            if n - 1 - a - b - c in rights
        ]


def _views_of(n: int, masks: list[int], limit: int) -> list[tuple[int, int, int, int]] | None:
    """The views (four lengths from the masks adding up to n - 1), or None past ``limit`` of them."""
    bits = [[k for k in range(m.bit_length()) if m >> k & 1] for m in masks]
    last = masks[3]
    out = []
    for a in bits[0]:
        for b in bits[1]:
            for c in bits[2]:
                d = n - 1 - a - b - c
                if d >= 0 and last >> d & 1:
                    out.append((a, b, c, d))
                    if len(out) > limit:
                        return None
    return out


def _prune(n: int, a: int, b: int, c: int, d: int) -> tuple[int, int, int, int]:
    """The lengths of each ray (bit sets a, b, c, d) that the other three complete to n - 1."""
    full = (1 << n) - 1
    ab, cd = _sums(a, b, full), _sums(c, d, full)
    out = []
    for m, others in (
        (a, _sums(b, cd, full)),
        (b, _sums(a, cd, full)),
        (c, _sums(d, ab, full)),
        (d, _sums(c, ab, full)),
    ):
        kept = 0
        while m:
            low = m & -m
            m ^= low
            if others >> (n - low.bit_length()) & 1:  # length k = low's position; the others make n - 1 - k
                kept |= low
        out.append(kept)
    return out[0], out[1], out[2], out[3]


def _sums(a: int, b: int, full: int) -> int:
    """The sums (as a bit set, below ``full``) of a length from ``a`` and one from ``b``."""
    out = 0
    while a:
        low = a & -a
        a ^= low
        out |= b << (low.bit_length() - 1)
    return out & full


def _compiled(engine: str, biggest: int) -> Any:
    """The compiled engine's module for ``engine`` and a board whose biggest number is
    ``biggest``, or None for this module's."""
    if engine == "python":
        return None
    fits = biggest <= COMPILED_MAX_NUMBER
    jit: ModuleType | None
    try:
        from . import kuromasu_probe_compiled as jit
    except ImportError:
        jit = None
    if engine == "compiled" and (jit is None or not fits):
        raise ValueError(
            "the compiled engine needs numba and numbers of at most "
            f"{COMPILED_MAX_NUMBER} (this board's biggest: {biggest})"
        )
    if engine == "auto" and jit is not None and fits and not _compiled_ready(jit):
        warnings.warn(
            "MIP Kuromasu's deductions run on the readable engine: the compiled one is not compiled "
            "yet (`python -m puzzlebench.encodings.mip.kuromasu_probe_compiled` compiles it once, "
            "in about 40 s; `make setup` does)",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    return jit if fits else None


def load_engine() -> None:
    """The encoding's ``load``: the compiled engine read from numba's cache, kept off the solve's
    clock."""
    load(lambda: _compiled("auto", 0))


def _compiled_ready(jit: Any) -> bool:
    """Whether the compiled engine is compiled (:func:`~puzzlebench.encodings.compiled.compiled_ready`):
    ``auto`` never makes a solve pay for the first compile."""
    return compiled_ready(jit.start, jit.probe_slice, jit.compact)


def _grown(pool: np.ndarray, used: int, room: int) -> np.ndarray:
    """``pool`` doubled until ``room`` rows fit after its first ``used`` (the rest left
    unwritten, so that the memory is only touched when it is used)."""
    size = len(pool)
    while size - used < room:
        size *= 2
    if size == len(pool):
        return pool
    out = np.empty((size, *pool.shape[1:]), pool.dtype)
    out[:used] = pool[:used]
    return out
