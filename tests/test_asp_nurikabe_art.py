"""ASP Nurikabe with the rules left to lazy cuts (islands=lazy, connectivity=lazy), the variant
for the large "art" boards: checked against brute force on small boards and against the
published answers (never against the solver's own say-so)."""

from __future__ import annotations

import random

import pytest

from bruteforce import all_solutions, assert_enumerates_brute_force
from puzzlebench import registry
from puzzlebench.encodings.asp.nurikabe import ENCODINGS, LazyCuts, build_default
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe, family_spec
from puzzlebench.solvers import solve

DATASET = "Nurikabe_dataset.json"

pytestmark = pytest.mark.skipif("asp" not in registry.available(), reason="no ASP backend")


def _boards() -> list[Nurikabe]:
    rng = random.Random(13)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (4, 4), (3, 5), (4, 3), (4, 5)] * 3]
    # a 1 ringed by its wall, two islands with a narrow wall between them, a '?' island, and a
    # board whose wall must bend around a long island
    return boards + [
        Nurikabe(3, 3, numbers={(1, 1): 1}),
        Nurikabe(3, 5, numbers={(0, 2): 2, (2, 2): 1}),
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0)})),
        Nurikabe(4, 4, numbers={(0, 0): 5, (3, 3): 2}),
    ]


def _options(**given) -> dict:
    """The default's options and fixed settings, ``given`` overlaid."""
    assert registry.get("nurikabe", "asp") in ENCODINGS
    return {**registry.get("nurikabe", "asp").resolve({}), **given}


@pytest.mark.parametrize(
    "islands,connectivity", [("lazy", "lazy"), ("lazy", "reach"), ("hybrid", "lazy"), ("distance", "lazy")]
)
@pytest.mark.slow
def test_lazy_rules_enumerate_exactly_the_brute_forced_answers(islands, connectivity):
    # every answer is found and no candidate that breaks a rule left to the cuts gets through
    for p in _boards():
        assert_enumerates_brute_force(p, "asp", islands=islands, connectivity=connectivity)


@pytest.mark.parametrize("cuts", ["cell", "mixed"])
def test_each_cut_choice_enumerates_exactly_the_brute_forced_answers(monkeypatch, cuts):
    # the fixed setting cuts=auto takes cell cuts on a board of a small wall, else mixed: each on
    # every board here
    spec = registry.get("nurikabe", "asp")
    assert spec.settings["cuts"] == "auto"
    monkeypatch.setitem(spec.settings, "cuts", cuts)
    for p in _boards()[::2]:
        assert_enumerates_brute_force(p, "asp", islands="lazy", connectivity="lazy")


def test_lazy_rules_add_cuts_only_when_a_candidate_breaks_them():
    # a 1x... board where the only candidate of the eager rules left is the answer needs no cut;
    # a board whose first candidates split the wall or leave islands short needs some
    ring = Nurikabe(3, 3, numbers={(1, 1): 1})
    art = build_default(ring, _options(islands="lazy", connectivity="lazy"))
    assert isinstance(art.propagator, LazyCuts)
    result = solve(ring, "asp", count=2, timeout=60, islands="lazy", connectivity="lazy")
    assert {s.cells for s in result.solutions} == all_solutions(ring)
    assert result.extra["lazy_rounds"] == 0
    long = Nurikabe(4, 4, numbers={(0, 0): 5, (3, 3): 2})
    result = solve(long, "asp", count=0, timeout=60, islands="lazy", connectivity="lazy")
    assert {s.cells for s in result.solutions} == all_solutions(long)
    assert result.extra["lazy_cuts"] >= result.extra["lazy_rounds"] >= 1


def test_auto_is_eager_when_every_number_gets_levels():
    p = Nurikabe(3, 5, numbers={(0, 2): 2, (2, 2): 1})
    art = build_default(p, _options())
    assert art.propagator is None
    assert art.notes == {"islands": "hybrid", "connectivity": "reach"}


def test_auto_is_lazy_when_the_level_budget_leaves_a_number_out(janko_dir):
    entry = next(e for e in iter_janko(janko_dir / DATASET, malformed=[]) if e.id == "1050_15x25")
    art = build_default(entry.puzzle, _options())
    assert isinstance(art.propagator, LazyCuts)
    assert art.notes == {"islands": "lazy", "connectivity": "lazy"}


@pytest.mark.parametrize("puzzle_id", ["1050_15x25", "1030_32x32"])
def test_art_boards_solve_to_the_published_answer_with_the_defaults(janko_dir, puzzle_id):
    # two of the large "art" boards the eager default finds no answer for in 20 s
    entry = next(e for e in iter_janko(janko_dir / DATASET, malformed=[]) if e.id == puzzle_id)
    result = solve(entry.puzzle, "asp", count=2, timeout=120)  # the defaults: lazy on these boards
    assert result.exhausted
    assert [s.cells for s in result.solutions] == [entry.solution.cells]


def test_lazy_rules_agree_with_published_answers_on_a_corpus_sample(janko_dir):
    corpus = [
        e for e in iter_janko(janko_dir / DATASET, malformed=[]) if e.puzzle.rows * e.puzzle.cols <= 150
    ]
    for entry in corpus[::40]:
        result = solve(entry.puzzle, "asp", count=2, timeout=60, islands="lazy", connectivity="lazy")
        assert result.exhausted, entry.id
        assert [s.cells for s in result.solutions] == [entry.solution.cells], entry.id


@pytest.mark.parametrize("solver", ["clingo-crafty", "clingo-trendy"])
def test_lazy_rules_hold_under_configurations_that_leave_variables_open(solver):
    # crafty and trendy reach models whose assignment clasp does not call total (eliminated or
    # projected-away variables): the cuts must still be checked on every candidate wall
    assert solver in [spec.name for spec in registry.solvers("asp")]
    for p in _boards()[::3]:
        assert_enumerates_brute_force(p, "asp", solver=solver, islands="lazy", connectivity="lazy")
