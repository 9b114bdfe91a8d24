"""LightBulbs (seed 003) in CP-SAT: one Boolean ("lit", r, c) per cell.

With S = lit cells around c (3x3 block without c), the rule "c is lit iff n(c) = S + lit(c)"
is, case by case: lit -> S = n - 1; unlit -> S != n. Both encodings are ``functional`` (the
Booleans are the only variables), so the backend enumerates all answers in one search.

``default`` folds the two cases into one constraint per cell: S + 10 * lit(c) lies in
{0..8} \\ {n} (unlit) union {9 + n} (lit), a linear expression with a holed domain.

``seed003`` is seed 003's CLP(FD) model (SICStus ``clpfd``) as it states
it: the *sum condition* (at least one lit cell), the *lockout condition* (S differs from n, for
every cell) and the *light condition* (lit -> S + 1 = n), with neighbours outside the board taken
as zero. Its labeling options become CP-SAT decision strategies (``search`` option).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ortools.sat.python import cp_model

from ...model import Cell, Family, LightBulbs
from ..base import EncodingSpec
from .common import SEARCH_OPTION, CpModelArtifact, apply_search, new_bools

#: Coefficient separating "lit" from the neighbour count (any value above 8 + 1).
_LIT_WEIGHT = 10


def _start(puzzle: LightBulbs) -> tuple[CpModelArtifact, dict[Cell, cp_model.IntVar], dict[Cell, Any]]:
    """The model, its lit Booleans, and each cell's neighbour sum S (3x3 block without the cell)."""
    art = CpModelArtifact(functional=True)
    lit = new_bools(art.model, "lit", puzzle.grid.all_cells)
    art.decision = lit
    around = {
        cell: cp_model.LinearExpr.sum([lit[nb] for nb in puzzle.grid.neighbours8(cell)])
        for cell in puzzle.grid.all_cells
    }
    return art, lit, around


def build_default(puzzle: LightBulbs, options: Mapping[str, Any]) -> CpModelArtifact:
    art, lit, around = _start(puzzle)
    model = art.model

    # A cell is lit iff its number equals the lit cells of its 3x3 block, itself included.
    for cell, s in around.items():
        n = puzzle.number(cell)
        unlit_sums = [[0, min(n - 1, 8)]] + ([[n + 1, 8]] if n + 1 <= 8 else [])
        allowed = cp_model.Domain.from_intervals(unlit_sums + [[_LIT_WEIGHT + n - 1, _LIT_WEIGHT + n - 1]])
        model.add_linear_expression_in_domain(s + _LIT_WEIGHT * lit[cell], allowed)

    # An answer lights at least one cell.
    model.add_bool_or(list(lit.values()))
    apply_search(art, options["search"], list(lit.values()))
    return art


def build_seed003(puzzle: LightBulbs, options: Mapping[str, Any]) -> CpModelArtifact:
    art, lit, around = _start(puzzle)
    model = art.model

    # Sum condition: a board with no lit bulb is invalid (sum(Results) #> 0).
    model.add(cp_model.LinearExpr.sum(list(lit.values())) > 0)

    for cell, s in around.items():
        n = puzzle.number(cell)
        # Lockout condition: the neighbours alone (itself excluded) never equal the number.
        model.add(s != n)
        # Light condition: a lit bulb has exactly n - 1 lit neighbours (n with itself).
        model.add(s + 1 == n).only_enforce_if(lit[cell])

    apply_search(art, options["search"], list(lit.values()))
    return art


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTBULBS,
        paradigm="cp",
        name="default",
        build=build_default,
        description="one holed-domain linear constraint per cell (neighbour sum + 10 * lit), at least one lit",
        options=(SEARCH_OPTION,),
    ),
    EncodingSpec(
        family=Family.LIGHTBULBS,
        paradigm="cp",
        name="seed003",
        build=build_seed003,
        description="seed 003's CLP(FD) model: sum, lockout and light conditions; labeling as CP-SAT strategies",
        origin="seed003",
        reference="Saavedra and Cardoso, 'LightBulbs - Constraint Logic Programming', FEUP PLOG (2020)",
        options=(SEARCH_OPTION,),
    ),
]
