"""Cells settled before solving by trying each open cell both ways (failed-literal probing).

:func:`settle` works on a partial assignment of the board (``UNKNOWN``, ``WHITE`` unshaded,
``BLACK`` wall) and closes it under four rules, each a sound consequence of the puzzle's
rules (it holds in every answer that agrees with the assignment):

* the island rule (:func:`~puzzlebench.encodings.islands.island_reasoning`): every island holds
  one clue and the clue's count of cells, inside the cells the plan lets it reach;
* the wall is connected (:func:`~puzzlebench.encodings.regions.connectivity_reasoning` with the
  wall as the connected colour and a known wall cell as root): a cell that no path of cells
  that may be wall joins to the root is unshaded (a conflict if it is wall); a cell on every
  such path from a known wall cell to the root (an articulation) is wall;
* no 2x2 block is all wall: a block with three wall cells has its fourth unshaded;
* a wall path and an island's path do not cross (:func:`crossing`): two wall parts on the
  board's rim must be joined, and so must an unshaded part and its clue; when their ends lie on
  the rim in the order wall, unshaded, wall, unshaded, the assignment fails.

A conflict means the assignment has no answer. Probing sets one open cell wall and closes the
assignment, then unshaded: when one side fails, every answer takes the other, so the cell is
settled that way; when both sides agree on another cell, every answer agrees too. Repeated
until a pass settles nothing, every settled cell holds in every answer. At depth 2 each side is
closed by such a probe instead of :func:`settle` (slower: ``plan=deep`` runs it after depth 1,
until it stalls).

This module is the readable statement of the rules and the probe; at depths 1 and 2 the probe runs
compiled (:mod:`.nurikabe_probe_compiled`, the same rules over arrays, reaching the same cells)
where numba is installed.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..model import Cell, Nurikabe
from .compiled import compiled_ready, load
from .islands import IslandGraph, IslandPlan, island_reasoning
from .regions import BLACK, UNKNOWN, WHITE, connectivity_reasoning

#: the colours of the wall's connectivity check (the wall is the connected colour there)
_SWAP = {UNKNOWN: UNKNOWN, WHITE: BLACK, BLACK: WHITE}


class Board:
    """The board as cell indices (row-major) with its side neighbours and 2x2 blocks."""

    def __init__(self, p: Nurikabe, graph: IslandGraph) -> None:
        self.rows, self.cols = p.rows, p.cols
        self.g = graph
        self.adj = graph.adj
        cols = p.cols
        self.blocks = [
            (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
            for r in range(p.rows - 1)
            for c in range(p.cols - 1)
        ]
        self.blocks_of: list[list[int]] = [[] for _ in range(p.rows * p.cols)]
        for k, block in enumerate(self.blocks):
            for i in block:
                self.blocks_of[i].append(k)
        # the rim's cells in their order around the board (clockwise from the top-left corner)
        rows = p.rows
        ring = [(0, c) for c in range(cols)] + [(r, cols - 1) for r in range(1, rows)]
        if rows > 1:
            ring += [(rows - 1, c) for c in range(cols - 2, -1, -1)]
        if cols > 1:
            ring += [(r, 0) for r in range(rows - 2, 0, -1)]
        self.rim = [r * cols + c for r, c in ring]
        # the eight cells around each cell (an unshaded chain may step diagonally past a wall)
        self.adj8 = [
            tuple(
                r2 * cols + c2
                for r2 in range(r - 1, r + 2)
                for c2 in range(c - 1, c + 2)
                if (r2, c2) != (r, c) and 0 <= r2 < rows and 0 <= c2 < cols
            )
            for r in range(rows)
            for c in range(cols)
        ]
        self._arrays: tuple | None = None

    def arrays(self, jit: Any) -> tuple:
        """The board as the compiled engine's arrays (built once)."""
        if self._arrays is None:
            self._arrays = jit.arrays(self)
        return self._arrays


