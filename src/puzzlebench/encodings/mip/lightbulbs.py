"""LightBulbs (seed 003) as a MIP: one binary x_c ("lit") per cell.

Let S_c be the lit cells around c (its 3x3 block without c, clipped: d_c cells) and n its
number. The rule "c is lit iff n = S_c + x_c" has three cases, exactly one of which holds:

* lit:            x_c = 1 and S_c = n - 1;
* unlit, below:   x_c = 0 and S_c <= n - 1;
* unlit, above:   x_c = 0 and S_c >= n + 1 (a binary a_c, only when n + 1 <= d_c).

With the case indicators x_c and a_c (below = 1 - x_c - a_c), the disjunction is three rows,
big-M style with the tightest M the bounds 0 <= S_c <= d_c allow:

* x_c + a_c <= 1                                 (at most one case indicator);
* S_c >= (n - 1) x_c + (n + 1) a_c              (lower bounds: n-1 if lit, n+1 if above);
* S_c <= (n - 1) + (d_c - n + 1) a_c            (upper bound n-1 unless above, then d_c).

Unlit cells thus never have S_c = n, lit ones have S_c = n - 1 exactly, and a_c is a function
of the x (it is 1 exactly when c is unlit with S_c > n), so blocking the x never meets
duplicate answers. When n + 1 > d_c "above" is impossible: a_c is left out (and the last row
is S_c <= n - 1). An answer lights at least one cell: sum x >= 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import Family, LightBulbs
from ..base import EncodingSpec
from .common import MipModel, total


def build_default(puzzle: LightBulbs, options: Mapping[str, Any]) -> MipModel:
    model = MipModel()
    grid = puzzle.grid
    lit = model.binaries(grid.all_cells)
    model.decision = {cell: var.index for cell, var in lit.items()}

    # A cell is lit iff its number equals the lit cells of its 3x3 block, itself included.
    for cell, x in lit.items():
        n = puzzle.number(cell)
        around = grid.neighbours8(cell)
        s = total(lit[nb] for nb in around)
        if n + 1 <= len(around):  # "unlit, above" is possible: its indicator a
            above = model.binary()
            model.add_le(x + above, 1)
            model.add_ge(s - (n - 1) * x - (n + 1) * above, 0)
            model.add_le(s - (len(around) - n + 1) * above, n - 1)
        else:
            model.add_ge(s - (n - 1) * x, 0)
            model.add_le(s, n - 1)

    # An answer lights at least one cell.
    model.add_ge(total(lit.values()), 1)
    return model


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTBULBS,
        paradigm="mip",
        name="default",
        build=build_default,
        description="three big-M rows per cell (lit / unlit below / unlit above, one indicator binary), "
        "at least one lit",
    ),
]
