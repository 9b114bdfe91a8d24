"""Kuromasu's numbers as native cardinality constraints (``card=native``, on a solver that takes
them) and as the default ``sized`` clauses: the constraints themselves counted against binomial
coefficients, every answer on small boards against brute force, the refusal of native
constraints on a solver without them, and the janko sample against the published answers."""

from __future__ import annotations

import random
from itertools import product
from math import comb

import pytest

import puzzlebench as pb
from bruteforce import all_solutions, random_kuromasu
from puzzlebench.errors import EncodingError
from puzzlebench.model import Kuromasu

pytest.importorskip("pysat")

NATIVE_SOLVERS = ("minicard", "gluecard3", "gluecard4")


def _boards(seed: int, n: int, max_cells: int = 14) -> list[Kuromasu]:
    rng = random.Random(seed)
    shapes = [(r, c) for r in range(1, 6) for c in range(1, 6) if r * c <= max_cells]
    return [random_kuromasu(rng, *rng.choice(shapes)) for _ in range(n)]


def _answers(puzzle: Kuromasu, **options) -> set[frozenset]:
    res = pb.solve(puzzle, "sat", count=0, strict=False, **options)
    assert res.exhausted and all(not v for v in res.violations), (puzzle, options)
    return {s.cells for s in res.solutions}