def settle(board: Board, state: list[int]) -> bool:
    """Close ``state`` (changed in place) under the four rules; False on a conflict."""
    while True:
        changed = False
        # no 2x2 block is all wall
        wall = [s == BLACK for s in state]
        for block in board.blocks:
            a, b, c, d = block
            walls = wall[a] + wall[b] + wall[c] + wall[d]
            if walls == 4:
                return False
            if walls == 3:
                for i in block:
                    if state[i] == UNKNOWN:
                        state[i] = WHITE
                        changed = True
        # the island rule (its cells only: the closure needs no reasons)
        found = island_reasoning(board.g, state, reasons=False)
        if found.conflict is not None:
            return False
        for clause in found.implied:
            i, is_wall = clause[0]
            want = BLACK if is_wall else WHITE
            if state[i] == UNKNOWN:
                state[i] = want
                changed = True
            elif state[i] != want:
                return False
        if changed:
            continue
        # the wall is connected
        root = next((i for i, s in enumerate(state) if s == BLACK), -1)
        if root >= 0:
            seen = connectivity_reasoning(board.adj, [_SWAP[s] for s in state], root)
            for i in seen.unreached:
                if state[i] == BLACK:
                    return False
                state[i] = WHITE
                changed = True
            for art in seen.articulations:
                if state[art.cell] == UNKNOWN:
                    state[art.cell] = BLACK
                    changed = True
        if not changed:
            return not crossing(board, state)


def _parts(state: Sequence[int], colour: int, adj: Sequence[Sequence[int]]) -> list[int]:
    """The part (index of its first cell) of each cell with ``colour`` joined through ``adj``
    by cells of that colour; -1 for the other cells."""
    part = [-1] * len(state)
    for i, s in enumerate(state):
        if s != colour or part[i] >= 0:
            continue
        part[i] = i
        todo = [i]
        for j in todo:
            for k in adj[j]:
                if state[k] == colour and part[k] < 0:
                    part[k] = i
                    todo.append(k)
    return part


def crossing(board: Board, state: Sequence[int]) -> bool:
    """True when the wall and an island must cross, so ``state`` has no answer.

    Take an unshaded part U holding no clue: in every answer its island joins it to a clue k
    whose plan holds all of U (:attr:`IslandGraph.owners`), by a path of unshaded cells side by
    side. Let c be a rim cell of the unshaded cells that U reaches through known unshaded cells
    side by side or corner to corner, and t one of those that clue k's part reaches; then
    ``c ... U ... k ... t`` is a chain of unshaded cells, each next to or corner to corner with
    the next. Let a and b be rim cells of two different wall parts: the wall is connected, so a
    path of wall cells side by side joins a to b. Such a path together with the outside of the
    board is a closed curve, and a chain of cells stepping also corner to corner cannot pass it
    (where the chain steps corner to corner, the other two cells of that 2x2 block are corner to
    corner too, so the path, whose cells go side by side, does not pass between them): when
    a, c, b, t lie in this order around the rim, c and t are on either side of the curve and
    the chain meets the path in a cell that is both wall and unshaded. So when every clue that
    may take U has such an a, c, b, t, no answer agrees with ``state``."""
    g = board.g
    wall = _parts(state, BLACK, board.adj)
    rim = board.rim
    if len({wall[i] for i in rim if wall[i] >= 0}) < 2:
        return False
    white4 = _parts(state, WHITE, board.adj)
    white8 = _parts(state, WHITE, board.adj8)
    on_rim: dict[int, list[int]] = {}
    for pos, i in enumerate(rim):
        if white8[i] >= 0:
            on_rim.setdefault(white8[i], []).append(pos)
    clue_part = {white4[i]: k for k, i in enumerate(g.clues)}
    members: dict[int, list[int]] = {}
    for i, s in enumerate(state):
        if s == WHITE and white4[i] not in clue_part:
            members.setdefault(white4[i], []).append(i)
    n = len(rim)
    for first, cells in members.items():
        cs = on_rim.get(white8[first])
        if not cs:
            continue
        takers = set(g.owners[cells[0]])
        for i in cells[1:]:
            takers &= set(g.owners[i])
        if not takers:
            continue  # (the island rule finds this conflict)
        for k in takers:
            ts = on_rim.get(white8[g.clues[k]])
            if not ts or not _interleaved(cs, ts, [wall[i] for i in rim], n):
                break
        else:
            return True
    return False


