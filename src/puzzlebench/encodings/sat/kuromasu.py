"""Kuromasu (Kurodoko) as CNF: one "black" variable per cell without a clue.

Rules and the blocks that enforce them:

* numbered and "?" cells are white: they get no variable at all;
* no two black cells share a side: a binary clause per edge;
* a number counts the white cells it sees: visibility literals per direction (``visibility``
  option: ``rays`` chains "the first d cells this way are white" one step at a time, ``pairs``
  defines each such literal directly from its d cells, ``shared`` chains them as ``rays`` does
  but names each stretch of a line by its cells, so two numbers that look at the same stretch
  from both ends share one literal, and a stretch through a numbered cell implies the part
  beyond it, which that number's own rays bound), whose sum is fixed by a cardinality
  encoding (``card`` option: ``adder`` merges the four rays' literals, which are already unary
  numbers, pairwise like a totalizer; ``native`` states the sum as two native "at most k"
  constraints, over the literals and over their negations, for Minicard (Liffiton and Maglalang,
  SAT 2012), which propagates them as completely as the adder's clauses, but learns with no
  partial sums (on the janko boards far more conflicts than the adder's, still milliseconds a
  board, while building and loading cost much less); ``lines`` merges each number's vertical rays and
  its horizontal rays into two unary counts, and ties two numbers of one line that see each
  other: they see the same cells along it, so their counts across it differ by the difference
  of the numbers (a tighter statement, which the largest boards' search needs); ``sized``, the
  default, is ``adder`` on boards below ``AUTO_CELLS`` cells and ``lines`` from there on, where
  search dominates (``native`` needs a solver that takes native constraints, e.g. minicard);
  the others are the generic encodings over all literals, e.g. ``seqcounter``, Sinz 2005);
* white cells form one region (``connectivity`` option): ``rank`` (reachability levels),
  ``lazy`` (cuts added for disconnected candidates), ``propagator`` (an IPASIR-UP engine on
  CaDiCaL 1.9.5), or ``none`` (the rule dropped: a relaxation); with any of the first three,
  ``cut=cell`` also states the rule's smallest cuts up front: no white cell is walled in by
  black neighbours (on the 100x100 boards this alone cuts CDCL's conflicts several times over);
  ``auto`` (the default of both options) picks ``shared`` and ``cell`` on boards of
  ``AUTO_CELLS`` cells or more.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from typing import Any

from pysat.formula import IDPool

from ...model import Cell, Family, Kuromasu
from ...model.grid import bit_region
from ..base import CellClause, EncodingSpec, LazyRule, Option, axes
from ..regions import connectivity_rule
from .common import CARD_CHOICES, Clause, CnfModel, unary_add, unary_sum_equals
from .connectivity import BoardGraph, ConnectivityPropagator, reach_levels

CONNECTIVITY: tuple[str, ...] = ("lazy", "propagator", "rank", "none")
VISIBILITY: tuple[str, ...] = ("auto", "shared", "rays", "pairs")
CUT: tuple[str, ...] = ("auto", "cell", "none")
#: ``auto`` picks ``visibility=shared`` and ``cut=cell`` from this many cells on, else ``rays``
#: and ``none``: the janko boards (all smaller, solved by propagation) would pay their extra
#: build time for nothing; on the generated 50x50 and larger boards the search they save
#: dominates (docs/decisions).
AUTO_CELLS = 2000
#: From this many cells on, the build runs with Python's cyclic garbage collector paused: it
#: makes hundreds of thousands of clause tuples on a 100x100 board and no reference cycle, and
#: the collector's repeated passes over the growing heap take much of the build's CPU time there
#: (the one collection after the build still looks at each tuple once, for a net saving).
PAUSE_GC_CELLS = AUTO_CELLS


def build_default(puzzle: Kuromasu, options: Mapping[str, Any]) -> CnfModel:
    """Variables 1..n are the non-clue cells in row-major order ("black"); auxiliaries follow.

    Built over a flat array of the grid's variables (0 for a clue cell), with tuple clauses
    (the garbage collector stops tracking tuples of ints), since this runs once per puzzle;
    on large boards with the collector paused (:data:`PAUSE_GC_CELLS`).
    """
    paused = gc.isenabled() and puzzle.rows * puzzle.cols >= PAUSE_GC_CELLS
    if paused:
        gc.disable()
    try:
        return _build(puzzle, options)
    finally:
        if paused:
            gc.enable()


def _build(puzzle: Kuromasu, options: Mapping[str, Any]) -> CnfModel:
    rows, cols = puzzle.rows, puzzle.cols
    clues = puzzle.clue_cells
    var = [0] * (rows * cols)  # flat cell index -> its black variable, 0 for a clue cell
    decision: dict[Cell, int] = {}
    n = 0
    for r in range(rows):
        for c in range(cols):
            if (r, c) not in clues:
                n += 1
                var[r * cols + c] = n
                decision[(r, c)] = n
    cnf = CnfModel(pool=IDPool(start_from=n + 1), decision=decision)
    clauses = cnf.clauses

    # No two black cells share a side.
    for r in range(rows):
        row = var[r * cols : (r + 1) * cols]
        clauses.extend([(-x, -y) for x, y in zip(row, row[1:]) if x and y])
        below = var[(r + 1) * cols : (r + 2) * cols]
        clauses.extend([(-x, -y) for x, y in zip(row, below) if x and y])

    # A number equals the white cells it sees, itself included. Along each ray the literals
    # "the first d cells this way are white" form a unary number (each implies the previous);
    # the four rays' numbers plus the cells always seen sum to the clue.
    big = rows * cols >= AUTO_CELLS
    visibility = options["visibility"]
    if visibility == "auto":
        visibility = "shared" if big else "rays"
    cut = options["cut"]
    if cut == "auto":
        cut = "cell" if big else "none"
    stretches = _Stretches(var, cols) if visibility == "shared" else None
    card = options["card"]
    if card == "sized":
        card = "lines" if big else "adder"
    lines = _Lines() if card == "lines" else None
    for (r, c), number in puzzle.numbers.items():
        origin = r * cols + c
        rays: list[list[int]] = []
        seen: list[int] = []  # per direction, the cells always seen (clue cells next to the number)
        for step, length in ((-cols, r), (cols, rows - 1 - r), (-1, c), (1, cols - 1 - c)):
            stop = origin + step * (min(length, number) + 1)  # one past the last cell looked at
            if stretches is not None:
                lits, always = stretches.chain(cnf, origin, step, min(length, number), number)
            else:
                line = var[origin + step : stop if stop >= 0 else None : step] if length else []
                lits, always = (_chain if visibility == "rays" else _pairs)(cnf, line, number)
            rays.append(lits)
            seen.append(always)
        fixed = 1 + sum(seen)  # the numbered cell itself, and the clue cells it always sees
        if lines is not None:
            lines.count(cnf.pool, clauses, (r, c), number, rays, seen)
        elif card == "adder":
            unary_sum_equals(cnf.pool, clauses, rays, number - fixed)
        elif card == "native":
            cnf.native_equals([x for ray in rays for x in ray], number - fixed)
        else:
            cnf.equals([x for ray in rays for x in ray], number - fixed, card)
    if lines is not None:
        lines.link(clauses, puzzle.numbers)
    if stretches is not None:
        stretches.link(clauses)

    # All white cells form one orthogonally connected region.
    mode = options["connectivity"]
    if mode != "none" and cut == "cell" and rows >= 2 and cols >= 2:
        # Its smallest cuts: a white cell is not walled in by black neighbours (a black neighbour
        # has another, white, neighbour, which the walled-in cell could not reach).
        none = [None] * cols  # beyond the border
        for r in range(rows):
            row = var[r * cols : (r + 1) * cols]
            up = var[(r - 1) * cols : r * cols] if r else none
            down = var[(r + 1) * cols : (r + 2) * cols] or none
            clauses.extend(
                [
                    ((own,) if own else ()) + tuple(-x for x in around if x)
                    for own, *around in zip(row, up, down, [None, *row[:-1]], [*row[1:], None])
                    if 0 not in around
                ]
            )  # a numbered neighbour is white: no wall
    if mode == "lazy":
        cnf.lazy = lazy_connectivity(rows, cols, decision)
    elif mode in ("rank", "propagator"):
        graph = BoardGraph.of(puzzle, decision)
        if mode == "rank":
            reach_levels(cnf, graph)
        else:
            cnf.propagator = lambda: (ConnectivityPropagator(graph), list(decision.values()))
    cnf.notes.update(connectivity=mode, visibility=visibility, cut=cut)
    return cnf


def white_connected(rows: int, cols: int, marked: Iterable[Cell]) -> bool:
    """Whether the cells not in ``marked`` form one orthogonally connected region (or none):
    the region of the first white cell grown over the board as a bit set (:func:`bit_region`)."""
    white = (1 << rows * cols) - 1
    for r, c in marked:
        white &= ~(1 << (r * cols + c))
    return bit_region(rows, cols, white & -white, white) == white  # from the lowest white cell


def lazy_connectivity(rows: int, cols: int, decision: Mapping[Cell, int]) -> LazyRule:
    """The lazy rule of :func:`puzzlebench.encodings.regions.connectivity_rule`, asked first
    whether the candidate's white cells are connected at all (the answer's always are; on the
    janko corpus about half of all candidates), which :func:`white_connected` tells without the
    flood fill that works out the cuts of a split candidate; a split candidate's cuts from
    :func:`fence_cuts` when its black cells are isolated (always, under the adjacency clauses)."""
    cuts = connectivity_rule(rows, cols, decision)

    def rule(marked: frozenset[Cell]) -> list[CellClause]:
        black = 0
        for r, c in marked:
            black |= 1 << (r * cols + c)
        white = ((1 << rows * cols) - 1) & ~black
        if bit_region(rows, cols, white & -white, white) == white:
            return []
        out = fence_cuts(rows, cols, black)
        return cuts(marked) if out is None else out

    return rule


def fence_cuts(rows: int, cols: int, black: int) -> list[CellClause] | None:
    """:func:`puzzlebench.encodings.regions.connectivity_cuts` for isolated black cells, on bit
    sets (bit ``r * cols + c`` set for a black cell): per white region but the largest (the
    first of the largest, in the order of their lowest cells), "some black cell around it turns
    white", the fence's cells in row-major order. None when two black cells share a side."""
    every = sum(1 << (r * cols) for r in range(rows))  # bit 0 of each row
    off_first, off_last = every * (((1 << cols) - 1) ^ 1), every * (((1 << cols) - 1) >> 1)

    def grown(bits: int) -> int:  # the cells next to ``bits`` (on the board), and ``bits``
        return bits | (bits << 1 & off_first) | (bits >> 1 & off_last) | bits << cols | bits >> cols

    white = ((1 << rows * cols) - 1) & ~black
    if black & ((black << 1 & off_first) | (black >> 1 & off_last) | black << cols | black >> cols):
        return None  # two black cells share a side
    regions: list[int] = []
    rest = white
    while rest:  # each region grown from its lowest cell, in the order of those cells
        region = bit_region(rows, cols, rest & -rest, rest)
        regions.append(region)
        rest &= ~region
    if len(regions) <= 1:
        return []
    sizes = [region.bit_count() for region in regions]
    largest = sizes.index(max(sizes))
    cuts: list[CellClause] = []
    for k, region in enumerate(regions):
        if k == largest:
            continue
        fence = grown(region) & black
        clause: CellClause = []
        while fence:
            low = fence & -fence
            i = low.bit_length() - 1
            clause.append(((i // cols, i % cols), False))  # a fence cell turns white
            fence ^= low
        cuts.append(clause)
    return cuts


class _Lines:
    """``card=lines``: a number's count as its vertical and its horizontal unary sums (the
    up and down rays merged, the left and right rays merged), compared to the number, plus the
    rule that ties two numbers of one line: two numbers that see each other see the same cells
    along that line, so their counts along it are equal and the difference of their counts
    across it is the difference of the numbers. Stated for each number and the next number
    along its row (or column) within reach: "A sees B" (A's literal for the cells between them)
    and A's count across >= k imply B's count across >= k - (a - b), A's count along >= k
    implies B's >= k, and the other way round. Unit propagation then carries a
    bound on one number's count straight to the numbers in line with it, which the adder's
    separate sums learn only through conflicts.
    """

    def __init__(self) -> None:
        # per number: its four rays' literals and the clue cells each always sees, and its
        # vertical and horizontal counts as (cells always seen, unary literals)
        self.rays: dict[Cell, tuple[list[list[int]], list[int]]] = {}
        self.cross: dict[Cell, tuple[tuple[int, list[int]], tuple[int, list[int]]]] = {}

    def count(
        self,
        pool: IDPool,
        clauses: list[Clause],
        cell: Cell,
        number: int,
        rays: list[list[int]],
        seen: list[int],
    ) -> None:
        """The number's rule: its vertical and horizontal counts sum to ``number`` - 1."""
        total = number - 1 - sum(seen)
        up, down, left, right = (ray[: total + 1] for ray in rays)
        vertical = unary_add(pool, clauses, up, down, total + 1) if total >= 0 else []
        horizontal = unary_add(pool, clauses, left, right, total + 1) if total >= 0 else []
        unary_sum_equals(pool, clauses, [vertical, horizontal], total)
        self.rays[cell] = (rays, seen)
        self.cross[cell] = ((seen[0] + seen[1], vertical), (seen[2] + seen[3], horizontal))

    def link(self, clauses: list[Clause], numbers: Mapping[Cell, int]) -> None:
        """Two numbers in line that see each other: their counts along the line are equal, and
        their counts across it differ by the difference of the numbers."""
        by_row: dict[int, list[int]] = {}
        by_col: dict[int, list[int]] = {}
        for r, c in sorted(numbers):
            by_row.setdefault(r, []).append(c)
            by_col.setdefault(c, []).append(r)
        for r, cs in by_row.items():  # left number A, right number B: A's right ray, vertical counts
            for a, b in zip(cs, cs[1:]):
                self._tie(clauses, (r, a), (r, b), b - a, 3, 0, numbers)
        for c, rs in by_col.items():  # upper number A, lower number B: A's down ray, horizontal counts
            for a, b in zip(rs, rs[1:]):
                self._tie(clauses, (a, c), (b, c), b - a, 1, 1, numbers)

    def _tie(
        self,
        clauses: list[Clause],
        a: Cell,
        b: Cell,
        gap: int,
        ray: int,
        across: int,
        numbers: Mapping[Cell, int],
    ) -> None:
        na, nb = numbers[a], numbers[b]
        if gap >= na or gap >= nb:  # they cannot see each other
            return
        lits, always = self.rays[a][0][ray], self.rays[a][1][ray]
        between = gap - 1  # the cells strictly between them
        # "A does not see B" (nothing when only clue cells lie between them: it always does)
        sees = () if between <= always else (-lits[between - always - 1],)
        shift = na - nb
        (fa, xa), (fb, xb) = self.cross[a][across], self.cross[b][across]
        (ga, ya), (gb, yb) = self.cross[a][1 - across], self.cross[b][1 - across]
        for (f1, x1), (f2, x2), d in (
            ((fa, xa), (fb, xb), shift),
            ((fb, xb), (fa, xa), -shift),
            ((ga, ya), (gb, yb), 0),
            ((gb, yb), (ga, ya), 0),
        ):
            # A sees B and count(1) >= f1 + j + 1 (literal x1[j])  ->  count(2) >= that - d, which is
            # literal x2[j + off - 1] (none needed while j + off <= 0); past x2's end count(2)
            # cannot reach it, so count(1) stays below (stated for every such j, not only the
            # first: the direct clauses cut the unary chain short, for fewer conflicts on the
            # 100x100 boards)
            off = 1 + f1 - d - f2
            low, high = max(0, 1 - off), min(len(x1), len(x2) - off + 1)
            if low < high:
                clauses += zip(
                    *(repeat(x, high - low) for x in sees),
                    [-x for x in x1[low:high]],
                    x2[low + off - 1 : high + off - 1],
                )
            clauses += [(*sees, -x) for x in x1[max(low, high) :]]


def _chain(cnf: CnfModel, line: Sequence[int], n: int) -> tuple[list[int], int]:
    """Directional chain over the ray's variables ``line`` (0 = a clue cell, always white):
    see(d) <-> see(d-1) and white(c_d), a clue cell reusing see(d-1).

    Returns the literals "the d-th cell this way is seen" (d < n) and how many are always seen
    (the clue cells before the first variable); the n-th cell this way cannot be seen too.
    """
    clauses = cnf.clauses
    lits: list[int] = []
    always = 0
    prev = 0  # 0: every cell so far is a clue cell, seen for sure
    for d, b in enumerate(line, start=1):
        if d == n:  # the first n cells this way cannot all be white
            clauses.append(((-prev,) if prev else ()) + ((b,) if b else ()))
            break
        if not b:
            cur = prev
        elif not prev:
            cur = -b
        else:
            cnf.pool.top += 1
            cur = cnf.pool.top
            clauses += ((-cur, prev), (-cur, -b), (cur, -prev, b))
        if cur:
            lits.append(cur)
        else:
            always += 1
        prev = cur
    return lits, always


def _pairs(cnf: CnfModel, line: Sequence[int], n: int) -> tuple[list[int], int]:
    """Direct definition per (clue, cell) pair: see(d) <-> no black among the first d cells."""
    clauses = cnf.clauses
    lits: list[int] = []
    always = 0
    for d in range(1, len(line) + 1):
        between = tuple(b for b in line[:d] if b)
        if d == n:  # the first n cells this way cannot all be white
            clauses.append(between)
            break
        if not between:
            always += 1
        elif len(between) == 1:
            lits.append(-between[0])
        else:
            cnf.pool.top += 1
            see = cnf.pool.top
            clauses.extend([(-see, -b) for b in between])
            clauses.append((see, *between))
            lits.append(see)
    return lits, always


class _Stretches:
    """``visibility=shared``: "every cell of this stretch of a line is white" literals named by
    the stretch's first and last non-clue cells (flat indices), so that every ray over the same
    cells gets the same literal, whichever end it starts from.

    ``link`` then ties the numbers that see each other: a stretch that runs through a numbered
    cell implies the stretch beyond it (when that number's ray names it), and is impossible
    when the part beyond is longer than that number allows. Unit propagation then carries "a
    black cell somewhere in here" from one number to the next, not only known cells.
    """

    def __init__(self, var: Sequence[int], cols: int):
        self.var = var
        self.size = len(var)  # a stretch's key: low * size + high, over flat indices
        self.named: dict[int, int] = {}  # stretch key -> literal
        self.never: set[int] = set()  # keys of stretches that cannot be all white
        self.beyond: list[tuple[int, int]] = []  # (stretch literal, the key of its part past a number)

    def chain(self, cnf: CnfModel, origin: int, step: int, length: int, n: int) -> tuple[list[int], int]:
        """As :func:`_chain` over the ``length`` cells from ``origin`` (exclusive) by ``step``."""
        var, named, clauses, beyond, size = self.var, self.named, cnf.clauses, self.beyond, self.size
        lits: list[int] = []
        always = 0
        prev = 0  # 0: every cell so far is a clue cell, seen for sure
        first = last = -1  # the first and last non-clue cells so far
        past: list[int] = []  # per numbered cell passed after `first`: the first non-clue cell beyond it
        passed = False  # a numbered cell since the last non-clue cell
        forward = step > 0  # keys run from the lower flat index to the higher
        top = cnf.pool.top
        for i in range(origin + step, origin + step * (min(length, n - 1) + 1), step):
            b = var[i]
            if not b:  # a clue cell: seen whenever the cell before it is
                if first >= 0:
                    passed = True
                if prev:
                    lits.append(prev)
                else:
                    always += 1
                continue
            if first < 0:
                first = i
            elif passed:
                past.append(i)
            passed = False
            last = i
            if prev:
                key = first * size + i if forward else i * size + first
                cur = named.get(key)
                if cur is None:
                    top += 1
                    cur = named[key] = top
                clauses += ((-cur, prev), (-cur, -b), (cur, -prev, b))
                if past:
                    beyond += [(cur, j * size + i if forward else i * size + j) for j in past if j != i]
            else:
                cur = -b
            lits.append(cur)
            prev = cur
        cnf.pool.top = top
        if length >= n:  # the first n cells this way cannot all be white
            i = origin + step * n
            b = var[i]
            if b:
                if first < 0:
                    first = i
                last = i
            clauses.append(((-prev,) if prev else ()) + ((b,) if b else ()))
            if first >= 0:
                self.never.add(first * size + last if forward else last * size + first)
        return lits, always

    def link(self, clauses: list[Clause]) -> None:
        """A stretch through a numbered cell: all white -> the stretch beyond it all white (or
        impossible, when that number cannot see so far)."""
        named, never = self.named, self.never
        for lit, part in self.beyond:
            other = named.get(part)
            if other:
                clauses.append((-lit, other))
            elif part in never:
                clauses.append((-lit,))


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.KUROMASU,
        paradigm="sat",
        name="default",
        build=build_default,
        description="black-cell variables, adjacency clauses, ray visibility counted by a cardinality encoding, connectivity by lazy cuts or alternatives",
        reference="IPASIR-UP: Fazekas et al., SAT 2023 (propagator); reachability levels as in SAT encodings of connectivity (Bayless et al., AAAI 2015, for the lazy/propagator contrast)",
        options=(
            Option(
                "connectivity",
                "lazy",
                CONNECTIVITY,
                "how 'white cells are connected' is enforced: lazy cuts, an external propagator, reachability levels, or none",
                relaxing=("none",),
            ),
            Option(
                "visibility",
                "auto",
                VISIBILITY,
                "visibility literals: auto (shared on boards of 2,000+ cells, else rays), "
                "chained along each ray with one literal per stretch of a line "
                "(shared by the numbers at both ends, linked through numbered cells), chained per ray, "
                "or defined per (clue, cell) pair",
            ),
            Option(
                "cut",
                "auto",
                CUT,
                "with connectivity on, also state its smallest cuts up front (no white cell walled in "
                "by black neighbours), or none; auto: cell on boards of 2,000+ cells, else none",
            ),
            Option(
                "card",
                "sized",
                ("sized", "adder", "lines", "native") + CARD_CHOICES,
                "cardinality encoding of the cells a number sees: adder merges the four rays' unary "
                "chains pairwise (a totalizer on sorted inputs); native states the count as two "
                "at-most-k constraints for a solver that takes them (minicard, gluecard3/4); lines "
                "merges the vertical and the horizontal rays and ties numbers in line that see each "
                "other (equal counts along the line, counts across it apart by the numbers' "
                "difference); sized: the adder on boards below 2,000 cells, else lines; the "
                "others count every literal",
            ),
        ),
    ),
]

#: The default's options are the ways it states a rule; the rest of its options are fixed settings.
SPECS = [
    axes(spec, "connectivity", "visibility", "card") if spec.name == "default" else spec for spec in SPECS
]
