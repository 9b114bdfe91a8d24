"""What the generators share: sizes, the result type, planted black cells, clue removal and the
proof of record."""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from .. import registry
from ..errors import PuzzleError, SolverUnavailable
from ..formats.base import MAX_DIGITS
from ..model import Family, Puzzle, Solution, family_spec
from ..model.base import check_size
from ..model.grid import Cell, Grid, bit_region
from .cnf import Undecided

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

T = TypeVar("T", bound="SupportsRichComparison")
A = TypeVar("A")

# Proof paradigms per family, fastest first on the generated suites (uniqueness proofs of Light Up
# and Kuromasu, enumeration of LightBulbs answers), are each family's ``FamilySpec.proof_paradigms``
# (see puzzles/README.md).


class GenerationError(PuzzleError):
    """Bad generator options, or a board the generator could not turn into a valid puzzle."""


def parse_size(text: str) -> tuple[int, int]:
    """``"RxC"`` (or ``"N"`` for a square) -> (rows, cols)."""
    m = re.fullmatch(r"\s*([0-9]+)\s*(?:[xX]\s*([0-9]+))?\s*", text)
    if not m:
        raise GenerationError(f"size must look like ROWSxCOLS (e.g. 10x10), got {text[:40]!r}")
    # Rule: leading zeros dropped and at most MAX_DIGITS digits before int() (its limit is 4300)
    digits = [(g or m.group(1)).lstrip("0") or "0" for g in (m.group(1), m.group(2))]
    if any(len(d) > MAX_DIGITS for d in digits):
        raise GenerationError(f"size {text[:40]!r}... has more than {MAX_DIGITS} digits")
    rows, cols = int(digits[0]), int(digits[1])
    if rows < 1 or cols < 1:
        raise GenerationError(f"size must be at least 1x1, got {rows}x{cols}")
    try:  # Rule: the model's cell bound (PUZZLEBENCH_MAX_CELLS) holds before any cell is made
        check_size(rows, cols)
    except PuzzleError as exc:
        raise GenerationError(f"--size {rows}x{cols}: {exc}") from None
    return rows, cols


def check_fraction(name: str, value: float, low: float = 0.0, high: float = 1.0) -> float:
    """A float option inside [low, high], or a clear error."""
    if not isinstance(value, (int, float)) or not low <= value <= high:
        raise GenerationError(f"{name} must be between {low} and {high}, got {value!r}")
    return float(value)


def shuffled(rng: random.Random, items: Iterable[T]) -> list[T]:
    """The items in a random order drawn from ``rng`` (sorted first, so sets are reproducible)."""
    out = sorted(items)
    rng.shuffle(out)
    return out


