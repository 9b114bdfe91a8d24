"""Kuromasu (Kurodoko) as a MIP: one binary b_c ("black") per cell without a clue.

Rules and the rows that enforce them:

* numbered and "?" cells are white: they get no column;
* no two black cells share a side: b_u + b_v <= 1 per edge;
* a number n counts the white cells it sees, itself included: along each of its four rays
  (cut after n cells: seeing n cells one way already exceeds the number), prefix variables
  s_k = "the first k cells this way are white" linearise the conjunction s_k = s_{k-1} AND NOT
  b_k with the three rows s_k <= s_{k-1}, s_k <= 1 - b_k, s_k >= s_{k-1} - b_k; then
  1 + sum of all s = n. A clue on the ray is white, so it passes s_{k-1} on unchanged, and
  while every cell so far is a clue s_k is the expression 1 - b_k itself. The three rows pin
  s_k to 0 or 1 whenever the b are integral, yet the s_k are declared binary: HiGHS then
  probes and branches on "the first k cells are white", which settles far more than a cell
  does (kuromasu-015x015-s1's uniqueness proof: 10 s with continuous s_k, 0.35 s binary);
* all white cells form one region (``connectivity`` option):
  ``lazy`` — up front only the one-cell cuts (no white cell is walled in alone:
  b_c + sum of its neighbours' (1 - b) >= 1); a candidate whose white cells are split is
  rejected (by the harness, or the backend's own enumeration), which adds the cuts of
  :func:`~puzzlebench.encodings.regions.connectivity_rule` (per stray region C with black border
  B: a cell of B white) as rows and solves again; ``flow`` —
  single-commodity flow (after Gavish and Graves, 1978): the root, the clue
  nearest the centre (or one chosen white cell on a clueless board), emits one unit per white
  cell; every white cell keeps one; flow runs on arcs between white cells only, each arc
  carrying at most |cells| - 1 units (f_uv <= (N - 1)(1 - b_u) and likewise for v); the flows
  are continuous; ``none`` drops the rule (a relaxation: it may accept split answers, never
  loses a true one).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...model import Cell, Direction, Family, Kuromasu
from ..base import EncodingSpec, Option, check_deadline
from ..regions import connectivity_rule, root_cell
from .common import Linear, MipModel, Var
from .connectivity import connect_by_flow, no_isolated_white

CONNECTIVITY: tuple[str, ...] = ("lazy", "flow", "none")
DEFAULT_CONNECTIVITY = "lazy"

Black = dict[Cell, Var]


def build_default(puzzle: Kuromasu, options: Mapping[str, Any]) -> MipModel:
    model = MipModel()
    clues = puzzle.clue_cells
    black = model.binaries(c for c in puzzle.grid.all_cells if c not in clues)
    model.decision = {cell: var.index for cell, var in black.items()}

    # No two black cells share a side.
    for a, b in puzzle.grid.edges():
        if a in black and b in black:
            model.add_le(black[a] + black[b], 1)

    # A number equals the white cells it sees in its row and column, itself included.
    for clue, n in puzzle.numbers.items():
        check_deadline()  # a 100x100 board takes seconds to state: stop with the solve's deadline
        seen = Linear(constant=1)  # the numbered cell itself
        for direction in Direction:
            for prefix in _prefixes(model, black, puzzle.grid.ray(clue, direction)[:n]):
                seen.iadd(prefix)
        model.add_eq(seen, n, why=f"the {n} at {clue} can never see {n} cells")

    # All white cells form one orthogonally connected region.
    connectivity = options["connectivity"]
    if connectivity == "flow":
        connect_by_flow(model, puzzle.grid, black, root_cell(puzzle))
    elif connectivity == "lazy":
        no_isolated_white(model, puzzle.grid, black)
        model.lazy = connectivity_rule(puzzle.rows, puzzle.cols, black)
    return model


# -- visibility -------------------------------------------------------------------------------

def _prefixes(model: MipModel, black: Black, ray: Sequence[Cell]) -> list[Linear | int]:
    """s_k for k = 1..len(ray): "the first k cells of the ray are white", as expressions."""
    out: list[Linear | int] = []
    prev: Linear | int = 1  # the empty prefix is white
    for cell in ray:
        if cell not in black:  # a clue: white, the prefix goes on unchanged
            s = prev
        elif isinstance(prev, int):  # every cell so far is a clue: s = 1 - b
            s = 1 - black[cell]
        else:  # s = prev AND NOT b
            s = model.binary()
            model.add_le(s - prev, 0)
            model.add_le(s + black[cell], 1)
            model.add_ge(s - prev + black[cell], 0)
        out.append(s)
        prev = s
    return out


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.KUROMASU,
        paradigm="mip",
        name="default",
        build=build_default,
        description="black binaries, no-adjacent rows, visibility by ray prefix variables; connectivity by "
        "lazy cuts or a single-commodity flow",
        options=(
            Option(
                "connectivity",
                DEFAULT_CONNECTIVITY,
                CONNECTIVITY,
                "how 'all white cells connected' is enforced: lazy (cuts on split candidates, added as rows), "
                "flow (single-commodity flow), none (rule dropped)",
                relaxing=("none",),
            ),
        ),
    ),
]
