"""Light Up (Akari) as z3 assertions: one Boolean per open cell, "a bulb is here".

The default encoding works on segments (maximal runs of open cells): a bulb lights exactly its
row segment and column segment, so "no bulb lights another" is at-most-one per segment and
"every open cell is lit" is one disjunction over the cell's two segments. ``seed002`` is the
group-variable model of seed 002 (one Boolean per horizontal and vertical group).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from ...model import Cell, Family, LightUp
from ..base import EncodingSpec
from .common import SmtModel, card_option, ite_sum


def _bulbs(puzzle: LightUp) -> SmtModel:
    """A model with one Boolean ("bulb", r, c) per open cell, all of them decisions."""
    model = SmtModel()
    model.decision = {cell: model.bool("bulb", *cell) for cell in puzzle.open_cells}
    return model


def build_default(puzzle: LightUp, options: Mapping[str, Any]) -> SmtModel:
    model = _bulbs(puzzle)
    bulb = model.decision
    card = options["card"]
    segs = puzzle.grid.segments(puzzle.is_open)
    lits = [[bulb[c] for c in seg.cells] for seg in segs]
    row_of: dict[Cell, int] = {}
    col_of: dict[Cell, int] = {}
    for i, seg in enumerate(segs):
        for cell in seg.cells:
            (row_of if seg.horizontal else col_of)[cell] = i
    # No bulb lights another: at most one bulb per segment.
    for seg_lits in lits:
        if len(seg_lits) > 1:
            model.add(model.count(seg_lits, "<=", 1, card))
    # Every open cell is lit: a bulb in its row segment or its column segment.
    for cell in bulb:
        column = [bulb[c] for c in segs[col_of[cell]].cells if c != cell]
        model.add(model.any(lits[row_of[cell]] + column))
    # A numbered wall has exactly that many bulbs among its orthogonal neighbours.
    for wall, n in puzzle.numbers.items():
        around = [bulb[c] for c in puzzle.grid.neighbours4(wall) if c in bulb]
        model.add(model.count(around, "==", n, card))
    model.notes["segments"] = len(segs)
    return model


def build_seed002(puzzle: LightUp, options: Mapping[str, Any]) -> SmtModel:
    """Seed 002's model, rule for rule: a Boolean per cell (walls forced off), a Boolean per
    horizontal and per vertical group, each cell's row or column group lit, group = OR of its
    members, at most one light per group as ``Sum(If(v, 1, 0)) <= 1``, hints as sums of the four
    neighbours' ``If(v, 1, 0)``."""
    model = SmtModel()
    grid = puzzle.grid
    cell_var = {cell: model.bool("cell", *cell) for cell in grid.cells()}
    model.decision = {cell: cell_var[cell] for cell in puzzle.open_cells}
    # Setup walls and hints: a wall holds no light; a hint counts the lights next to it.
    for cell in grid.cells():
        if not puzzle.is_open(cell):
            model.add(z3.Not(cell_var[cell]))
        if cell in puzzle.numbers:
            around = [cell_var[n] for n in grid.neighbours4(cell)]
            model.add(ite_sum(around) == puzzle.numbers[cell])
    # Group variables: a cell continues the group of its left (upper) open neighbour, or starts one.
    horizontal: dict[Cell, tuple[str, Cell]] = {}
    vertical: dict[Cell, tuple[str, Cell]] = {}
    members: dict[tuple[str, Cell], list[z3.BoolRef]] = {}
    for kind, groups, before in (("h", horizontal, (0, -1)), ("v", vertical, (-1, 0))):
        for r, c in grid.cells():
            if not puzzle.is_open((r, c)):
                continue
            prev = (r + before[0], c + before[1])
            if prev in grid and puzzle.is_open(prev):
                groups[(r, c)] = groups[prev]
            else:
                groups[(r, c)] = (kind, (r, c))
                members[groups[(r, c)]] = []
            members[groups[(r, c)]].append(cell_var[(r, c)])
    group_var = {key: model.bool(key[0], *key[1]) for key in members}
    # Every cell sees a light: its horizontal or its vertical group is lit.
    for cell in horizontal:
        model.add(z3.Or(group_var[horizontal[cell]], group_var[vertical[cell]]))
    # A group has a light if any of its members has a light.
    for key, vars_ in members.items():
        model.add(group_var[key] == z3.Or(vars_))
    # No two lights see each other: no group has more than one light.
    for vars_ in members.values():
        model.add(ite_sum(vars_) <= 1)
    return model


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="smt",
        name="default",
        build=build_default,
        description="segment-based: at most one bulb per segment, each open cell's row or column segment holds a bulb, clue counts",
        options=(card_option("bulbs in a segment and around a numbered wall"),),
    ),
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="smt",
        name="seed002",
        build=build_seed002,
        description="seed 002's z3 model: one Boolean per horizontal and vertical group (OR of its members), at most one light per group, each cell's row or column group lit",
        origin="seed002",
        reference="seed 002: T. Wegrzanowski, Open Source Adventures episode 74, Crystal Z3 solver for Light Up",
    ),
]
