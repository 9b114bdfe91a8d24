"""MIP on HiGHS: the encodings' answers against brute force, the backend's contract, deadlines.

Answers are held to the exhaustive oracle of ``bruteforce.py`` (built on the independent
verifier), both through the harness's check/block loop driven by hand and through the backend's
own enumeration by splitting; the bundled generated puzzles must come out unique with their
published answers.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("highspy", reason="highspy is not installed (pip install highspy)")

import puzzlebench as pb
from bruteforce import all_solutions, random_board, random_kuromasu, random_lightbulbs, random_lightup
from puzzlebench.encodings.base import EncodingSpec
from puzzlebench.encodings.mip import ENCODINGS, MipModel
from puzzlebench.encodings.mip.common import Linear, total
from puzzlebench.formats import load_solution
from puzzlebench.model import Family, Kuromasu, LightBulbs, LightUp, Puzzle, family_spec
from puzzlebench.result import Status
from puzzlebench.solvers import answers
from puzzlebench.solvers.highs_backend import HighsBackend

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def spec_of(family: Family, name: str = "default") -> EncodingSpec:
    return next(s for s in ENCODINGS if s.family == family and s.name == name)


def backend_options(**given: Any) -> dict[str, Any]:
    return {opt.name: given.get(opt.name, opt.default) for opt in HighsBackend.OPTIONS}


def built(
    puzzle: Puzzle,
    encoding: str = "default",
    options: Mapping[str, Any] | None = None,
    deadline: float | None = None,
    **backend_given: Any,
) -> tuple[MipModel, HighsBackend]:
    spec = spec_of(puzzle.family, encoding)
    artifact = spec.build(puzzle, spec.resolve(options or {}))
    backend = HighsBackend(backend_options(**backend_given), {})
    backend.build(artifact, deadline)
    return artifact, backend


def run(
    puzzle: Puzzle,
    encoding: str = "default",
    options: Mapping[str, Any] | None = None,
    limit: int = 0,
    deadline: float | None = None,
    **backend_given: Any,
) -> tuple[set[frozenset], bool | None]:
    """The harness's own loop (``puzzlebench.solvers.answers``) with no-good rows unless another
    ``enumeration`` is given. Returns the answers and the outcome (False: exhausted, None:
    stopped, True: ``limit`` reached)."""
    backend_given.setdefault("enumeration", "nogood")
    artifact, backend = built(puzzle, encoding, options, deadline, **backend_given)
    with backend:
        found = [] if backend.timed_out else list(answers(backend, artifact, limit, deadline, {}))
    assert len(found) == len(set(found)), "a blocked answer came back"
    outcome = None if backend.timed_out else (False if backend.exhausted else True)
    return set(found), outcome


def split(
    puzzle: Puzzle,
    encoding: str = "default",
    options: Mapping[str, Any] | None = None,
    limit: int = 0,
    **backend_given: Any,
) -> tuple[list[frozenset], HighsBackend]:
    """The backend's own enumeration (``enumeration=auto`` or ``split``): answers in order."""
    _, backend = built(puzzle, encoding, options, **backend_given)
    assert backend.native_enumeration()
    with backend:
        return list(backend.enumerate(limit, None)), backend


@functools.cache
def truth(puzzle: Puzzle) -> frozenset[frozenset]:
    return frozenset(all_solutions(puzzle))


def boards(make, seed: int, n: int, shapes) -> list[Puzzle]:
    rng = random.Random(seed)
    return [make(rng, *shapes[i % len(shapes)]) for i in range(n)]


SHAPES = ((1, 1), (1, 4), (2, 3), (3, 3), (3, 4), (4, 4))
BOARDS: dict[Family, list[Puzzle]] = {
    Family.LIGHTUP: boards(random_lightup, 41, 18, SHAPES) + [LightUp(1, 5), LightUp(3, 3)],
    Family.KUROMASU: boards(random_kuromasu, 42, 18, SHAPES)
    + [Kuromasu(2, 3), Kuromasu(3, 3), Kuromasu(1, 3)],
    # Every LightBulbs cell is a candidate: 4x4 boards cost the oracle 2^16 verifications each.
    Family.LIGHTBULBS: boards(random_lightbulbs, 43, 18, SHAPES[:-1] + ((2, 5),)),
    # Every Hitori cell is a candidate too.
    Family.HITORI: boards(
        lambda rng, rows, cols: random_board(Family.HITORI, rng, rows, cols), 44, 18, SHAPES[:-1] + ((2, 5),)
    ),
    Family.NURIKABE: boards(family_spec(Family.NURIKABE).random_board, 44, 18, SHAPES),
}
#: The no-good loop re-solves once per answer on a growing model: boards with many answers are
#: left to the splitting enumeration (a clueless 4x4 Kuromasu, 562 answers, takes it ~45 s).
NOGOOD_MAX_ANSWERS = 64


