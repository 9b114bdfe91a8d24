"""Light Up (Akari) as a MIP: one binary x_c ("bulb") per open cell.

``default`` states the rules over segments (maximal runs of open cells), the classic set
packing/covering formulation: for every segment S, sum_{c in S} x_c <= 1 (a clique row: the
cells of a segment all see each other); for every open cell c, sum over the cells of its row
segment and its column segment (c itself once) >= 1; for every numbered wall w with number n,
sum of x over its open neighbours = n.

``seed001`` is seed 001's MiniZinc model (``lightup1.mzn``, after Hürlimann's LPL model) as a
MIP: a binary for *every* square, 0 on black squares (an upper bound), "some visible square in
my row or my column has a light" as one covering row per white square, and the pairwise
formulation of "no light sees another": x_1 + x_2 <= 1 for every pair of distinct mutually
visible white squares. MiniZinc posts each pair in both orders; the two rows would be
identical, so each unordered pair is posted once. Its LP relaxation is weaker than the
default's clique rows (all x = 1/2 satisfies every pair in a segment), which is the point of
comparing them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import Cell, Family, LightUp
from ..base import EncodingSpec, check_deadline
from .common import MipModel, Var, total


def _segments_of(puzzle: LightUp) -> dict[Cell, tuple[tuple[Cell, ...], tuple[Cell, ...]]]:
    """Each open cell's row segment and column segment (the cells it sees, itself included)."""
    row_of: dict[Cell, tuple[Cell, ...]] = {}
    col_of: dict[Cell, tuple[Cell, ...]] = {}
    for seg in puzzle.grid.segments(puzzle.is_open):
        home = row_of if seg.horizontal else col_of
        for cell in seg.cells:
            home[cell] = seg.cells
    return {cell: (row_of[cell], col_of[cell]) for cell in row_of}


def _lit(model: MipModel, x: Mapping[Cell, Var], segments: Mapping[Cell, tuple]) -> None:
    """Every open cell is lit: a bulb among the cells of its row and column segments."""
    for row, col in segments.values():
        seen = dict.fromkeys(row + col)  # the union, c once
        model.add_ge(total(x[c] for c in seen), 1)


def _numbers(model: MipModel, puzzle: LightUp, x: Mapping[Cell, Var]) -> None:
    """A numbered wall has exactly that many bulbs on its four neighbours."""
    for cell, n in puzzle.numbers.items():
        around = total(x[nb] for nb in puzzle.grid.neighbours4(cell) if nb in x)
        model.add_eq(around, n, why=f"the {n} at {cell} has fewer open neighbours")


def build_default(puzzle: LightUp, options: Mapping[str, Any]) -> MipModel:
    model = MipModel()
    bulb = model.binaries(puzzle.open_cells)
    model.decision = {cell: var.index for cell, var in bulb.items()}

    # No bulb is lit by another: at most one bulb per segment (one clique row each).
    for seg in puzzle.grid.segments(puzzle.is_open):
        if len(seg) > 1:
            model.add_le(total(bulb[c] for c in seg.cells), 1)

    # Every open cell is lit: a bulb in its row segment or its column segment.
    _lit(model, bulb, _segments_of(puzzle))

    # A numbered wall has exactly that many bulbs on its four neighbours.
    _numbers(model, puzzle, bulb)
    return model


def build_seed001(puzzle: LightUp, options: Mapping[str, Any]) -> MipModel:
    model = MipModel()
    grid = puzzle.grid
    # array[H,W] of var bool: x — a light on every square; forall(b[i,j] != E)(x[i,j] == false)
    # as the upper bound 0 of the black squares' binaries.
    x = {cell: model.column(0, 0 if cell in puzzle.walls else 1, True) for cell in grid.cells()}
    model.decision = {cell: x[cell].index for cell in puzzle.open_cells}

    # visible(i1,j1,i2,j2): same row (or column) and every square between them, both ends
    # included, is white. Squares of one segment are exactly the mutually visible ones.
    segments = _segments_of(puzzle)

    # forall(b[i,j] in N)(bool_sum_eq(x of the four neighbours, b[i,j])), black squares included.
    for cell, n in puzzle.numbers.items():
        model.add_eq(
            total(x[nb] for nb in grid.neighbours4(cell)), n, why=f"the {n} at {cell} has too few neighbours"
        )

    # forall(b[i,j] == E)(exists(visible in row)(x) \/ exists(visible in column)(x)).
    _lit(model, x, segments)

    # forall(distinct, both white, visible)(not x1 \/ not x2): x1 + x2 <= 1, each pair once.
    for cell, (row, col) in segments.items():
        check_deadline()  # quadratic in the segments' lengths: stop with the solve's deadline
        for other in row + col:
            if other > cell:
                model.add_le(x[cell] + x[other], 1)
    return model


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="mip",
        name="default",
        build=build_default,
        description="segments: a clique row (at most one bulb) per segment, a covering row per open cell "
        "over its row and column segments, numbers as equalities",
    ),
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="mip",
        name="seed001",
        build=build_seed001,
        description="seed 001's MiniZinc model as a MIP: a binary per square (0 on black), a covering row "
        "per white square, x1 + x2 <= 1 for every pair of mutually visible squares",
        origin="seed001",
        reference="H\u00fcrlimann, LPL model library 2.5.2 'Light Up Puzzle (lightup1)', after the MiniZinc docs",
    ),
]
