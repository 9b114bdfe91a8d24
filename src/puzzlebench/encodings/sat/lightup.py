"""Light Up (Akari) as CNF: one variable per open cell, "a bulb is here".

The default encoding works on segments (maximal runs of open cells): a bulb lights exactly its
row segment and column segment, so "no bulb lights another" is at-most-one per segment and
"every open cell is lit" is one clause over the union of the cell's two segments.

By default (``amo=auto``, ``card=auto``) the segments' at-most-one and the numbers' counts are
clauses (pairwise on short segments, a sequential counter on long ones: Sinz 2005). With
``amo=native`` and ``card=native`` they are native cardinality constraints (python-sat's CNF+
"at most k"), for the solvers that take them (minicard, gluecard3, gluecard4; Liffiton and
Maglalang, SAT 2012): far fewer items to build and load; any other solver is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from itertools import accumulate, combinations, compress, product, repeat
from operator import add, mul, neg, not_
from typing import Any, cast

from pysat.formula import IDPool

from ...model import Cell, Family, LightUp
from ..base import EncodingSpec, Option
from .common import AUTO_BINOMIAL, CARD_CHOICES, Clause, CnfModel, exactly_binomial, seqcounter_amo


def _bulbs(puzzle: LightUp) -> CnfModel:
    """A CNF with one named variable ("bulb", r, c) per open cell, all of them decisions."""
    cnf = CnfModel(pool=IDPool())
    walls, name = puzzle.walls, cnf.pool.id
    cnf.decision = {
        (r, c): name(("bulb", r, c))
        for r in range(puzzle.rows)
        for c in range(puzzle.cols)
        if (r, c) not in walls
    }
    return cnf


def _clue_neighbours(puzzle: LightUp, cnf: CnfModel, wall: Cell) -> list[int]:
    r, c = wall
    bulb = cnf.decision
    return [bulb[n] for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in bulb]


@lru_cache(maxsize=64)
def _cells(rows: int, cols: int) -> tuple[Cell | None, ...]:
    """Every cell of a grid in row-major order, each row followed by a None (kept: boards of one
    size share them)."""
    return tuple((r, c) if c < cols else None for r in range(rows) for c in range(cols + 1))


def _runs(line: list) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of each run of non-zero entries of ``line``, in order (its last entry is 0)."""
    prev = -1
    for stop in compress(range(len(line)), map(not_, line)):
        if stop - prev > 1:
            yield prev + 1, stop
        prev = stop


