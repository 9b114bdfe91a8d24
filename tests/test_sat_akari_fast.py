"""Light Up's SAT options ``amo=native`` and ``card=native``: segments' at-most-one and numbers'
exactly-k as native cardinality constraints for a solver that takes them (Minicard, Gluecard),
built from flat arrays; the default (``amo=auto``, ``card=auto``) states them as clauses and runs
on the paradigm's default solver.

Checked against brute force on random boards, against a plain walk of the board for the
constraints themselves, against the clausal options and other solvers for the same answers, and
against the published answers of the janko sample (each proved unique)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import puzzlebench as pb
from bruteforce import all_solutions, random_lightup
from puzzlebench import registry
from puzzlebench.formats import iter_janko
from puzzlebench.model import LightUp
from puzzlebench.result import Status

pytest.importorskip("pysat")

NATIVE = {"amo": "native", "card": "native"}
CLAUSAL = {"amo": "auto", "card": "auto"}
#: python-sat's solvers that take native cardinality constraints
NATIVE_SOLVERS = ("minicard", "gluecard3", "gluecard4")


def _boards(seed: int, n: int, max_open: int = 14) -> list[LightUp]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        puzzle = random_lightup(
            rng, rng.randint(1, 6), rng.randint(1, 6), wall_p=rng.choice((0.15, 0.3, 0.45))
        )
        if len(puzzle.open_cells) <= max_open:
            out.append(puzzle)
    return out


def _answers(puzzle: LightUp, **options) -> tuple[set[frozenset], pb.Result]:
    res = pb.solve(puzzle, "sat", count=0, strict=False, **options)
    assert res.exhausted and all(not v for v in res.violations), (puzzle, options)
    return {s.cells for s in res.solutions}, res


def _segments(puzzle: LightUp) -> list[tuple]:
    """Maximal runs of open cells, rows then columns, walked here cell by cell."""
    out = []
    for lines in (
        [[(r, c) for c in range(puzzle.cols)] for r in range(puzzle.rows)],
        [[(r, c) for r in range(puzzle.rows)] for c in range(puzzle.cols)],
    ):
        for line in lines:
            run: list = []
            for cell in line + [None]:
                if cell is not None and cell not in puzzle.walls:
                    run.append(cell)
                    continue
                if run:
                    out.append(tuple(run))
                run = []
    return out


def test_the_default_is_clausal_and_native_runs_on_a_solver_that_takes_it():
    from puzzlebench.encodings.sat.lightup import build_default
    from puzzlebench.errors import EncodingError

    spec = registry.get("lightup", "sat")
    default = registry.paradigm("sat").default_solver
    assert spec.option("amo").default == "auto" and spec.option("card").default == "auto"
    puzzle = LightUp(3, 4, walls=frozenset({(1, 1)}), numbers={(1, 1): 2})
    assert not build_default(puzzle, spec.resolve({})).native
    res = pb.solve(puzzle, "sat", count=2)
    assert res.solver == default and "cardinality" not in res.size and res.verified
    cnf = build_default(puzzle, NATIVE)
    assert cnf.native
    res = pb.solve(puzzle, "sat", count=2, solver="minicard", **NATIVE)
    assert res.solver == "minicard" and res.size["cardinality"] == len(cnf.native) and res.verified
    # the default solver takes no native constraint: refused with the reason, never swapped
    with pytest.raises(EncodingError, match="native cardinality constraints.*minicard"):
        pb.solve(puzzle, "sat", count=2, **NATIVE)
    # large boards too (their search is as short: the generated 100x100 boards prove unique)
    side = 45
    big = LightUp(side, side, walls=frozenset((r, c) for r in range(0, side, 2) for c in range(0, side, 2)))
    assert build_default(big, NATIVE).native
    res = pb.solve(big, "sat", count=2, solver="minicard", **NATIVE)
    assert res.solver == "minicard" and res.status is Status.SAT and res.verified
    assert pb.solve(big, "sat", count=1).solver == default


@pytest.mark.parametrize("seed", range(6))
def test_native_constraints_are_the_segments_and_the_numbers(seed):
    """Each segment of two or more cells has one "at most 1" over its cells; each number k with
    m open neighbours has "at most k" over them and "at most m - k" over their negations when
    0 < k < m, and unit clauses when k is 0 or m."""
    from puzzlebench.encodings.sat.lightup import build_default

    for puzzle in _boards(seed, 25, max_open=40):
        cnf = build_default(puzzle, NATIVE)
        var = cnf.decision
        assert list(var) == puzzle.open_cells and list(var.values()) == list(range(1, len(var) + 1))
        expected = [(tuple(sorted(var[c] for c in seg)), 1) for seg in _segments(puzzle) if len(seg) > 1]
        units = set()
        for wall, k in puzzle.numbers.items():
            around = _around(puzzle, var, wall)
            m = len(around)
            if k > m:
                assert () in cnf.clauses
            elif k in (0, m):
                units |= {x if k else -x for x in around}
            else:
                expected += [(tuple(sorted(around)), k), (tuple(sorted(-x for x in around)), m - k)]
        assert Counter((tuple(sorted(lits)), k) for lits, k in cnf.native) == Counter(expected), puzzle
        assert units <= {cl[0] for cl in cnf.clauses if len(cl) == 1}


def _around(puzzle: LightUp, var: dict, wall) -> list[int]:
    r, c = wall
    return [var[n] for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in var]


@pytest.mark.parametrize("seed", range(8))
def test_default_answers_match_brute_force_and_the_clausal_options(seed):
    for puzzle in _boards(200 + seed, 12):
        truth = all_solutions(puzzle, max_cells=16)
        got, res = _answers(puzzle)
        assert got == truth, puzzle
        assert res.solver == "cadical195" and not res.size.get("cardinality")
        got, res = _answers(puzzle, solver="minicard", **NATIVE)
        assert got == truth and res.solver == "minicard", puzzle
        # each option native alone
        for options in ({"amo": "native", "card": "auto"}, {"amo": "auto", "card": "native"}):
            assert _answers(puzzle, solver="minicard", **options)[0] == truth, options


@pytest.mark.parametrize("solver", ["minisat22", "cadical195", "glucose4", "gluecard4"])
def test_a_named_solver_runs_the_clauses_and_a_native_solver_the_native_constraints(solver):
    """Every solver runs the clausal default; a solver that takes native constraints also runs
    ``amo=native card=native`` with them, and a solver that does not is refused; the same answers.
    The native runs take the bare puzzle (``deduce="none"``), so that every board is built (the
    deduction stage proves some of them unsat before any encoding)."""
    from puzzlebench.encodings.sat.lightup import build_default
    from puzzlebench.errors import EncodingError

    for puzzle in _boards(31, 15):
        truth = all_solutions(puzzle, max_cells=16)
        got, res = _answers(puzzle, solver=solver)
        assert got == truth and res.solver == solver and "cardinality" not in res.size, puzzle
        native = build_default(puzzle, NATIVE).native
        if solver in NATIVE_SOLVERS:
            got, res = _answers(puzzle, solver=solver, deduce="none", **NATIVE)
            assert got == truth and res.size.get("cardinality", 0) == len(native), puzzle
        elif native:
            with pytest.raises(EncodingError, match="native cardinality constraints"):
                pb.solve(puzzle, "sat", count=0, solver=solver, deduce="none", **NATIVE)


def test_clauses_and_native_constraints_agree_with_long_segments():
    """Segments longer than the pairwise bound take the sequential counter in the clausal
    default: the formula on MiniSat still has exactly the brute-force answers, as the native
    constraints on Minicard do."""
    rng = random.Random(9)
    for _ in range(12):
        cols = rng.randint(7, 8)  # the first row one segment of 7 or 8 cells
        walls = frozenset((1, c) for c in range(cols) if rng.random() < 0.7)
        puzzle = LightUp(
            2, cols, walls=walls, numbers={w: rng.randint(0, 1) for w in walls if rng.random() < 0.5}
        )
        if len(puzzle.open_cells) > 12:
            continue
        truth = all_solutions(puzzle, max_cells=16)
        assert _answers(puzzle, solver="minisat22")[0] == truth == _answers(puzzle)[0], puzzle
        assert _answers(puzzle, solver="minicard", **NATIVE)[0] == truth, puzzle


def test_degenerate_boards():
    # every cell a wall: the one answer is no bulb at all
    walls = LightUp(2, 2, walls=frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}), numbers={(0, 0): 0})
    got, _ = _answers(walls)
    assert got == {frozenset()}
    # a number wanting more bulbs than it has open neighbours
    corner = LightUp(2, 2, walls=frozenset({(0, 0)}), numbers={(0, 0): 3})
    for options in ({"solver": "minicard", **NATIVE}, CLAUSAL):
        # the bare puzzle: the deduction stage alone proves it unsat
        assert pb.solve(corner, "sat", count=2, deduce="none", **options).status is Status.UNSAT
        assert pb.solve(corner, "sat", count=2, **options).status is Status.UNSAT
    # a single open cell
    assert _answers(LightUp(1, 1))[0] == {frozenset({(0, 0)})}


def test_janko_sample_default_matches_the_published_answers(janko_dir):
    """Every 20th janko Akari puzzle, read from its text: the default's one answer is the
    published one, proved unique, on the default solver (and natively on Minicard)."""
    from puzzlebench.formats import janko
    from puzzlebench.model import Family

    entries = list(iter_janko(janko_dir / "Akari_dataset.json", Family("lightup")))[::20]
    assert entries
    for entry in entries:
        puzzle = janko.read(entry.problem, Family("lightup"))
        res = pb.solve(puzzle, "sat", count=2)
        assert res.status is Status.SAT and res.unique and res.verified, entry.id
        assert res.solutions == (entry.solution,), entry.id
        assert res.solver == "cadical195", entry.id
        native = pb.solve(puzzle, "sat", count=2, solver="minicard", **NATIVE)
        assert native.unique and native.solutions == (entry.solution,), entry.id
