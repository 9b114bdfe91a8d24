""" "All white cells are connected" as MIP rows: single-commodity flow, and the lazy rule's
one-cell cuts.

Shared by the families whose white (unshaded) cells form one region and never touch two black
cells side by side (Kuromasu, Hitori). ``black`` maps each cell that may turn black to its
binary (a cell without one is always white); ``fixed`` is a cell white in every answer, the
root, or None: then at most one white root is chosen by binaries.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...model import Cell, Grid, Subgrid
from .common import Linear, MipModel, Var, total

#: a cell's "black" column (or 1 minus a column, for the cells whose complement is connected)
Black = Mapping[Cell, Var | Linear]


def white(black: Black, cell: Cell) -> Linear | int:
    """1 - b_c, or 1 for a cell that is always white."""
    return 1 - black[cell] if cell in black else 1


def no_isolated_white(model: MipModel, grid: Grid | Subgrid, black: Black) -> None:
    """The one-cell cuts up front: no white cell is walled in alone, wherever the cell and its
    neighbours are not the whole board (then a black cell beyond would touch a black neighbour)."""
    for cell in grid.all_cells:
        around = grid.neighbours4(cell)
        if len(around) + 1 >= grid.size or any(nb not in black for nb in around):
            continue  # covers the board, or a neighbour is always white
        # b_c + sum over the neighbours of (1 - b) >= 1
        model.add_ge(total(1 - black[nb] for nb in around) + (black[cell] if cell in black else 0), 1)


def connect_by_flow(model: MipModel, grid: Grid | Subgrid, black: Black, fixed: Cell | None) -> None:
    """Single-commodity flow: the root emits one unit per white cell, each white cell keeps one."""
    n = grid.size
    net_inflow = {cell: Linear() for cell in grid.all_cells}  # inflow - outflow
    for a, b in grid.edges():
        for u, v in ((a, b), (b, a)):
            f = model.continuous(0, n - 1)
            # Flow runs over white-white arcs only.
            for end in (u, v):
                if end in black:
                    model.add_le(f + (n - 1) * black[end], n - 1)
            net_inflow[v].iadd(f)
            net_inflow[u].iadd(f, -1.0)
    whites = n - total(black.values())
    sources: dict[Cell, Linear | int] = {}
    if fixed is not None:  # the fixed root supplies every white cell, itself included
        sources[fixed] = whites
    else:  # no cell known white: at most one white root r_c, whose source is at most N r_c (the
        # sources supply every white cell, so there is a root unless all cells are black)
        roots = model.binaries(grid.all_cells)
        model.add_le(total(roots.values()), 1)
        for cell, r in roots.items():
            model.add_le(r + black[cell], 1)
            source = model.continuous(0, n)
            model.add_le(source - n * r, 0)
            sources[cell] = source
        model.add_eq(total(sources.values()) - whites, 0)
    # Conservation: inflow + source - outflow = 1 for a white cell, 0 for a black one.
    for cell in grid.all_cells:
        model.add_eq(net_inflow[cell] + sources.get(cell, 0) - white(black, cell), 0)
