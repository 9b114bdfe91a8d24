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
  ``visibility=shared`` names the same prefixes over runs of unnumbered cells instead (see
  :class:`_Stretches`): about 5 % fewer columns, and a number's "a black cell somewhere in
  here" reaches every number looking through it (generated 15x15 boards: 0.95x the CPU time of
  ``rays``; the janko corpus: 1.05x, so ``rays`` stays the default);
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
VISIBILITY: tuple[str, ...] = ("rays", "shared")
DEFAULT_VISIBILITY = "rays"

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
    stretches = _Stretches(model, black) if options["visibility"] == "shared" else None
    for clue, n in puzzle.numbers.items():
        check_deadline()  # a 100x100 board takes seconds to state: stop with the solve's deadline
        seen = Linear(constant=1)  # the numbered cell itself
        for direction in Direction:
            ray = puzzle.grid.ray(clue, direction)[:n]
            prefixes = stretches.prefixes(ray) if stretches is not None else _prefixes(model, black, ray)
            for prefix in prefixes:
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


class _Stretches:
    """``visibility=shared``: one chain of "this stretch is white" binaries per end of each
    maximal run of unnumbered cells in a line, shared by every number that looks into the run
    from that end; a stretch is keyed by its two end cells, so the whole run is one binary for
    the numbers at both ends. A ray that passes a numbered cell sees on only if it saw the whole
    run before it: its prefixes there are ``w AND c_j`` (w: "everything so far is white", c_j: the
    next run's own chain), so a black cell somewhere in that number's view is known to every
    number looking through it, before the cell is known (as SAT's ``visibility=shared``).
    """

    def __init__(self, model: MipModel, black: Black):
        self.model = model
        self.black = black
        self.named: dict[tuple[Cell, Cell], Var] = {}  # (low end, high end) -> its binary
        self.linked: set[tuple[int, int]] = set()  # (stretch column, shorter stretch column) rows stated

    def prefixes(self, ray: Sequence[Cell]) -> list[Linear | int]:
        """s_k for k = 1..len(ray) ("the first k cells are white"), over the shared stretches."""
        out: list[Linear | int] = []
        before: Linear | int = 1  # every cell before the current run is white
        entry: Cell | None = None  # the current run's first cell on this ray
        chain: Linear | int = 1  # the current run's stretch so far
        s: Linear | int = 1
        for cell in ray:
            if cell not in self.black:  # a numbered cell: white; a run that follows starts afresh
                if entry is not None:
                    before, entry, chain = s, None, 1
                out.append(s)
                continue
            if entry is None:
                entry = cell
            chain = self._stretch(entry, cell, chain)
            s = chain if isinstance(before, int) else self._both(before, chain)
            out.append(s)
        return out

    def _stretch(self, entry: Cell, cell: Cell, shorter: Linear | int) -> Linear | int:
        """"entry..cell is white" = shorter AND NOT b_cell, named once per pair of end cells."""
        b = self.black[cell]
        if isinstance(shorter, int):  # a single cell
            return 1 - b
        key = (min(entry, cell), max(entry, cell))
        s = self.named.get(key)
        if s is None:
            s = self.named[key] = self.model.binary()
        link = (s.index, min(shorter.terms))
        if link not in self.linked:  # the rows of this definition (once per shorter stretch)
            self.linked.add(link)
            model = self.model
            model.add_le(s - shorter, 0)
            model.add_le(s + b, 1)
            model.add_ge(s - shorter + b, 0)
        return s

    def _both(self, x: Linear, y: Linear | int) -> Var:
        """A binary for x AND y."""
        s = self.model.binary()
        self.model.add_le(s - x, 0)
        self.model.add_le(s - y, 0)
        self.model.add_ge(s - x - y, -1)
        return s


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
            Option(
                "visibility",
                DEFAULT_VISIBILITY,
                VISIBILITY,
                "the prefix binaries of the numbers' rays: rays (one chain per ray), shared (one chain per end "
                "of each run of unnumbered cells, shared by every number looking into it; a ray past a number "
                "ANDs on the next run's chain)",
            ),
        ),
    ),
]
