"""Light Up (Akari) as CNF: one variable per open cell, "a bulb is here".

The default encoding works on segments (maximal runs of open cells): a bulb lights exactly its
row segment and column segment, so "no bulb lights another" is at-most-one per segment and
"every open cell is lit" is one clause over the union of the cell's two segments.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product
from typing import Any, Mapping

from pysat.formula import IDPool

from ...model import Cell, Family, LightUp
from ..base import EncodingSpec
from .common import Clause, CnfModel, amo_option, card_option


@dataclass(frozen=True)
class _Segments:
    """Segments as lists of variables, with each open cell's row segment, column segment and
    position inside its column segment (one pass over rows, one over columns)."""

    lits: list[list[int]]
    row_of: dict[Cell, int]
    col_of: dict[Cell, tuple[int, int]]

    @classmethod
    def of(cls, puzzle: LightUp, bulb: dict[Cell, int]) -> "_Segments":
        lits: list[list[int]] = []
        row_of: dict[Cell, int] = {}
        col_of: dict[Cell, tuple[int, int]] = {}
        for horizontal in (True, False):
            outer, inner = (puzzle.rows, puzzle.cols) if horizontal else (puzzle.cols, puzzle.rows)
            for a in range(outer):
                run: list[int] = []
                for b in range(inner):
                    cell = (a, b) if horizontal else (b, a)
                    v = bulb.get(cell)
                    if v is None:  # a wall ends the run
                        if run:
                            lits.append(run)
                            run = []
                        continue
                    if horizontal:
                        row_of[cell] = len(lits)
                    else:
                        col_of[cell] = (len(lits), len(run))
                    run.append(v)
                if run:
                    lits.append(run)
        return cls(lits, row_of, col_of)


def _bulbs(puzzle: LightUp) -> CnfModel:
    """A CNF with one named variable ("bulb", r, c) per open cell, all of them decisions."""
    cnf = CnfModel(pool=IDPool())
    walls, name = puzzle.walls, cnf.pool.id
    cnf.decision = {
        (r, c): name(("bulb", r, c)) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in walls
    }
    return cnf


def _clue_neighbours(puzzle: LightUp, cnf: CnfModel, wall: Cell) -> list[int]:
    r, c = wall
    bulb = cnf.decision
    return [bulb[n] for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in bulb]


def build_default(puzzle: LightUp, options: Mapping[str, Any]) -> CnfModel:
    cnf = _bulbs(puzzle)
    bulb = cnf.decision
    segs = _Segments.of(puzzle, bulb)
    amo = options["amo"]
    # No bulb lights another: at most one bulb per segment.
    for lits in segs.lits:
        if len(lits) > 1:
            cnf.atmost(lits, 1, amo)
    # Every open cell is lit: a bulb in its row segment or its column segment (itself once).
    row, col, seg = segs.row_of, segs.col_of, segs.lits
    for cell in bulb:
        v, i = col[cell]
        column = seg[v]
        cnf.add(seg[row[cell]] + column[:i] + column[i + 1 :])
    # A numbered wall has exactly that many bulbs among its orthogonal neighbours.
    for wall, n in puzzle.numbers.items():
        cnf.equals(_clue_neighbours(puzzle, cnf, wall), n, options["card"])
    cnf.notes["segments"] = len(seg)
    return cnf


def build_seed004(puzzle: LightUp, options: Mapping[str, Any]) -> CnfModel:
    """Seed 004's pure CNF: ``rowcol_rules`` (pairwise per section), ``light_rules`` (each empty
    cell's "plus" of sight lines holds a light) and ``number_rules`` (each number's cases over its
    valid neighbours, written out as CNF)."""
    cnf = _bulbs(puzzle)
    bulb = cnf.decision
    grid = puzzle.grid
    blocked = lambda cell: not puzzle.is_open(cell)  # noqa: E731 - walls and numbers stop light
    # Row/Column rules: no two spaces of one section are both lights, pair by pair.
    for seg in grid.segments(puzzle.is_open):
        cnf.extend([[-bulb[a], -bulb[b]] for a, b in combinations(seg.cells, 2)])
    # Light rules: the cell or some cell in its line of sight, in all four directions, is a light.
    for cell in bulb:
        plus = [cell] + [c for ray in grid.rays(cell, blocked).values() for c in ray]
        cnf.add([bulb[c] for c in plus])
    # Number rules: enumerate the assignments of the valid neighbours; every assignment with the
    # wrong number of lights is a case to exclude, and each excluded case is generalised to the
    # shortest clause (its lights or its dark cells alone already break the count).
    for wall, n in puzzle.numbers.items():
        cnf.extend(_number_cases(_clue_neighbours(puzzle, cnf, wall), n))
    return cnf


def _number_cases(lits: list[int], n: int) -> list[Clause]:
    """CNF of "exactly n of lits" from the enumerated cases, as seed 004 derives it by hand."""
    if n > len(lits):
        return [[]]
    out: set[tuple[int, ...]] = set()
    for values in product((False, True), repeat=len(lits)):
        on = [x for x, v in zip(lits, values) if v]
        off = [x for x, v in zip(lits, values) if not v]
        if len(on) > n:  # too many lights: some n+1 of these lights must go dark
            out.add(tuple(sorted(-x for x in on[: n + 1])))
        elif len(on) < n:  # too few: one of the dark cells (beyond n - len(on) - 1) must light
            out.add(tuple(sorted(off[: len(lits) - n + 1])))
    return [list(cl) for cl in sorted(out)]


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="sat",
        name="default",
        build=build_default,
        description="segment-based: at most one bulb per segment, each open cell's row or column segment holds a bulb, clue cardinalities",
        options=(
            amo_option("auto", "the bulbs of a segment"),
            card_option("auto", "bulbs around a numbered wall"),
        ),
    ),
    EncodingSpec(
        family=Family.LIGHTUP,
        paradigm="sat",
        name="seed004",
        build=build_seed004,
        description="seed 004's pure CNF: pairwise at-most-one per section, line-of-sight clauses, number rules as enumerated cases",
        origin="seed004",
        reference="seed 004: Light Up puzzle problem with a SAT solver (2022)",
    ),
]

__all__ = ["SPECS", "build_default", "build_seed004"]
