"""A connectivity propagator for Kuromasu's "all white cells form one region" rule.

Registered through clingo's Propagator API, it replaces grounded reachability. At every
propagation fixpoint (and on total assignments) it runs the graph reasoning it shares with the
SAT propagator (:func:`puzzlebench.encodings.regions.connectivity_reasoning`): a depth-first
search with Tarjan's low-links from a white root through the cells not yet black. Each
inference is added as a clause, the negation of a nogood naming the black fence that forces it:

* a cell the search cannot reach can never join the root's region, so it must be black
  (nogood: the fence of the reached region black, the root white, the cell white); a white
  cell it cannot reach is a conflict (the same clause, already false);
* an undecided articulation point that alone joins a known white cell to the root must be white
  (nogood: the fence around the part it would cut off black, the root white, that white cell
  white, the articulation point black).

On a total assignment the first rule is exactly the connectivity check, so the propagator is
sound and complete; on partial ones both rules prune the search.

The cell states are kept incrementally: every cell literal is watched (both signs), clingo's
``propagate`` and ``undo`` callbacks update one state list per solver thread, and a check at a
fixpoint where no cell changed since the last one is skipped (``propagator_calls`` counts the
checks that ran the search). Reading every cell's value at every fixpoint instead cost as much
as the search itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ...model import Cell
from ..regions import BLACK, UNKNOWN, WHITE, connectivity_reasoning

if TYPE_CHECKING:
    import clingo


class ConnectivityPropagator:
    """Keep the cells not assigned ``black(R,C)`` in one orthogonally connected region.

    Cells are indexed row-major. A cell without a ``black`` atom (a clue cell) is always white;
    the first clue cell is the search's root, or, without clues, the first cell assigned white.
    """

    def __init__(self, rows: int, cols: int, white: Iterable[Cell], predicate: str = "black"):
        self.rows, self.cols = rows, cols
        self.predicate = predicate
        #: cells that are white in every answer (no black atom); the first is the search's root
        self.fixed_white = sorted(white)
        for r, c in self.fixed_white:
            if not (0 <= r < rows and 0 <= c < cols):
                raise ValueError(f"white cell {(r, c)} lies outside the {rows}x{cols} board")
        self.root = self.fixed_white[0][0] * cols + self.fixed_white[0][1] if self.fixed_white else None
        # side-neighbours of each cell index
        self.adj: list[list[int]] = [
            [
                rr * cols + cc
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < rows and 0 <= cc < cols
            ]
            for r in range(rows)
            for c in range(cols)
        ]
        #: solver literal of black(R,C) per cell index, 0 for a cell without the atom
        self.literal: list[int] = [0] * (rows * cols)
        #: watched literal -> the cells it sets and the state it gives them
        self._sets: dict[int, list[tuple[int, int]]] = {}
        self._state: list[list[int]] = []
        self._dirty: list[bool] = []
        self.calls = 0
        self.clauses = 0  # clauses added (inferences and conflicts)
        self.inferred = 0  # cells forced black or white
        self.articulations = 0  # cells forced white as articulation points

    def stats(self) -> dict[str, int]:
        return {
            "propagator_calls": self.calls,
            "propagator_clauses": self.clauses,
            "propagator_inferred": self.inferred,
            "propagator_articulations": self.articulations,
        }

    def init(self, init: clingo.PropagateInit) -> None:
        import clingo

        for r in range(self.rows):
            for c in range(self.cols):
                atom = init.symbolic_atoms[
                    clingo.Function(self.predicate, [clingo.Number(r), clingo.Number(c)])
                ]
                if atom is not None:
                    self.literal[r * self.cols + c] = init.solver_literal(atom.literal)
        # watch both signs of every cell literal (cells may share a literal, or its negation)
        self._sets = {}
        value = init.assignment.value
        start = [WHITE] * len(self.literal)
        for i, lit in enumerate(self.literal):
            if lit:
                self._sets.setdefault(lit, []).append((i, BLACK))
                self._sets.setdefault(-lit, []).append((i, WHITE))
                v = value(lit)  # literals fixed before the search starts
                start[i] = UNKNOWN if v is None else BLACK if v else WHITE
        for lit in self._sets:
            init.add_watch(lit)
        # one partial assignment per solver thread, kept up to date by propagate and undo
        self._state = [list(start) for _ in range(init.number_of_threads)]
        self._dirty = [True] * init.number_of_threads
        init.check_mode = clingo.PropagatorCheckMode.Both

    def propagate(self, control: clingo.PropagateControl, changes: Sequence[int]) -> None:
        state, sets = self._state[control.thread_id], self._sets
        for lit in changes:
            for i, s in sets[lit]:
                state[i] = s
        self._dirty[control.thread_id] = True

    def undo(self, thread_id: int, assignment: clingo.Assignment, changes: Sequence[int]) -> None:
        state, sets = self._state[thread_id], self._sets
        for lit in changes:
            for i, _ in sets[lit]:
                state[i] = UNKNOWN
        self._dirty[thread_id] = True

    def check(self, control: clingo.PropagateControl) -> None:
        thread = control.thread_id
        if not self._dirty[thread]:
            return  # no cell changed since the last check: nothing new to infer
        self._dirty[thread] = False
        self.calls += 1
        state, literal = self._state[thread], self.literal

        # the root: a cell white in every answer, or else the first cell assigned white
        root = self.root
        if root is None:
            root = next((i for i, s in enumerate(state) if s == WHITE), None)
            if root is None:
                return
        why_root = [literal[root]] if literal[root] else []  # "the root turns black"

        found = connectivity_reasoning(self.adj, state, root)
        add_clause = control.add_clause
        if found.unreached:
            # unreached cells are black (a conflict if one is white)
            base = [-literal[b] for b in found.fence] + why_root
            for i in found.unreached:
                self.clauses += 1
                if state[i] == UNKNOWN:
                    self.inferred += 1
                if not add_clause(base + [literal[i]] if literal[i] else base):
                    self._dirty[thread] = True  # stopped early: look again at the next fixpoint
                    return
        # an undecided articulation point guarding a white cell is white
        for cut in found.articulations:
            self.clauses += 1
            self.inferred += 1
            self.articulations += 1
            why_white = [literal[cut.white]] if literal[cut.white] else []
            if not add_clause([-literal[cut.cell]] + [-literal[b] for b in cut.fence] + why_white + why_root):
                self._dirty[thread] = True
                return
        control.propagate()
