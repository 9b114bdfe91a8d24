"""Conformance suite: every registered solver of every paradigm x family against brute force.

Counts are checked against an exhaustive oracle built on the independent verifier, never
against a solver's own report; answers must be the same cells in every paradigm. The solvers
come from the registry (plugins included), so a new solver is checked here without an edit;
one that is not installed is a skip that names the reason, never a silent absence.
"""

from __future__ import annotations

import random

import pytest

import puzzlebench as pb
from bruteforce import all_solutions, random_board
from puzzlebench import registry
from puzzlebench.errors import EncodingError
from puzzlebench.model import Family, Kuromasu, LightBulbs, LightUp, Nurikabe

PARADIGMS = registry.available()
FAMILIES = list(Family)
#: every registered solver of the compared paradigms and of MiniZinc's (peers with one model aside)
SOLVERS = [
    pytest.param(s.paradigm, s.name, id=f"{s.paradigm}-{s.name}")
    for s in registry.solvers()
    if not registry.paradigm(s.paradigm).peer or s.paradigm == "minizinc"
]


def _has(family: Family, paradigm: str) -> bool:
    return any(s.name == "default" for s in registry.encodings(family, paradigm))


def _cases(family: Family, seed: int, n: int) -> list:
    rng = random.Random(seed)
    make = lambda rng, rows, cols: random_board(family, rng, rows, cols)  # each family's own
    shapes = [(1, 1), (1, 4), (2, 3), (3, 3), (3, 4), (4, 4)]
    return [make(rng, *shapes[i % len(shapes)]) for i in range(n)]


SMALL = {f: _cases(f, 2024 + i, 12) for i, f in enumerate(FAMILIES)}

# Hand-made unsatisfiable puzzles, each for a reason a person can check.
UNSAT = [
    # A wall numbered 3 in a corner has only two neighbours.
    LightUp(2, 2, numbers={(0, 0): 3}, name="corner-3"),
    # 1 at (0,2) blackens (0,1), so the 3 at (0,0) sees only itself.
    Kuromasu(1, 3, numbers={(0, 0): 3, (0, 2): 1}, name="row-3-1"),
    # 1 at a 2x2 corner blackens both neighbours, cutting (1,1) off: only connectivity forbids it.
    Kuromasu(2, 2, numbers={(0, 0): 1}, name="cut-corner"),
    # A lone cell numbered 2 can never count two lit cells, and an empty answer is no answer.
    LightBulbs.from_rows([[2]], name="lone-2"),
    # Two '?' clues side by side share an island, and an island holds one clue.
    Nurikabe(2, 2, unknown=frozenset({(0, 0), (0, 1)}), name="touching-question-marks"),
    # A 4 on a 2x2 board needs every cell, the '?' cell (another clue) included.
    Nurikabe(2, 2, numbers={(0, 0): 4}, unknown=frozenset({(1, 1)}), name="no-room-for-a-question-mark"),
]


def _skip_unless(family: Family, paradigm: str, solver: str | None = None) -> None:
    if solver is not None:
        reason = registry.solver(paradigm, solver).unavailable_reason()
        if reason:
            pytest.skip(reason)
    if not _has(family, paradigm):
        pytest.skip(f"no default {paradigm} encoding for {family}")


def test_brute_force_oracle_caches_by_content_not_by_object(monkeypatch) -> None:
    import bruteforce

    searched = []
    real = bruteforce._search
    monkeypatch.setattr(
        bruteforce, "_search", lambda puzzle, most: searched.append(puzzle) or real(puzzle, most)
    )
    monkeypatch.setattr(bruteforce, "_KNOWN", {})
    first = LightUp(2, 3, numbers={(0, 1): 1}, name="first")
    second = LightUp(2, 3, numbers={(0, 1): 1}, name="second")  # built apart, another name
    assert first is not second and first == second
    assert all_solutions(first) == all_solutions(second) == all_solutions(first)
    assert len(searched) == 1
    all_solutions(LightUp(2, 3, numbers={(0, 1): 2}))  # other content: searched again
    assert len(searched) == 2


@pytest.mark.parametrize("paradigm, solver", SOLVERS)
@pytest.mark.parametrize("family", FAMILIES, ids=str)
def test_enumeration_counts_equal_brute_force(paradigm: str, solver: str, family: Family) -> None:
    _skip_unless(family, paradigm, solver)
    for puzzle in SMALL[family]:
        expected = all_solutions(puzzle)
        result = pb.solve(puzzle, paradigm, count=0, timeout=60, solver=solver)
        assert result.exhausted, f"{puzzle.name}: enumeration not exhausted ({result.status})"
        got = {s.cells for s in result.solutions}
        assert got == expected, (
            f"{paradigm} on {puzzle.name}: {len(got)} answers, brute force {len(expected)}"
        )


