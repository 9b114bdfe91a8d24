"""SAT paradigm (python-sat): answers checked by the verifier, counts by brute force."""

from __future__ import annotations

import functools
import itertools
import json
import random

import pytest

pytest.importorskip("pysat")

import puzzlebench
from bruteforce import all_solutions, random_kuromasu, random_lightbulbs, random_lightup
from puzzlebench import registry
from puzzlebench.encodings.sat.common import CARD_CHOICES
from puzzlebench.errors import EncodingError
from puzzlebench.model import Kuromasu, LightBulbs, LightUp, family_spec
from puzzlebench.result import Status

CONNECTIVITY = ("lazy", "propagator", "rank")


def _answers(puzzle, encoding="default", **options) -> set[frozenset]:
    res = puzzlebench.solve(puzzle, "sat", encoding, count=0, **options)
    assert res.exhausted, res.error
    return {s.cells for s in res.solutions}


@functools.cache
def _truth(puzzle) -> frozenset[frozenset]:
    """Brute force, once per puzzle across the tests."""
    return frozenset(all_solutions(puzzle))


def _tiny(family: str, seed: int, n: int = 25, max_cells: int = 12):
    """Random boards of at most ``max_cells`` cells (so brute force stays instant)."""
    rng = random.Random(seed)
    make = {"lightup": random_lightup, "kuromasu": random_kuromasu, "lightbulbs": random_lightbulbs}.get(
        family
    ) or family_spec(family).random_board  # other families: their own random boards
    shapes = [(r, c) for r in range(1, 5) for c in range(1, 5) if r * c <= max_cells]
    return [make(rng, *rng.choice(shapes)) for _ in range(n)]


# janko.at Akari 001 (10x10): "x" wall, digit numbered wall, "-" open; its published answer.
JANKO_001 = """\
1 - - - - - - - - 1
- - - x - - - - - -
- x - - - 2 - - x -
- - - - - - - 1 - -
- - - 4 - - - - - -
- - - - - - 2 - - -
- - 2 - - - - - - -
- x - - 2 - - - x -
- - - - - - 0 - - -
1 - - - - - - - - 1"""
JANKO_001_BULBS = {
    (0, 8),
    (1, 0),
    (1, 5),
    (2, 6),
    (3, 3),
    (3, 8),
    (4, 2),
    (4, 4),
    (5, 3),
    (5, 7),
    (6, 1),
    (6, 6),
    (7, 2),
    (7, 5),
    (8, 4),
    (8, 9),
    (9, 1),
}


def _lightup(text: str) -> LightUp:
    grid = [row.split() for row in text.splitlines()]
    cells = [(r, c, t) for r, row in enumerate(grid) for c, t in enumerate(row)]
    return LightUp(
        len(grid),
        len(grid[0]),
        walls=frozenset((r, c) for r, c, t in cells if t != "-"),
        numbers={(r, c): int(t) for r, c, t in cells if t.isdigit()},
        name="janko-akari-001",
    )


LIGHTUP_10x10 = _lightup(JANKO_001)


# -- every family, every SAT encoding, against brute force ---------------------------------------
@pytest.mark.parametrize("spec", registry.encodings(paradigm="sat"), ids=lambda s: f"{s.family}-{s.name}")
def test_counts_equal_brute_force(spec):
    for puzzle in _tiny(spec.family.value, seed=7):
        assert _answers(puzzle, spec.name) == _truth(puzzle), puzzle


def _setting(monkeypatch, family: str, name: str, value) -> None:
    """The SAT default's fixed setting ``name`` at ``value`` for this test: the code the default
    runs on larger boards (e.g. ``cut=cell`` from 2,000 cells on), reached on boards brute force
    can check."""
    spec = registry.get(family, "sat")
    assert name in spec.settings
    monkeypatch.setitem(spec.settings, name, value)