def _cases():
    """Every MIP encoding with its defaults, then each non-relaxing option value changed."""
    for spec in ENCODINGS:
        yield pytest.param(spec.family, spec.name, {}, id=f"{spec.family.value}-{spec.name}")
        for opt in spec.options:
            for value in opt.choices or ():
                if value != opt.default and value not in opt.relaxing:
                    yield pytest.param(
                        spec.family,
                        spec.name,
                        {opt.name: value},
                        id=f"{spec.family.value}-{spec.name}-{opt.name}={value}",
                    )


# -- answers --------------------------------------------------------------------------------------


def test_every_family_has_a_complete_default_and_light_up_has_seed_001() -> None:
    keys = {(s.family, s.name) for s in ENCODINGS}
    assert {(f, "default") for f in Family} <= keys and (Family.LIGHTUP, "seed001") in keys
    assert all(s.paradigm == "mip" and s.is_complete(s.resolve({})) for s in ENCODINGS)
    assert spec_of(Family.LIGHTUP, "seed001").origin == "seed001"


@pytest.mark.parametrize("family,encoding,options", list(_cases()))
def test_the_no_good_loop_finds_exactly_the_brute_force_answers(
    family: Family, encoding: str, options: dict
) -> None:
    for puzzle in BOARDS[family]:
        if len(truth(puzzle)) > NOGOOD_MAX_ANSWERS:
            continue
        found, outcome = run(puzzle, encoding, options)
        assert outcome is False, f"{puzzle.name}: enumeration did not end infeasible"
        assert found == truth(puzzle), puzzle.name


@pytest.mark.parametrize("mode", ["auto", "split"])
@pytest.mark.parametrize("family,encoding,options", list(_cases()))
def test_enumeration_by_splitting_finds_each_brute_force_answer_once(
    family: Family, encoding: str, options: dict, mode: str
) -> None:
    for puzzle in BOARDS[family]:
        found, backend = split(puzzle, encoding, options, enumeration=mode)
        assert backend.exhausted and not backend.timed_out, puzzle.name
        assert len(found) == len(set(found)), f"{puzzle.name}: an answer came twice"
        assert set(found) == truth(puzzle), puzzle.name


def test_splitting_enumerates_hundreds_of_answers_quickly() -> None:
    # Every independent set of the 4x4 grid whose complement is connected: 562 answers.
    puzzle = Kuromasu(4, 4, name="clueless-4x4")
    started = time.process_time()
    found, backend = split(puzzle)
    assert set(found) == truth(puzzle) and len(found) == 562
    assert time.process_time() - started < 20
    extra = backend.extra()
    assert extra["blocking_clauses"] == 1 and extra["subspaces"] > 0
    # The rows added are the first answer's no-good row and the lazy rule's cuts, nothing per answer.
    assert extra["rows_added"] == 1 + extra["lazy_cuts"]


def test_a_limit_stops_the_splitting_enumeration_without_claiming_exhaustion() -> None:
    puzzle = Kuromasu(3, 3)
    found, backend = split(puzzle, limit=3)
    assert len(found) == 3 and set(found) <= truth(puzzle) and not backend.exhausted


def test_kuromasu_without_connectivity_keeps_every_true_answer() -> None:
    for puzzle in BOARDS[Family.KUROMASU]:
        found, outcome = run(puzzle, options={"connectivity": "none"})
        assert outcome is False and truth(puzzle) <= found, puzzle.name
    assert not spec_of(Family.KUROMASU).is_complete({"connectivity": "none"})


@pytest.mark.parametrize("connectivity", ["lazy", "flow"])
def test_a_board_only_connectivity_forbids_is_infeasible_and_sat_without_it(connectivity: str) -> None:
    # The 1 in the corner blackens both neighbours and walls (1,1) in.
    puzzle = Kuromasu(2, 2, numbers={(0, 0): 1}, name="cut-corner")
    assert run(puzzle, options={"connectivity": connectivity}) == (set(), False)
    found, outcome = run(puzzle, options={"connectivity": "none"})
    assert found == {frozenset({(0, 1), (1, 0)})} and outcome is False