@pytest.mark.parametrize("paradigm, solver", SOLVERS)
@pytest.mark.parametrize("family", FAMILIES, ids=str)
def test_count_two_proves_uniqueness_or_finds_a_second_answer(
    paradigm: str, solver: str, family: Family
) -> None:
    _skip_unless(family, paradigm, solver)
    for puzzle in SMALL[family]:
        truth = len(all_solutions(puzzle))
        result = pb.solve(puzzle, paradigm, count=2, timeout=60, solver=solver)
        assert result.count == min(truth, 2)
        assert result.unique == (truth == 1) or truth == 0
        assert result.status is (pb.Status.SAT if truth else pb.Status.UNSAT)


@pytest.mark.parametrize("paradigm, solver", SOLVERS)
@pytest.mark.parametrize("puzzle", UNSAT, ids=lambda p: p.name)
def test_unsatisfiable_puzzles_are_unsat(paradigm: str, solver: str, puzzle) -> None:
    _skip_unless(puzzle.family, paradigm, solver)
    assert not all_solutions(puzzle)
    result = pb.solve(puzzle, paradigm, count=1, timeout=60, solver=solver)
    assert result.status is pb.Status.UNSAT
    assert result.exhausted and result.count == 0


@pytest.mark.parametrize("paradigm, solver", SOLVERS)
def test_grids_without_clues(paradigm: str, solver: str) -> None:
    # An empty Light Up row needs exactly one bulb; a clueless Kuromasu grid is solved by all-white
    # among others; these check the encodings do not assume a clue exists.
    cases = [
        LightUp(1, 5, name="empty-row"),
        Kuromasu(2, 3, name="clueless"),
        LightUp(3, 3, name="empty-3x3"),
    ]
    for puzzle in cases:
        if not _has(puzzle.family, paradigm):
            continue
        _skip_unless(puzzle.family, paradigm, solver)
        expected = all_solutions(puzzle)
        result = pb.solve(puzzle, paradigm, count=0, timeout=60, solver=solver)
        assert {s.cells for s in result.solutions} == expected, puzzle.name


@pytest.mark.parametrize("paradigm, solver", SOLVERS)
def test_results_carry_comparable_statistics(paradigm: str, solver: str) -> None:
    puzzle = LightUp(3, 3, numbers={(1, 1): 2}, name="centre-2")
    _skip_unless(puzzle.family, paradigm, solver)
    result = pb.solve(puzzle, paradigm, count=2, solver=solver)
    t = result.timings
    assert 0 <= t.build <= t.total and 0 <= t.solve <= t.total
    assert t.first is not None and t.first <= t.solve
    # Sizes are counts, and every encoding decides each of the board's 8 open cells, so its largest
    # figure (variables, atoms, assertions, ...) is at least 8: an empty or unread model fails here.
    assert result.size and all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in result.size.values()
    ), result.size
    open_cells = puzzle.rows * puzzle.cols - len(puzzle.walls)
    assert max(result.size.values()) >= open_cells, result.size
    # Search figures are present and are finite non-negative numbers (choices, conflicts, nodes, ...).
    assert result.search, f"{solver} reported no search figures"
    assert all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < float("inf")
        for v in result.search.values()
    ), result.search
    assert result.backend and result.backend_version
    assert result.solver == solver and result.solver_version and result.encoding_hash
    record = result.to_record()
    assert (record["solver"], record["paradigm"], record["encoding_hash"]) == (
        solver,
        paradigm,
        result.encoding_hash,
    )


@pytest.mark.skipif(len(PARADIGMS) < 2, reason="cross-check needs two paradigms")
@pytest.mark.parametrize("family", FAMILIES, ids=str)
def test_crosscheck_agrees_on_small_puzzles(family: Family) -> None:
    for puzzle in SMALL[family][:6]:
        report = pb.crosscheck(puzzle, count=0, timeout=60)
        assert report.agree, report.differences