@pytest.mark.parametrize("connectivity", CONNECTIVITY)
@pytest.mark.parametrize("visibility", ("auto", "shared", "rays", "pairs"))
@pytest.mark.parametrize("cut", ("auto", "cell", "none"))
def test_every_kuromasu_connectivity_and_visibility_agrees_with_brute_force(
    monkeypatch, connectivity, visibility, cut
):
    # ``cut`` is a fixed setting (auto: cell from 2,000 cells on, else none); both values run
    _setting(monkeypatch, "kuromasu", "cut", cut)
    for puzzle in _tiny("kuromasu", seed=11, n=30):
        got = _answers(puzzle, connectivity=connectivity, visibility=visibility)
        assert got == _truth(puzzle), (connectivity, visibility, cut, puzzle)


def test_connectivity_none_never_loses_a_true_solution_and_is_marked_incomplete():
    for puzzle in _tiny("kuromasu", seed=13, n=30):
        res = puzzlebench.solve(puzzle, "sat", count=0, connectivity="none")
        assert not res.complete
        assert _truth(puzzle) <= {s.cells for s in res.solutions}


def test_connectivity_rule_is_what_makes_a_split_board_unsat():
    # A 1 in a corner blackens both neighbours: the far corner is then cut off or touches a black.
    puzzle = Kuromasu(2, 2, numbers={(0, 0): 1})
    assert not _truth(puzzle)
    for connectivity in CONNECTIVITY:  # the bare puzzle: the encoding's rule alone, then the stage's
        for deduce in ("none", "auto"):
            res = puzzlebench.solve(puzzle, "sat", count=2, connectivity=connectivity, deduce=deduce)
            assert res.status is Status.UNSAT and res.exhausted, (connectivity, deduce)
    relaxed = puzzlebench.solve(puzzle, "sat", count=2, connectivity="none", strict=False)
    assert relaxed.status is Status.SAT and relaxed.solutions[0].cells == {(0, 1), (1, 0)}


# -- cardinality encodings as a parameter ---------------------------------------------------------
@pytest.mark.parametrize(
    "family,option", [("lightup", "amo"), ("lightup", "card"), ("kuromasu", "card"), ("lightbulbs", "card")]
)
def test_every_cardinality_encoding_gives_the_same_counts(family, option):
    puzzles = _tiny(family, seed=17, n=12)
    truth = [_truth(p) for p in puzzles]
    choices = registry.get(family, "sat").option(option).choices
    assert set(CARD_CHOICES) <= set(choices)
    for enc in choices:
        # native constraints run on a solver that takes them (the default, CaDiCaL, refuses them)
        solver = {"solver": "minicard"} if enc == "native" else {}
        for puzzle, expected in zip(puzzles, truth):
            try:
                got = _answers(puzzle, **{option: enc}, **solver)
            except EncodingError as exc:  # at-most-one-only encodings facing a larger bound
                assert enc in ("pairwise", "bitwise", "ladder") and "at-most-one" in str(exc)
                continue
            assert got == expected, (enc, puzzle)


def _models(clauses, variables: int, fixed: dict[int, bool]) -> bool:
    """Whether the clauses have a model extending ``fixed`` (auxiliaries above ``variables`` free)."""
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=[list(c) for c in clauses]) as solver:
        return solver.solve(assumptions=[v if val else -v for v, val in fixed.items()])


@pytest.mark.parametrize("lengths", [(3,), (2, 3), (1, 2, 3), (3, 3, 2, 1), (0, 2, 0, 1)])
def test_unary_sum_equals_accepts_exactly_the_right_sums(lengths):
    from pysat.formula import IDPool

    from puzzlebench.encodings.sat.common import unary_sum_equals

    # Unary inputs: number k holds literals "value >= 1", ">= 2", ... over fresh variables.
    pool = IDPool()
    numbers = [[pool.id((k, i)) for i in range(n)] for k, n in enumerate(lengths)]
    base = pool.top
    values = [range(n + 1) for n in lengths]
    for total in range(-1, sum(lengths) + 2):
        clauses: list = []
        pool.top = base
        unary_sum_equals(pool, clauses, numbers, total)
        for combo in itertools.product(*values):
            fixed = {lit: i < v for number, v in zip(numbers, combo) for i, lit in enumerate(number)}
            assert _models(clauses, base, fixed) == (sum(combo) == total), (lengths, total, combo)


