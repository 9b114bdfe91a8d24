"""The SAT paradigm's faster paths give the same answers: Light Up's lit clauses without the
ones another lit clause contains, the janko readers that build a board without re-checking each
cell, and Kuromasu on large boards on the paradigm's default solver (or a named one)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pysat")

import puzzlebench
from bruteforce import all_solutions, random_kuromasu, random_lightup
from puzzlebench.errors import ParseError
from puzzlebench.formats import janko
from puzzlebench.model import Kuromasu, LightUp
from puzzlebench.model.family import numbers_from_tokens
from puzzlebench.result import Status


# -- Light Up: every open cell is lit, with fewer clauses ----------------------------------------
def _sight(puzzle: LightUp, cell) -> set:
    """The open cells that light ``cell``: itself and its row and column up to the walls."""
    out = {cell}
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = cell[0] + dr, cell[1] + dc
        while 0 <= r < puzzle.rows and 0 <= c < puzzle.cols and (r, c) not in puzzle.walls:
            out.add((r, c))
            r, c = r + dr, c + dc
    return out


@pytest.mark.parametrize("seed", range(40))
def test_lightup_every_open_cell_keeps_a_lit_clause_within_its_sight(seed):
    """Each open cell still has an all-positive clause over the cells that light it (so "every
    open cell is lit" is stated), and no such clause contains another (the dropped ones)."""
    from puzzlebench.encodings.sat.lightup import build_default

    rng = random.Random(seed)
    puzzle = random_lightup(rng, rng.randint(1, 9), rng.randint(1, 9), wall_p=rng.choice((0.1, 0.25, 0.4)))
    cnf = build_default(puzzle, {"amo": "auto", "card": "auto"})
    var = cnf.decision
    positive = [frozenset(cl) for cl in cnf.clauses if cl and all(x > 0 for x in cl)]
    number_clauses = set()  # "at least k around a wall" clauses are positive too
    for r, c in puzzle.numbers:
        number_clauses |= {var[n] for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in var}
    for cell in var:
        sight = {var[x] for x in _sight(puzzle, cell)}
        assert any(cl <= sight for cl in positive), (puzzle.walls, cell)
    lit = [cl for cl in positive if not cl <= number_clauses]
    assert not any(a < b for a in lit for b in lit), "a lit clause contains another"


@pytest.mark.parametrize("seed", range(30))
def test_lightup_answers_match_brute_force(seed):
    rng = random.Random(100 + seed)
    puzzle = random_lightup(rng, rng.randint(2, 5), rng.randint(2, 5))
    try:
        truth = all_solutions(puzzle, max_cells=16)
    except ValueError:
        pytest.skip("too many open cells for brute force")
    res = puzzlebench.solve(puzzle, "sat", count=0)
    assert res.exhausted and {s.cells for s in res.solutions} == truth


# -- janko readers ---------------------------------------------------------------------------------
def _checked_lightup(text: str) -> LightUp:
    """The board the constructor's own checks build from the same janko text."""
    lines = [line.split() for line in text.strip().splitlines()]
    rows, cols = map(int, lines[0])
    tokens = lines[1:]
    walls = {(r, c) for r, row in enumerate(tokens) for c, t in enumerate(row) if t == "x"}
    plain = [["-" if t == "x" else t for t in row] for row in tokens]
    return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers_from_tokens(plain, "-", "", 0, 4))


@pytest.mark.parametrize("seed", range(20))
def test_janko_readers_build_the_boards_the_constructor_builds(seed):
    rng = random.Random(seed)
    lightup = random_lightup(rng, rng.randint(1, 12), rng.randint(1, 12))
    text = janko.write(lightup)
    read = janko.read(text, LightUp.family)
    assert read == lightup and vars(read) == vars(_checked_lightup(text))
    assert list(read.numbers.items()) == sorted(read.numbers.items())  # row-major, as freeze_map
    kuromasu = random_kuromasu(rng, rng.randint(2, 9), rng.randint(2, 9))
    kuromasu = Kuromasu(kuromasu.rows, kuromasu.cols, numbers=kuromasu.numbers)  # janko has no '?'
    read = janko.read(janko.write(kuromasu), Kuromasu.family)
    assert read == kuromasu and vars(read) == vars(
        Kuromasu(kuromasu.rows, kuromasu.cols, numbers=kuromasu.numbers)
    )
    assert read.content_hash() == kuromasu.content_hash()


def test_janko_readers_keep_their_errors_and_spellings():
    # a number written with a leading zero is still that number
    assert janko.read("2 2\n03 -\n- x\n", LightUp.family).numbers == {(0, 0): 3}
    assert janko.read("2 2\n03 -\n- -\n", Kuromasu.family).numbers == {(0, 0): 3}
    with pytest.raises(ParseError, match=r"bad lightup problem token '5'"):
        janko.read("2 2\n5 -\n- -\n", LightUp.family)
    with pytest.raises(ParseError, match=r"bad lightup problem token 'o'"):
        janko.read("2 2\n- -\n- o\n", LightUp.family)
    with pytest.raises(ParseError, match=r"bad kuromasu problem token '0'"):
        janko.read("2 2\n0 -\n- -\n", Kuromasu.family)
    with pytest.raises(ParseError, match=r"Kuromasu number at \(0, 0\) must be 1\.\.3.* at line 2, column 1"):
        janko.read("2 2\n4 -\n- -\n", Kuromasu.family)


# -- Kuromasu's solver on large boards -------------------------------------------------------------
def test_large_kuromasu_runs_on_the_default_solver_and_proves_the_planted_answer():
    from puzzlebench import registry
    from puzzlebench.encodings.sat.kuromasu import AUTO_CELLS
    from puzzlebench.suites import load_suite

    item = next(it for it in load_suite("gen-kuromasu") if it.puzzle.rows * it.puzzle.cols >= AUTO_CELLS)
    res = puzzlebench.solve(item.puzzle, "sat", count=2)
    assert res.solver == registry.paradigm("sat").default_solver == "cadical195"
    assert res.status is Status.SAT and res.unique and res.verified
    assert res.solutions[0] == item.solution
    # naming another solver still runs it, to the same answer
    named = puzzlebench.solve(item.puzzle, "sat", count=2, solver="glucose42")
    assert named.solver == "glucose42" and named.solutions == res.solutions and named.unique
