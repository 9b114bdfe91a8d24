"""MIP Kuromasu's cheaper probing (``encodings/mip/kuromasu_probe.py``): a number revised once per
batch of settled cells and settling only what a change adds, branch outcomes kept until what they
read changes, and no length probes for numbers whose views are probed. Checked against brute
force, fresh probes from the final state and the planted answers of generated boards."""

from __future__ import annotations

import random

import pytest

from bruteforce import kuromasu_view
from puzzlebench.encodings.mip.kuromasu_probe import OPEN, Contradiction, Views
from puzzlebench.model import Kuromasu
from puzzlebench.model.kuromasu import random_kuromasu
from test_mip_kuromasu_probe import published, relaxed_answers


def thinned(name: str, keep: int = 3) -> tuple[Kuromasu, frozenset]:
    """A generated board without every ``keep``-th number (many answers, cells left open)."""
    full, planted = published(name)
    numbers = {cell: n for j, (cell, n) in enumerate(sorted(full.numbers.items())) if j % keep}
    return Kuromasu(full.rows, full.cols, numbers=numbers, name=f"{name}-thinned"), planted


def assert_rays_settled(views: Views) -> None:
    """Every number's rays show what its kept lengths say: white up to the shortest length, and
    black after the only one left (where the ray goes on)."""
    col = views.col
    for q, rays in enumerate(views.rays):
        for i, (ray, m) in enumerate(zip(rays, views.mask[q])):
            k = (m & -m).bit_length() - 1
            assert all(col[x] == 0 for x in ray[:k]), (views.clues[q], i, m)
            if m & (m - 1) == 0 and k < len(ray):
                assert col[ray[k]] == 1, (views.clues[q], i, m)


@pytest.mark.parametrize("name", ["kuromasu-015x015-s1", "kuromasu-020x020-s2"])
def test_a_revision_settles_every_cell_its_lengths_fix(name: str) -> None:
    # A revision settles only the cells its change adds (the rest were settled by the last one):
    # after probing, and after propagating any view of any number, no such cell is left open.
    puzzle, _ = thinned(name)
    views = Views(puzzle, probe=True, whole_views=50)
    assert views.contradiction is None
    assert_rays_settled(views)
    rng = random.Random(3)
    checked = 0
    for q, clue in enumerate(views.clues):
        for view in rng.sample(views.views(clue), min(3, len(views.views(clue)))):
            mark = len(views.trail)
            try:
                views._assume_view(q, view)
                views._propagate()
            except Contradiction:
                pass
            else:
                assert_rays_settled(views)
                checked += 1
            views._undo(mark)
    assert checked > 30


@pytest.mark.parametrize("name", ["kuromasu-015x015-s2", "kuromasu-020x020-s1"])
def test_kept_branch_outcomes_stay_true_of_the_final_state(name: str) -> None:
    # A branch's outcome is kept until what it read changes. Probed again from scratch at the
    # end, a branch kept as failed still fails, and a kept survivor's settled cells are settled
    # alike by the fresh run (or on the board), unless the fresh run fails.
    puzzle, planted = thinned(name)
    views = Views(puzzle, probe=True, whole_views=50, engine="python")  # its branch outcomes are read
    assert views.contradiction is None and sum(v == OPEN for v in views.col) > 100
    assert all((cell in planted) == black for cell, black in views.colour.items())
    col, kept = views.col, 0
    for key, b in views.branch_of.items():
        outcome = views.outcome[b]
        if outcome is None or key[0] == "wait":
            continue
        if key[0] == "cell":
            _, x, black = key
            if col[x] != OPEN:
                continue
            assume = lambda: views._settle(x, black)  # noqa: B023  (called within this iteration)
        elif key[0] == "view":
            _, q, view = key
            if view not in views.views(views.clues[q]):
                continue
            assume = lambda: views._assume_view(q, view)  # noqa: B023  (called within this iteration)
        else:
            _, q, i, k = key
            if not views.mask[q][i] >> k & 1:
                continue
            assume = lambda: views._assume_length(q, i, 1 << k)  # noqa: B023  (called within this iteration)
        ok, (settled, _) = views._try(assume)
        if not outcome[0]:
            assert not ok, key
        elif ok:
            for y, v in outcome[1].items():
                assert col[y] == v or settled.get(y) == v, (key, y)
        kept += 1
    assert kept > 200


@pytest.mark.parametrize("connected", [True, False])
def test_probing_some_numbers_by_views_and_others_by_lengths_keeps_every_answer(connected: bool) -> None:
    # whole_views=3: numbers with at most 3 views are probed view by view (and their lengths are
    # not probed), the others length by length; either way only what every answer agrees on.
    rng = random.Random(61 + connected)
    settled = contradictions = mixed = 0
    for _ in range(150):
        rows, cols = rng.choice(((3, 4), (4, 4), (2, 7), (3, 5)))
        puzzle = random_kuromasu(rng, rows, cols, clue_p=rng.choice((0.15, 0.3)))
        truth = relaxed_answers(puzzle)
        if connected:
            truth = {black for black in truth if not puzzle.verify(puzzle.solution(black))}
        views = Views(puzzle, probe=True, connected=connected, whole_views=3)
        if views.contradiction is not None:
            assert not truth, puzzle
            contradictions += 1
            continue
        for cell, black in views.colour.items():
            assert all((cell in answer) == black for answer in truth), (puzzle, cell)
        counts = [len(views.views(clue)) for clue in puzzle.numbers]
        mixed += any(c > 3 for c in counts) and any(1 < c <= 3 for c in counts)
        for clue in puzzle.numbers:
            for answer in truth:
                assert kuromasu_view(puzzle, answer, clue) in views.views(clue), (puzzle, clue)
        settled += len(views.colour) - len(puzzle.clue_cells)
    assert settled > 50 and contradictions > 5 and mixed > 0