def _unary_add_one_by_one(a, b, first, m):
    """unary_add's clauses appended one by one, straight from its two rules (the reference)."""
    o, out = range(first, first + m), []
    for i in range(min(len(a), m) + 1):  # A >= i and B >= j  ->  sum >= i + j
        for j in range(max(0, 1 - i), min(len(b), m - i) + 1):
            out.append(tuple(x for x in (-a[i - 1] if i else 0, -b[j - 1] if j else 0, o[i + j - 1]) if x))
    for i in range(len(a) + 1):  # A <= i and B <= j  ->  sum <= i + j
        for j in range(min(len(b), m - i - 1) + 1):
            out.append(
                tuple(x for x in (a[i] if i < len(a) else 0, b[j] if j < len(b) else 0, -o[i + j]) if x)
            )
    return out


def test_unary_add_writes_the_clauses_of_its_rules_in_their_order():
    """The merge zips its clauses together per row of the rules: for every pair of lengths and
    every cap (below, at and above the longest sum), the same clauses in the same order as the
    rules written out one clause at a time."""
    from pysat.formula import IDPool

    from puzzlebench.encodings.sat.common import unary_add

    for p, q in itertools.product(range(0, 7), repeat=2):
        for cap in range(1, p + q + 3):
            a = list(range(1, p + 1))
            b = [-x for x in range(p + 1, p + q + 1)]  # literals of both signs
            pool = IDPool(start_from=p + q + 1)
            clauses: list = []
            out = unary_add(pool, clauses, a, b, cap)
            if not p or not q:
                assert out == (a or b)[:cap] and clauses == [] and pool.top == p + q
                continue
            m = min(p + q, cap)
            assert out == list(range(p + q + 1, p + q + 1 + m)) and pool.top == p + q + m
            assert clauses == _unary_add_one_by_one(a, b, p + q + 1, m), (p, q, cap)


def test_exactly_binomial_and_sequential_at_most_one_match_their_counts():
    from pysat.formula import IDPool

    from puzzlebench.encodings.sat.common import exactly_binomial, seqcounter_amo

    for n in range(0, 5):
        lits = list(range(1, n + 1))
        for k in range(-1, n + 2):
            clauses = exactly_binomial(lits, k)
            for bits in itertools.product((False, True), repeat=n):
                assert _models(clauses, n, dict(zip(lits, bits))) == (sum(bits) == k), (n, k, bits)
    for n in range(1, 9):
        pool = IDPool(start_from=n + 1)
        clauses = seqcounter_amo(pool, list(range(1, n + 1)))
        for bits in itertools.product((False, True), repeat=n):
            assert _models(clauses, n, dict(zip(range(1, n + 1), bits))) == (sum(bits) <= 1), (n, bits)


def test_at_most_one_only_encodings_refuse_larger_bounds_clearly():
    puzzle = LightBulbs.from_rows([[2, 2], [2, 2]])
    with pytest.raises(EncodingError, match="pairwise.*cannot express"):
        puzzlebench.solve(puzzle, "sat", card="pairwise")


# -- status and uniqueness ------------------------------------------------------------------------
def test_uniqueness_proof_on_a_unique_light_up():
    assert len(all_solutions(LightUp(3, 3, numbers={(1, 1): 4}))) == 1
    res = puzzlebench.solve(LightUp(3, 3, numbers={(1, 1): 4}), "sat", count=2)
    assert res.status is Status.SAT and len(res.solutions) == 1 and res.exhausted
    assert res.solutions[0].cells == {(0, 1), (1, 0), (1, 2), (2, 1)}