def build_default(puzzle: LightUp, options: Mapping[str, Any]) -> CnfModel:
    """Variables 1..n are the open cells in row-major order; auxiliaries follow.

    Built from flat arrays rather than cell by cell (it runs once per puzzle and dominates the
    time of the easy ones): the board's variables row by row, each row followed by a 0 and a row
    of 0s below, so segments are the runs between zeros and a cell's neighbours off the board
    read 0; a row segment is a range of consecutive variables.
    """
    rows, cols = puzzle.rows, puzzle.cols
    size = rows * cols
    width = cols + 1
    # 1 on an open cell, 0 on a wall, on the 0 after each row and on the row of 0s below
    is_open = ([1] * cols + [0]) * rows + [0] * width
    for r, c in puzzle.walls:
        is_open[r * width + c] = 0
    var = list(
        map(mul, accumulate(is_open), is_open)
    )  # padded index r * width + c -> its variable, 0 for none
    n = max(var)
    open_cells = cast(
        Iterable[Cell], compress(_cells(rows, cols), is_open)
    )  # the padding's Nones are never open
    decision: dict[Cell, int] = dict(zip(open_cells, range(1, n + 1)))
    body = rows * width
    cnf = CnfModel(pool=IDPool(), decision=decision)
    cnf.pool.top = n
    # Clauses are tuples: the cyclic garbage collector stops tracking tuples of ints, so a
    # formula of thousands of clauses does not trigger full collections of the whole process.
    clauses = cnf.clauses
    amo = options["amo"]
    native = amo == "native"
    pairwise = AUTO_BINOMIAL if amo == "auto" else size if amo == "binomial" else 1
    natives = cnf.native

    def at_most_one(segments: list[tuple[int, ...]]) -> None:
        # No bulb lights another: at most one bulb per segment.
        if native:
            natives.extend(zip(segments, repeat(1)))
            return
        for seg in segments:
            if len(seg) <= pairwise:
                clauses.extend(combinations([-x for x in seg], 2))
            elif amo in ("auto", "seqcounter"):
                clauses.extend(seqcounter_amo(cnf.pool, seg))
            else:
                cnf.atmost(seg, 1, amo)

    # Row segments: the runs of open cells between walls, numbered consecutively.
    row_of: list[tuple[int, ...]] = [()] * len(var)  # padded index -> its row segment
    row_segments = []
    for start, stop in _runs(var):
        seg = tuple(var[start:stop])
        row_of[start:stop] = [seg] * (stop - start)
        row_segments.append(seg)
    # A numbered wall has exactly that many bulbs among its orthogonal neighbours. (First: the
    # solver then drops the later clauses a 0 or a full number already satisfies as it loads them.)
    card = options["card"]
    card_native = card == "native"
    for (r, c), k in puzzle.numbers.items():
        i = r * width + c
        around = tuple(filter(None, (var[i - width], var[i + width], var[i - 1], var[i + 1])))
        if card_native:
            m = len(around)
            if 0 < k < m:  # at most k bulbs, at most m - k dark cells
                natives.append((around, k))
                natives.append((tuple(map(neg, around)), m - k))
            elif k == 0:
                clauses.extend(zip(map(neg, around)))
            elif k == m:
                clauses.extend(zip(around))
            else:  # more than the open neighbours
                clauses.append(())
        elif card in ("auto", "binomial"):
            clauses.extend(exactly_binomial(around, k))
        else:
            cnf.equals(around, k, card)
    at_most_one([seg for seg in row_segments if len(seg) > 1])

    # Column segments, then every open cell is lit: a bulb in its row segment or its column
    # segment. A cell alone in its column segment needs only its row segment's
    # clause, which every other cell of that row segment then needs no more (its own clause
    # would contain it); likewise a cell alone in its row segment and its column segment. Each
    # such clause is written once.
    down: list[int] = []  # the padded board column by column, each column followed by a 0
    down_row: list[tuple[int, ...]] = []  # the row segment of each entry of ``down``
    for c in range(cols):
        down += var[c:body:width]
        down.append(0)
        down_row += row_of[c:body:width]
        down_row.append(())
    covered: set[int] = set()  # ids of the row segments whose clause is written
    columns: list[tuple[tuple[int, ...], list[tuple[int, ...]]]] = []  # (segment, row segment per cell)
    column_segments = 0
    for start, stop in _runs(down):
        column_segments += 1
        if stop - start == 1:
            row = down_row[start]
            if id(row) not in covered:
                covered.add(id(row))
                clauses.append(row)
        else:
            columns.append((tuple(down[start:stop]), down_row[start:stop]))
    at_most_one([seg for seg, _ in columns])
    for seg, crossing in columns:
        if 1 in map(len, crossing):  # a cell alone in its row segment: this segment's clause
            clauses.append(seg)
            continue
        # the row segment and the whole column segment (the cell itself twice: the solver
        # drops the repeated literal as it loads the clause)
        if covered:
            crossing = [row for row in crossing if id(row) not in covered]
        clauses.extend(map(add, crossing, repeat(seg)))

    cnf.notes["segments"] = len(row_segments) + column_segments
    return cnf


def build_seed004(puzzle: LightUp, options: Mapping[str, Any]) -> CnfModel:
    """Seed 004's pure CNF: ``rowcol_rules`` (pairwise per section), ``light_rules`` (each empty
    cell's "plus" of sight lines holds a light) and ``number_rules`` (each number's cases over its
    valid neighbours, written out as CNF)."""
    cnf = _bulbs(puzzle)
    bulb = cnf.decision
    grid = puzzle.grid
    blocked = lambda cell: not puzzle.is_open(cell)  # walls and numbers stop light
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
            Option(
                "amo",
                "auto",
                ("native",) + CARD_CHOICES,
                "cardinality encoding of at-most-one over the bulbs of a segment; native: one native "
                "constraint per segment, for a solver that takes them (minicard, gluecard3/4)",
            ),
            Option(
                "card",
                "auto",
                ("native",) + CARD_CHOICES,
                "cardinality encoding of the counts of bulbs around a numbered wall; native: at most k "
                "bulbs and at most m - k dark cells among its m open neighbours as two native "
                "constraints (a 0 or a full number as unit clauses)",
            ),
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