@pytest.mark.parametrize(
    "puzzle",
    [
        LightUp(2, 2, numbers={(0, 0): 3}, name="corner-3"),
        LightUp(3, 3, walls=frozenset({(0, 1), (1, 0)}), numbers={(1, 1): 4}, name="walled-4"),
        Kuromasu(1, 3, numbers={(0, 0): 3, (0, 2): 1}, name="row-3-1"),
        LightBulbs.from_rows([[2]], name="lone-2"),
    ],
    ids=lambda p: p.name,
)
def test_unsatisfiable_boards_are_infeasible(puzzle: Puzzle) -> None:
    assert not truth(puzzle)
    for spec in (s for s in ENCODINGS if s.family == puzzle.family):
        assert run(puzzle, spec.name) == (set(), False), spec.name
        assert split(puzzle, spec.name)[0] == [], spec.name


def test_a_constant_false_row_is_a_contradiction_decided_without_highs() -> None:
    # A 1 between walls: its row has no column at all, and the model no column either (HiGHS
    # would call that empty model solved).
    puzzle = LightUp(1, 2, walls=frozenset({(0, 1)}), numbers={(0, 0): 1}, name="walled-1")
    assert not truth(puzzle)
    artifact, backend = built(puzzle)
    assert artifact.contradiction and "(0, 0)" in artifact.contradiction
    assert backend.check(None) is False and backend.extra()["runs"] == 0
    # Seed 001's binaries cover the walls too (fixed at 0): the row is HiGHS's to refute.
    artifact, backend = built(puzzle, "seed001")
    assert artifact.contradiction is None and backend.check(None) is False


@pytest.mark.parametrize(
    "name", ["kuromasu-010x010-s1", "lightup-010x010-s1", "lightbulbs-008x008-s1-unique"]
)
def test_a_generated_puzzle_has_its_published_answer_and_no_other(name: str) -> None:
    family = name.split("-")[0]
    path = PUZZLES / f"gen-{family}" / f"{name}.pzl"
    puzzle = pb.load(str(path))
    published = load_solution(str(path).replace(".pzl", ".solution.pzl"), puzzle)
    found, outcome = run(puzzle, limit=2)
    assert outcome is False and found == {frozenset(published.cells)}
    assert split(puzzle, limit=2)[0] == [frozenset(published.cells)]


# -- the backend's contract -----------------------------------------------------------------------


def test_a_clause_is_a_row_over_the_decision_binaries() -> None:
    # An empty 1x3 row: exactly one bulb, anywhere.
    puzzle = LightUp(1, 3)
    _, backend = built(puzzle)
    with backend:
        backend.add_clause([((0, 0), True), ((0, 2), True)])  # a bulb at an end
        backend.add_clause([((0, 0), False)])  # not on the left
        assert backend.check(None) is True and backend.marked() == {(0, 2)}
        backend.add_clause([((0, 1), True), ((0, 1), False)])  # x or not x: no constraint
        backend.add_clause([((5, 5), False)])  # a cell without a binary is never marked: true
        assert backend.extra()["rows_added"] == 2
        assert backend.check(None) is True
        backend.add_clause([((5, 5), True)])  # ... and its positive literal is false: empty clause
        assert backend.check(None) is False


def test_size_search_and_extra_figures() -> None:
    puzzle = LightUp(3, 3, numbers={(1, 1): 2}, name="centre-2")
    found, backend = split(puzzle)
    assert len(found) == 4
    size = backend.size()
    assert size["variables"] == size["integers"] == 8 and size["constraints"] > 0 and size["nonzeros"] > 0
    assert set(backend.search()) == {"nodes", "lp_iterations"}
    extra = backend.extra()
    assert extra["runs"] >= 5 and extra["threads"] == 1 and extra["highs_time"] >= 0
    assert HighsBackend.supported() and HighsBackend.unavailable_reason() is None
    assert HighsBackend.version()[0].isdigit()


def test_the_thread_count_may_change_between_solves() -> None:
    puzzle = LightUp(3, 3, numbers={(1, 1): 2})
    for threads in (2, 1, 1):
        assert len(run(puzzle, threads=threads)[0]) == 4


# -- deadlines ------------------------------------------------------------------------------------

#: Kuromasu without views, built straight from the bare puzzle (no deduction stage runs, so no
#: probing), so that a 30x30 board is still a long search for HiGHS (the family's deduction
#: settles kuromasu-030x030-s1 before HiGHS starts).
HARD_KUROMASU = {"views": "sum"}


