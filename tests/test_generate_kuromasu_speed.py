"""The Kuromasu generator's compact removal oracle: direct sum comparisons, stretch chains with
links, questions over the cells a count depends on, the one-cell repair sweep and the bit-set
connectivity checks.

Answers are checked against brute force, the model's verifier, a plain count written here and
the SAT paradigm's ``count=2`` run, never against the oracle's own say-so.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

from puzzlebench.generate import generate
from puzzlebench.generate.cnf import Cnf
from puzzlebench.generate.common import plant_black, white_components
from puzzlebench.generate.kuromasu import KuromasuOracle, one_flips
from puzzlebench.model import Kuromasu, KuromasuSolution
from puzzlebench.model.grid import Grid, bit_region
from puzzlebench.solvers import solve

sys.path.insert(0, str(Path(__file__).parent))
from bruteforce import all_solutions


def _count(rows: int, cols: int, black, cell) -> int:
    """White cells ``cell`` sees in its row and column up to a black cell, itself included."""
    r, c = cell
    total = 1
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        y, x = r + dr, c + dc
        while 0 <= y < rows and 0 <= x < cols and (y, x) not in black:
            total += 1
            y, x = y + dr, x + dc
    return total


def _unary(cnf: Cnf, key: str, size: int) -> list[int]:
    """A sorted unary number of ``size`` literals (each implies the one before)."""
    lits = [cnf.var((key, i)) for i in range(size)]
    for a, b in zip(lits, lits[1:]):
        cnf.clause([-b, a])
    return lits


@pytest.mark.parametrize("guarded", [True, False])
@pytest.mark.parametrize("direct", [1, 2, 3, 4])
def test_sum_equals_holds_exactly_for_the_sums_equal_to_the_total(guarded, direct):
    rng = random.Random(direct)
    for _ in range(12):
        sizes = [rng.randint(0, 4) for _ in range(rng.randint(1, 4))]
        total = rng.randint(0, sum(sizes) + 1)
        with Cnf(guarded) as cnf:
            numbers = [_unary(cnf, f"x{j}", size) for j, size in enumerate(sizes)]
            guard = cnf.var(("guard",))
            cnf.sum_equals("sum", guard, numbers, total, direct)
            for values in itertools.product(*(range(size + 1) for size in sizes)):
                fixed = [x if i < v else -x for lits, v in zip(numbers, values) for i, x in enumerate(lits)]
                assert (cnf.solve([guard, *fixed]) is not None) == (sum(values) == total), (
                    sizes,
                    values,
                    total,
                )
                assert cnf.solve([-guard, *fixed]) is not None  # off: no constraint at all


@pytest.mark.parametrize("direct", [2, 3, 4])
def test_sum_equals_propagation_bounds_every_number_by_the_others(direct):
    """Unit propagation from bounds on each number derives the bounds the sum implies (or a
    conflict when no sum can reach the total), as a totalizer's outputs would."""
    rng = random.Random(10 + direct)
    for _ in range(200):
        sizes = [rng.randint(0, 5) for _ in range(rng.randint(2, 4))]
        total = rng.randint(0, sum(sizes))
        lo = [rng.randint(0, s) for s in sizes]
        hi = [rng.randint(low, s) for low, s in zip(lo, sizes)]
        with Cnf() as cnf:
            numbers = [_unary(cnf, f"x{j}", size) for j, size in enumerate(sizes)]
            guard = cnf.var(("guard",))
            cnf.sum_equals("sum", guard, numbers, total, direct)
            bounds = [x[low - 1] for x, low in zip(numbers, lo) if low] + [
                -x[high] for x, high in zip(numbers, hi) if high < len(x)
            ]
            implied = cnf.propagated([guard, *bounds])
        if sum(lo) > total or sum(hi) < total:
            assert implied is None, (sizes, lo, hi, total)
            continue
        assert implied is not None, (sizes, lo, hi, total)
        for j, x in enumerate(numbers):
            want_lo = max(lo[j], total - (sum(hi) - hi[j]))
            want_hi = min(hi[j], total - (sum(lo) - lo[j]))
            got_lo = sum(1 for lit in x if lit in implied)
            got_hi = len(x) - sum(1 for lit in x if -lit in implied)
            assert (got_lo, got_hi) == (want_lo, want_hi), (sizes, lo, hi, total, j)


def _random_planted(rng: random.Random, rows: int, cols: int) -> frozenset:
    return frozenset(plant_black(rng, Grid(rows, cols), rng.choice([0.2, 0.3])))


def test_an_answer_that_keeps_the_cells_a_count_depends_on_keeps_the_count():
    """``differs``: an answer that changes none of these cells leaves the number's count as
    planted, and every single changed cell among them is one an answer may need to change."""
    rng = random.Random(3)
    for _ in range(40):
        rows, cols = rng.randint(2, 7), rng.randint(2, 7)
        planted = _random_planted(rng, rows, cols)
        oracle = KuromasuOracle(rows, cols, planted, guarded=False)
        var_cell = {v: c for c, v in oracle.black.items()}
        for cell in [c for c in Grid(rows, cols).cells() if c not in planted]:
            oracle.add_clue(cell, _count(rows, cols, planted, cell))
            watched = {var_cell[abs(lit)] for lit in oracle.differs[cell]}
            for _ in range(20):
                other = {c for c in Grid(rows, cols).cells() if rng.random() < 0.3}
                same = {c for c in watched if (c in other) == (c in planted)} == watched
                if same:
                    assert cell not in other and _count(rows, cols, other, cell) == _count(
                        rows, cols, planted, cell
                    )
            # A literal is "this cell is not as planted".
            for lit in oracle.differs[cell]:
                assert (lit > 0) == (var_cell[abs(lit)] not in planted)
        oracle.close()


