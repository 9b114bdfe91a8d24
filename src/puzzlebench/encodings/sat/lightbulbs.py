"""LightBulbs (seed 003) as CNF: one variable ("lit", r, c) per cell.

A cell is lit iff its number equals the lit cells of its 3x3 block (itself included). The count
is reified with the chosen cardinality encoding (``card`` option): "lit -> count = n" weakens each
clause of ``count = n`` by "not lit", and "not lit -> count != n" splits on a free selector into
``count <= n-1`` or ``count >= n+1``. Enumerating every answer is the main use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pysat.formula import IDPool

from ...model import Family, LightBulbs
from ..base import EncodingSpec
from .common import CnfModel, card_option


def _lit_cells(puzzle: LightBulbs) -> CnfModel:
    cnf = CnfModel(pool=IDPool())
    cnf.decision = {cell: cnf.var("lit", *cell) for cell in puzzle.grid.cells()}
    # A board with no lit cell is not an answer.
    cnf.add(list(cnf.decision.values()))
    return cnf


def build_default(puzzle: LightBulbs, options: Mapping[str, Any]) -> CnfModel:
    cnf = _lit_cells(puzzle)
    lit = cnf.decision
    enc = options["card"]
    for cell in puzzle.grid.cells():
        n = puzzle.number(cell)
        block = [lit[c] for c in puzzle.grid.block3x3(cell)]
        here = lit[cell]
        # Lit iff the lit cells of the 3x3 block, this one included, number exactly n.
        cnf.count_if([here], block, n, "equals", enc)
        cnf.count_differs_if([-here], block, n, enc, ("block",) + cell)
    return cnf


def build_seed003(puzzle: LightBulbs, options: Mapping[str, Any]) -> CnfModel:
    """Seed 003's CLP(FD) model in CNF: over S = lit neighbours excluding the cell itself,
    the lockout condition S != n (always), the light condition lit -> S + 1 = n, and the sum
    condition (some cell is lit)."""
    cnf = _lit_cells(puzzle)
    lit = cnf.decision
    enc = options["card"]
    for cell in puzzle.grid.cells():
        n = puzzle.number(cell)
        around: list[int] = [lit[c] for c in puzzle.grid.neighbours8(cell)]
        # Lockout condition: the neighbours alone never number n.
        cnf.count_differs_if([], around, n, enc, ("lockout",) + cell)
        # Light condition: a lit cell's neighbours number n - 1.
        cnf.count_if([lit[cell]], around, n - 1, "equals", enc)
    return cnf


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTBULBS,
        paradigm="sat",
        name="default",
        build=build_default,
        description="lit iff the 3x3 block count equals the number, reified cardinality per cell",
        options=(card_option("seqcounter", "lit cells in a 3x3 block"),),
    ),
    EncodingSpec(
        family=Family.LIGHTBULBS,
        paradigm="sat",
        name="seed003",
        build=build_seed003,
        description="seed 003's CLP(FD) conditions in CNF: lockout (neighbours != n), light (lit -> neighbours = n-1), sum >= 1",
        origin="seed003",
        reference="seed 003: LightBulbs, Constraint Logic Programming (FEUP, SICStus CLP(FD))",
        options=(card_option("seqcounter", "lit neighbours of a cell"),),
    ),
]
