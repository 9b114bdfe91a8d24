""" "Every island holds one clue, a number equal to its size or a '?'" as a CaDiCaL propagator
(IPASIR-UP).

The reasoning is :func:`puzzlebench.encodings.islands.island_reasoning`, on the partial
assignment of the wall variables: its inferences are propagated with their reasons, its
conflicts added as clauses. On a complete assignment the reasoning rejects every faulty island
(a part with two clues or too many cells, an island walled in too small, an unshaded region no
clue reaches), so the propagator states the rule on its own; :meth:`check_model` checks
complete assignments again with the lazy cuts (``regions.island_cuts``).
"""

from __future__ import annotations

from ...model import Nurikabe
from ..islands import IslandGraph, IslandPlan, island_reasoning
from ..regions import BLACK, UNKNOWN, island_cuts
from .common import Clause
from .connectivity import CellPropagator


class IslandPropagator(CellPropagator):
    """IPASIR-UP engine for the island rule over ``wall``: cell -> its variable (true = wall)."""

    def __init__(self, puzzle: Nurikabe, plan: IslandPlan, wall: dict):
        cols = puzzle.cols
        var = [0] * (puzzle.rows * cols)  # cell index -> wall variable; 0: a clue (always unshaded)
        for (r, c), v in wall.items():
            var[r * cols + c] = v
        super().__init__(var)
        self.puzzle = puzzle
        self.graph = IslandGraph.of(puzzle, plan)
        for r, c in plan.wall:  # known wall (unit clauses), never observed
            self.state[r * cols + c] = BLACK
            self.fixed[r * cols + c] = True
        self.reasons_now: set[int] = set()
        self.calls = self.inferred = self.conflicts = self.rejected = 0

    def observed(self) -> list[int]:
        """The variables to observe: those of the cells not known beforehand."""
        return [self.var[i] for i, s in enumerate(self.state) if s == UNKNOWN]

    def stats(self) -> dict[str, int]:
        return {
            "islands_calls": self.calls,
            "islands_inferred": self.inferred,
            "islands_conflicts": self.conflicts,
            "islands_rejected_models": self.rejected,
        }

    # -- reasoning ------------------------------------------------------------------------------
    def _clause(self, lits) -> list[int]:
        var = self.var
        return [var[i] if is_wall else -var[i] for i, is_wall in lits]

    def propagate(self) -> list[int]:
        if self.expired(self.first_var) or not self.dirty:
            return []
        self.dirty = False
        self.calls += 1
        found = island_reasoning(self.graph, self.state)
        if found.conflict is not None:
            self.conflicts += 1
            self.pending.append(self._clause(found.conflict))
            return []
        out: list[int] = []
        for lits in found.implied:
            clause = self._clause(lits)
            lit = clause[0]
            if lit in self.reasons_now or -lit in self.reasons_now:
                continue  # one inference per cell and call
            self.reasons_now.add(lit)
            self.reasons[lit] = clause
            out.append(lit)
        self.reasons_now.clear()
        self.inferred += len(out)
        return out

    def check_model(self, model: list[int]) -> bool:
        if self.expired(self.first_var):
            return False
        cols = self.puzzle.cols
        value = {abs(lit): lit > 0 for lit in model}  # the model may list the observed variables only
        marked = frozenset(
            (i // cols, i % cols)
            for i, v in enumerate(self.var)
            if v and (self.state[i] == BLACK if v not in value else value[v])
        )
        cuts = island_cuts(self.puzzle.rows, cols, self.puzzle.numbers, marked, self.puzzle.unknown)
        if not cuts:
            return True
        self.rejected += 1
        index = lambda cell: cell[0] * cols + cell[1]
        self.pending[:] = (self._clause([(index(c), m) for c, m in cut]) for cut in cuts)
        return False

    def has_clause(self) -> bool:
        return bool(self.pending)

    def add_clause(self) -> Clause:
        return self.pending.pop() if self.pending else []