def _interleaved(cs: Sequence[int], ts: Sequence[int], walls: Sequence[int], n: int) -> bool:
    """Whether some c in ``cs`` and t in ``ts`` (rim positions) have a wall part on the rim
    strictly between c and t one way round and a different one the other way round."""
    tset = set(ts)
    for c in cs:
        if c in tset:
            continue
        # walking once round from c: the wall parts met before each t, and after it
        before: set[int] = set()
        seen_at_t = []
        for step in range(1, n):
            pos = (c + step) % n
            if pos in tset:
                seen_at_t.append((step, frozenset(before)))
            if walls[pos] >= 0:
                before.add(walls[pos])
        after: set[int] = set()
        k = len(seen_at_t) - 1
        for step in range(n - 1, 0, -1):
            while k >= 0 and seen_at_t[k][0] == step:
                one, other = seen_at_t[k][1], after
                if one and other and (len(one | other) > 1):
                    return True
                k -= 1
            pos = (c + step) % n
            if walls[pos] >= 0:
                after.add(walls[pos])
    return False


#: probe(stop="pass"): the CPU seconds of a pass after which its pace is judged, and how many
#: times the time left its rest may take (beyond, it would reach too few cells to pay: a pass a
#: few times the budget still settles cells worth their time, one tens of times it does not)
PASS_SAMPLE = 0.1
PASS_SLACK = 4.0
#: refine's and probe's ``stop`` by default (see :func:`probe`)
PROBE_STOP = "pass"
PROBE_STOPS = ("budget", "pass")
#: probe's ``engine`` by default: ``auto`` probes at depths 1 and 2 with the compiled engine
#: (:mod:`.nurikabe_probe_compiled`) where numba is installed and the engine is compiled (else
#: with this module's, and a warning); ``compiled`` insists on it, ``python`` never uses it
PROBE_ENGINE = "auto"
PROBE_ENGINES = ("auto", "compiled", "python")
#: the cells the compiled engine probes between two looks at the deadline and the pass's pace
COMPILED_SLICE = 16
#: probe(depth=2, stall=...): the share of the stall a depth-1 pass may take for depth 2 to start
#: (each cell tried at depth 2 costs two whole depth-1 probes or more, and the stall is looked at
#: between cells: a pass longer than a quarter of the stall leaves it two cells or fewer to try)
STALL_PASS_SHARE = 0.25
#: probe(depth=2, stall=...): a pass at depth 2 estimated within this many CPU seconds (each open
#: cell's two sides closed at depth 1, about a depth-1 pass each) may go that long without a cell
#: settled: on a mid-sized board depth 2 may settle its first cell only after longer than the
#: stall, and then many more; past this bound a pass grows with the board's open cells squared,
#: and the largest boards' passes are far beyond any budget
DEEP_PASS = 2.0
#: probe(depth=2, stall=...): depth 2 does not start when its pass is estimated beyond this many
#: times the stall, which would then see only a few of its cells (on the largest boards it
#: settles next to nothing before the stall ends it)
DEEP_SAMPLE = 20


def _stall(stall: float, took: float, open_cells: int) -> float | None:
    """The stall of a probe at depth 2 whose depth-1 pass over ``open_cells`` took ``took`` CPU
    seconds: at least the estimated pass at depth 2 when that is within ``DEEP_PASS``; None (no
    depth 2) when it is beyond ``DEEP_SAMPLE`` times the stall."""
    sweep = 2 * open_cells * took
    if sweep > DEEP_SAMPLE * stall:
        return None
    return max(stall, sweep) if sweep <= DEEP_PASS else stall


