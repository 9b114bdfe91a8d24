"""SMT Nurikabe with the islands stated Booleanly (``islands=hybrid``): the SAT encoding's owner,
level and count clauses handed to z3 as one SMT-LIB text (``smt/common.add_clauses``), with the
wall's size (the fixed setting ``wall_count``) and the lazy cuts' choice (``cuts``) as the SAT
encoding has them.

Answers are held to brute force and to the published janko answers; the clause text is held to a
direct count of the assignments the clauses allow.
"""

from __future__ import annotations

import itertools
import random

import pytest

z3 = pytest.importorskip("z3", reason="z3 is not installed")

from pysat.formula import IDPool

import puzzlebench as pb
from bruteforce import all_solutions
from puzzlebench import registry
from puzzlebench.encodings.sat.common import CnfModel
from puzzlebench.encodings.smt.common import SmtModel, add_clauses
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe, family_spec


def answers(result) -> set[frozenset]:
    return {s.cells for s in result.solutions}


def _models(model: SmtModel, named: list) -> set[tuple[bool, ...]]:
    """The assignments of the named Booleans that the model's assertions allow, by z3."""
    solver = z3.Solver(ctx=model.ctx)
    solver.add(*model.assertions)
    found = set()
    while solver.check() == z3.sat:
        m = solver.model()
        values = tuple(z3.is_true(m.eval(x, model_completion=True)) for x in named)
        found.add(values)
        solver.add(z3.Or([x != z3.BoolVal(v, model.ctx) for x, v in zip(named, values)]))
    return found


@pytest.mark.parametrize(
    "n, k, relation", [(4, 2, "atmost"), (5, 3, "equals"), (4, 1, "atleast"), (6, 0, "equals")]
)
def test_clause_text_allows_exactly_the_counts_of_the_sat_encoding(n: int, k: int, relation: str) -> None:
    # a sequential counter's clauses (with auxiliaries, declared in the text) over named Booleans
    model = SmtModel()
    named = [model.bool("x", i) for i in range(n)]
    cnf = CnfModel(pool=IDPool(start_from=n + 1), decision={})
    getattr(cnf, relation)(list(range(1, n + 1)), k, "seqcounter")
    add_clauses(model, cnf.clauses, {i + 1: x for i, x in enumerate(named)})
    allowed = {"atmost": lambda s: s <= k, "equals": lambda s: s == k, "atleast": lambda s: s >= k}[relation]
    expected = {bits for bits in itertools.product((False, True), repeat=n) if allowed(sum(bits))}
    assert _models(model, named) == expected


def test_fresh_booleans_of_two_texts_are_distinct_and_counted() -> None:
    # two texts in one model: "a or aux" and "not aux" force a; a second "b or aux'", "not aux'"
    # forces b only if its auxiliary is a new constant
    model = SmtModel()
    a, b = model.bool("a"), model.bool("b")
    add_clauses(model, [(1, 2), (-2,)], {1: a})
    add_clauses(model, [(1, 3), (-3,), (-1, 2)], {1: b})
    assert model.text_bools == 3
    assert _models(model, [a, b]) == {(True, True)}


def test_an_empty_clause_makes_the_model_unsatisfiable() -> None:
    model = SmtModel()
    add_clauses(model, [(1,), ()], {1: model.bool("a")})
    assert _models(model, [model.bool("a")]) == set()


def test_the_default_states_the_islands_booleanly_and_stays_in_the_sat_core() -> None:
    spec = registry.get(Family.NURIKABE, "smt")
    assert spec.option("islands").default == "auto"
    for puzzle in (
        Nurikabe(3, 3, numbers={(0, 0): 2, (2, 2): 1}),
        Nurikabe(3, 4, numbers={(0, 0): 2}, unknown=frozenset({(2, 3)})),
    ):
        model = spec.build(puzzle, spec.resolve({}))
        assert model.notes["islands"] == "levels" and model.notes["connectivity"] == "lazy"
        assert model.logic is None and not model.ints  # no integer: z3's SAT core (QF_FD)
        assert model.text_bools > 0 and model.lazy is not None


def test_auto_is_hybrid_on_a_large_board() -> None:
    # (the hybrid's budget levels the 16 alone, a small share of the levels for every clue)
    puzzle = Nurikabe(13, 13, numbers={(0, 0): 16, (12, 12): 15, (0, 12): 15, (12, 0): 15, (6, 6): 15})
    spec = registry.get(Family.NURIKABE, "smt")
    model = spec.build(puzzle, spec.resolve({}))
    assert model.notes["escalate_to"] == "hybrid" and model.logic is None  # lazy rounds first


def test_hybrid_without_a_number_worth_levels_is_the_lazy_rule() -> None:
    # a 10x10 board of small numbers: none reaches the SAT encoding's smallest levelled number
    puzzle = Nurikabe(10, 10, numbers={(0, 0): 2, (9, 9): 3, (5, 5): 1})
    spec = registry.get(Family.NURIKABE, "smt")
    model = spec.build(puzzle, spec.resolve({"islands": "hybrid"}))
    assert model.notes["islands"] == "lazy" and model.text_bools == 0


BOARDS = [
    family_spec(Family.NURIKABE).random_board(random.Random(71), *shape)
    for shape in ((2, 3), (3, 3), (3, 4), (4, 4), (3, 5), (4, 4), (3, 4), (3, 3))
]


# cuts and wall_count are fixed settings (cuts=auto: cell or mixed, wall_count=auto: card where the
# wall is small, each by board); their values are reached here on boards brute force can check
@pytest.mark.parametrize(
    "options, settings",
    [
        ({"islands": "hybrid"}, {}),
        ({"islands": "hybrid", "connectivity": "lazy"}, {}),
        ({"islands": "hybrid", "connectivity": "rank"}, {"cuts": "mixed", "wall_count": "card"}),
        ({"islands": "lazy", "connectivity": "lazy"}, {}),
        ({"islands": "distance"}, {"wall_count": "card"}),
    ],
    ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()) or "defaults",
)
def test_every_answer_equals_brute_force(monkeypatch, options: dict, settings: dict) -> None:
    spec = registry.get(Family.NURIKABE, "smt")
    for name, value in settings.items():
        assert name in spec.settings
        monkeypatch.setitem(spec.settings, name, value)
    for puzzle in BOARDS:
        result = pb.solve(puzzle, "smt", count=0, timeout=60, **options)
        assert result.exhausted, puzzle.name
        assert answers(result) == all_solutions(puzzle), puzzle.name


def test_hybrid_proves_janko_answers_unique(janko_dir) -> None:
    # every 100th janko puzzle and two that the owners-and-depths rule left unproved in 10 s
    entries = list(iter_janko(janko_dir / "Nurikabe_dataset.json", Family.NURIKABE, []))
    chosen = entries[::100] + [e for e in entries if e.id in ("636_10x10", "648_10x18")]
    assert len(chosen) >= 12
    for entry in chosen:
        result = pb.solve(entry.puzzle, "smt", count=2, timeout=120, islands="hybrid")
        assert result.exhausted and answers(result) == {entry.solution.cells}, entry.id