def test_a_tiny_deadline_stops_a_large_board_quickly() -> None:
    _, backend = built(
        pb.load(str(PUZZLES / "gen-kuromasu" / "kuromasu-030x030-s1.pzl")), options=HARD_KUROMASU
    )
    with backend:
        started = time.perf_counter()
        outcome = backend.check(started + 0.2)
        assert outcome is None and backend.timed_out and time.perf_counter() - started < 5
        assert backend.check(time.perf_counter() - 1) is None  # a deadline already past: no run


def test_an_interrupt_stops_a_running_search_and_later_ones() -> None:
    _, backend = built(
        pb.load(str(PUZZLES / "gen-kuromasu" / "kuromasu-030x030-s1.pzl")), options=HARD_KUROMASU
    )
    with backend:
        timer = threading.Timer(0.3, backend.interrupt)
        started = time.perf_counter()
        timer.start()
        assert backend.check(None) is None
        assert time.perf_counter() - started < 5
        assert backend.extra()["model_status"] == "Interrupted by user"
        assert backend.check(None) is None


def test_a_deadline_past_during_build_times_out() -> None:
    past = time.perf_counter() - 1
    _, backend = built(LightUp(3, 3), deadline=past)
    assert backend.timed_out and backend.check(past) is None and backend.extra()["runs"] == 0


# -- through the harness --------------------------------------------------------------------------


def test_solve_proves_a_generated_puzzle_unique() -> None:
    path = PUZZLES / "gen-lightup" / "lightup-010x010-s2.pzl"
    puzzle = pb.load(str(path))
    result = pb.solve(puzzle, "mip", count=2, timeout=60)
    assert result.status is Status.SAT and result.unique and result.exhausted
    assert (
        result.solutions[0].cells == load_solution(str(path).replace(".pzl", ".solution.pzl"), puzzle).cells
    )
    assert result.solver == "highs" and result.size["variables"] > 0


@pytest.mark.parametrize("enumeration", ["auto", "nogood"])
def test_solve_enumerates_through_either_path(enumeration: str) -> None:
    puzzle = Kuromasu(3, 3, numbers={(1, 2): 4})
    result = pb.solve(puzzle, "mip", count=0, timeout=60, enumeration=enumeration)
    assert result.exhausted and {s.cells for s in result.solutions} == truth(puzzle)
    cut = pb.solve(Kuromasu(2, 2, numbers={(0, 0): 1}), "mip", count=1, enumeration=enumeration)
    assert cut.status is Status.UNSAT and cut.exhausted


def test_solve_times_out_on_a_large_board() -> None:
    puzzle = pb.load(str(PUZZLES / "gen-kuromasu" / "kuromasu-100x100-s1.pzl"))  # proven in minutes
    started = time.perf_counter()
    result = pb.solve(puzzle, "mip", count=2, timeout=0.5)
    assert result.status is Status.TIMEOUT and time.perf_counter() - started < 5


# -- the model builder ----------------------------------------------------------------------------


def test_affine_expressions_fold_constants_into_row_bounds() -> None:
    model = MipModel()
    x, y = model.binary(), model.binary()
    expr = 2 * x - (1 - y) + 3  # 2x + y + 2
    assert expr.terms == {x.index: 2.0, y.index: 1.0} and expr.constant == 2.0
    model.add_le(expr, 3)
    assert (model.row_lower[0], model.row_upper[0]) == (float("-inf"), 1.0)
    model.add_ge(total([x, x, 1]), 1)  # 2x + 1 >= 1: one entry, coefficient 2
    assert model.index[model.starts[1] :] == [x.index] and model.value[-1] == 2.0
    model.add_eq(x - x, 0)  # a constant true row is dropped
    assert model.num_rows == 2 and model.contradiction is None
    model.add_eq(Linear(constant=1), 0, why="one is not zero")
    assert model.num_rows == 2 and model.contradiction == "one is not zero"


