"""cvc5 as the second SMT solver: the SMT encodings' z3 terms, translated, answered by cvc5.

Answers are held to the brute-force oracle and to published solutions; the translator is held
to cvc5's own SMT-LIB2 parser reading z3's printout (where that printout is standard SMT-LIB),
and to z3's semantics of the pseudo-Boolean atoms; deadlines must stop a large board quickly.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

cvc5 = pytest.importorskip("cvc5", reason="cvc5 is not installed (pip install cvc5)")
z3 = pytest.importorskip("z3", reason="z3 is not installed")

import puzzlebench as pb
from bruteforce import all_solutions, random_board, random_kuromasu, random_lightbulbs, random_lightup
from puzzlebench.encodings.base import EncodingSpec
from puzzlebench.encodings.smt import ENCODINGS
from puzzlebench.errors import EncodingError
from puzzlebench.formats import load_solution
from puzzlebench.model import Family, Kuromasu, LightBulbs, LightUp, Puzzle, family_spec
from puzzlebench.result import Status
from puzzlebench.solvers import answers
from puzzlebench.solvers.cvc5_backend import Cvc5Backend, Translator

#: Generated Kuromasu boards (5x5 to 50x50) with their published answers.
GEN = Path(__file__).resolve().parent.parent / "puzzles" / "gen-kuromasu"


def spec_of(family: Family, name: str = "default") -> EncodingSpec:
    return next(s for s in ENCODINGS if s.family == family and s.name == name)


def backend_options(**given: Any) -> dict[str, Any]:
    return {opt.name: given.get(opt.name, opt.default) for opt in Cvc5Backend.OPTIONS}


def run(
    puzzle: Puzzle,
    encoding: str = "default",
    options: Mapping[str, Any] | None = None,
    limit: int = 0,
    deadline: float | None = None,
    **backend_given: Any,
) -> tuple[set[frozenset], bool | None, Cvc5Backend]:
    """The harness's own loop (``puzzlebench.solvers.answers``) on cvc5.

    Returns the answers, the outcome (False: exhausted, None: stopped, True: ``limit``
    reached) and the backend (its figures stay readable)."""
    spec = spec_of(puzzle.family, encoding)
    artifact = spec.build(puzzle, spec.resolve(options or {}))
    backend = Cvc5Backend(backend_options(**backend_given), {})
    backend.build(artifact, deadline)
    found = [] if backend.timed_out else list(answers(backend, artifact, limit, deadline, {}))
    assert len(found) == len(set(found)), "a blocked answer came back"
    outcome = None if backend.timed_out else (False if backend.exhausted else True)
    return set(found), outcome, backend


@functools.cache
def truth(puzzle: Puzzle) -> frozenset[frozenset]:
    return frozenset(all_solutions(puzzle))


def tiny(make, seed: int, n: int, shapes) -> list:
    rng = random.Random(seed)
    return [make(rng, *shapes[i % len(shapes)]) for i in range(n)]


BOARDS: dict[Family, list[Puzzle]] = {
    Family.KUROMASU: tiny(random_kuromasu, 31, 10, ((2, 2), (2, 3), (3, 3), (3, 4)))
    + [Kuromasu(3, 3), Kuromasu(1, 3)],
    Family.LIGHTUP: tiny(random_lightup, 32, 8, ((2, 3), (3, 3), (3, 4))),
    Family.LIGHTBULBS: tiny(random_lightbulbs, 33, 8, ((1, 3), (2, 3), (3, 3), (2, 4))),
    Family.HITORI: tiny(
        lambda rng, rows, cols: random_board(Family.HITORI, rng, rows, cols),
        34,
        8,
        ((2, 2), (2, 3), (3, 3), (3, 4)),
    ),
    Family.NURIKABE: tiny(family_spec(Family.NURIKABE).random_board, 34, 8, ((2, 3), (3, 3), (3, 4))),
}


def _cases():
    """Every SMT encoding with its defaults, then each non-relaxing option value changed."""
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


@pytest.mark.parametrize("family,encoding,options", list(_cases()))
def test_every_answer_equals_brute_force(family: Family, encoding: str, options: dict) -> None:
    for puzzle in BOARDS[family]:
        found, outcome, backend = run(puzzle, encoding, options)
        assert outcome is False, f"{puzzle.name}: enumeration did not end in unsat"
        assert found == truth(puzzle), puzzle.name
        backend.close()


def test_kuromasu_without_connectivity_keeps_every_true_answer() -> None:
    for puzzle in BOARDS[Family.KUROMASU]:
        found, _, _ = run(puzzle, options={"connectivity": "none"})
        assert truth(puzzle) <= found, puzzle.name


def test_a_generated_puzzle_has_its_published_answer_and_no_other() -> None:
    path = GEN / "kuromasu-007x007-s1.pzl"
    puzzle = pb.load(str(path))
    published = load_solution(str(path).replace(".pzl", ".solution.pzl"), puzzle)
    for connectivity in ("lazy", "rank"):
        found, outcome, _ = run(puzzle, options={"connectivity": connectivity}, limit=2)
        assert outcome is False and found == {frozenset(published.cells)}, connectivity


@pytest.mark.parametrize(
    "family,puzzle,answer",
    [
        # Clues read off the black cells (0,1), (1,3), (2,0), (3,2), (4,4).
        (
            Family.KUROMASU,
            Kuromasu(5, 5, numbers={(0, 0): 2, (1, 1): 6, (2, 3): 6, (3, 4): 5, (4, 0): 5, (1, 4): 4}),
            {(0, 1), (1, 3), (2, 0), (3, 2), (4, 4)},
        ),
        (
            Family.LIGHTUP,
            LightUp(3, 3, walls=frozenset({(1, 1)}), numbers={(1, 1): 4}),
            {(0, 1), (1, 0), (1, 2), (2, 1)},
        ),
        (
            Family.LIGHTBULBS,
            LightBulbs.from_rows([[2, 3, 3, 4], [4, 2, 1, 1], [4, 3, 2, 2]]),
            {(2, 2), (2, 3)},
        ),
    ],
    ids=["kuromasu", "lightup", "lightbulbs"],
)
def test_uniqueness_of_a_known_puzzle(family: Family, puzzle: Puzzle, answer: set) -> None:
    found, outcome, backend = run(puzzle, limit=2)
    assert outcome is False and found == {frozenset(answer)}
    assert backend.extra()["checks"] >= 2


@pytest.mark.parametrize(
    "puzzle",
    [
        Kuromasu(2, 2, numbers={(0, 0): 1}),  # both neighbours black: (1,1) walled in
        LightUp(1, 2, walls=frozenset({(0, 0)}), numbers={(0, 0): 2}),  # two bulbs, one neighbour
        LightBulbs.from_rows([[9, 9], [9, 9]]),  # a 2x2 board never counts 9
    ],
    ids=["kuromasu", "lightup", "lightbulbs"],
)
def test_an_unsatisfiable_puzzle_answers_false(puzzle: Puzzle) -> None:
    spec = spec_of(puzzle.family)
    artifact = spec.build(puzzle, spec.resolve({}))
    backend = Cvc5Backend(backend_options(), {})
    backend.build(artifact, None)
    if artifact.lazy is None:
        assert backend.check(None) is False
    else:  # the lazy rule may first cut candidates off
        found, outcome, _ = run(puzzle)
        assert found == set() and outcome is False


# -- deadlines ------------------------------------------------------------------------------------


def test_a_tiny_deadline_stops_a_large_board_quickly() -> None:
    puzzle = pb.load(str(GEN / "kuromasu-030x030-s1.pzl"))
    spec = spec_of(Family.KUROMASU)
    artifact = spec.build(puzzle, spec.resolve({}))
    backend = Cvc5Backend(backend_options(), {})
    backend.build(artifact, None)
    started = time.perf_counter()
    outcome = backend.check(started + 0.05)
    elapsed = time.perf_counter() - started
    # cvc5 polls its limit during search, not preprocessing (about 1 s on this board).
    assert outcome is None and elapsed < 10, elapsed
    assert backend.extra()["unknown_reason"].endswith("TIMEOUT")
    # A deadline already past: no search at all.
    assert backend.check(time.perf_counter() - 1) is None


def test_a_deadline_past_during_build_times_out_and_checks_answer_none() -> None:
    puzzle = pb.load(str(GEN / "kuromasu-015x015-s1.pzl"))
    spec = spec_of(Family.KUROMASU)
    artifact = spec.build(puzzle, spec.resolve({}))
    backend = Cvc5Backend(backend_options(), {})
    backend.build(artifact, time.perf_counter() - 1)
    assert backend.timed_out and backend.check(None) is None


def test_an_interrupt_makes_later_checks_answer_none() -> None:
    puzzle = BOARDS[Family.LIGHTUP][0]
    spec = spec_of(puzzle.family)
    backend = Cvc5Backend(backend_options(), {})
    backend.build(spec.build(puzzle, spec.resolve({})), None)
    backend.interrupt()
    assert backend.check(None) is None


# -- the translator -------------------------------------------------------------------------------


def _smtlib_answers(puzzle: Puzzle, options: Mapping[str, Any]) -> set[frozenset]:
    """Every answer with cvc5 reading z3's SMT-LIB2 printout through its own parser."""
    spec = spec_of(puzzle.family)
    artifact = spec.build(puzzle, spec.resolve(options))
    printer = z3.Solver(ctx=artifact.ctx)
    printer.add(artifact.assertions)
    text = printer.to_smt2().replace("(check-sat)", "")
    assert "pb" not in text and "at-most" not in text and "at-least" not in text
    if hasattr(cvc5, "TermManager"):
        tm = cvc5.TermManager()
        solver = cvc5.Solver(tm)
    else:
        tm = solver = cvc5.Solver()
    solver.setOption("incremental", "true")
    solver.setOption("produce-models", "true")
    solver.setLogic("QF_LIA")
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "z3")
    while not (command := parser.nextCommand()).isNull():
        command.invoke(solver, symbols)
    by_name = {str(term): term for term in symbols.getDeclaredTerms()}
    decision = {}
    for cell, var in artifact.decision.items():
        name = var.decl().name()
        decision[cell] = by_name[name] if name in by_name else tm.mkConst(tm.getBooleanSort(), name)
    found: set[frozenset] = set()
    while True:
        result = solver.checkSat()
        assert not result.isUnknown()
        if result.isUnsat():
            return found
        cells = frozenset(c for c, v in decision.items() if solver.getValue(v).getBooleanValue())
        cuts = artifact.lazy(cells) if artifact.lazy is not None else []
        clauses = cuts or [[(c, c not in cells) for c in decision]]
        if not cuts:
            found.add(cells)
        for clause in clauses:
            lits = [
                decision[c] if positive else tm.mkTerm(cvc5.Kind.NOT, decision[c]) for c, positive in clause
            ]
            solver.assertFormula(lits[0] if len(lits) == 1 else tm.mkTerm(cvc5.Kind.OR, *lits))