def probe(
    board: Board,
    state: list[int],
    deadline: float,
    depth: int = 1,
    stop: str = PROBE_STOP,
    engine: str = PROBE_ENGINE,
    stall: float | None = None,
) -> bool:
    """Failed-literal probing of every undecided cell until a pass settles nothing or the
    deadline passes (``state`` changed in place; every settled cell holds in every answer);
    False when the assignment has no answer. At ``depth`` 1 each side of a cell is closed with
    :func:`settle`; at a greater depth, once the probe one level down settles nothing more,
    each side is closed with that probe (a side it refutes has no answer either).
    ``stop="pass"`` (depth 1) also stops once ``PASS_SAMPLE`` CPU seconds of a pass show that
    the rest of the pass would take more than ``PASS_SLACK`` times the time left (on a big board
    a small part of one pass settles little the solver needs); ``"budget"`` probes until the
    deadline. ``engine`` picks the engine of a probe at depth 1 or 2 (``PROBE_ENGINE``). ``stall``
    (at depth 2 or more): also stop once that many CPU seconds pass without a cell settled at this
    depth (on most boards depth 2 settles a cell every few tenths of a second until the board is
    settled, or stalls from the start); when a depth-1 pass over the open cells takes more
    than ``STALL_PASS_SHARE`` of the stall, or the pass at depth 2 it implies more than
    ``DEEP_SAMPLE`` times the stall, depth 2 does not start, and a pass at depth 2 estimated
    within ``DEEP_PASS`` may go that long without a cell settled."""
    if depth == 1:
        stall = None
    if depth <= 2:
        jit = _compiled(engine)
        if jit is not None:
            if depth == 1:
                return _probe_compiled(jit, board, state, deadline, stop)
            return _probe2_compiled(jit, board, state, deadline, stop, stall)
    if not settle(board, state):
        return False
    if depth > 1 and stall is not None:
        # one pass one level down, the state closed there: too slow a pass, no deeper probe
        if not probe(board, state, deadline, depth - 1, stop):
            return False
        start = time.process_time()
        if not probe(board, state, deadline, depth - 1, stop):
            return False
        took = time.process_time() - start
        if took > STALL_PASS_SHARE * stall:
            return True
        stall = _stall(stall, took, sum(s == UNKNOWN for s in state))
        if stall is None:
            return True
    last = time.process_time()  # when a cell last settled (the stall's clock, at depth > 1)
    while True:
        if depth > 1 and not probe(board, state, deadline, depth - 1, stop):
            return False
        progress = False
        start = time.process_time()
        judge = depth == 1 and stop == "pass"  # this pass's pace not judged yet
        tried = 0
        for i in range(len(state)):
            if state[i] != UNKNOWN:
                continue
            now = time.process_time()
            if now > deadline or (stall is not None and now - last > stall):
                return True
            if judge and now - start > PASS_SAMPLE:
                judge = False
                left = sum(s == UNKNOWN for s in state[i:])
                if (now - start) * left / max(tried, 1) > PASS_SLACK * (deadline - now):
                    return True  # the pass would reach few of its cells in time: keep what it settled
            tried += 1
            sides = []
            for colour in (BLACK, WHITE):
                trial = list(state)
                trial[i] = colour
                closed = (
                    settle(board, trial) if depth == 1 else probe(board, trial, deadline, depth - 1, stop)
                )
                sides.append(trial if closed else None)
            wall, white = sides
            settled = False
            if wall is None or white is None:
                standing = white if wall is None else wall
                if standing is None:  # both sides fail
                    return False
                state[:] = standing
                settled = True
            else:
                agreed = [
                    j for j in range(len(state)) if state[j] == UNKNOWN and wall[j] == white[j] != UNKNOWN
                ]
                if agreed:
                    for j in agreed:
                        state[j] = wall[j]
                    if not settle(board, state):
                        return False
                    settled = True
            progress |= settled
            if settled and depth > 1:
                # the new cells closed one level down (cheaper) before the pass goes on
                if not probe(board, state, deadline, depth - 1, stop):
                    return False
                last = time.process_time()
        if not progress:
            return True


