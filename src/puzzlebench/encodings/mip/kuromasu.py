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
  does (a uniqueness proof with continuous s_k takes many times as long);
  ``visibility=shared`` names the same prefixes over runs of unnumbered cells instead (see
  :class:`_Stretches`): about 5 % fewer columns, and a number's "a black cell somewhere in
  here" reaches every number looking through it (as fast as ``rays`` on the generated boards,
  a little slower on the janko boards, so ``rays`` stays the default);
* the same rule as a whole view (``views`` option): a number's view is its four ray lengths
  (up, down, left, right), adding up to n - 1. ``sum`` states only the row above, whose LP
  relaxation mixes fractional lengths freely, so the LP cuts off almost nothing; ``hull`` adds
  the convex hull of the number's feasible views, as a unit flow over partial sums (see
  :func:`_view_hull`); ``tuples`` adds one binary per feasible view, exactly one chosen, each
  ray's "exactly k cells" (s_k - s_{k+1}) equal to the views showing k there. Both tie the
  view to the prefixes s_k, so the cells follow. The views are those left by :class:`_Views`
  (every length checked against the board and the other rays). ``tuples`` is the default: its
  LP relaxation is the views' convex hull, which the one ``sum`` row leaves far weaker
  (docs/decisions);
* the cells the deduction stage settles (:mod:`puzzlebench.deductions.kuromasu`) are fixed by
  rows, and a ray stops after the longest of its number's feasible views there;
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

from collections.abc import Mapping, Sequence
from typing import Any

from ... import deduce as deduction
from ...model import Cell, Direction, Family, Kuromasu
from ..base import EncodingSpec, Option, check_deadline
from ..regions import connectivity_rule, root_cell
from .common import Linear, MipModel, Var
from .connectivity import connect_by_flow, no_isolated_white
from .kuromasu_probe import Views as _Views

CONNECTIVITY: tuple[str, ...] = ("lazy", "flow", "none")
VIEWS: tuple[str, ...] = ("sum", "hull", "tuples")
DEFAULT_VIEWS = "tuples"
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

    # Each number's feasible views: the deduction stage's, else revised here (views option).
    views = deduction.current().facts.get("views")
    if views is None and options["views"] != "sum":
        views = _Views(puzzle, connected=options["connectivity"] != "none")
        if views.contradiction is not None:
            model.contradiction = views.contradiction  # no answer: the backend says so without HiGHS
            return model
    # The cells the deduction stage settled (the harness fixes them by rows) end the rays early.
    known = {cell: value for cell, value in deduction.current().settled.items() if cell in black}

    # A number equals the white cells it sees in its row and column, itself included.
    stretches = _Stretches(model, black) if options["visibility"] == "shared" else None
    for clue, n in puzzle.numbers.items():
        check_deadline()  # a 100x100 board takes seconds to state: stop with the solve's deadline
        seen = Linear(constant=1)  # the numbered cell itself
        rays: list[list[Linear | int]] = []
        for i, direction in enumerate(Direction):
            ray = puzzle.grid.ray(clue, direction)[:n]
            trimmed = views is not None and known and len(ray) > max(views.lengths[clue][i])
            if (
                trimmed and views is not None
            ):  # the longest view ends at its next cell: the ray past it is never seen
                ray = ray[: max(views.lengths[clue][i]) + 1]
            if stretches is not None:
                prefixes = stretches.prefixes(ray)
            else:
                prefixes = _prefixes(model, black, ray, known)
            if trimmed:
                model.add_eq(prefixes[-1], 0, why=f"the {n} at {clue} sees too far")
            for prefix in prefixes:
                seen.iadd(prefix)
            rays.append(prefixes)
        model.add_eq(seen, n, why=f"the {n} at {clue} can never see {n} cells")
        if views is not None and options["views"] != "sum":
            _view_hull(model, views, clue, rays, options["views"] == "tuples")

    # All white cells form one orthogonally connected region.
    connectivity = options["connectivity"]
    if connectivity == "flow":
        connect_by_flow(model, puzzle.grid, black, root_cell(puzzle))
    elif connectivity == "lazy":
        no_isolated_white(model, puzzle.grid, black)
        model.lazy = connectivity_rule(puzzle.rows, puzzle.cols, black)
    return model


# -- visibility -------------------------------------------------------------------------------