@pytest.mark.parametrize(
    "failure, counter", [("kInfeasible", "infeasible_confirmations"), ("kSolveError", "presolve_off_reruns")]
)
def test_what_highs_presolve_gets_wrong_is_run_again_without_it(monkeypatch, failure, counter) -> None:
    """HiGHS 1.16's presolve called a feasible model infeasible (janko Nurikabe 73_10x18 after its
    island cuts) and ended another in "Solve error" (janko Hitori 591_8x8). Simulated here: every
    run with presolve on ends so."""
    import highspy

    from puzzlebench.solvers import highs_backend

    class PresolveSaysInfeasible:
        def __init__(self, inner: Any) -> None:
            self._inner, self._presolve, self._ran_with = inner, "choose", "choose"

        def __getattr__(self, name: str) -> Any:
            return getattr(self._inner, name)

        def setOptionValue(self, name: str, value: Any) -> Any:
            if name == "presolve":
                self._presolve = value
            return self._inner.setOptionValue(name, value)

        def run(self) -> Any:
            self._ran_with = self._presolve
            return self._inner.run()

        def getModelStatus(self) -> Any:
            if self._ran_with != "off":  # the last run had presolve on
                return getattr(highspy.HighsModelStatus, failure)
            return self._inner.getModelStatus()

    real = highs_backend._new_highs
    monkeypatch.setattr(highs_backend, "_new_highs", lambda: PresolveSaysInfeasible(real()))
    rng = random.Random(3)
    puzzle = next(p for p in (random_kuromasu(rng, 3, 3, clue_p=0.4) for _ in range(50)) if all_solutions(p))
    truth = all_solutions(puzzle)
    result = pb.solve(puzzle, "mip", count=0, timeout=60)
    assert {s.cells for s in result.solutions} == set(truth)
    assert result.extra.get(counter, 0) >= 1


class _PresolveWrongOnSeedZero:
    """A HiGHS whose presolved runs with random seed 0 report ``failure`` (the seed-dependent
    false verdict HiGHS 1.16 gave on janko Nurikabe 73_10x18); it records each run's settings."""

    def __init__(self, inner: Any, failure: str) -> None:
        self._inner, self._failure = inner, failure
        self._options: dict[str, Any] = {"presolve": "choose", "random_seed": 0, "presolve_rule_off": 0}
        self._ran_with: dict[str, Any] = dict(self._options)
        self.runs: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def setOptionValue(self, name: str, value: Any) -> Any:
        self._options[name] = value
        return self._inner.setOptionValue(name, value)

    def run(self) -> Any:
        self._ran_with = dict(self._options)
        self.runs.append(self._ran_with)
        return self._inner.run()

    def getModelStatus(self) -> Any:
        import highspy

        if self._failure and self._ran_with["presolve"] != "off" and self._ran_with["random_seed"] == 0:
            return getattr(highspy.HighsModelStatus, self._failure)
        return self._inner.getModelStatus()


def _record_runs(monkeypatch, failure: str) -> list[_PresolveWrongOnSeedZero]:
    """Every HiGHS the backend makes from now on, as a recording :class:`_PresolveWrongOnSeedZero`
    (``failure`` "": no false verdict, runs recorded only)."""
    from puzzlebench.solvers import highs_backend

    fakes: list[_PresolveWrongOnSeedZero] = []
    real = highs_backend._new_highs

    def new() -> Any:
        fakes.append(_PresolveWrongOnSeedZero(real(), failure))
        return fakes[-1]

    monkeypatch.setattr(highs_backend, "_new_highs", new)
    return fakes


@pytest.mark.parametrize("confirm", ["unpresolved", "reseeded"])
def test_an_infeasible_verdict_of_presolve_is_confirmed_as_the_confirm_option_says(
    monkeypatch, confirm
) -> None:
    """confirm=unpresolved runs again without presolve; confirm=reseeded runs again with presolve,
    another seed and the lean rules (and the seed and rules are restored after it). Either way a
    false "infeasible" of the seed-0 presolve costs no answer: every brute-forced answer is found."""
    from puzzlebench.solvers import highs_backend

    fakes = _record_runs(monkeypatch, "kInfeasible")
    rng = random.Random(3)
    puzzle = next(p for p in (random_kuromasu(rng, 3, 3, clue_p=0.4) for _ in range(50)) if all_solutions(p))
    result = pb.solve(puzzle, "mip", count=0, timeout=60, confirm=confirm)
    assert {s.cells for s in result.solutions} == set(all_solutions(puzzle))
    runs = fakes[0].runs
    if confirm == "reseeded":
        assert result.extra.get("infeasible_reseeded", 0) >= 1
        assert "infeasible_confirmations" not in result.extra
        reseeded = [run for run in runs if run["random_seed"] == 1]
        assert reseeded and all(
            run["presolve_rule_off"] & highs_backend.LEAN_RULES_OFF == highs_backend.LEAN_RULES_OFF
            for run in reseeded
        )
        # each reseeded run follows a presolved seed-0 run; the seed and rules are back after it
        assert all(
            runs[k - 1]["random_seed"] == 0 and runs[k - 1]["presolve"] != "off"
            for k, run in enumerate(runs)
            if run["random_seed"] == 1
        )
        assert fakes[0]._options["random_seed"] == 0 and fakes[0]._options["presolve_rule_off"] == 0
    else:
        assert result.extra.get("infeasible_confirmations", 0) >= 1
        assert "infeasible_reseeded" not in result.extra
        assert all(run["random_seed"] == 0 for run in runs)