def test_published_light_up_is_unique_in_both_encodings():
    for encoding in ("default", "seed004"):
        res = puzzlebench.solve(LIGHTUP_10x10, "sat", encoding, count=2)
        assert res.status is Status.SAT and res.exhausted
        assert [s.cells for s in res.solutions] == [JANKO_001_BULBS]


def test_unsat_puzzles_are_unsat():
    assert puzzlebench.solve(LightUp(1, 2, numbers={(0, 0): 2}), "sat").status is Status.UNSAT
    assert puzzlebench.solve(LightBulbs.from_rows([[9, 9], [9, 9]]), "sat").status is Status.UNSAT


@pytest.mark.parametrize("solver", ["glucose4", "minisat22", "cadical153"])
def test_other_solvers_give_the_same_answers(solver):
    for family in ("lightup", "kuromasu", "lightbulbs"):
        for puzzle in _tiny(family, seed=19, n=8):
            assert _answers(puzzle, solver=solver) == _truth(puzzle)


def test_propagator_needs_cadical195():
    with pytest.raises(EncodingError, match="cadical195"):
        puzzlebench.solve(
            Kuromasu(3, 3, numbers={(1, 1): 3}), "sat", connectivity="propagator", solver="glucose4"
        )


def test_unknown_solver_is_a_clear_error():
    with pytest.raises(EncodingError, match="solver"):
        puzzlebench.solve(LIGHTUP_10x10, "sat", solver="nosuchsolver")


def test_deadline_stops_enumeration_and_reports_timeout():
    rng = random.Random(3)
    big = LightBulbs.from_rows([[rng.randint(1, 5) for _ in range(14)] for _ in range(14)])
    res = puzzlebench.solve(big, "sat", count=0, timeout=0.2)
    assert not res.exhausted
    assert res.timings.total < 2.0
    assert puzzlebench.solve(big, "sat", count=0, timeout=0.0).status is Status.TIMEOUT


def test_size_and_search_figures_are_reported():
    res = puzzlebench.solve(LIGHTUP_10x10, "sat", count=2)
    assert {"variables", "clauses", "literals"} <= res.size.keys()
    assert res.size["clauses"] > 0 and res.size["literals"] >= res.size["clauses"]
    assert {"choices", "conflicts", "propagations", "restarts"} <= res.search.keys()
    assert res.extra["solver"] == res.solver == registry.paradigm("sat").default_solver


# -- the solver is the user's choice -----------------------------------------------------------
def test_every_board_runs_the_default_solver_and_names_it():
    """Light Up and Kuromasu boards, small and large, run on the paradigm's one default solver
    when no solver is named; the result and its record name the solver that ran, and the answer
    is proved unique. Naming a solver runs that one, to the same answers."""
    default = registry.paradigm("sat").default_solver
    assert default == "cadical195"
    side = 45  # a board of 2,025 cells, past the size where the encodings' auto settings switch
    big = LightUp(side, side, walls=frozenset((r, c) for r in range(0, side, 2) for c in range(0, side, 2)))
    for puzzle, count in ((LIGHTUP_10x10, 0), (Kuromasu(3, 3, numbers={(0, 0): 3, (2, 2): 3}), 0), (big, 1)):
        res = puzzlebench.solve(puzzle, "sat", count=count)
        record = res.to_record()
        assert res.status is Status.SAT and res.verified, puzzle
        assert (res.solver, record["solver"], res.extra["solver"]) == (default,) * 3
        assert res.solver_version.startswith(default) and record["solver_version"] == res.solver_version
        named = puzzlebench.solve(puzzle, "sat", count=count, solver="minisat22")
        assert named.solver == "minisat22" and named.status is Status.SAT and named.verified
        if not count:  # every answer: the same set on either solver
            assert res.exhausted and set(named.solutions) == set(res.solutions)
    assert puzzlebench.solve(LIGHTUP_10x10, "sat", count=2).unique
    # the IPASIR-UP propagator runs on CaDiCaL 1.9.5, the default
    res = puzzlebench.solve(Kuromasu(3, 3, numbers={(1, 1): 3}), "sat", count=2, connectivity="propagator")
    assert res.solver == "cadical195" and res.status is Status.SAT