def _probe_compiled(jit: Any, board: Board, state: list[int], deadline: float, stop: str) -> bool:
    """:func:`probe` at depth 1 on the compiled engine, in slices of ``COMPILED_SLICE`` cells, the
    deadline and the pace judged between slices. The same fixpoint as :func:`probe`'s passes: past
    the first pass only the cells beside those settled are probed until none is left, then a whole
    pass looks again (``nurikabe_probe_compiled._close``)."""
    g = board.arrays(jit)
    ws = jit.workspace(len(state), len(board.g.clues))
    s = np.array(state, np.int8)
    due = np.ones(len(state), np.int8)
    whole = True  # the pass probes every open cell
    try:
        if not jit.settle(g, ws, s):
            return False
        while True:
            progress = False
            start = time.process_time()
            judge = stop == "pass"
            tried = i = 0
            while True:
                now = time.process_time()
                if now > deadline:
                    return True
                if judge and now - start > PASS_SAMPLE:
                    judge = False
                    left = int(np.count_nonzero((s[i:] == UNKNOWN) & (due[i:] != 0)))
                    if (now - start) * left / max(tried, 1) > PASS_SLACK * (deadline - now):
                        return True
                outcome, i, settled, count = jit.probe_slice(g, ws, s, due, i, COMPILED_SLICE)
                tried += count
                progress |= settled
                if outcome == jit.CONFLICT:
                    return False
                if outcome == jit.PASS_DONE:
                    break
            if whole and not progress:
                return True
            whole = not jit.pending(s, due)
            if whole:
                due[:] = 1
    finally:
        state[:] = s.tolist()


def _probe2_compiled(
    jit: Any, board: Board, state: list[int], deadline: float, stop: str, stall: float | None = None
) -> bool:
    """:func:`probe` at depth 2 on the compiled engine: the same steps (closed at depth 1, then
    each cell's sides closed at depth 1, the state closed again after each cell settled and the
    pass going on; passes until one settles nothing), one cell between two looks at the deadline
    and the stall."""
    if not _probe_compiled(jit, board, state, deadline, "budget"):
        return False
    g = board.arrays(jit)
    ws = jit.workspace(len(state), len(board.g.clues))
    s = np.array(state, np.int8)
    try:
        if stall is not None:
            # one depth-1 pass over the open cells (the state is closed at depth 1): too slow a
            # pass, no deeper probe (nor a pass at all once the deadline has passed: it cannot be
            # stopped, and on the largest boards it takes seconds)
            start = time.process_time()
            if start > deadline:
                return True
            if not jit.probe_whole(g, ws, s):
                return False
            took = time.process_time() - start
            if took > STALL_PASS_SHARE * stall:
                return True
            stall = _stall(stall, took, int(np.count_nonzero(s == UNKNOWN)))
            if stall is None:
                return True
        i = 0
        moved = False  # a cell settled in this pass
        last = time.process_time()
        while (now := time.process_time()) <= deadline and (stall is None or now - last <= stall):
            outcome, i, settled, _ = jit.probe2_slice(g, ws, s, i, 1)
            if outcome == jit.CONFLICT:
                return False
            if settled:
                if not jit.probe_whole(g, ws, s):
                    return False
                moved = True
                last = time.process_time()
            elif outcome == jit.PASS_DONE:
                if not moved:
                    return True
                i, moved = 0, False
        return True
    finally:
        state[:] = s.tolist()