def _prefixes(
    model: MipModel, black: Black, ray: Sequence[Cell], known: Mapping[Cell, bool] | None = None
) -> list[Linear | int]:
    """s_k for k = 1..len(ray): "the first k cells of the ray are white", as expressions
    (``known``: cells settled before solving, True = black)."""
    out: list[Linear | int] = []
    prev: Linear | int = 1  # the empty prefix is white
    known = known or {}
    for cell in ray:
        if cell not in black or known.get(cell) is False:  # a clue or a white cell: the prefix goes on
            s = prev
        elif known.get(cell) is True:  # a black cell: nothing is seen past it
            s = 0
        elif isinstance(prev, int):  # every cell so far is white (s = 1 - b), or one is black (s = 0)
            s = 1 - black[cell] if prev else 0
        else:  # s = prev AND NOT b
            s = model.binary()
            model.add_le(s - prev, 0)
            model.add_le(s + black[cell], 1)
            model.add_ge(s - prev + black[cell], 0)
        out.append(s)
        prev = s
    return out


def _view_hull(
    model: MipModel, views: _Views, clue: Cell, rays: list[list[Linear | int]], tuples: bool
) -> None:
    """The convex hull of one number's kept views, tied to its rays' prefixes.

    z_{i,k} = s_k - s_{k+1} ("ray i shows exactly k cells", s_0 = 1) must be the share of the
    views with length k on ray i. ``hull``: the views as paths through the partial sums
    (up, then down, left, right): a unit flow on continuous arcs (i, s) -> (i + 1, s + k),
    whose paths are exactly the views, so its projection on the z is their convex hull.
    ``tuples``: one binary per view, exactly one of them chosen (the same hull, and a branch
    on a view settles all four rays).
    """
    n = views.puzzle.numbers[clue]
    lengths = views.lengths[clue]
    shown: list[dict[int, Linear]] = []  # per ray: length k -> the views (arcs) showing k cells
    for prefixes in rays:
        shown.append({k: Linear() for k in range(len(prefixes) + 1)})
    if tuples:
        for view in views.views(clue):
            t = model.binary()
            for i, k in enumerate(view):
                shown[i][k].iadd(t)
    else:
        # Partial sums reachable from the start (forward) and able to end at n - 1 (backward).
        forward = [{0}]
        for ks in lengths:
            forward.append({s + k for s in forward[-1] for k in ks if s + k <= n - 1})
        backward: list[set[int]] = [set() for _ in range(4)] + [{n - 1}]
        for i in range(3, -1, -1):
            backward[i] = {s for s in forward[i] if any(s + k in backward[i + 1] for k in lengths[i])}
        balance: dict[tuple[int, int], Linear] = {}  # (layer, partial sum) -> inflow - outflow
        for i, ks in enumerate(lengths):
            for s in backward[i]:
                for k in ks:
                    if s + k in backward[i + 1]:
                        arc = model.continuous(0, 1)
                        shown[i][k].iadd(arc)
                        balance.setdefault((i, s), Linear()).iadd(arc, -1.0)
                        balance.setdefault((i + 1, s + k), Linear()).iadd(arc)
        # Flow conservation at the inner partial sums.
        for (layer, _), net in balance.items():
            if 0 < layer < 4:
                model.add_eq(net, 0)
    # Each ray shows k cells exactly as often as the views (or arcs) with length k are chosen.
    for i, prefixes in enumerate(rays):
        chain: list[Linear | int] = [1, *prefixes, 0]
        for k in range(len(prefixes) + 1):
            model.add_eq(
                shown[i][k] - chain[k] + chain[k + 1],
                0,
                why=f"the {n} at {clue} has no view showing {k} cells on ray {i}",
            )


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
        """ "entry..cell is white" = shorter AND NOT b_cell, named once per pair of end cells."""
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
        description="black binaries, no-adjacent rows, visibility by ray prefix variables tied to one binary per "
        "feasible view of each number; connectivity by lazy cuts or a "
        "single-commodity flow",
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
            Option(
                "views",
                DEFAULT_VIEWS,
                VIEWS,
                "how a number's four ray lengths add up: sum (one row, 1 + the prefixes = n), hull (plus a unit "
                "flow over the partial sums whose paths are the number's views: their convex hull), tuples (plus "
                "one binary per view, exactly one chosen)",
            ),
        ),
    ),
]