@pytest.mark.skipif(
    not hasattr(cvc5, "InputParser") or not hasattr(getattr(cvc5, "SymbolManager", None), "getDeclaredTerms"),
    reason="this cvc5's Python API cannot parse SMT-LIB2 and list the declared symbols (cvc5 >= 1.2 can)",
)
@pytest.mark.parametrize(
    "family,options",
    [
        (Family.KUROMASU, {"card": "sum"}),
        (Family.KUROMASU, {"visibility": "distance", "connectivity": "rank"}),
        (Family.LIGHTUP, {"card": "sum"}),
        (Family.LIGHTBULBS, {"card": "sum"}),
    ],
    ids=["kuromasu-sum", "kuromasu-distance-rank", "lightup-sum", "lightbulbs-sum"],
)
def test_translation_agrees_with_cvc5_reading_z3s_smtlib(family: Family, options: dict) -> None:
    compared = 0
    for puzzle in BOARDS[family]:
        try:
            parsed = _smtlib_answers(puzzle, options)
        except RuntimeError as exc:
            # z3 prints a one-term sum as "(+ t)", which cvc5's parser rejects (ADD needs two).
            assert "ADD" in str(exc), exc
            continue
        found, _, _ = run(puzzle, options=options)
        assert found == parsed == truth(puzzle), puzzle.name
        compared += 1
    assert compared >= 3


