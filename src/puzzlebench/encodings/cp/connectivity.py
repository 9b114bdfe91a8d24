""" "All white cells are connected" in CP-SAT: levels (rank), flow, and the lazy rule's one-cell cuts.

Shared by the families whose white (unshaded) cells form one region and never touch two black
cells side by side (Kuromasu, Hitori). ``black`` maps each cell that may turn black to its
Boolean (a cell without one is always white); ``fixed`` is a cell white in every answer, the
root, or None: then one white cell is chosen as the root by ("root", r, c) Booleans.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ortools.sat.python import cp_model

from ...model import Cell, Grid, Subgrid
from .common import new_bools

#: a cell's "black" literal (or its negation, for the cells whose complement is connected)
Black = Mapping[Cell, cp_model.LiteralT]


def roots(model: cp_model.CpModel, grid: Grid | Subgrid, black: Black, fixed: Cell | None) -> dict[Cell, Any]:
    """Literal "cell is the root" per cell: the fixed root, or at most one chosen white cell
    (levels and flow need one as soon as any cell is white; an empty region needs none)."""
    if fixed is not None:
        return {cell: cell == fixed for cell in grid.all_cells}
    chosen = new_bools(model, "root", grid.all_cells)
    model.add_at_most_one(chosen.values())
    for cell, r in chosen.items():
        model.add_implication(r, ~black[cell])
    return chosen


def connect_by_rank(model: cp_model.CpModel, grid: Grid | Subgrid, black: Black, fixed: Cell | None) -> None:
    """Levels: the root has level 0; every other white cell a white neighbour one level lower or more."""
    n = grid.size
    is_root_of = roots(model, grid, black, fixed)
    level = {}
    for cell in grid.all_cells:
        low = 0 if fixed is None else abs(cell[0] - fixed[0]) + abs(cell[1] - fixed[1])
        # (on part of a grid a cell may lie further than n - 1 steps: it is never in the region)
        level[cell] = model.new_int_var(low, max(low, n - 1), f"level[{cell[0]},{cell[1]}]")
    for cell in grid.all_cells:
        is_root = is_root_of[cell]
        if is_root is True:
            model.add(level[cell] == 0)
            continue
        if is_root is not False:
            model.add(level[cell] == 0).only_enforce_if(is_root)
        parents = []
        for nb in grid.neighbours4(cell):
            p = model.new_bool_var("")
            # A parent is white and has a smaller level.
            if nb in black:
                model.add_implication(p, ~black[nb])
            model.add(level[cell] >= level[nb] + 1).only_enforce_if(p)
            parents.append(p)
        # A white non-root cell has a parent.
        needs = [black[cell]] if cell in black else []
        if is_root is not False:
            needs.append(is_root)
        model.add_bool_or([*needs, *parents])


def connect_by_flow(model: cp_model.CpModel, grid: Grid | Subgrid, black: Black, fixed: Cell | None) -> None:
    """Single-commodity flow: the root emits one unit per other white cell, each white cell keeps one."""
    n = grid.size
    is_root_of = roots(model, grid, black, fixed)
    inflow: dict[Cell, list] = {cell: [] for cell in grid.all_cells}
    outflow: dict[Cell, list] = {cell: [] for cell in grid.all_cells}
    for a, b in grid.edges():
        for u, v in ((a, b), (b, a)):
            f = model.new_int_var(0, n - 1, "")
            # Flow runs over white-white arcs only.
            for end in (u, v):
                if end in black:
                    model.add(f == 0).only_enforce_if(black[end])
            outflow[u].append(f)
            inflow[v].append(f)
    whites = n - cp_model.LinearExpr.sum(list(black.values()))
    for cell in grid.all_cells:
        white = 1 - black[cell] if cell in black else 1
        # The root's source supplies every white cell (itself included); no other cell has one.
        source = model.new_int_var(0, n, "")
        if is_root_of[cell] is True:
            model.add(source == whites)
        elif is_root_of[cell] is False:
            model.add(source == 0)
        else:
            model.add(source == whites).only_enforce_if(is_root_of[cell])
            model.add(source == 0).only_enforce_if(~is_root_of[cell])
        # Conservation: what comes in, plus the source, minus what goes out, is kept (1 if white).
        model.add(
            cp_model.LinearExpr.sum(inflow[cell]) + source - cp_model.LinearExpr.sum(outflow[cell]) == white
        )


def no_isolated_white(model: cp_model.CpModel, grid: Grid | Subgrid, black: Black) -> None:
    """The one-cell cuts up front: no white cell is walled in alone, wherever the cell and its
    neighbours are not the whole board (then a black cell beyond would touch a black neighbour)."""
    for cell in grid.all_cells:
        around = grid.neighbours4(cell)
        if len(around) + 1 >= grid.size or any(nb not in black for nb in around):
            continue  # covers the board, or a neighbour is always white
        model.add_bool_or([~black[nb] for nb in around] + ([black[cell]] if cell in black else []))
