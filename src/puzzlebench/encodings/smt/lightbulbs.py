"""LightBulbs (seed 003) as z3 assertions: one Boolean ("lit", r, c) per cell.

The rule: a cell is lit if and only if its number equals the number of lit cells in its 3x3
neighbourhood, itself included (clipped at the border); a board with no lit cell is not an
answer. Every cell is a decision, so enumeration (``count=0``) lists the answers themselves.

``default`` states the rule as one equivalence per cell, ``lit == (count of the 3x3 block ==
n)``, with the count written the ``card`` way (``PbEq`` or ``Sum(If(b, 1, 0)) == n``).

``seed003`` is seed 003's CLP(FD) model rule for rule, with S = the lit neighbours of a cell
(itself excluded, neighbours outside the board counting zero), each sum written as CLP(FD)
writes it, an integer ``Sum(If(b, 1, 0))``: the *sum condition* (the lit cells sum to more than
zero), the *lockout condition* (S differs from n, for every cell) and the *light condition*
(lit -> S + 1 = n).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import z3

from ...model import Cell, Family, LightBulbs
from ..base import EncodingSpec
from .common import SmtModel, card_option, ite_sum


def _lit_cells(puzzle: LightBulbs) -> tuple[SmtModel, dict[Cell, z3.BoolRef]]:
    """A model with one decision Boolean ("lit", r, c) per cell."""
    model = SmtModel()
    lit = {cell: model.bool("lit", *cell) for cell in puzzle.grid.all_cells}
    model.decision = lit
    return model, lit


def build_default(puzzle: LightBulbs, options: Mapping[str, Any]) -> SmtModel:
    model, lit = _lit_cells(puzzle)
    card = options["card"]
    # A cell is lit iff its number equals the lit cells of its 3x3 block, itself included.
    for cell, here in lit.items():
        block = [lit[c] for c in puzzle.grid.block3x3(cell)]
        model.add(model.iff(here, model.count(block, "==", puzzle.number(cell), card)))
    # A board with no lit cell is not an answer.
    model.add(model.any(list(lit.values())))
    return model


def build_seed003(puzzle: LightBulbs, options: Mapping[str, Any]) -> SmtModel:
    model, lit = _lit_cells(puzzle)
    # Sum condition: a board with no lit bulb is invalid (sum(Results) #> 0).
    model.add(ite_sum(list(lit.values())) > 0)
    for cell, here in lit.items():
        n = puzzle.number(cell)
        around = ite_sum([lit[c] for c in puzzle.grid.neighbours8(cell)])
        # Lockout condition: the neighbours alone (itself excluded) never number n.
        model.add(around != n)
        # Light condition: a lit bulb has exactly n - 1 lit neighbours (n with itself).
        model.add(z3.Implies(here, around + 1 == n))
    return model


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTBULBS,
        paradigm="smt",
        name="default",
        build=build_default,
        description="one equivalence per cell: lit == (lit cells of the 3x3 block == n), at least one lit",
        options=(card_option("lit cells in a 3x3 block"),),
    ),
    EncodingSpec(
        family=Family.LIGHTBULBS,
        paradigm="smt",
        name="seed003",
        build=build_seed003,
        description="seed 003's CLP(FD) model: sum (some cell lit), lockout (neighbours != n) and light "
        "(lit -> neighbours + 1 = n) conditions as integer sums",
        origin="seed003",
        reference="seed 003: Saavedra and Cardoso, 'LightBulbs - Constraint Logic Programming', FEUP PLOG (2020)",
    ),
]