def test_clauses_load_the_same_through_the_direct_entry_points():
    """MiniSat's and CaDiCaL's C entry points take the clauses as python-sat's own loop does:
    the same answers, and an empty clause leaves the solver unsatisfiable."""
    from pysat.solvers import Solver

    from puzzlebench.solvers.pysat_backend import _append

    rng = random.Random(5)
    for name in ("minisat22", "cadical195", "glucose4"):
        for _ in range(20):
            clauses = [
                tuple(rng.choice((-1, 1)) * rng.randint(1, 8) for _ in range(rng.randint(1, 3)))
                for _ in range(rng.randint(1, 30))
            ]
            with (
                Solver(name=name) as direct,
                Solver(name=name, bootstrap_with=[list(c) for c in clauses]) as plain,
            ):
                _append(direct, clauses)
                assert direct.solve() == plain.solve(), (name, clauses)
        with Solver(name=name) as direct:
            _append(direct, [(1, 2), ()])
            assert direct.solve() is False, name


def test_lazy_cuts_are_counted_in_extra():
    # the bare puzzle: the deduction stage would prove it unsat before the solver runs
    puzzle = Kuromasu(2, 2, numbers={(0, 0): 1})
    res = puzzlebench.solve(puzzle, "sat", count=1, connectivity="lazy", deduce="none")
    assert res.deduce == "none"
    assert res.status is Status.UNSAT and res.extra["lazy_rounds"] >= 1 and res.extra["lazy_cuts"] >= 1


# -- the janko corpus (skipped when absent) -------------------------------------------------------
def _janko(path, family: str, limit: int):
    data = json.loads(path.read_text())["data"]
    for name, rec in list(data.items())[:limit]:
        head, *rows = rec["problem"].strip().split("\n")
        R, C = map(int, head.split())
        grid = [row.split() for row in rows[:R]]
        sol = [row.split() for row in rec["solution"].strip().split("\n")[1 : R + 1]]
        if family == "lightup":
            walls = {(r, c) for r in range(R) for c in range(C) if grid[r][c] != "-"}
            numbers = {(r, c): int(t) for r in range(R) for c, t in enumerate(grid[r]) if t.isdigit()}
            marked = {(r, c) for r in range(R) for c in range(C) if sol[r][c] == "o"}
            yield LightUp(R, C, walls=frozenset(walls), numbers=numbers, name=name), marked
        else:
            numbers = {(r, c): int(t) for r in range(R) for c, t in enumerate(grid[r]) if t.isdigit()}
            marked = {(r, c) for r in range(R) for c in range(C) if sol[r][c] == "x"}
            yield Kuromasu(R, C, numbers=numbers, name=name), marked


def test_janko_akari_sample_is_unique_and_matches_the_published_answer(janko_dir):
    for puzzle, published in _janko(janko_dir / "Akari_dataset.json", "lightup", 30):
        for encoding in ("default", "seed004"):
            res = puzzlebench.solve(puzzle, "sat", encoding, count=2)
            assert res.exhausted and [s.cells for s in res.solutions] == [published], (puzzle.name, encoding)


@pytest.mark.parametrize("connectivity", ("lazy", "propagator"))
def test_janko_kuromasu_sample_is_unique_and_matches_the_published_answer(janko_dir, connectivity):
    for puzzle, published in _janko(janko_dir / "Kuromasu_dataset.json", "kuromasu", 10):
        res = puzzlebench.solve(puzzle, "sat", count=2, connectivity=connectivity)
        assert res.exhausted and [s.cells for s in res.solutions] == [published], puzzle.name


def test_a_deadline_stops_a_large_encoding_while_it_is_built():
    import puzzlebench as pb
    from puzzlebench.suites import load_suite

    board = next(e.puzzle for e in load_suite("gen-kuromasu") if e.puzzle.rows == 50)
    # unary ranks on 2,500 cells are millions of clauses: many seconds of Python without the check
    result = pb.solve(board, "sat", count=2, timeout=0.5, connectivity="rank")
    assert result.status is pb.Status.TIMEOUT and not result.solutions
    assert result.timings.total < 5.0


