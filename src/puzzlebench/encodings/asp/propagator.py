"""A connectivity propagator for Kuromasu's "all white cells form one region" rule.

Registered through clingo's Propagator API, it replaces grounded reachability: at every
propagation fixpoint it floods from a white root through the cells not yet black. A cell the
flood cannot reach can never join the root's region, so it must be black; the reason is the
nogood "the black cells bounding the flood are black, the root is white, the cell is white".
On a total assignment this is exactly the connectivity check, so the propagator is sound and
complete; on partial ones it also forces unreachable cells black.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Iterable

from ...model import Cell

if TYPE_CHECKING:
    import clingo


class ConnectivityPropagator:
    """Keep the cells not assigned ``black(R,C)`` in one orthogonally connected region."""

    def __init__(self, rows: int, cols: int, white: Iterable[Cell], predicate: str = "black"):
        self.rows, self.cols = rows, cols
        self.predicate = predicate
        #: cells that are white in every answer (no black atom); the first is the flood's root
        self.fixed_white = sorted(white)
        self.literal: dict[Cell, int] = {}
        self.calls = 0
        self.clauses = 0

    def init(self, init: "clingo.PropagateInit") -> None:
        import clingo

        for r in range(self.rows):
            for c in range(self.cols):
                atom = init.symbolic_atoms[clingo.Function(self.predicate, [clingo.Number(r), clingo.Number(c)])]
                if atom is not None:
                    self.literal[(r, c)] = init.solver_literal(atom.literal)
        init.check_mode = clingo.PropagatorCheckMode.Both

    def check(self, control: "clingo.PropagateControl") -> None:
        self.calls += 1
        value = control.assignment.value
        literal = self.literal

        def is_black(cell: Cell) -> bool:
            lit = literal.get(cell)
            return lit is not None and value(lit) is True

        # the root: a cell white in every answer, or else the first cell assigned white
        root_lit: list[int] = []
        if self.fixed_white:
            root = self.fixed_white[0]
        else:
            whites = [cell for cell, lit in literal.items() if value(lit) is False]
            if not whites:
                return
            root = min(whites)
            root_lit = [literal[root]]

        # flood from the root through cells not (yet) black; remember the black boundary
        seen = {root}
        boundary: set[Cell] = set()
        queue = deque([root])
        rows, cols = self.rows, self.cols
        while queue:
            r, c = queue.popleft()
            for nxt in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and nxt not in seen:
                    if is_black(nxt):
                        boundary.add(nxt)
                    else:
                        seen.add(nxt)
                        queue.append(nxt)
        if len(seen) == rows * cols:
            return

        # every unreached cell not already black must be black (a conflict if it is white)
        reason = root_lit + [-literal[b] for b in boundary]
        for r in range(rows):
            for c in range(cols):
                cell = (r, c)
                if cell in seen or is_black(cell):
                    continue
                self.clauses += 1
                lit = literal.get(cell)
                if not control.add_clause(reason + ([lit] if lit is not None else [])):
                    return
        control.propagate()