@pytest.mark.parametrize("family", ["nurikabe", "kuromasu"])
def test_the_confirmation_is_the_one_the_model_asks_for(monkeypatch, family) -> None:
    """confirm=auto: Nurikabe's model and Kuromasu's both ask for a run without presolve (the
    reseeded confirmation is reached through confirm=reseeded); a false "infeasible" of the seed-0
    presolve still costs no answer."""
    _record_runs(monkeypatch, "kInfeasible")
    rng = random.Random(5)
    puzzle = next(p for p in (random_board(family, rng, 4, 4) for _ in range(200)) if all_solutions(p))
    result = pb.solve(puzzle, "mip", count=0, timeout=60)
    assert {s.cells for s in result.solutions} == set(all_solutions(puzzle))
    assert result.extra.get("infeasible_confirmations", 0) >= 1 and "infeasible_reseeded" not in result.extra


@pytest.mark.parametrize("enumeration", ["auto", "nogood"])
@pytest.mark.parametrize("submip", ["search", "always", "never"])
def test_submip_heuristics_run_as_the_option_says(monkeypatch, submip, enumeration) -> None:
    """submip=search: RINS and RENS in the runs before the first answer, not in the proof's,
    whether the backend or the harness's loop blocks the answer."""
    fakes = _record_runs(monkeypatch, "")
    rng = random.Random(7)
    puzzle = next(
        p for p in (random_kuromasu(rng, 4, 4, clue_p=0.4) for _ in range(50)) if len(all_solutions(p)) == 1
    )
    result = pb.solve(puzzle, "mip", count=2, timeout=60, submip=submip, enumeration=enumeration)
    assert {s.cells for s in result.solutions} == set(all_solutions(puzzle))
    runs = fakes[0].runs
    assert len(runs) >= 2 and all(
        run["mip_heuristic_run_rins"] == run["mip_heuristic_run_rens"] for run in runs
    )
    rins = [run["mip_heuristic_run_rins"] for run in runs]
    if submip == "search":  # on while searching for the first answer (lazy rounds too), off in the proof
        assert rins[0] and not rins[-1] and rins == sorted(rins, reverse=True)
    else:
        assert rins == [submip == "always"] * len(runs)


def test_reseeded_confirmation_proves_a_real_board_unique_with_presolve_only() -> None:
    # A bundled Kuromasu board whose uniqueness proof ends infeasible: with the proof presolved
    # and confirm=reseeded, no run goes without presolve, and the one answer is the published one.
    puzzle = pb.load(PUZZLES / "gen-kuromasu" / "kuromasu-010x010-s1.pzl")
    truth = load_solution(PUZZLES / "gen-kuromasu" / "kuromasu-010x010-s1.solution.pzl", puzzle)
    result = pb.solve(puzzle, "mip", count=2, timeout=60, proof_presolve="same", confirm="reseeded")
    assert result.status is Status.SAT and result.exhausted
    assert [s.cells for s in result.solutions] == [truth.cells]
    assert result.extra.get("infeasible_reseeded", 0) >= 1 and "infeasible_confirmations" not in result.extra


@pytest.mark.parametrize("value", [0, 1])
def test_splitting_keeps_a_binary_the_encoding_fixed_by_its_bounds(value: int) -> None:
    # An empty 3x3 Light Up board has many answers; fixing one cell's binary through its column
    # bounds must leave exactly the brute-force answers with that cell so (the split may not
    # free it again).
    puzzle = LightUp(3, 3)
    spec = spec_of(puzzle.family)
    artifact = spec.build(puzzle, spec.resolve({}))
    cell = (1, 1)
    column = artifact.decision[cell]
    artifact.col_lower[column] = artifact.col_upper[column] = value
    backend = HighsBackend(backend_options(enumeration="split"), {})
    backend.build(artifact, None)
    with backend:
        found = list(backend.enumerate(0, None))
    expected = {s for s in truth(puzzle) if (cell in s) == bool(value)}
    assert expected and backend.exhausted
    assert len(found) == len(set(found)) and set(found) == expected