def test_binomial_cardinality_refuses_counts_it_would_write_billions_of_clauses_for():
    import puzzlebench as pb
    from puzzlebench.errors import EncodingError
    from puzzlebench.model import Kuromasu

    long_ray = Kuromasu(1, 40, numbers={(0, 20): 20})
    # the bare puzzle is built (the deduction stage proves this one unsat before any build)
    with pytest.raises(EncodingError, match="cannot express .* choose another card"):
        pb.solve(long_ray, "sat", count=2, card="binomial", deduce="none")
    # another cardinality encoding expresses the same board, and settles it as ASP does
    assert (
        pb.solve(long_ray, "sat", count=2, card="totalizer", deduce="none").status
        is pb.solve(long_ray, "asp", count=2, deduce="none").status
        is pb.solve(long_ray, "sat", count=2, card="totalizer").status
    )


def test_shared_stretch_literals_keep_every_answer_of_per_ray_chains(monkeypatch):
    # 6x6 boards with numbers that see each other: the stretch links through numbered cells
    # and the shared literals come into play (brute force is out of reach at 36 cells).
    from puzzlebench.encodings.sat.kuromasu import build_default
    from puzzlebench.model.kuromasu import random_kuromasu as make

    rng = random.Random(5)
    linked = 0
    for _ in range(40):
        puzzle = make(rng, 6, 7, clue_p=0.35)
        opts = {**registry.get("kuromasu", "sat").resolve({"card": "adder"}), "cut": "cell"}
        shared = build_default(puzzle, {**opts, "visibility": "shared"})
        rays = build_default(puzzle, {**opts, "visibility": "rays"})
        linked += len(shared.clauses) > len(rays.clauses)  # link clauses written
        # shared stretches with cut=cell (the default's settings from 2,000 cells on) against rays
        # without the cuts (its settings below)
        with monkeypatch.context() as patch:
            _setting(patch, "kuromasu", "cut", "cell")
            shared_answers = _answers(puzzle, visibility="shared")
        assert shared_answers == _answers(puzzle, visibility="rays"), puzzle
    assert linked >= 5
    # bigger boards with one planted answer: every option value finds it, and only it
    from puzzlebench.suites import load_suite

    _setting(monkeypatch, "kuromasu", "cut", "cell")
    for entry in (e for e in load_suite("gen-kuromasu") if e.puzzle.rows in (10, 15)):
        for visibility in ("shared", "rays"):
            res = puzzlebench.solve(entry.puzzle, "sat", count=2, visibility=visibility)
            assert res.unique and res.solutions[0] == entry.solution, (entry.id, visibility)


def test_the_kuromasu_lazy_rule_asks_the_bit_set_first_and_cuts_as_before():
    """white_connected agrees with a plain flood fill on random boards of every shape up to 7x7
    (1-wide ones included), and the lazy rule returns exactly connectivity_cuts' cuts."""
    from puzzlebench.encodings.regions import connectivity_cuts, white_regions
    from puzzlebench.encodings.sat.kuromasu import lazy_connectivity, white_connected

    rng = random.Random(11)
    for rows, cols in itertools.product(range(1, 8), repeat=2):
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        decision = {cell: k for k, cell in enumerate(cells, 1) if rng.random() < 0.9}
        rule = lazy_connectivity(rows, cols, decision)
        for _ in range(30):
            marked = frozenset(cell for cell in decision if rng.random() < rng.choice((0.1, 0.3, 0.5)))
            connected = len(white_regions(rows, cols, marked)) <= 1
            assert white_connected(rows, cols, marked) == connected, (rows, cols, sorted(marked))
            assert rule(marked) == connectivity_cuts(rows, cols, marked, frozenset(decision)), (rows, cols)
            assert (rule(marked) == []) == connected
