"""Light Up (Akari) as CNF: one variable per open cell, "a bulb is here".

The default encoding works on segments (maximal runs of open cells): a bulb lights exactly its
row segment and column segment, so "no bulb lights another" is at-most-one per segment and
"every open cell is lit" is one clause over the union of the cell's two segments.
"""

from __future__ import annotations

from itertools import combinations, product, repeat
from typing import Any, Mapping

from pysat.formula import IDPool

from ...model import Cell, Family, LightUp
from ..base import EncodingSpec
from ..base import Option
from .common import (AUTO_BINOMIAL, CARD_CHOICES, Clause, CnfModel, amo_option, card_option, exactly_binomial,
                     SMALL_BOARD_CELLS, seqcounter_amo, small_board_solver)

NATIVE_SOLVER = "minicard"


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

    Built from the walls rather than cell by cell (it runs once per puzzle and dominates the
    time of the easy ones): a row segment is a range of consecutive variables, a column
    segment a stride through the flat variable array.
    """
    rows, cols = puzzle.rows, puzzle.cols
    size = rows * cols
    wall_cols: list[list[int]] = [[] for _ in range(rows)]
    wall_rows: list[list[int]] = [[] for _ in range(cols)]
    for r, c in puzzle.walls:
        wall_cols[r].append(c)
        wall_rows[c].append(r)
    var = [0] * size  # flat cell index -> its variable, 0 for a wall
    row_of: list[tuple[int, ...]] = [()] * size  # flat cell index -> its row segment
    decision: dict[Cell, int] = {}
    cnf = CnfModel(pool=IDPool(), decision=decision)
    # Clauses are tuples: the cyclic garbage collector stops tracking tuples of ints, so a
    # formula of thousands of clauses does not trigger full collections of the whole process.
    clauses = cnf.clauses
    amo = options["amo"]
    native = amo == "native" or (amo == "sized" and size < SMALL_BOARD_CELLS)
    if amo == "sized" and not native:
        amo = "auto"
    pairwise = AUTO_BINOMIAL if amo in ("auto", "native") else size if amo == "binomial" else 1
    natives = cnf.native

    def at_most_one(seg: tuple[int, ...]) -> None:
        # No bulb lights another: at most one bulb per segment.
        if native:
            natives.append((seg, 1))
        elif len(seg) <= pairwise:
            clauses.extend(combinations([-x for x in seg], 2))
        elif amo in ("auto", "seqcounter"):
            clauses.extend(seqcounter_amo(cnf.pool, seg))
        else:
            cnf.atmost(seg, 1, amo)

    # Row segments: the open cells between two walls of a row, numbered consecutively.
    row_segments = []
    n = 0
    for r in range(rows):
        base, prev = r * cols, -1
        for w in sorted(wall_cols[r]) + [cols]:
            length = w - prev - 1
            if length > 0:
                seg = tuple(range(n + 1, n + length + 1))
                start = base + prev + 1
                var[start : start + length] = seg
                row_of[start : start + length] = [seg] * length
                decision.update(zip(zip(repeat(r), range(prev + 1, w)), seg))
                row_segments.append(seg)
                n += length
            prev = w
    cnf.pool.top = n
    # A numbered wall has exactly that many bulbs among its orthogonal neighbours. (First: the
    # solver then drops the later clauses a 0 or a full number already satisfies as it loads them.)
    card = options["card"]
    card_native = card == "native" or (card == "sized" and size < SMALL_BOARD_CELLS)
    if card == "sized" and not card_native:
        card = "auto"
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
        if card_native:
            cnf.native_equals(around, k)
        elif card in ("auto", "binomial"):
            clauses.extend(exactly_binomial(around, k))
        else:
            cnf.equals(around, k, card)
    for seg in row_segments:
        if len(seg) > 1:
            at_most_one(seg)
    column_segments = 0

    # Column segments, then every open cell is lit: a bulb in its row segment or its column
    # segment (itself once). A cell alone in its column segment needs only its row segment's
    # clause, which every other cell of that row segment then needs no more (its own clause
    # would contain it); likewise a cell alone in its row segment and its column segment. Each
    # such clause is written once.
    covered: set[int] = set()  # ids of the row segments whose clause is written
    columns: list[tuple[tuple[int, ...], list[tuple[int, ...]]]] = []  # (segment, row segment per cell)
    for c in range(cols):
        prev = -1
        for w in sorted(wall_rows[c]) + [rows]:
            length = w - prev - 1
            column_segments += length > 0
            if length == 1:
                row = row_of[(prev + 1) * cols + c]
                if id(row) not in covered:
                    covered.add(id(row))
                    clauses.append(row)
            elif length > 1:
                start = (prev + 1) * cols + c
                seg = tuple(var[start : w * cols : cols])
                at_most_one(seg)
                columns.append((seg, row_of[start : w * cols : cols]))
            prev = w
    for seg, crossing in columns:
        if 1 in map(len, crossing):  # a cell alone in its row segment: this segment's clause
            clauses.append(seg)
            continue
        # the column segment without its k-th cell, for k = 0, 1, ...
        others = list(combinations(seg, len(seg) - 1))
        others.reverse()
        clauses.extend([row + other for row, other in zip(crossing, others) if id(row) not in covered])

    cnf.notes["segments"] = len(row_segments) + column_segments
    if natives:
        pool = cnf.pool
        cnf.native_fallback = lambda: [cl for lits, k in natives for cl in (
            seqcounter_amo(pool, lits) if k == 1 and len(lits) > AUTO_BINOMIAL
            else combinations([-x for x in lits], k + 1))]
        cnf.preferred_solver = NATIVE_SOLVER
    else:
        cnf.preferred_solver = small_board_solver(size)
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
            Option("amo", "sized", ("sized", "native") + CARD_CHOICES, "at most one bulb per segment"),
            Option("card", "sized", ("sized", "native") + CARD_CHOICES, "bulbs around a numbered wall"),
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