@pytest.mark.parametrize("n,k", [(n, k) for n in range(0, 6) for k in range(-1, n + 2)])
def test_native_equals_has_exactly_the_binomial_number_of_models(n, k):
    """sum(lits) == k over n free variables (some literals negated) has comb(n, k) models, each
    with exactly k literals true, counted by enumerating them on Minicard."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    from puzzlebench.encodings.sat.common import CnfModel

    rng = random.Random(n * 10 + k)
    lits = [v if rng.random() < 0.5 else -v for v in range(1, n + 1)]
    cnf = CnfModel(pool=IDPool(start_from=n + 1))
    cnf.native_equals(lits, k)
    models = set()
    with Solver(name="minicard") as solver:
        solver.add_clause([n + 1, -(n + 1)])  # a variable, so that an empty formula still solves
        for clause in cnf.clauses:
            solver.add_clause(list(clause))
        for atmost, bound in cnf.native:
            solver.add_atmost(list(atmost), bound)
        while solver.solve():
            model = solver.get_model()[:n]
            assert sum(model[abs(x) - 1] == x for x in lits) == k
            models.add(tuple(model))
            solver.add_clause([-x for x in model] or [-(n + 1)])
            if not model:
                break
    expected = comb(n, k) if 0 <= k <= n else 0
    assert len(models) == expected


@pytest.mark.parametrize("visibility", ("rays", "pairs", "shared"))
def test_native_counts_agree_with_brute_force_on_every_native_solver(visibility):
    for puzzle in _boards(seed=31, n=25):
        truth = all_solutions(puzzle)
        for solver in NATIVE_SOLVERS:
            assert _answers(puzzle, card="native", visibility=visibility, solver=solver) == truth, (
                puzzle,
                solver,
            )


@pytest.mark.parametrize("connectivity", ("lazy", "rank"))
def test_the_default_agrees_with_brute_force_on_its_own_and_on_named_solvers(connectivity):
    """``sized`` states the adder's clauses on small boards, on the default solver or any named
    one (a native solver too, which takes clauses as any other): the same answers every way."""
    for puzzle in _boards(seed=37, n=25):
        truth = all_solutions(puzzle)
        res = pb.solve(puzzle, "sat", count=0, strict=False, connectivity=connectivity)
        assert {s.cells for s in res.solutions} == truth and res.exhausted, puzzle
        assert res.options["card"] == "sized" and res.solver == "cadical195"
        for solver in ("minisat22", "minicard"):
            assert _answers(puzzle, connectivity=connectivity, solver=solver) == truth, (puzzle, solver)


def test_the_default_states_clauses_on_every_board_and_runs_the_default_solver():
    """``sized``: the adder below 2,000 cells, lines from there; clauses only, on any board, and
    the paradigm's default solver runs them."""
    from puzzlebench.encodings.sat import kuromasu
    from puzzlebench.registry import get, paradigm

    spec = get("kuromasu", "sat")
    options = spec.resolve({})
    assert options["card"] == "sized"
    small = Kuromasu(5, 5, numbers={(0, 0): 3, (2, 2): 5, (4, 4): 2})
    cnf = spec.build(small, options)
    assert not cnf.native
    side = int(kuromasu.AUTO_CELLS**0.5) + 1
    big = Kuromasu(side, side, numbers={(0, 0): 3, (side // 2, side // 2): 5})
    cnf = spec.build(big, options)
    assert not cnf.native
    for puzzle in (small, big):
        res = pb.solve(puzzle, "sat", count=2)
        assert res.solver == paradigm("sat").default_solver == "cadical195", puzzle
        assert "cardinality" not in res.size and res.verified, puzzle


def test_native_on_a_solver_without_native_constraints_is_refused():
    puzzle = Kuromasu(3, 3, numbers={(1, 1): 3})
    for solver in ("minisat22", "cadical195"):
        with pytest.raises(EncodingError, match="native cardinality constraints.*minicard"):
            pb.solve(puzzle, "sat", count=2, card="native", solver=solver)
    # a clausal card on a native solver is only clauses: it runs as on any other solver
    assert _answers(puzzle, card="adder", solver="minicard") == all_solutions(puzzle)


def test_contradictory_numbers_are_unsat_with_native_constraints():
    """A 1 in a corner blackens both neighbours, which walls in the far corner; a 5 on a 2x2 board
    could see three cells were the 1 opposite not to blacken them both."""
    for puzzle in (Kuromasu(2, 2, numbers={(0, 0): 1}), Kuromasu(2, 2, numbers={(0, 0): 3, (1, 1): 1})):
        assert not all_solutions(puzzle)
        for solver in NATIVE_SOLVERS:
            for deduce in ("none", "auto"):  # the bare puzzle, and after the deduction stage
                res = pb.solve(puzzle, "sat", count=2, card="native", solver=solver, deduce=deduce)
                assert res.status is pb.Status.UNSAT and res.exhausted, (puzzle, solver, deduce)


def test_janko_kuromasu_sample_is_unique_and_matches_the_published_answer_by_default(janko_dir):
    from itertools import islice

    from puzzlebench.formats import iter_janko
    from puzzlebench.model import Family

    entries = iter_janko(janko_dir / "Kuromasu_dataset.json", Family.KUROMASU)
    for entry in islice(entries, 0, None, 28):  # 20 puzzles across the corpus
        res = pb.solve(entry.puzzle, "sat", count=2)
        assert res.solver == "cadical195" and res.unique, entry.id
        assert [s.cells for s in res.solutions] == [entry.solution.cells], entry.id
        native = pb.solve(entry.puzzle, "sat", count=2, card="native", solver="minicard")
        assert native.unique and native.solutions == res.solutions, entry.id


def test_random_boards_of_every_shape_agree_between_native_and_adder():
    """Larger boards than brute force reaches (up to 7x7): native and adder enumerate the same
    answers up to three of them, each accepted by the verifier."""
    rng = random.Random(43)
    for rows, cols in product((1, 3, 5, 7), (2, 4, 7)):
        puzzle = random_kuromasu(rng, rows, cols)
        # the bare puzzles, so that both encodings are built and searched
        native = pb.solve(
            puzzle, "sat", count=3, card="native", solver="minicard", strict=False, deduce="none"
        )
        adder = pb.solve(puzzle, "sat", count=3, card="adder", strict=False, deduce="none")
        assert native.status is adder.status and len(native.solutions) == len(adder.solutions), puzzle
        assert all(not v for v in native.violations), puzzle


def test_the_default_as_clauses_alone_has_the_brute_force_answers():
    """What a backend that reads only ``clauses`` gets (:meth:`CnfModel.clausal`): the default's
    artefact (clauses only: ``clausal`` leaves it as it is), enumerated on a plain solver over the
    decision variables, has exactly the answers brute force finds; an artefact with native
    constraints is refused, never restated."""
    from pysat.solvers import Solver

    from puzzlebench.registry import get

    spec = get("kuromasu", "sat")
    options = spec.resolve({"connectivity": "rank"})
    for puzzle in _boards(seed=41, n=25):
        cnf = spec.build(puzzle, options)
        cnf.clausal("a test")
        assert not cnf.native
        found = set()
        with Solver(name="glucose4", bootstrap_with=[list(c) for c in cnf.clauses] or [[1, -1]]) as solver:
            while solver.solve():
                model = set(solver.get_model())
                found.add(frozenset(cell for cell, v in cnf.decision.items() if v in model))
                block = [-v if v in model else v for v in cnf.decision.values()]
                if not block:
                    break
                solver.add_clause(block)
        assert found == all_solutions(puzzle), puzzle
    explicit = spec.build(Kuromasu(3, 3, numbers={(1, 1): 3}), options | {"card": "native"})
    with pytest.raises(
        EncodingError, match=r"native cardinality constraints \(.*\), which a test cannot take"
    ):
        explicit.clausal("a test")
