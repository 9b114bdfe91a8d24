"""Light Up (Akari) as CNF: one variable per open cell, "a bulb is here".

The default encoding works on segments (maximal runs of open cells): a bulb lights exactly its
row segment and column segment, so "no bulb lights another" is at-most-one per segment and
"every open cell is lit" is one clause over the union of the cell's two segments.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any, Mapping

from pysat.formula import IDPool

from ...model import Cell, Family, LightUp
from ..base import EncodingSpec
from .common import AUTO_BINOMIAL, Clause, CnfModel, amo_option, card_option, exactly_binomial, seqcounter_amo


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
    """Variables 1..n are the open cells in row-major order; auxiliaries follow.

    Built in flat passes over the grid (it runs once per puzzle and dominates the time of the
    easy ones): one pass for the row segments, one for the column segments and the lighting
    clauses, one for the numbered walls.
    """
    rows, cols = puzzle.rows, puzzle.cols
    walls = puzzle.walls
    var = [0] * (rows * cols)  # flat cell index -> its variable, 0 for a wall
    decision: dict[Cell, int] = {}
    n = 0
    for r in range(rows):
        base = r * cols
        for c in range(cols):
            if (r, c) not in walls:
                n += 1
                var[base + c] = n
                decision[(r, c)] = n
    cnf = CnfModel(pool=IDPool(start_from=n + 1), decision=decision)
    # Clauses are tuples: the cyclic garbage collector stops tracking tuples of ints, so a
    # formula of thousands of clauses does not trigger full collections of the whole process.
    clauses = cnf.clauses
    amo = options["amo"]
    segments = 0

    def at_most_one(seg: tuple[int, ...]) -> None:
        # No bulb lights another: at most one bulb per segment.
        if len(seg) > 1:
            if amo == "binomial" or (amo == "auto" and len(seg) <= AUTO_BINOMIAL):
                clauses.extend([(-a, -b) for a, b in combinations(seg, 2)])
            elif amo in ("auto", "seqcounter"):
                clauses.extend(seqcounter_amo(cnf.pool, seg))
            else:
                cnf.atmost(seg, 1, amo)

    # Row segments: each open cell remembers the segment (a tuple of variables) it lies in.
    row_of: list[tuple[int, ...]] = [()] * (rows * cols)
    for r in range(rows):
        start = r * cols
        for i in range(r * cols, (r + 1) * cols + 1):
            if i == (r + 1) * cols or not var[i]:  # a wall or the edge ends the segment
                if i > start:
                    seg = tuple(var[start:i])
                    row_of[start:i] = [seg] * (i - start)
                    at_most_one(seg)
                    segments += 1
                start = i + 1

    # Column segments, then every open cell is lit: a bulb in its row segment or its column
    # segment (itself once). A cell alone in its column segment needs only its row segment's
    # clause, and one alone in its row segment only its column segment's: each written once.
    written: set[int] = set()
    for c in range(cols):
        start = c
        for i in range(c, rows * cols + cols, cols):
            if i < rows * cols and var[i]:
                continue
            if i > start:  # a wall or the edge ends the column segment start..i-cols
                seg = tuple(var[start:i:cols])
                segments += 1
                if len(seg) == 1:
                    row = row_of[start]
                    if id(row) not in written:
                        written.add(id(row))
                        clauses.append(row)
                else:
                    at_most_one(seg)
                    for k, j in enumerate(range(start, i, cols)):
                        row = row_of[j]
                        if len(row) > 1:
                            clauses.append(row + seg[:k] + seg[k + 1 :])
                        elif id(seg) not in written:
                            written.add(id(seg))
                            clauses.append(seg)
            start = i + cols

    # A numbered wall has exactly that many bulbs among its orthogonal neighbours.
    card = options["card"]
    for (r, c), k in puzzle.numbers.items():
        i = r * cols + c
        around = tuple(
            x
            for x in (
                var[i - cols] if r > 0 else 0,
                var[i + cols] if r + 1 < rows else 0,
                var[i - 1] if c > 0 else 0,
                var[i + 1] if c + 1 < cols else 0,
            )
            if x
        )
        if card in ("auto", "binomial"):
            clauses.extend(exactly_binomial(around, k))
        else:
            cnf.equals(around, k, card)
    cnf.notes["segments"] = segments
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
