""" "All white cells are connected" for z3: the rank rule and the one-cell cuts of the lazy rule.

Shared by the families whose white (unshaded) cells form one region and never touch two black
cells side by side (Kuromasu, Hitori). ``black`` maps each cell that may turn black to its
Boolean; ``white`` maps every cell to "is white" (constant True for a cell that never turns
black).

Why the lazy rule's cut is sound: if a set C of white cells has its boundary black, C is a
whole white region; a valid answer then has no other white cell, and no cell beyond C and its
boundary either (such cells would all be black, and one would touch the black boundary).
"""

from __future__ import annotations

import z3

from ...model import Cell, Grid, Subgrid
from .common import SmtModel

Black = dict[Cell, z3.BoolRef]
White = dict[Cell, z3.BoolRef]


def connect_by_rank(
    model: SmtModel, grid: Grid | Subgrid, black: Black, white: White, fixed: Cell | None
) -> None:
    """Ranks: every white non-root cell has a white neighbour of smaller rank, so a chain of
    ever smaller ranks leads from it to the root: ``fixed`` (a cell white in every answer), or
    without one the first white cell in row-major order."""
    top = grid.size - 1  # a shortest path visits each cell at most once
    is_root: dict[Cell, z3.BoolRef] = {}
    if fixed is None:
        # No cell is known white: the root is the first white cell in row-major order.
        all_black_before: z3.BoolRef = model.true
        for i, cell in enumerate(grid.all_cells):
            is_root[cell] = model.all([all_black_before, white[cell]]) if i else white[cell]
            if i + 1 < grid.size:
                nxt = model.bool("black_before", *cell)
                model.add(model.iff(nxt, model.all([all_black_before, black[cell]]) if i else black[cell]))
                all_black_before = nxt
    rank = {}
    for cell in grid.all_cells:
        low = 0 if fixed is None else abs(cell[0] - fixed[0]) + abs(cell[1] - fixed[1])
        # (on part of a grid a cell may lie further than top steps: it is never in the region)
        rank[cell] = model.int("rank", *cell, lo=low, hi=max(low, top))
    for cell in grid.all_cells:
        if cell == fixed:
            continue
        # A white cell other than the root has a white neighbour of smaller rank.
        parents = [
            model.all([white[nb], model.rel(rank[nb], "<", rank[cell])]) for nb in grid.neighbours4(cell)
        ]
        needs = model.all([white[cell], model.neg(is_root[cell])]) if fixed is None else white[cell]
        model.add(model.implies(needs, model.any(parents)))
    model.notes["root"] = fixed


def no_walled_in_cell(model: SmtModel, grid: Grid | Subgrid, black: Black, white: White) -> None:
    """The one-cell cuts up front: a white cell has a white neighbour, wherever the cell and its
    neighbours are not the whole board (then a black cell beyond would touch a black neighbour)."""
    for cell in grid.all_cells:
        around = grid.neighbours4(cell)
        if len(around) + 1 >= grid.size or any(nb not in black for nb in around):
            continue  # covers the board, or a neighbour is always white
        model.add(model.any([white[nb] for nb in around] + ([black[cell]] if cell in black else [])))
