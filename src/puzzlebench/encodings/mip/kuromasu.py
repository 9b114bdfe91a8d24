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
  ``lazy`` — up front only the one-cell cuts (with two clues, no white cell is walled in alone:
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
from .common import Linear, MipModel, Var, total

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
        _connect_by_flow(model, puzzle, black)
    elif connectivity == "lazy":
        _no_isolated_white(model, puzzle, black)
        model.lazy = connectivity_rule(puzzle.rows, puzzle.cols, black)
    return model


def _white(black: Black, cell: Cell) -> Linear | int:
    """1 - b_c, or 1 for a clue cell (always white)."""
    return 1 - black[cell] if cell in black else 1


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


# -- connectivity -----------------------------------------------------------------------------

def _no_isolated_white(model: MipModel, puzzle: Kuromasu, black: Black) -> None:
    """The one-cell cuts up front: with two clues on the board, no white cell is walled in alone."""
    if len(puzzle.clue_cells) < 2:
        return
    for cell in puzzle.grid.all_cells:
        around = puzzle.grid.neighbours4(cell)
        if any(nb not in black for nb in around):
            continue  # a clue neighbour is always white
        # b_c + sum over the neighbours of (1 - b) >= 1
        model.add_ge(total(1 - black[nb] for nb in around) + (black[cell] if cell in black else 0), 1)


def _connect_by_flow(model: MipModel, puzzle: Kuromasu, black: Black) -> None:
    """Single-commodity flow: the root emits one unit per white cell, each white cell keeps one."""
    grid, n = puzzle.grid, puzzle.grid.size
    net_inflow = {cell: Linear() for cell in grid.all_cells}  # inflow - outflow
    for a, b in grid.edges():
        for u, v in ((a, b), (b, a)):
            f = model.continuous(0, n - 1)
            # Flow runs over white-white arcs only.
            for end in (u, v):
                if end in black:
                    model.add_le(f + (n - 1) * black[end], n - 1)
            net_inflow[v].iadd(f)
            net_inflow[u].iadd(f, -1.0)
    whites = n - total(black.values())
    fixed = root_cell(puzzle)
    sources: dict[Cell, Linear | int] = {}
    if fixed is not None:  # the fixed root supplies every white cell, itself included
        sources[fixed] = whites
    else:  # a clueless board: at most one white root r_c, whose source is at most N r_c (the
        # sources supply every white cell, so there is a root unless all cells are black)
        roots = model.binaries(grid.all_cells)
        model.add_le(total(roots.values()), 1)
        for cell, r in roots.items():
            model.add_le(r + black[cell], 1)
            source = model.continuous(0, n)
            model.add_le(source - n * r, 0)
            sources[cell] = source
        model.add_eq(total(sources.values()) - whites, 0)
    # Conservation: inflow + source - outflow = 1 for a white cell, 0 for a black one.
    for cell in grid.all_cells:
        model.add_eq(net_inflow[cell] + sources.get(cell, 0) - _white(black, cell), 0)


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
