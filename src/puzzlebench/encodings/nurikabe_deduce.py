"""Cells settled before solving by trying each open cell both ways (failed-literal probing).

:func:`settle` works on a partial assignment of the board (``UNKNOWN``, ``WHITE`` unshaded,
``BLACK`` wall) and closes it under three rules of the puzzle, each a sound consequence of the
rules (it holds in every answer that agrees with the assignment):

* the island rule (:func:`~puzzlebench.encodings.islands.island_reasoning`): every island holds
  one clue and the clue's count of cells, inside the cells the plan lets it reach;
* the wall is connected (:func:`~puzzlebench.encodings.regions.connectivity_reasoning` with the
  wall as the connected colour and a known wall cell as root): a cell that no path of cells
  that may be wall joins to the root is unshaded (a conflict if it is wall); a cell on every
  such path from a known wall cell to the root (an articulation) is wall;
* no 2x2 block is all wall: a block with three wall cells has its fourth unshaded.

A conflict means the assignment has no answer. Probing sets one open cell wall and closes the
assignment, then unshaded: when one side fails, every answer takes the other, so the cell is
settled that way; when both sides agree on another cell, every answer agrees too. Repeated
until a pass settles nothing, every settled cell holds in every answer.
"""

from __future__ import annotations

import time
from typing import Sequence

from ..model import Cell, Nurikabe
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
        self.blocks = [(r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
                       for r in range(p.rows - 1) for c in range(p.cols - 1)]
        self.blocks_of: list[list[int]] = [[] for _ in range(p.rows * p.cols)]
        for k, block in enumerate(self.blocks):
            for i in block:
                self.blocks_of[i].append(k)


def settle(board: Board, state: list[int]) -> bool:
    """Close ``state`` (changed in place) under the three rules; False on a conflict."""
    while True:
        changed = False
        # no 2x2 block is all wall
        for block in board.blocks:
            walls = sum(state[i] == BLACK for i in block)
            if walls == 4:
                return False
            if walls == 3:
                for i in block:
                    if state[i] == UNKNOWN:
                        state[i] = WHITE
                        changed = True
        # the island rule
        found = island_reasoning(board.g, state)
        if found.conflict is not None:
            return False
        for clause in found.implied:
            i, wall = clause[0]
            want = BLACK if wall else WHITE
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
            return True


def probe(board: Board, state: list[int], deadline: float) -> bool:
    """Failed-literal probing of every undecided cell until a pass settles nothing or the
    deadline passes (``state`` changed in place; every settled cell holds in every answer);
    False when the assignment has no answer."""
    if not settle(board, state):
        return False
    progress = True
    while progress:
        progress = False
        for i in range(len(state)):
            if state[i] != UNKNOWN:
                continue
            if time.process_time() > deadline:
                return True
            sides = []
            for colour in (BLACK, WHITE):
                trial = list(state)
                trial[i] = colour
                sides.append(trial if settle(board, trial) else None)
            wall, white = sides
            if wall is None and white is None:
                return False
            if wall is None or white is None:
                state[:] = white if wall is None else wall
                progress = True
                continue
            agreed = [j for j in range(len(state)) if state[j] == UNKNOWN and wall[j] == white[j] != UNKNOWN]
            if agreed:
                for j in agreed:
                    state[j] = wall[j]
                if not settle(board, state):
                    return False
                progress = True
    return True


def cells_of(board: Board, state: Sequence[int], colour: int) -> list[Cell]:
    """The cells of ``state`` with ``colour``."""
    cols = board.cols
    return [divmod(i, cols) for i, s in enumerate(state) if s == colour]


def refine(p: Nurikabe, plan: IslandPlan, deadline: float) -> IslandPlan:
    """``plan`` with the probe's findings (see :func:`probe`), or ``plan`` itself when the
    probe settles nothing, runs out of time before a whole pass, or finds no answer (the
    solvers find that out). Settled wall cells join ``wall`` and leave every island's cells;
    settled unshaded cells go to ``white``. An unshaded part joined to a clue is that clue's
    island: another island never holds its cells nor a cell beside them (it would join the
    two). Each island's cells are then searched again from its clue through the cells left to
    it, keeping those fewer than its bound steps away (an island is connected)."""
    g = IslandGraph.of(p, plan)
    board = Board(p, g)
    cols = p.cols
    index = lambda cell: cell[0] * cols + cell[1]  # noqa: E731
    state = [UNKNOWN] * (p.rows * cols)
    for cell in p.clue_cells:
        state[index(cell)] = WHITE
    for cell in plan.wall:
        state[index(cell)] = BLACK
    before = sum(s != UNKNOWN for s in state)
    if not probe(board, state, deadline):
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
                    if nb in dist or nb not in old or nb in black or taken.get(nb, clue) != clue \
                            or near.get(nb, {clue}) - {clue}:
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
    return IslandPlan(reach, {c: tuple(o) for c, o in owners.items()}, wall,
                      tuple(c for c in plan.open if c not in wall), plan.clash, dict(plan.bound),
                      frozenset(white))