def _compiled(engine: str) -> Any:
    """The compiled engine's module for ``engine``, or None for this module's."""
    if engine not in PROBE_ENGINES:
        raise ValueError(f"unknown probe engine {engine!r}; choose from {', '.join(PROBE_ENGINES)}")
    if engine == "python":
        return None
    try:
        from . import nurikabe_probe_compiled as jit
    except ImportError:
        if engine == "compiled":
            raise ValueError("the compiled Nurikabe probe needs numba") from None
        return None
    if engine == "auto" and not compiled_ready(
        jit.settle, jit.probe_slice, jit.pending, jit.probe_whole, jit.probe2_slice
    ):
        warnings.warn(
            "Nurikabe's probe runs on the readable engine: the compiled one is not compiled yet "
            "(`python -m puzzlebench.encodings.compiled` compiles it once; `make setup` does)",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    return jit


def load_engine() -> None:
    """The encodings' ``load``: the compiled engine read from numba's cache (noticeable in a fresh
    process), kept off the solve's clock."""
    load(lambda: _compiled(PROBE_ENGINE))


def cells_of(board: Board, state: Sequence[int], colour: int) -> list[Cell]:
    """The cells of ``state`` with ``colour``."""
    cols = board.cols
    return [divmod(i, cols) for i, s in enumerate(state) if s == colour]


def initial(p: Nurikabe, plan: IslandPlan) -> tuple[Board, list[int]]:
    """The board of ``plan`` and the assignment the probe starts from: the clue cells unshaded,
    the plan's wall cells wall, the rest undecided."""
    board = Board(p, IslandGraph.of(p, plan))
    cols = p.cols
    state = [UNKNOWN] * (p.rows * cols)
    for r, c in p.clue_cells:
        state[r * cols + c] = WHITE
    for r, c in plan.wall:
        state[r * cols + c] = BLACK
    return board, state


def refine(
    p: Nurikabe,
    plan: IslandPlan,
    deadline: float,
    depth: int = 1,
    stop: str | None = None,
    stall: float | None = None,
) -> IslandPlan:
    """``plan`` with the probe's findings (see :func:`probe`), or ``plan`` itself when the
    probe settles nothing, runs out of time before a whole pass, or finds no answer (the
    solvers find that out). Settled wall cells join ``wall`` and leave every island's cells;
    settled unshaded cells go to ``white``. An unshaded part joined to a clue is that clue's
    island: another island never holds its cells nor a cell beside them (it would join the
    two). Each island's cells are then searched again from its clue through the cells left to
    it, keeping those fewer than its bound steps away (an island is connected). ``depth`` is the
    probe's (:func:`probe`; :meth:`IslandPlan.of` probes at depth 1 or 2), and so are ``stop``
    (``PROBE_STOP`` unless given) and ``stall``."""
    board, state = initial(p, plan)
    before = sum(s != UNKNOWN for s in state)
    if not probe(board, state, deadline, depth, PROBE_STOP if stop is None else stop, stall=stall):
        return plan
    if sum(s != UNKNOWN for s in state) == before:
        return plan
    black = set(cells_of(board, state, BLACK))
    white = set(cells_of(board, state, WHITE)) - set(p.clue_cells)
    # the unshaded part of each clue (its island holds it in every answer)
    taken: dict[Cell, Cell] = {}
    for clue in plan.reach:
        part, todo = {clue}, [clue]
        for cell in todo:
            for nb in p.grid.neighbours4(cell):
                if nb not in part and nb in white:
                    part.add(nb)
                    todo.append(nb)
        for cell in part:
            taken[cell] = clue
    near: dict[Cell, set[Cell]] = {}
    for cell, clue in taken.items():
        for nb in p.grid.neighbours4(cell):
            near.setdefault(nb, set()).add(clue)
    reach: dict[Cell, dict[Cell, int]] = {}
    for clue, old in plan.reach.items():
        n = plan.bound[clue]
        dist = {clue: 0}
        frontier = [clue]
        for step in range(1, n):
            nxt = []
            for cell in frontier:
                for nb in p.grid.neighbours4(cell):
                    if (
                        nb in dist
                        or nb not in old
                        or nb in black
                        or taken.get(nb, clue) != clue
                        or near.get(nb, {clue}) - {clue}
                    ):
                        continue
                    dist[nb] = step
                    nxt.append(nb)
            frontier = nxt
        reach[clue] = dist
    owners: dict[Cell, list[Cell]] = {}
    for clue, dist in reach.items():
        for cell in dist:
            if cell != clue:
                owners.setdefault(cell, []).append(clue)
    if any(cell not in owners for cell in white):
        return plan  # (cannot happen when the probe is sound; kept as a guard)
    wall = frozenset(cell for cell in p.grid.all_cells if cell not in p.clue_cells and cell not in owners)
    return IslandPlan(
        reach,
        {c: tuple(o) for c, o in owners.items()},
        wall,
        tuple(c for c in plan.open if c not in wall),
        plan.clash,
        dict(plan.bound),
        frozenset(white),
    )
