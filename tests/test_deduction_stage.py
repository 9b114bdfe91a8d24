"""The deduction stage: one per family, sound against brute force, stated alike in every
paradigm, timed and recorded apart; and the solver is the user's choice, never the encoding's."""

from __future__ import annotations

import random

import pytest

import puzzlebench as pb
from bruteforce import all_solutions, random_board
from puzzlebench import deduce, registry
from puzzlebench.errors import EncodingError
from puzzlebench.model import Family

FAMILIES = ["lightup", "kuromasu", "lightbulbs", "hitori", "nurikabe"]
PARADIGMS = ["asp", "smt", "sat", "cp", "mip"]
SHAPES = [(2, 3), (3, 3), (3, 4), (4, 3), (4, 4)]


def boards(family: str, seed: int, count: int, most_cells: int = 16) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        p = random_board(family, rng, *rng.choice(SHAPES))
        if len(p.grid.all_cells) <= most_cells:
            out.append(p)
    return out


@pytest.mark.parametrize("family", FAMILIES)
def test_every_deduction_holds_in_every_brute_forced_answer(family):
    """A settled cell has its value in every answer; a contradiction only where none exists."""
    settled_any = 0
    # every cell of a LightBulbs or Hitori board is a candidate: their brute force stays within 12 cells
    for p in boards(family, seed=40, count=25, most_cells=12 if family in ("lightbulbs", "hitori") else 16):
        answers = all_solutions(p)
        for spec in deduce.deducers(family):
            found = deduce.deduce(p, spec.name)
            if found.contradiction is not None:
                assert not answers, (spec.name, p.to_text(), found.contradiction)
                continue
            for answer in answers:
                for cell, on in found.settled.items():
                    assert (cell in answer) == on, (spec.name, p.to_text(), cell, on)
            settled_any += len(found.settled)
    if family != "lightbulbs":  # random LightBulbs numbers seldom exceed their block
        assert settled_any > 0  # the deductions settle something on these boards


def test_lightbulbs_a_number_larger_than_its_block_is_unlit():
    from puzzlebench.model import LightBulbs

    p = LightBulbs(rows=2, cols=2, numbers=((5, 1), (1, 1)))
    assert deduce.deduce(p).settled == {(0, 0): False}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_has_one_default_the_same_for_every_paradigm(family):
    name = deduce.default_deduction(family)
    assert name in {d.name for d in deduce.deducers(family)}
    p = boards(family, seed=41, count=1)[0]
    for paradigm in PARADIGMS:
        assert pb.solve(p, paradigm, count=2).deduce == name


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("paradigm", PARADIGMS)
def test_both_settings_enumerate_exactly_the_brute_force_answers(family, paradigm):
    for p in boards(family, seed=42, count=4):
        expected = all_solutions(p)
        for setting in ("none", "auto"):
            r = pb.solve(p, paradigm, count=0, timeout=60, deduce=setting)
            assert r.exhausted and r.verified, (paradigm, setting, p.to_text())
            assert {s.cells for s in r.solutions} == expected, (paradigm, setting, p.to_text())


def test_the_stage_is_timed_and_recorded_apart():
    p = pb.load("puzzles/seeds/seed000_kuromasu.lp")
    bare = pb.solve(p, "sat", count=2, deduce="none")
    assert bare.deduce == "none" and bare.settled == 0 and bare.timings.deduce < 0.05
    full = pb.solve(p, "sat", count=2)
    assert full.deduce == "probe" and full.settled > 0
    t = full.timings
    assert t.deduce > 0 and t.total >= t.deduce + t.build + t.solve - 1e-9
    record = full.to_record()
    assert record["deduce"] == "probe" and record["settled"] == full.settled
    assert record["time_deduce"] == t.deduce
    assert full.solutions == bare.solutions


def test_an_unknown_deduction_is_refused_with_the_choices():
    p = pb.load("puzzles/seeds/seed000_kuromasu.lp")
    with pytest.raises(EncodingError, match="valid: auto, none, probe, views"):
        pb.solve(p, "sat", deduce="bogus")


def test_a_contradiction_found_by_the_stage_is_an_exhausted_unsat():
    from puzzlebench.model import Hitori

    # a 1 between two 1s must stay unshaded (a x a) and shaded (beside the pair 1 1): no answer
    p = Hitori(rows=1, cols=4, numbers=((1, 1, 1, 1),))
    r = pb.solve(p, "sat", count=2)
    assert r.status.value == "unsat" and r.exhausted and "contradiction" in r.extra
    assert not all_solutions(p)
    assert pb.solve(p, "sat", count=2, deduce="none").status.value == "unsat"


def test_peers_get_the_bare_puzzle():
    if registry.solver("puzzlekit").unavailable_reason():
        pytest.skip("puzzlekit is not installed")
    p = pb.load("puzzles/seeds/seed000_kuromasu.lp")
    assert pb.solve(p, "puzzlekit", count=2).deduce == "none"


def test_a_deduction_is_a_registered_plugin_like_any_other():
    calls = []

    def nothing(puzzle):
        calls.append(puzzle)
        return deduce.Deductions()

    deduce.register_deducer(Family.LIGHTUP, "test-nothing", nothing, "settles nothing")
    p = pb.load("puzzles/seeds/seed001_lightup1.dzn")
    r = pb.solve(p, "sat", count=2, deduce="test-nothing")
    assert calls and r.deduce == "test-nothing" and r.settled == 0 and r.unique


@pytest.mark.parametrize(
    "source", ["puzzles/seeds/seed000_kuromasu.lp", "puzzles/seeds/seed001_lightup1.dzn"]
)
def test_the_default_solver_runs_whatever_the_encoding_and_board(source):
    p = pb.load(source)
    default = registry.paradigm("sat").default_solver
    assert pb.solve(p, "sat", count=2).solver == default


def test_native_cardinality_is_refused_on_a_solver_without_it_and_runs_on_one_with_it():
    p = pb.load("puzzles/seeds/seed001_lightup1.dzn")
    with pytest.raises(EncodingError, match="native cardinality"):
        pb.solve(p, "sat", count=2, card="native", amo="native")
    if registry.solver("sat", "minicard").unavailable_reason():
        pytest.skip("minicard is not installed")
    r = pb.solve(p, "sat", count=2, solver="minicard", card="native", amo="native")
    assert r.solver == "minicard" and r.unique and r.size.get("cardinality")


def test_a_relaxation_gets_the_bare_puzzle_unless_a_deduction_is_named():
    """The family's deductions use every rule, so a dropped rule's ablation does not get them by
    default: a 1 in a corner blackens both neighbours and cuts the far corner off, which only the
    relaxation without the connectivity rule accepts."""
    from puzzlebench.model import Kuromasu

    p = Kuromasu(2, 2, numbers={(0, 0): 1})
    assert not all_solutions(p)
    relaxed = pb.solve(p, "sat", count=2, connectivity="none", strict=False)
    assert relaxed.deduce == "none" and not relaxed.complete
    assert [s.cells for s in relaxed.solutions] == [{(0, 1), (1, 0)}]
    named = pb.solve(p, "sat", count=2, connectivity="none", deduce="probe", strict=False)
    assert named.deduce == "probe" and named.status.value == "unsat"
