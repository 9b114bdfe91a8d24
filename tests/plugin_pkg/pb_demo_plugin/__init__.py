"""puzzlebench demo plugin: registers, on import, one encoding and one solver.

* ``lightup`` / ``sat`` / ``demo``: Light Up as CNF written from its own clauses (no puzzlebench
  cardinality helpers): one variable per open cell, at most one bulb per row or column segment
  (pairwise), every open cell sees a bulb, exactly N bulbs around a wall numbered N (binomial).
* ``demo-minisat``: a solver of the ``sat`` paradigm, MiniSat 2.2 through :class:`DemoBackend`,
  this plugin's own :class:`puzzlebench.solvers.base.Backend` (check / marked / add_clause).

The entry point ``demo = "pb_demo_plugin"`` (group ``puzzlebench.plugins``, see pyproject.toml)
makes every puzzlebench process import this module on first use of the registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from pysat.formula import IDPool

import puzzlebench as pb
from puzzlebench.encodings.sat.common import CnfModel

__version__ = "0.0.0"


def _segments(puzzle) -> list[list[tuple[int, int]]]:
    """Maximal runs of open cells, row by row, then column by column."""
    out = []
    for outer, inner, cell in (
        (puzzle.rows, puzzle.cols, lambda i, j: (i, j)),
        (puzzle.cols, puzzle.rows, lambda i, j: (j, i)),
    ):
        for i in range(outer):
            run: list[tuple[int, int]] = []
            for j in range(inner):
                if puzzle.is_open(cell(i, j)):
                    run.append(cell(i, j))
                else:
                    out.append(run)
                    run = []
            out.append(run)
    return [seg for seg in out if seg]


def _exactly(lits: list[int], k: int) -> list[list[int]]:
    """sum(lits) == k, binomially: no k+1 of them true, no len-k+1 of them false."""
    if k > len(lits):
        return [[]]
    clauses = [[-x for x in group] for group in combinations(lits, k + 1)]
    clauses += [list(group) for group in combinations(lits, len(lits) - k + 1)]
    return clauses


@pb.register_encoding(
    "lightup",
    "sat",
    "demo",
    origin="pb-demo-plugin",
    description="demo plugin: segments, pairwise at-most-one, binomial clue counts",
)
def build_demo(puzzle, options: Mapping[str, Any]) -> CnfModel:
    cnf = CnfModel(pool=IDPool())
    bulb = cnf.decision = {cell: cnf.var("bulb", *cell) for cell in puzzle.open_cells}
    sees: dict[tuple[int, int], set[tuple[int, int]]] = {cell: set() for cell in bulb}
    for seg in _segments(puzzle):
        cnf.extend([[-bulb[a], -bulb[b]] for a, b in combinations(seg, 2)])  # no bulb lights another
        for cell in seg:
            sees[cell].update(seg)
    for seen in sees.values():  # every open cell is lit (by itself or a bulb it sees)
        cnf.add([bulb[c] for c in sorted(seen)])
    for (r, c), n in puzzle.numbers.items():
        around = [bulb[x] for x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if x in bulb]
        cnf.extend(_exactly(around, n))
    return cnf


pb.register_solver(
    "demo-minisat",
    "sat",
    "pb_demo_plugin.backend:DemoBackend",
    "MiniSat 2.2 through the demo plugin's own backend",
    {"solver": "minisat22"},
)