def auto_batch(clues: int) -> int:
    """Clues tried together in one removal question: 1 (exact) up to 100 clues, then about 1%."""
    return max(1, clues // 100)


def minimize(
    kept: set[Cell],
    order: Sequence[Cell],
    batch: int,
    alternative: Callable[[set[Cell], Sequence[Cell]], A | None],
    breaks: Callable[[A, Cell], bool],
    keep: Callable[[Cell], None] | None = None,
    drop: Callable[[Cell], None] | None = None,
    exact: bool = False,
) -> None:
    """Drop clues from ``kept`` (in place) while ``alternative(rest, trial)`` finds no other answer.

    ``alternative(rest, trial)`` looks for an answer of the clues ``rest`` that breaks one of the
    ``trial`` clues. Since the planted answer is the only answer of ``rest + trial`` before every
    question, that is the same as any answer of ``rest`` other than the planted one, but the
    solver searches near the trial clues instead of the whole board.

    Clues are tried in ``order``, ``batch`` at a time: the whole batch is dropped when the
    puzzle stays unique without it. Otherwise the other answer found breaks some of the
    batch's clues (it must, since the puzzle was unique with them); one broken clue per
    cluster of broken clues is kept for good and the rest of the batch is tried again.
    A question the oracle leaves undecided (:class:`Undecided`) splits the batch in halves,
    tried one after the other; a single clue left undecided is kept: a clue is only ever
    dropped on a proof. With ``batch=1`` this tries every clue once, one oracle question each,
    and leaves a minimal clue set (no single clue can go, unless a question was undecided);
    larger batches need far fewer questions on big boards, at the price of sometimes keeping
    a clue that could have gone. With ``exact``, an answer that breaks several clues of the
    batch halves it instead (a clue is kept only when an answer breaks it alone), so the clues
    kept are those of ``batch=1``: group testing, cheaper when most batches can go.
    ``keep(clue)`` is told of every clue kept for good (an oracle can then fix it instead of
    assuming it in every later question), ``drop(clue)`` of every clue dropped (for good: an
    oracle can then rule it out at the root).
    """
    if batch < 1:
        raise GenerationError(f"batch must be at least 1, got {batch}")
    for start in range(0, len(order), batch):
        pending = [[c for c in order[start : start + batch] if c in kept]]
        while pending:
            trial = pending.pop()
            if not trial:
                continue
            try:
                other = alternative(kept - set(trial), trial)
            except Undecided:
                # Not settled within the oracle's budget: a single clue stays, a batch is halved.
                if len(trial) > 1:
                    half = len(trial) // 2
                    pending += [trial[half:], trial[:half]]
                elif keep:
                    keep(trial[0])
                continue
            if other is None:
                kept.difference_update(trial)
                if drop:
                    for c in trial:
                        drop(c)
                continue
            broken = [c for c in trial if breaks(other, c)]
            if not broken:
                raise GenerationError("internal error: the other answer breaks none of the removed clues")
            if exact and len(broken) > 1:
                # Some of several broken clues is needed, but not each: the batch is halved.
                half = len(trial) // 2
                pending += [trial[half:], trial[:half]]
                continue
            restore = {group[0] for group in clusters(broken)}
            if keep:
                for c in sorted(restore):
                    keep(c)
            pending.append([c for c in trial if c not in restore])


def default_paradigm(family: Family | str) -> str | None:
    """The fastest available paradigm with an encoding of ``family``, or None if there is none."""
    fam = Family(family)
    have = [p for p in registry.available() if any(s.name == "default" for s in registry.encodings(fam, p))]
    for p in family_spec(fam).proof_paradigms:
        if p in have:
            return p
    return have[0] if have else None


@dataclass(frozen=True)
class Proof:
    """What the proof-of-record run said about a generated puzzle."""

    paradigm: str
    count: int
    exhausted: bool
    search: dict[str, float]
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The deterministic part (no wall-clock time), so regenerated files come out the same."""
        return {
            "paradigm": self.paradigm,
            "count": self.count,
            "exhausted": self.exhausted,
            "search": self.search,
        }


def prove(
    puzzle: Puzzle, paradigm: str, planted: Solution, count: int = 2, timeout: float | None = None
) -> Proof:
    """Enumerate up to ``count`` answers (0: all) with ``puzzlebench.solve`` and check the planted one is among them."""
    from ..solvers import solve

    result = solve(puzzle, paradigm, count=count, timeout=timeout)
    if result.status.value not in ("sat", "unsat"):
        raise GenerationError(
            f"{paradigm} could not decide {puzzle.name or 'the puzzle'}: {result.status} {result.error or ''}".strip()
        )
    if result.status.value == "unsat" or (result.exhausted and planted not in result.solutions):
        raise GenerationError(f"{paradigm} does not find the planted answer of {puzzle.name or 'the puzzle'}")
    return Proof(paradigm, result.count, result.exhausted, dict(result.search), result.timings.total)


def resolve_paradigm(paradigm: str | None, family: Family | str) -> str | None:
    """Check a requested proof paradigm ("auto" = fastest available, "none" = internal oracle only)."""
    if paradigm in (None, "auto"):
        return default_paradigm(family)
    if paradigm == "none":
        return None
    registry.get(family, paradigm)  # a clear error when the paradigm has no encoding of the family
    backend = registry.backend(paradigm)
    if not backend.supported():
        raise SolverUnavailable(backend.unavailable_reason() or f"{paradigm} backend unavailable")
    return paradigm


@dataclass(frozen=True)
class Generated:
    """A generated puzzle (its ``meta`` holds seed, options and difficulty) and its planted answer."""

    puzzle: Puzzle
    solution: Solution
    solutions: int | None = 1  # known number of answers (1 = unique; None = not counted)
    proof: Proof | None = None
    stats: dict[str, Any] = field(default_factory=dict)


@lru_cache(maxsize=8)
def _adjacency(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Orthogonal neighbours of every cell by row-major index."""
    out = []
    for r in range(rows):
        for c in range(cols):
            out.append(
                tuple(
                    nr * cols + nc
                    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                    if 0 <= nr < rows and 0 <= nc < cols
                )
            )
    return tuple(out)


def white_components(rows: int, cols: int, black: set[Cell] | frozenset[Cell]) -> list[list[Cell]]:
    """Orthogonally connected components of the non-black cells, largest first."""
    adjacency = _adjacency(rows, cols)
    seen = bytearray(rows * cols)
    for r, c in black:
        seen[r * cols + c] = 1
    comps: list[list[Cell]] = []
    for start in range(rows * cols):
        if seen[start]:
            continue
        seen[start] = 1
        comp = [start]
        for i in comp:  # breadth-first: the list grows while it is read
            for n in adjacency[i]:
                if not seen[n]:
                    seen[n] = 1
                    comp.append(n)
        comps.append([divmod(i, cols) for i in comp])
    comps.sort(key=len, reverse=True)
    return comps


def cut_cells(rows: int, cols: int, black: set[Cell] | frozenset[Cell]) -> set[Cell]:
    """The white cells whose turning black would split the white cells' component (its
    articulation points; Hopcroft & Tarjan, CACM 1973), by an iterative depth-first search."""
    adjacency = _adjacency(rows, cols)
    blocked = bytearray(rows * cols)
    for r, c in black:
        blocked[r * cols + c] = 1
    depth = [-1] * (rows * cols)
    low = [0] * (rows * cols)
    out: set[int] = set()
    for root in range(rows * cols):
        if blocked[root] or depth[root] >= 0:
            continue
        depth[root] = low[root] = 0
        children = 0
        stack = [(root, -1, iter(adjacency[root]))]
        while stack:
            v, parent, it = stack[-1]
            for n in it:
                if blocked[n] or n == parent:
                    continue
                if depth[n] < 0:
                    depth[n] = low[n] = depth[v] + 1
                    stack.append((n, v, iter(adjacency[n])))
                    break
                low[v] = min(low[v], depth[n])
            else:
                stack.pop()
                if parent < 0:
                    continue
                low[parent] = min(low[parent], low[v])
                if parent == root:
                    children += 1
                elif low[v] >= depth[parent]:
                    out.add(parent)
        if children > 1:
            out.add(root)
    return {divmod(i, cols) for i in out}


def clusters(cells: Iterable[Cell], reach: int = 2) -> list[list[Cell]]:
    """Group cells lying within ``reach`` (Chebyshev distance) of each other, in sorted order."""
    left = set(cells)
    out = []
    for start in sorted(left):
        if start not in left:
            continue
        left.discard(start)
        group, todo = [start], [start]
        while todo:
            r, c = todo.pop()
            near = [x for x in left if abs(x[0] - r) <= reach and abs(x[1] - c) <= reach]
            for x in near:
                left.discard(x)
                group.append(x)
                todo.append(x)
        out.append(sorted(group))
    return out


def _keeps_whites_connected(grid: Grid, black: set[Cell], cell: Cell, local: bool = False) -> bool:
    """Would the white cells stay connected with ``cell`` black (given none of its neighbours is)?

    Exactly when the white neighbours of ``cell`` stay connected to each other without it. A
    search inside the 5x5 window around ``cell`` settles most cells; only when it fails does a
    search over the whole board decide (with ``local``, the answer is then False: a cell that
    might have kept them connected is passed over).
    """
    around = grid.neighbours4(cell)
    r0, c0 = cell
    if _reaches(grid, black, cell, around, lambda n: abs(n[0] - r0) <= 2 and abs(n[1] - c0) <= 2):
        return True
    return not local and _reaches(grid, black, cell, around, lambda n: True)


def _reaches(grid: Grid, black: set[Cell], cell: Cell, around: list[Cell], inside) -> bool:
    """Does a breadth-first search from ``around[0]`` over white cells ``inside`` (avoiding ``cell``) reach all of ``around``?"""
    goal = set(around[1:])
    seen = {cell, around[0]}
    todo = deque([around[0]])
    while todo and goal:
        cur = todo.popleft()
        for n in grid.neighbours4(cur):
            if n not in seen and n not in black and inside(n):
                seen.add(n)
                goal.discard(n)
                todo.append(n)
    return not goal


def _reaches_all(grid: Grid, white: int, cells: list[Cell]) -> bool:
    """Do ``cells`` lie in one region of the bit set ``white`` (:func:`bit_region`)?"""
    cols = grid.cols
    goal = sum(1 << (r * cols + c) for r, c in cells[1:])
    return not goal & ~bit_region(grid.rows, cols, 1 << (cells[0][0] * cols + cells[0][1]), white, goal)


def plant_black(rng: random.Random, grid: Grid, density: float) -> set[Cell]:
    """Cells in random order turn black while no neighbour is black and the white cells stay
    connected, until ``round(density * cells)`` are black (Kuromasu and Hitori answers).

    Connectivity is asked in the 5x5 window first (``_keeps_whites_connected``), then, where
    that fails, over the whole board as a bit set."""
    target = round(density * grid.size)
    black: set[Cell] = set()
    white = (1 << grid.size) - 1
    cols = grid.cols
    for cell in shuffled(rng, grid.cells()):
        if len(black) >= target:
            break
        # No two black cells share a side; all white cells stay connected.
        around = grid.neighbours4(cell)
        if any(n in black for n in around) or grid.size <= 1:
            continue
        bit = 1 << (cell[0] * cols + cell[1])
        if _keeps_whites_connected(grid, black, cell, local=True) or _reaches_all(grid, white & ~bit, around):
            black.add(cell)
            white &= ~bit
    return black