@pytest.mark.parametrize("paradigm, solver", SOLVERS)
def test_every_complete_encoding_counts_equal_brute_force_on_every_solver(paradigm: str, solver: str) -> None:
    # Each named encoding at its default options: an encoding runs on every solver of its paradigm.
    reason = registry.solver(paradigm, solver).unavailable_reason()
    if reason:
        pytest.skip(reason)
    checked = 0
    for family in FAMILIES:
        for spec in registry.encodings(family, paradigm):
            if not spec.is_complete(spec.resolve({})):
                continue
            for puzzle in SMALL[family][:5]:
                expected = all_solutions(puzzle)
                result = pb.solve(puzzle, paradigm, spec.name, count=0, timeout=60, solver=solver)
                assert result.exhausted, f"{spec.name} on {puzzle.name}: {result.status}"
                assert {s.cells for s in result.solutions} == expected, f"{spec.name} on {puzzle.name}"
                checked += 1
    assert checked, f"no complete encoding of {paradigm} ran"


def _option_values() -> list:
    """Every option value of every registered encoding (the catalog's research axes), each its
    own case: what ``puzzlebench encodings`` offers is what is checked here."""
    cases = []
    for family in FAMILIES:
        for paradigm in PARADIGMS:
            for spec in registry.encodings(family, paradigm):
                for opt in spec.options:
                    for value in opt.choices or (opt.default,):
                        cases.append(
                            pytest.param(
                                spec,
                                opt.name,
                                value,
                                id=f"{family}-{paradigm}-{spec.name}-{opt.name}={value}",
                            )
                        )
    return cases


OPTION_VALUES = _option_values()


def _option_boards(family: Family) -> list:
    """The small boards each option value is checked on: the three largest with 1 to 50 answers
    and the two largest with none (enumerating hundreds of answers would time the search, not the
    encoding's rules)."""
    by_size = sorted(SMALL[family], key=lambda p: -p.rows * p.cols)
    answered = [p for p in by_size if 1 <= len(all_solutions(p)) <= 50][:3]
    unsat = [p for p in by_size if not all_solutions(p)][:2]
    return answered + unsat


def _tiny_boards(family: Family) -> list:
    """The other small boards, smallest first: for a cardinality encoding that states at most one
    only (pairwise, bitwise, ladder), which the larger boards' counts are beyond."""
    chosen = _option_boards(family)
    return sorted((p for p in SMALL[family] if p not in chosen), key=lambda p: p.rows * p.cols)


def test_every_option_of_the_catalog_is_a_conformance_case() -> None:
    from puzzlebench.cli import main

    covered = {(spec.key, name, value) for spec, name, value in (p.values for p in OPTION_VALUES)}
    for family in FAMILIES:
        for paradigm in PARADIGMS:
            for spec in registry.encodings(family, paradigm):
                assert not set(spec.settings) & {opt.name for opt in spec.options}, spec.key
                for opt in spec.options:
                    assert opt.choices, f"{spec.key} {opt.name}: no values to check"
                    assert {(spec.key, opt.name, v) for v in opt.choices} <= covered
    assert main(["encodings"]) == 0  # the catalog the cases are drawn from prints


@pytest.mark.parametrize("spec, name, value", OPTION_VALUES)
@pytest.mark.slow
def test_every_option_value_counts_equal_brute_force(spec, name: str, value) -> None:
    # Each value alone, the other options at their defaults, on the bare puzzle (deduce="none") so
    # that the encoding states every rule itself, and after the family's deduction as a user runs it.
    # A complete value finds exactly the brute-force answers; a relaxing one (a rule switched off)
    # keeps every true answer, and any extra one breaks a rule.
    options = {name: value}
    complete = spec.is_complete(spec.resolve(options))
    solver = "minicard" if spec.paradigm == "sat" and value == "native" else None
    _skip_unless(spec.family, spec.paradigm, solver)
    ran = 0
    for puzzle in _option_boards(spec.family) + _tiny_boards(spec.family):
        if ran >= 5:
            break  # the option boards, or as many of the tiny ones as the value can express
        truth = all_solutions(puzzle)
        for deduce in ("none", None) if complete else ("none",):
            try:
                result = pb.solve(
                    puzzle,
                    spec.paradigm,
                    spec.name,
                    count=0,
                    timeout=60,
                    solver=solver,
                    deduce=deduce,
                    strict=complete,
                    **options,
                )
            except EncodingError as exc:
                if "cannot express" in str(exc):
                    break  # an at-most-one-only cardinality encoding asked for a larger bound
                raise
            where = f"{puzzle.name} (deduce={result.deduce})"
            assert result.exhausted, f"{where}: enumeration not exhausted ({result.status})"
            found = {s.cells for s in result.solutions}
            if complete:
                assert found == truth, f"{where}: {len(found)} answers, brute force {len(truth)}"
            else:
                assert result.complete is False and truth <= found, where
                assert all(puzzle.verify(s) for s in result.solutions if s.cells not in truth), where
        else:
            ran += 1
    assert ran, f"{spec.key} {name}={value}: no small board it can express"