def _models(formula: Any, names: list[str], ctx: Any) -> set[tuple[bool, ...]]:
    """The assignments of the named Booleans that satisfy ``formula``, by cvc5 via the translator."""
    tm = cvc5.TermManager() if hasattr(cvc5, "TermManager") else None
    solver = cvc5.Solver(tm) if tm is not None else cvc5.Solver()
    tm = tm or solver
    solver.setOption("incremental", "true")
    solver.setOption("produce-models", "true")
    solver.setLogic("QF_LIA")
    translator = Translator(ctx, tm)
    solver.assertFormula(translator.term(formula))
    variables = [translator.term(z3.Bool(n, ctx)) for n in names]
    found = set()
    while solver.checkSat().isSat():
        values = tuple(solver.getValue(v).getBooleanValue() for v in variables)
        found.add(values)
        lits = [tm.mkTerm(cvc5.Kind.NOT, v) if b else v for v, b in zip(variables, values)]
        solver.assertFormula(tm.mkTerm(cvc5.Kind.OR, *lits))
    return found


def test_pseudo_boolean_atoms_mean_what_they_mean_in_z3() -> None:
    import itertools

    ctx = z3.Context()
    names = ["a", "b", "c", "d"]
    a, b, c, d = (z3.Bool(n, ctx) for n in names)
    formulas = [
        z3.PbEq([(a, 1), (b, 1), (c, 1)], 2),
        z3.PbLe([(a, 2), (b, 3), (c, 1), (d, 4)], 5),
        z3.PbGe([(a, 2), (b, 3), (c, 1), (d, 4)], 6),
        z3.AtMost(a, b, c, d, 1),
        z3.AtLeast(a, b, c, 3),
        z3.Or(z3.PbEq([(a, 2), (b, 2)], 2), z3.Xor(c, d)),
        z3.Distinct(z3.If(a, 1, 0) + z3.If(b, 1, 0), z3.If(c, 2, 0) - z3.If(d, 1, 0)),
    ]
    for formula in formulas:
        expected = set()
        for values in itertools.product((False, True), repeat=4):
            bound = [(v, z3.BoolVal(x, ctx)) for v, x in zip((a, b, c, d), values)]
            if z3.is_true(z3.simplify(z3.substitute(formula, *bound))):
                expected.add(values)
        assert _models(formula, names, ctx) == expected, formula


