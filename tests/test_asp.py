"""The ASP paradigm: clingo backend, every encoding and option, seed 000's ports.

Oracles are the independent verifier and a brute-force enumerator over tiny grids, never
clingo's own say-so.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

pytest.importorskip("clingo")

from bruteforce import all_solutions, random_board, random_kuromasu, random_lightbulbs, random_lightup
from puzzlebench import registry, solve
from puzzlebench.encodings.asp import AspProgram, load
from puzzlebench.errors import EncodingError
from puzzlebench.model import Family, Hitori, Kuromasu, LightBulbs, LightUp, family_spec
from puzzlebench.result import Status

# -- seed 000's sample puzzles, typed in from the seed's text ((X, Y) = (row, column), 1-based)
SEED_KUROMASU = Kuromasu(
    11,
    11,
    numbers={
        (x - 1, y - 1): n
        for x, y, n in [
            (1, 3, 2),
            (6, 9, 3),
            (1, 9, 5),
            (7, 2, 10),
            (2, 3, 7),
            (8, 1, 9),
            (3, 1, 7),
            (9, 5, 12),
            (3, 7, 2),
            (9, 11, 16),
            (4, 11, 3),
            (10, 9, 7),
            (5, 10, 3),
            (11, 3, 9),
            (6, 3, 12),
            (11, 9, 8),
            (6, 5, 8),
            (6, 7, 11),
        ]
    },
    name="seed000-kuromasu",
)
SEED_KUROMASU_ANSWER = frozenset(
    (x - 1, y - 1)
    for x, y in [
        (7, 1),
        (11, 1),
        (1, 2),
        (10, 2),
        (3, 3),
        (5, 3),
        (1, 4),
        (4, 5),
        (7, 5),
        (10, 5),
        (1, 6),
        (3, 6),
        (11, 6),
        (2, 7),
        (4, 7),
        (10, 7),
        (6, 8),
        (8, 8),
        (3, 9),
        (5, 9),
        (7, 9),
        (4, 10),
        (8, 10),
        (1, 11),
        (5, 11),
    ]
)
SEED_LIGHTUP = LightUp(
    10,
    10,
    walls=frozenset(
        (x - 1, y - 1)
        for x, y in [
            (3, 4),
            (3, 9),
            (4, 1),
            (5, 6),
            (5, 7),
            (6, 6),
            (7, 6),
            (9, 8),
            (10, 1),
            (10, 4),
            (10, 10),
        ]
    ),
    numbers={
        (x - 1, y - 1): n
        for x, y, n in [
            (1, 1, 0),
            (1, 7, 1),
            (1, 10, 0),
            (2, 3, 1),
            (4, 5, 2),
            (4, 8, 2),
            (5, 5, 1),
            (6, 4, 1),
            (6, 5, 0),
            (7, 3, 2),
            (7, 10, 1),
            (8, 2, 3),
            (8, 7, 0),
        ]
    },
    name="seed000-lightup",
)
#: the seed's printed Light Up output, which misses the bulb at (8,3) (1-based)
SEED_LIGHTUP_PRINTED = frozenset(
    (x - 1, y - 1)
    for x, y in [
        (3, 1),
        (8, 1),
        (7, 2),
        (10, 2),
        (1, 3),
        (4, 3),
        (5, 4),
        (9, 4),
        (3, 5),
        (10, 5),
        (4, 6),
        (6, 7),
        (1, 8),
        (5, 8),
        (2, 9),
        (4, 9),
        (3, 10),
        (8, 10),
    ]
)


def complete_variants(family: Family) -> list[tuple[str, dict]]:
    """Every ASP encoding of a family with every value of each option (one axis at a time)."""
    out = []
    for spec in registry.encodings(family, "asp"):
        out.append((spec.name, {}))
        for opt in spec.options:
            out += [
                (spec.name, {opt.name: v})
                for v in opt.choices or ()
                if v != opt.default and v not in opt.relaxing
            ]
    return out


def tiny_cases(family: Family, n: int, seed: int) -> list:
    rng = random.Random(seed)
    if family is Family.LIGHTUP:
        return [random_lightup(rng, rng.randint(2, 4), rng.randint(2, 4)) for _ in range(n)]
    if family is Family.KUROMASU:
        return [random_kuromasu(rng, rng.randint(2, 4), rng.randint(2, 4), clue_p=0.3) for _ in range(n)]
    if family is Family.LIGHTBULBS:
        return [random_lightbulbs(rng, rng.randint(2, 3), rng.randint(2, 4)) for _ in range(n)]
    if family is Family.HITORI:  # every cell a candidate: smaller boards for brute force
        return [random_board(family, rng, rng.randint(2, 3), rng.randint(2, 4)) for _ in range(n)]
    make = family_spec(family).random_board  # other families: their own random boards
    return [make(rng, rng.randint(2, 4), rng.randint(2, 4)) for _ in range(n)]


def answers(puzzle, encoding: str = "default", count: int = 0, **options) -> set[frozenset]:
    result = solve(puzzle, "asp", encoding, count=count, timeout=30, **options)
    assert result.status in (Status.SAT, Status.UNSAT), result.error
    return {s.cells for s in result.solutions}


# -- correctness against brute force ------------------------------------------------------------


@pytest.mark.parametrize("family", list(Family), ids=str)
def test_every_complete_variant_enumerates_exactly_the_brute_force_answers(family: Family) -> None:
    cases = [p for p in tiny_cases(family, 12, seed=3) if not (family is Family.KUROMASU and p.unknown)]
    expected = [all_solutions(p) for p in cases]
    assert any(len(e) > 1 for e in expected) and any(not e for e in expected), "cases should mix counts"
    for encoding, options in complete_variants(family):
        for puzzle, truth in zip(cases, expected):
            got = answers(puzzle, encoding, **options)
            assert got == truth, f"{encoding} {options} on {puzzle.rows}x{puzzle.cols} {puzzle.key()}"


def test_kuromasu_connectivity_options_agree_and_none_only_relaxes() -> None:
    cases = tiny_cases(Family.KUROMASU, 10, seed=11) + [Kuromasu(3, 3), Kuromasu(1, 1), Kuromasu(1, 3)]
    for puzzle in cases:
        truth = all_solutions(puzzle)
        for connectivity in ("reach", "acyclic", "propagator", "closure"):
            assert answers(puzzle, connectivity=connectivity) == truth, (connectivity, puzzle.key())
        relaxed = answers(puzzle, connectivity="none")
        assert relaxed >= truth
    # on a grid with a split white region the relaxation does accept a wrong answer
    split = Kuromasu(3, 3, numbers={(0, 0): 1})
    assert not all_solutions(split)
    assert answers(split, connectivity="none")


def test_kuromasu_connectivity_options_agree_on_the_seed_puzzle() -> None:
    for connectivity in ("reach", "acyclic", "propagator"):
        result = solve(SEED_KUROMASU, "asp", count=2, timeout=60, connectivity=connectivity)
        assert [s.cells for s in result.solutions] == [SEED_KUROMASU_ANSWER] and result.exhausted


def test_count_two_proves_uniqueness_and_finds_second_answers() -> None:
    unique = solve(SEED_LIGHTUP, "asp", count=2)
    assert unique.status is Status.SAT and len(unique.solutions) == 1 and unique.exhausted
    open_grid = LightUp(2, 2)  # bulbs on either diagonal
    two = solve(open_grid, "asp", count=2)
    assert len(two.solutions) == 2 and not two.exhausted
    assert all(not open_grid.verify(s) for s in two.solutions)


@pytest.mark.parametrize(
    "puzzle",
    [
        LightUp(1, 2, numbers={(0, 0): 2}),
        Kuromasu(2, 2, numbers={(0, 0): 1}),
        Kuromasu(1, 3, numbers={(0, 1): 3, (0, 0): 1}),
        LightBulbs.from_rows([[9, 9], [9, 9]]),
    ],
    ids=["lightup", "kuromasu-split", "kuromasu-count", "lightbulbs"],
)
def test_unsatisfiable_puzzles_are_unsat(puzzle) -> None:
    result = solve(puzzle, "asp", count=2)
    assert result.status is Status.UNSAT and result.exhausted and not result.solutions


# -- seed 000 ---------------------------------------------------------------------------------


def test_seed000_kuromasu_reproduces_the_seed_answer_with_and_without_connectivity() -> None:
    full = solve(SEED_KUROMASU, "asp", "seed000", count=2, timeout=120)
    assert [s.cells for s in full.solutions] == [SEED_KUROMASU_ANSWER] and full.exhausted and full.complete
    relaxed = solve(SEED_KUROMASU, "asp", "seed000", count=0, timeout=120, connectivity="none")
    assert not relaxed.complete and SEED_KUROMASU_ANSWER in {s.cells for s in relaxed.solutions}
    # the connectivity rule is what costs: the relaxed program grounds far smaller
    assert relaxed.size["atoms"] * 3 < full.size["atoms"] and relaxed.size["rules"] * 5 < full.size["rules"]


def test_seed000_lightup_finds_the_unique_answer_the_printed_output_misses_a_bulb_of() -> None:
    result = solve(SEED_LIGHTUP, "asp", "seed000", count=2)
    assert len(result.solutions) == 1 and result.exhausted
    (answer,) = [s.cells for s in result.solutions]
    assert not SEED_LIGHTUP.verify(answer)
    assert answer - SEED_LIGHTUP_PRINTED == {(7, 2)} and SEED_LIGHTUP_PRINTED < answer
    assert SEED_LIGHTUP.verify(SEED_LIGHTUP_PRINTED)


def test_seed000_programs_keep_the_seeds_rule_comments() -> None:
    text = load("seed000_kuromasu.lp") + load("seed000_kuromasu_connected.lp")
    for comment in (
        "%generate white cells",
        "%numbered cells must be white",
        "%define adjacency",
        "%define connectedness for white cells",
        "%make sure every white cell is reachable",
        "%every numbered cell should be seen by N white cells",
    ):
        assert comment in text
    assert "%make sure 2 lightbulbs are not connected" in load("seed000_lightup.lp")


def test_seed000_kuromasu_refuses_unknown_clues() -> None:
    with pytest.raises(EncodingError, match=r"'\?' clues"):
        solve(Kuromasu(3, 3, unknown=frozenset({(1, 1)})), "asp", "seed000")


# -- backend behaviour ------------------------------------------------------------------------


def test_a_search_past_its_deadline_times_out() -> None:
    hard = LightBulbs.from_rows([[1, 2, 3, 4, 5, 4, 3, 2] * 2] * 16)
    result = solve(hard, "asp", count=0, timeout=0.3)
    assert result.status in (Status.TIMEOUT, Status.SAT) and not result.exhausted
    assert result.timings.total < 5
    zero = solve(SEED_LIGHTUP, "asp", count=1, timeout=0.0)
    assert zero.status is Status.TIMEOUT and not zero.solutions


def test_statistics_keys_are_present_and_positive() -> None:
    # The bare puzzle: the default deduction settles this board whole, leaving clasp nothing to choose.
    result = solve(SEED_KUROMASU, "asp", count=2, timeout=60, deduce="none")
    assert result.deduce == "none" and not result.settled
    for key in ("atoms", "rules", "bodies"):
        assert result.size[key] > 0
    for key in ("choices", "conflicts", "restarts"):
        assert key in result.search
    assert result.search["choices"] > 0
    assert result.extra["time_ground"] > 0 and result.backend == "clingo"
    assert result.backend_version.count(".") == 2


def test_propagator_reports_its_work() -> None:
    result = solve(SEED_KUROMASU, "asp", count=1, connectivity="propagator")
    assert result.extra["propagator_calls"] > 0


def test_backend_options_are_applied_and_checked() -> None:
    for configuration in ("frumpy", "crafty"):
        result = solve(SEED_LIGHTUP, "asp", count=2, configuration=configuration, seed=7, heuristic="Vsids")
        assert result.options["configuration"] == configuration and len(result.solutions) == 1
    with pytest.raises(EncodingError):
        solve(SEED_LIGHTUP, "asp", configuration="fastest")
    with pytest.raises(EncodingError):
        solve(SEED_LIGHTUP, "asp", lighting="lasers")


def test_encodings_reject_another_familys_puzzle() -> None:
    spec = registry.get(Family.LIGHTUP, "asp")
    with pytest.raises(TypeError, match="LightUp"):
        spec.build(SEED_KUROMASU, spec.resolve({}))


def test_programs_show_only_their_decision_predicate() -> None:
    for spec in registry.encodings(paradigm="asp"):
        program = spec.build(*_sample(spec.family), spec.resolve({}))
        assert isinstance(program, AspProgram)
        shows = [line for line in program.program().splitlines() if line.startswith("#show")]
        assert shows == [f"#show {program.predicate}/{program.arity}."], spec.key


def _sample(family: Family):
    known = {
        Family.LIGHTUP: (SEED_LIGHTUP,),
        Family.KUROMASU: (SEED_KUROMASU,),
        Family.LIGHTBULBS: (LightBulbs.from_rows([[1, 2], [2, 1]]),),
        Family.HITORI: (Hitori.from_rows([[1, 1, 2], [2, 3, 1], [3, 1, 1]]),),
    }
    return known.get(family) or (family_spec(family).random_board(random.Random(0), 3, 3),)


def test_relaxing_options_mark_results_incomplete() -> None:
    spec = registry.get(Family.KUROMASU, "asp")
    assert not spec.is_complete(spec.resolve({"connectivity": "none"}))
    assert all(
        spec.is_complete(spec.resolve({"connectivity": c, "visibility": v}))
        for c, v in product(
            ("reach", "acyclic", "propagator", "closure"), ("rays", "connect_cell", "counting")
        )
    )
