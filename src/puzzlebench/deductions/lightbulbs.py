"""LightBulbs' deductions: a cell is lit only if its number can equal the lit cells of its
3x3 block, which holds at most as many cells as the block has on the board (and at least one,
the cell itself, when lit)."""

from __future__ import annotations

from ..deduce import Deductions, register_deducer
from ..model import LightBulbs, Puzzle


def rules(puzzle: Puzzle) -> Deductions:
    assert isinstance(puzzle, LightBulbs)
    p = puzzle
    # A lit cell's block holds it and at most all its cells: a larger number leaves it unlit.
    settled = {cell: False for cell in p.grid.all_cells if p.number(cell) > len(p.grid.block3x3(cell))}
    return Deductions("rules", settled)


register_deducer(
    "lightbulbs", "rules", rules, "a number larger than its 3x3 block leaves its cell unlit", default=True
)