@pytest.mark.parametrize("rows,cols", [(3, 4), (4, 4), (3, 5)])
def test_oracle_questions_agree_with_brute_force(rows, cols):
    """On tiny boards and random clue sets: the oracle finds another answer exactly when brute
    force does, and a removal question's answer is a valid answer of the clues left."""
    rng = random.Random(rows * 10 + cols)
    # Every answer of the bare board (brute force against the verifier), then per clue set
    # those whose counts match.
    bare = all_solutions(Kuromasu(rows, cols, numbers={}), max_cells=rows * cols)

    def answers(numbers: dict) -> set:
        return {
            a for a in bare if all(c not in a and _count(rows, cols, a, c) == n for c, n in numbers.items())
        }

    checked = 0
    for _ in range(25):
        planted = _random_planted(rng, rows, cols)
        count = {c: _count(rows, cols, planted, c) for c in Grid(rows, cols).cells() if c not in planted}
        clues = {c for c in count if rng.random() < 0.6}
        if not clues:
            continue
        oracle = KuromasuOracle(rows, cols, planted, guarded=False)
        for c in sorted(clues):
            oracle.add_clue(c, count[c])
        found = answers({c: count[c] for c in clues})
        assert planted in found
        other = oracle.alternative(set(clues))
        assert (other is None) == (found == {planted}), (planted, clues)
        if other is None:
            # Unique: each removal question is answered as brute force answers it.
            for c in sorted(clues):
                rest = clues - {c}
                fewer = answers({x: count[x] for x in rest})
                alt = oracle.alternative(rest, [c])
                assert (alt is None) == (fewer == {planted}), (planted, clues, c)
                if alt is not None:
                    assert alt in fewer and alt != planted
                checked += 1
        else:
            assert other in found and other != planted
        oracle.close()
    assert checked > 20


def test_one_flips_are_exactly_the_one_cell_answers_no_clue_rules_out():
    rng = random.Random(5)
    for _ in range(30):
        rows, cols = rng.randint(2, 8), rng.randint(2, 8)
        grid = Grid(rows, cols)
        planted = _random_planted(rng, rows, cols)
        count = {c: _count(rows, cols, planted, c) for c in grid.cells() if c not in planted}
        clues = {c for c in count if rng.random() < 0.3}
        bare = Kuromasu(rows, cols, numbers={})
        expected = set()
        for cell in grid.cells():
            other = planted ^ {cell}
            if bare.verify(KuromasuSolution(other)) == [] and all(
                c not in other and _count(rows, cols, other, c) == count[c] for c in clues
            ):
                expected.add(other)
        assert set(one_flips(grid, planted, set(clues))) == expected


def test_bit_set_reach_agrees_with_the_flood_fill():
    rng = random.Random(2)
    for _ in range(300):
        rows, cols = rng.randint(1, 8), rng.randint(1, 8)
        black = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.35}
        comps = white_components(rows, cols, black)
        if not comps:
            continue
        white = sum(1 << (r * cols + c) for comp in comps for r, c in comp)
        start = rng.choice(rng.choice(comps))
        goal = {rng.choice(rng.choice(comps)) for _ in range(rng.randint(0, 3))}
        own = next(comp for comp in comps if start in comp)
        bits = sum(1 << (r * cols + c) for r, c in goal)
        reached = bit_region(rows, cols, 1 << (start[0] * cols + start[1]), white, bits)
        assert (not bits & ~reached) == (goal <= set(own))


def test_planted_black_cells_keep_the_rules():
    for seed in range(6):
        rng = random.Random(seed)
        rows, cols = rng.randint(3, 20), rng.randint(3, 20)
        black = plant_black(rng, Grid(rows, cols), 0.3)
        assert Kuromasu(rows, cols, numbers={}).verify(KuromasuSolution(frozenset(black))) == []
        assert len(white_components(rows, cols, black)) == 1


@pytest.mark.parametrize("size,seed", [(12, 1), (20, 2), (25, 3)])
def test_generated_boards_are_unique_in_the_sat_paradigm_and_reproducible(size, seed):
    g = generate("kuromasu", size, size, seed=seed, paradigm="none")
    assert g.puzzle.verify(g.solution) == []
    result = solve(g.puzzle, "sat", count=2, timeout=120)
    assert result.status.value == "sat" and result.count == 1 and result.exhausted, (size, seed, result.error)
    assert result.solution == g.solution
    again = generate("kuromasu", size, size, seed=seed, paradigm="none")
    assert again.puzzle == g.puzzle and again.puzzle.meta == g.puzzle.meta


def test_with_every_question_decided_no_clue_can_go():
    """Minimal clue sets, checked by the SAT paradigm: without any one clue a second answer exists."""
    g = generate("kuromasu", 9, 9, seed=3, paradigm="none", budget=0)
    assert g.stats["oracle_undecided"] == 0
    p = g.puzzle
    for cell in p.numbers:
        fewer = Kuromasu(p.rows, p.cols, numbers={c: n for c, n in p.numbers.items() if c != cell})
        assert solve(fewer, "sat", count=2, timeout=60).count == 2, cell
