""" "All white cells are connected" in CNF: reachability levels, lazy cuts and a CaDiCaL propagator.

Shared by the families whose white (unshaded) cells form one region and never touch two black
cells side by side (Kuromasu, Hitori).

The lazy cuts and the propagator rest on one cut (``regions.connectivity_cuts``).
Let C be a connected set of white cells whose side-neighbours outside C (its boundary) are all
black. Then C is a whole white region, so in any answer where C is white
and its boundary black, C holds every white cell. When another white cell exists, or when there
is any cell beyond C and its boundary (that cell would be black and touch a black boundary cell
or another black cell: two adjacent blacks), this is impossible. Hence the clause
"some cell of C turns black, or some boundary cell turns white" is sound for every C that is not
the whole candidate region of a valid answer. The propagator applies the same reasoning to
partial assignments, in the spirit of the native connectivity constraint of cspuz_core: cells
that cannot reach a known white cell must be black, and cells whose removal would separate known
white cells must be white (Fazekas et al., "IPASIR-UP: User Propagators for CDCL", SAT 2023).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from pysat.engines import Propagator

from ...model import Cell, Puzzle
from ..base import check_deadline
from ..regions import BLACK, UNKNOWN, WHITE, connectivity_reasoning
from .common import Clause, CnfModel


@dataclass(frozen=True)
class BoardGraph:
    """Cells, their orthogonal neighbours, and per cell that may leave the connected region the
    literal saying it does (Kuromasu: the black variable of each non-clue cell; Nurikabe, whose
    wall is the region: the negated wall variable). Cells without a literal are always in it."""

    cells: tuple[Cell, ...]
    neighbours: dict[Cell, tuple[Cell, ...]]
    black: dict[Cell, int]
    root: Cell | None  # a cell that is always white, if any

    @classmethod
    def of(cls, puzzle: Puzzle, black: dict[Cell, int], root: Cell | None = None) -> BoardGraph:
        """The board's graph; the root is ``root`` (a cell white in every answer) or else the
        first cell without a variable (a Kuromasu clue), None when every cell has one."""
        grid = puzzle.grid
        cells = grid.all_cells
        if root is None:
            root = next((c for c in cells if c not in black), None)
        return cls(cells, {c: tuple(grid.neighbours4(c)) for c in cells}, black, root)

    @classmethod
    def within(
        cls, puzzle: Puzzle, cells: Iterable[Cell], black: dict[Cell, int], root: Cell | None
    ) -> BoardGraph:
        """The graph on ``cells`` only (the others can never join the region)."""
        cells = tuple(sorted(cells))
        keep = set(cells)
        grid = puzzle.grid
        return cls(
            cells, {c: tuple(nb for nb in grid.neighbours4(c) if nb in keep) for c in cells}, black, root
        )

    def distances(self, source: Cell) -> dict[Cell, int]:
        """Grid (all cells) BFS distance from ``source``."""
        dist = {source: 0}
        queue = deque([source])
        while queue:
            c = queue.popleft()
            for nb in self.neighbours[c]:
                if nb not in dist:
                    dist[nb] = dist[c] + 1
                    queue.append(nb)
        return dist

    def components(self, is_white) -> list[list[Cell]]:
        """White regions (lists of cells) under the predicate ``is_white``."""
        seen: set[Cell] = set()
        out = []
        for start in self.cells:
            if start in seen or not is_white(start):
                continue
            seen.add(start)
            comp, queue = [start], [start]
            while queue:
                c = queue.pop()
                for nb in self.neighbours[c]:
                    if nb not in seen and is_white(nb):
                        seen.add(nb)
                        comp.append(nb)
                        queue.append(nb)
            out.append(comp)
        return out

    def cut(self, region: Iterable[Cell]) -> Clause:
        """ "A cell of the region turns black or a cell of its boundary turns white"."""
        region = set(region)
        boundary = {nb for c in region for nb in self.neighbours[c] if nb not in region}
        return [self.black[c] for c in region if c in self.black] + [
            -self.black[b] for b in boundary if b in self.black
        ]


class TimedPropagator(Propagator):
    """A propagator that gives up at the run's deadline.

    CaDiCaL does not always honour an interrupt while a propagator is connected (its loop of
    external propagation and model checks can go on without looking at the terminate flag), so
    the propagator stops the search itself: past ``deadline`` (a ``perf_counter`` time, set by
    the backend) it adds two contradicting unit clauses, which ends the solve at once, and
    sets ``gave_up`` so that the backend reports the call's outcome as unknown, not as "no
    answer". Subclasses call :meth:`expired` at the top of ``propagate`` and ``check_model``.
    """

    deadline: float | None = None
    gave_up = False

    def expired(self, var: int) -> bool:
        """True (and the search being ended over variable ``var``) once past the deadline."""
        if self.gave_up:
            return True
        if self.deadline is None or time.perf_counter() < self.deadline:
            return False
        self.gave_up = True
        self.pending[:] = [[var], [-var]]
        return True


class CellPropagator(TimedPropagator):
    """A propagator over one literal per cell (``var``: cell index -> the literal "the cell is
    black", or out of the region; 0 for a cell that never is): the cells' states along CaDiCaL's
    trail, undone on backtracking. Cells without a literal are white and fixed."""

    def __init__(self, var: list[int]):
        super().__init__()
        self.var = var
        self.cell_of = {abs(v): i for i, v in enumerate(var) if v}
        self.first_var = min(self.cell_of, default=1)
        self.state = [UNKNOWN if v else WHITE for v in var]
        self.fixed = [not v for v in var]
        self.trail: list[int] = []
        self.limits: list[int] = []
        self.dirty = True
        self.reasons: dict[int, list[int]] = {}
        self.pending: list[Clause] = []

    # -- trail ----------------------------------------------------------------------------------
    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        i = self.cell_of[abs(lit)]
        self.state[i] = BLACK if lit == self.var[i] else WHITE
        if fixed:
            self.fixed[i] = True
        else:
            self.trail.append(i)
        self.dirty = True

    def on_new_level(self) -> None:
        self.limits.append(len(self.trail))

    def provide_reason(self, lit: int) -> list[int]:
        return self.reasons[lit]

    def on_backtrack(self, to: int) -> None:
        if to >= len(self.limits):
            return
        keep = self.limits[to]
        for i in self.trail[keep:]:
            if not self.fixed[i]:
                self.state[i] = UNKNOWN
        del self.trail[keep:]
        del self.limits[to:]
        self.dirty = True


class ConnectivityPropagator(CellPropagator):
    """IPASIR-UP engine for "white cells are connected" over the black-cell variables.

    On each propagation round it explores the cells not known black from a known white cell
    (the root): an undecided cell it cannot reach must be black, a known white cell it cannot
    reach is a conflict, and an undecided articulation point separating the root from a known
    white cell must be white. Each inference carries a reason clause naming the black boundary
    that forces it. Complete assignments are checked again and rejected with a cut.
    """

    def __init__(self, graph: BoardGraph):
        # the literal "out of the region" per cell; 0: always in
        super().__init__([graph.black.get(c, 0) for c in graph.cells])
        self.graph = graph
        cells = graph.cells
        self.index = {c: i for i, c in enumerate(cells)}
        self.adj = [[self.index[nb] for nb in graph.neighbours[c]] for c in cells]
        self.root = None if graph.root is None else self.index[graph.root]
        self.calls = self.inferred = self.articulations = self.rejected = 0

    def stats(self) -> dict[str, int]:
        return {
            "propagator_calls": self.calls,
            "propagator_inferred": self.inferred,
            "propagator_articulations": self.articulations,
            "propagator_rejected_models": self.rejected,
        }

    # -- reasoning ------------------------------------------------------------------------------
    def _root(self) -> int | None:
        if self.root is not None:
            return self.root
        return next((i for i, s in enumerate(self.state) if s == WHITE), None)

    def _why_white(self, i: int) -> list[int]:
        """Literals false now that say "cell i is white" is undone (empty for clue cells)."""
        return [self.var[i]] if self.var[i] else []

    def propagate(self) -> list[int]:
        if self.expired(self.first_var) or not self.dirty or self.pending:
            return []
        self.dirty = False
        self.calls += 1
        root = self._root()
        if root is None:
            return []
        state, var = self.state, self.var
        found = connectivity_reasoning(self.adj, state, root)
        out: list[int] = []
        if found.unreached:
            base = [-var[b] for b in found.fence] + self._why_white(root)
            for i in found.unreached:
                if state[i] == WHITE:  # a white cell cut off from the root: conflict
                    self.pending.append(base + self._why_white(i))
                    return []
                # an undecided cell that cannot join the white region: black
                lit = var[i]
                self.reasons[lit] = [lit] + base
                out.append(lit)
        # an undecided articulation point guarding a white cell: white
        for cut in found.articulations:
            lit = -var[cut.cell]
            self.reasons[lit] = (
                [lit] + [-var[b] for b in cut.fence] + self._why_white(cut.white) + self._why_white(root)
            )
            out.append(lit)
        self.articulations += len(found.articulations)
        self.inferred += len(out)
        return out

    def check_model(self, model: list[int]) -> bool:
        if self.expired(self.first_var):
            return False
        # CaDiCaL lists the observed variables only, not every variable in order
        value = set(model)
        black = {c for c, v in self.graph.black.items() if v in value}
        regions = self.graph.components(lambda c: c not in black)
        if len(regions) <= 1:
            return True
        self.rejected += 1
        self.pending.extend(self.graph.cut(r) for r in regions)
        return False

    def has_clause(self) -> bool:
        return bool(self.pending)

    def add_clause(self) -> Clause:
        return self.pending.pop() if self.pending else []


def reach_levels(cnf: CnfModel, graph: BoardGraph) -> None:
    """Unary ranks: ("reach", r, c, k) = c is white and k steps from the root along white cells.

    A white cell other than the root has a white neighbour of smaller rank; every white cell has
    some rank < number of cells. The root is ``graph.root`` (a cell always in the region); without
    one, one white cell chosen by ("root", r, c) variables plays it. "White" and "black" read as
    "in the region" and "out of it" (``graph.black`` holds literals).
    """
    cells = graph.cells
    top = len(cells) - 1  # a shortest path visits each cell at most once
    black = graph.black
    white = lambda c: None if c not in black else -black[c]  # None: always white
    if graph.root is not None:
        dist = graph.distances(graph.root)
        start: dict[Cell, int] = {}  # level 0 is the root alone, known white
    else:
        dist = {c: 0 for c in cells}
        start = {c: cnf.var("root", *c) for c in cells}
        # Exactly one root when some cell is white, and the root is white.
        roots = list(start.values())
        cnf.atmost(roots, 1, "seqcounter")
        for c in cells:
            cnf.add([black[c]] + roots)
            cnf.add([-start[c], -black[c]])

    def reach(c: Cell, k: int) -> int | bool:
        """The level variable, True for the root, False when c is too far for k steps."""
        if c == graph.root:
            return True
        if k < dist.get(c, top + 1):  # too far, or cut off from the root (never reached)
            return False
        if k == 0:
            return start[c]
        return cnf.var("reach", *c, k)

    for c in cells:
        if c == graph.root:
            continue
        check_deadline()  # O(cells^2) clauses in all: a large board may outlast the time limit
        w = white(c)
        for k in range(max(1, dist.get(c, top + 1)), top + 1):
            lvl = reach(c, k)
            # Reached within k steps: white, and itself or a neighbour reached within k-1 steps.
            if w is not None:
                cnf.add([-lvl, w])
            support = [reach(c, k - 1)] + [reach(nb, k - 1) for nb in graph.neighbours[c]]
            if not any(x is True for x in support):
                cnf.add([-lvl] + [x for x in support if x is not False])
        # Every white cell is reached within the last level.
        last = reach(c, top)
        if last is not True:
            cnf.add(([-w] if w is not None else []) + ([last] if last is not False else []))


class PropagatorGroup(TimedPropagator):
    """Several propagators as one (CaDiCaL connects one): every notification goes to each, their
    inferences are merged (the first engine to infer a literal gives its reason), and a complete
    assignment stands when every engine accepts it."""

    def __init__(self, *engines: TimedPropagator):
        super().__init__()
        self.engines = engines
        self.source: dict[int, TimedPropagator] = {}

    @property
    def gave_up(self) -> bool:
        return any(e.gave_up for e in self.engines)

    @gave_up.setter
    def gave_up(self, value: bool) -> None:
        pass

    @property
    def deadline(self) -> float | None:
        return self.engines[0].deadline if self.engines else None

    @deadline.setter
    def deadline(self, value: float | None) -> None:
        for e in self.engines:
            e.deadline = value

    def stats(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.engines:
            out.update(e.stats())
        return out

    def on_assignment(self, lit: int, fixed: bool = False) -> None:
        for e in self.engines:
            if abs(lit) in e.cell_of:
                e.on_assignment(lit, fixed)

    def on_new_level(self) -> None:
        for e in self.engines:
            e.on_new_level()

    def on_backtrack(self, to: int) -> None:
        for e in self.engines:
            e.on_backtrack(to)

    def propagate(self) -> list[int]:
        out: list[int] = []
        for e in self.engines:
            for lit in e.propagate():
                if lit in out or -lit in out:
                    continue
                self.source[lit] = e
                out.append(lit)
        return out

    def provide_reason(self, lit: int) -> list[int]:
        return self.source[lit].provide_reason(lit)

    def check_model(self, model: list[int]) -> bool:
        return all([e.check_model(model) for e in self.engines])

    def has_clause(self) -> bool:
        return any(e.has_clause() for e in self.engines)

    def add_clause(self) -> list[int]:
        for e in self.engines:
            if e.has_clause():
                return e.add_clause()
        return []
