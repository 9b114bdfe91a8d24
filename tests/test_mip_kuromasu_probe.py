"""MIP Kuromasu's deductions before solving (``encodings/mip/kuromasu_probe.py``): the pruning of
a number's ray lengths, the probes' connectivity check, and incremental probing, checked against
brute force, a plain flood fill and the planted answers of generated boards."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import puzzlebench as pb
from bruteforce import kuromasu_view
from puzzlebench.encodings.mip.kuromasu_probe import OPEN, Views, _prune
from puzzlebench.formats import load_solution
from puzzlebench.model import Kuromasu

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "gen-kuromasu"


def published(name: str) -> tuple[Kuromasu, frozenset]:
    path = PUZZLES / f"{name}.pzl"
    puzzle = pb.load(str(path))
    return puzzle, frozenset(load_solution(str(path).replace(".pzl", ".solution.pzl"), puzzle).cells)


def test_a_rays_length_is_kept_exactly_when_the_other_rays_complete_the_sum() -> None:
    rng = random.Random(7)
    for _ in range(400):
        n = rng.randint(1, 12)
        masks = [rng.randint(1, (2 << min(n - 1, 8)) - 1) for _ in range(4)]
        lengths = [[k for k in range(m.bit_length()) if m >> k & 1] for m in masks]
        views = [v for v in itertools.product(*lengths) if sum(v) == n - 1]  # every view, enumerated
        expected = tuple(sum(1 << k for k in {v[i] for v in views}) for i in range(4))
        assert _prune(n, *masks) == expected, (n, masks)


def flood_joined(rows: int, cols: int, col: list[int]) -> bool:
    """Whether the cells not black join every white cell (a plain flood fill)."""
    whites = [x for x, v in enumerate(col) if v == 0]
    if not whites:
        return True
    seen, stack = {whites[0]}, [whites[0]]
    while stack:
        r, c = divmod(stack.pop(), cols)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            y = rr * cols + cc
            if 0 <= rr < rows and 0 <= cc < cols and y not in seen and col[y] != 1:
                seen.add(y)
                stack.append(y)
    return all(x in seen for x in whites)


def test_the_probes_connectivity_check_agrees_with_a_flood_fill() -> None:
    # From a state whose white cells are joined, new black cells (none touching another) are
    # added as a probe would: the local check (ring of eight, short search, whole board) must
    # say what a flood fill says.
    rng = random.Random(11)
    cut = kept = 0
    for trial in range(300):
        rows, cols = rng.randint(3, 9), rng.randint(3, 9)
        views = Views(Kuromasu(rows, cols, name="empty"))
        col = views.col
        for x in range(rows * cols):  # a random joined start: whites, blacks not touching
            r, c = divmod(x, cols)
            neighbours_black = any(col[y] == 1 for y in views.nbrs[x])
            if rng.random() < 0.3 and not neighbours_black:
                col[x] = 1
            elif rng.random() < 0.3:
                col[x] = 0
        views.bits = [sum(1 << x for x, v in enumerate(col) if v == b) for b in (0, 1)]
        if not flood_joined(rows, cols, col):
            continue
        mark = len(views.trail)
        for x in rng.sample(range(rows * cols), rng.randint(1, 4)):
            if col[x] == OPEN and all(col[y] != 1 for y in views.nbrs[x]):
                views._settle(x, 1)
        views.queue.clear()
        truth = flood_joined(rows, cols, col)
        assert views._still_joined(mark) == truth, (trial, rows, cols, col)
        cut += not truth
        kept += truth
    assert cut >= 10 and kept >= 10


def relaxed_answers(puzzle: Kuromasu) -> set[frozenset]:
    """Every black set with no two black cells side by side and every number right, white
    cells joined or not (the rules without connectivity), by exhaustive search."""
    cells = [cell for cell in puzzle.grid.all_cells if cell not in puzzle.clue_cells]
    found: set[frozenset] = set()

    def extend(i: int, black: frozenset) -> None:
        if i == len(cells):
            if all(1 + sum(kuromasu_view(puzzle, black, clue)) == n for clue, n in puzzle.numbers.items()):
                found.add(black)
            return
        extend(i + 1, black)
        r, c = cells[i]
        if not {(r - 1, c), (r, c - 1)} & black:
            extend(i + 1, black | {cells[i]})

    extend(0, frozenset())
    return found


@pytest.mark.parametrize("name", ["kuromasu-015x015-s2", "kuromasu-020x020-s1", "kuromasu-020x020-s2"])
def test_incremental_probing_reaches_a_fixpoint(name: str) -> None:
    # Probes are re-run only when something they read changed: afterwards no colour of an open
    # cell and no kept length may fail when probed again from scratch.
    puzzle, planted = published(name)
    views = Views(puzzle, probe=True)
    assert views.contradiction is None
    assert all((cell in planted) == black for cell, black in views.colour.items())
    for x, value in enumerate(views.col):
        if value == OPEN and views.watch[x]:
            for black in (1, 0):
                assert views._try(lambda: views._settle(x, black))[0], (name, divmod(x, puzzle.cols), black)  # noqa: B023  (called within this iteration)
    for q, masks in enumerate(views.mask):
        for i, m in enumerate(masks):
            for k in range(m.bit_length()):
                if m >> k & 1 and m != 1 << k:
                    assert views._try(lambda: (views._set_mask(q, i, 1 << k), views._revise(q)))[0], (  # noqa: B023  (called within this iteration)
                        name,
                        q,
                        i,
                        k,
                    )


@pytest.mark.parametrize("name", ["kuromasu-030x030-s1", "kuromasu-030x030-s2"])
def test_probing_settles_generated_30x30_boards_to_their_planted_answer(name: str) -> None:
    puzzle, planted = published(name)
    views = Views(puzzle, probe=True)
    assert views.contradiction is None
    assert len(views.colour) == puzzle.rows * puzzle.cols
    assert {cell for cell, black in views.colour.items() if black} == planted


def test_the_default_proves_a_30x30_board_with_its_planted_answer() -> None:
    puzzle, planted = published("kuromasu-030x030-s2")
    result = pb.solve(puzzle, "mip", count=2, timeout=120)
    assert result.exhausted and [frozenset(s.cells) for s in result.solutions] == [planted]
    assert not puzzle.verify(result.solutions[0])