def test_deeply_nested_sums_translate_without_recursion() -> None:
    ctx = z3.Context()
    xs = [z3.Bool(f"x{i}", ctx) for i in range(3000)]
    total = sum((z3.If(x, 1, 0) for x in xs), z3.IntVal(0, ctx))  # 3000 nested binary additions
    translator = Translator(ctx, cvc5.TermManager() if hasattr(cvc5, "TermManager") else cvc5.Solver())
    assert translator.term(total == 1500).getKind() == cvc5.Kind.EQUAL


def test_an_operator_outside_the_repertoire_is_refused() -> None:
    ctx = z3.Context()
    f = z3.Function("f", z3.IntSort(ctx), z3.BoolSort(ctx))
    translator = Translator(ctx, cvc5.TermManager() if hasattr(cvc5, "TermManager") else cvc5.Solver())
    with pytest.raises(EncodingError, match="not translated"):
        translator.term(f(z3.IntVal(3, ctx)))
    with pytest.raises(EncodingError, match="integer"):
        translator.term(z3.RealVal("1/2", ctx) > z3.RealVal(0, ctx))


# -- the backend's face ---------------------------------------------------------------------------


def test_availability_version_and_figures() -> None:
    assert Cvc5Backend.supported() and Cvc5Backend.unavailable_reason() is None
    assert Cvc5Backend.version()[0].isdigit()
    assert Cvc5Backend.paradigm == "smt" and Cvc5Backend.name == "cvc5"
    found, outcome, backend = run(BOARDS[Family.KUROMASU][2], options={"connectivity": "rank"})
    size = backend.size()
    assert set(size) == {"assertions", "bool_vars", "int_vars"} and size["int_vars"] > 0
    assert set(backend.search()) <= {"choices", "conflicts", "propagations", "restarts"}
    extra = backend.extra()
    assert extra["logic"] == "QF_LIA" and extra["checks"] == len(found) + 1
    assert extra["clauses_added"] >= len(found)
    backend.close()
    assert backend.size() == {} and backend.search() == {}


def test_logic_option_and_unknown_logic() -> None:
    puzzle = BOARDS[Family.LIGHTUP][1]
    found, _, backend = run(puzzle, logic="ALL")
    assert found == truth(puzzle) and backend.extra()["logic"] == "ALL"
    with pytest.raises(EncodingError, match="logic"):
        run(puzzle, logic="QF_BV")
    # A formula without integers is solved as QF_UF: one open cell, its bulb is the answer.
    found, _, backend = run(LightUp(1, 1))
    assert found == {frozenset({(0, 0)})} and backend.extra()["logic"] == "QF_UF"


# -- through the harness --------------------------------------------------------------------------


@pytest.mark.parametrize("family", list(BOARDS), ids=lambda f: f.value)
def test_solve_with_cvc5_enumerates_the_brute_force_answers(family: Family) -> None:
    for puzzle in BOARDS[family][:4]:
        result = pb.solve(puzzle, "smt", solver="cvc5", count=0)
        assert {s.cells for s in result.solutions} == truth(puzzle), puzzle.name
        assert result.exhausted and result.solver == "cvc5"


def test_solve_with_cvc5_times_out_on_a_large_board() -> None:
    puzzle = pb.load(str(GEN / "kuromasu-030x030-s1.pzl"))
    started = time.perf_counter()
    result = pb.solve(puzzle, "smt", solver="cvc5", count=2, timeout=0.5)
    assert result.status is Status.TIMEOUT and time.perf_counter() - started < 15
