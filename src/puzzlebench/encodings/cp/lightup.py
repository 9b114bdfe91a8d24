"""Light Up (Akari) in CP-SAT: one Boolean ("bulb", r, c) per open cell.

``default`` states the rules over segments (maximal runs of open cells): at most one bulb per
segment, every open cell has a bulb in its row segment or its column segment, and each number
counts its neighbouring bulbs. Every variable is a decision, so the model is ``functional``.

``seed001`` is seed 001's MiniZinc model (``lightup1.mzn``, after Hürlimann's LPL model)
transcribed constraint by constraint: a Boolean for *every* square, ``x = false`` on black squares,
a ``visible`` relation between squares, "some visible square in my row or my column has a light"
for white squares, and ``not x1 \\/ not x2`` for every ordered pair of distinct mutually visible
white squares (MiniZinc's ``forall(i1, i2 in H, j1, j2 in W ...)`` posts each pair in both orders).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ortools.sat.python import cp_model

from ...model import Cell, Family, LightUp
from ..base import EncodingSpec
from .common import CpModelArtifact, new_bools


def build_default(puzzle: LightUp, options: Mapping[str, Any]) -> CpModelArtifact:
    art = CpModelArtifact(functional=True)
    model = art.model
    bulb = new_bools(model, "bulb", puzzle.open_cells)
    art.decision = bulb
    segments = puzzle.grid.segments(puzzle.is_open)

    # No bulb is lit by another: at most one bulb per segment.
    row_of: dict[Cell, list] = {}
    col_of: dict[Cell, list] = {}
    for seg in segments:
        lits = [bulb[cell] for cell in seg.cells]
        if len(lits) > 1:
            model.add_at_most_one(lits)
        home = row_of if seg.horizontal else col_of
        for cell in seg.cells:
            home[cell] = lits

    # Every open cell is lit: a bulb in its row segment or its column segment.
    for cell in bulb:
        model.add_bool_or(row_of[cell] + col_of[cell])

    # A numbered wall has exactly that many bulbs on its four neighbours.
    for cell, n in puzzle.numbers.items():
        around = [bulb[x] for x in puzzle.grid.neighbours4(cell) if x in bulb]
        if n > len(around):
            model.add_bool_or([])  # more bulbs demanded than open neighbours: no answer
        elif n == 0:
            model.add_bool_and([~lit for lit in around])
        else:
            model.add(cp_model.LinearExpr.sum(around) == n)
    return art


def build_seed001(puzzle: LightUp, options: Mapping[str, Any]) -> CpModelArtifact:
    art = CpModelArtifact(functional=True)
    model = art.model
    grid = puzzle.grid
    # array[H,W] of var bool: x — a light on every square, black ones included.
    x = new_bools(model, "x", grid.cells())
    art.decision = {cell: x[cell] for cell in puzzle.open_cells}
    white = puzzle.is_open

    # visible(i1,j1,i2,j2): same row (or column) and every square between them, both ends
    # included, is white. Squares of one segment are exactly the mutually visible ones.
    segment_of: dict[tuple[Cell, bool], tuple[Cell, ...]] = {}
    for seg in grid.segments(white):
        for cell in seg.cells:
            segment_of[(cell, seg.horizontal)] = seg.cells

    # constraint forall(b[i,j] != E)(x[i,j] == false): no light on a black square.
    for cell in puzzle.walls:
        model.add(x[cell] == 0)

    # constraint forall(b[i,j] in N)(bool_sum_eq(x of the four neighbours, b[i,j])).
    for cell, n in puzzle.numbers.items():
        model.add(cp_model.LinearExpr.sum([x[nb] for nb in grid.neighbours4(cell)]) == n)

    # constraint forall(b[i,j] == E)(exists(visible in row)(x) \/ exists(visible in column)(x)).
    for cell in art.decision:
        row = [x[c] for c in segment_of[(cell, True)]]
        col = [x[c] for c in segment_of[(cell, False)]]
        model.add_bool_or(row + col)

    # constraint forall(distinct, both white, visible)(not x1 \/ not x2), each ordered pair.
    for cell in art.decision:
        for horizontal in (True, False):
            for other in segment_of[(cell, horizontal)]:
                if other != cell:
                    model.add_bool_or([~x[cell], ~x[other]])
    return art


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="cp",
        name="default",
        build=build_default,
        description="segments: at most one bulb per segment, a bulb in each cell's row or column segment, "
        "numbers as linear equalities",
    ),
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="cp",
        name="seed001",
        build=build_seed001,
        description="seed 001's MiniZinc model: visibility relation, exists-a-light per white square, "
        "nand of every ordered pair of mutually visible squares",
        origin="seed001",
        reference="H\u00fcrlimann, LPL model library 2.5.2 'Light Up Puzzle (lightup1)', after the MiniZinc docs",
    ),
]
