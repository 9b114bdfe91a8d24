"""z3's lazy rounds: cut and blocking clauses built from the decision literals made once, held to
the assignments a brute force over the cells finds; the enumeration loop over them held to brute
force on random boards of every SMT family that uses cuts or blocking clauses. SMT Nurikabe's
``islands=lazy`` escalating to the levels (or the hybrid) in the running solver: the choice, and
every answer kept when the switch lands in the middle of an enumeration (against brute force);
former misses proved unique with their published answers.
"""

from __future__ import annotations

import itertools
import random

import pytest

pytest.importorskip("z3", reason="z3 is not installed")

import puzzlebench as pb
from bruteforce import all_solutions, answered_boards
from puzzlebench import registry
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.encodings.smt.common import SmtModel
from puzzlebench.encodings.smt.nurikabe import AUTO_LEVELS_CELLS, ESCALATE, auto_islands
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe, family_spec
from puzzlebench.solvers.z3_backend import Z3Backend

CELLS = [(0, 0), (0, 1), (1, 0), (1, 1)]


def _backend(clauses: list[list[tuple[tuple[int, int], bool]]]) -> tuple[Z3Backend, SmtModel]:
    model = SmtModel()
    model.decision = {cell: model.bool("d", *cell) for cell in CELLS}
    backend = Z3Backend({"logic": "auto", "seed": 0})
    backend.build(model, None)
    for clause in clauses:
        backend.add_clause(clause)
    return backend, model


def _models(backend: Z3Backend) -> set[frozenset]:
    """Every assignment of the decision cells the solver allows, by check, read and block."""
    found = set()
    while backend.check(None):
        cells = backend.marked()
        assert cells not in found
        found.add(cells)
        backend.block(cells, CELLS)
    return found


def _allowed(clauses) -> set[frozenset]:
    """The assignments of CELLS that satisfy every clause, by trying all 16."""
    out = set()
    for bits in itertools.product((False, True), repeat=len(CELLS)):
        marked = {cell for cell, bit in zip(CELLS, bits) if bit}
        if all(any((cell in marked) == positive for cell, positive in clause) for clause in clauses):
            out.add(frozenset(marked))
    return out


@pytest.mark.parametrize(
    "clauses",
    [
        [],
        [[((0, 0), True)]],
        [[((0, 1), False)]],
        [[((0, 0), True), ((1, 1), False)]],
        [[((0, 0), False), ((0, 1), False), ((1, 0), False)], [((1, 1), True), ((0, 0), True)]],
        [[((0, 0), True), ((0, 0), False)]],
        [[((1, 0), True)], [((1, 0), False), ((0, 1), True)], [((0, 1), False), ((1, 1), False)]],
    ],
    ids=lambda c: f"{len(c)}-clauses-{sum(map(len, c))}-literals",
)
def test_cuts_allow_exactly_the_assignments_that_satisfy_them(clauses) -> None:
    backend, _ = _backend(clauses)
    assert _models(backend) == _allowed(clauses)


def test_an_empty_cut_leaves_no_assignment() -> None:
    backend, _ = _backend([[((0, 0), True)], []])
    assert backend.check(None) is False


def test_a_negative_literal_is_the_same_term_in_every_clause() -> None:
    # the negations are made once at build time, not per clause
    backend, _ = _backend([])
    first = backend._lits[(0, 1)][1]
    backend.add_clause([((0, 1), False), ((1, 1), True)])
    assert backend._lits[(0, 1)][1] == first
    assert _models(backend) == _allowed([[((0, 1), False), ((1, 1), True)]])


@pytest.mark.parametrize(
    "family, shapes",
    [
        (Family.NURIKABE, ((3, 3), (3, 4), (4, 4))),
        (Family.KUROMASU, ((3, 3), (3, 4), (4, 4))),
        (Family.HITORI, ((3, 3), (3, 4), (4, 4))),
    ],
)
def test_enumeration_through_the_cuts_equals_brute_force(family: Family, shapes) -> None:
    rng = random.Random(5)
    spec = family_spec(family)
    for _ in range(6):
        puzzle = spec.random_board(rng, *rng.choice(shapes))
        result = pb.solve(puzzle, "smt", count=0, timeout=60)
        assert result.exhausted, puzzle.to_text()
        assert {s.cells for s in result.solutions} == all_solutions(puzzle), puzzle.to_text()


# -- islands=lazy escalating to the levels or the hybrid ---------------------------------------------


def _build(puzzle: Nurikabe, settings: dict | None = None, **options):
    """The default with ``options``, its fixed settings overlaid with ``settings``."""
    spec = registry.get(Family.NURIKABE, "smt")
    return spec.build(puzzle, {**spec.resolve(options), **(settings or {})})


def _escalate(monkeypatch, checks: int) -> None:
    """The escalation (the fixed setting ``escalate``: after 300 checks, which large boards reach)
    after ``checks`` checks for this test, through the harness, on boards brute force can check."""
    monkeypatch.setitem(registry.get(Family.NURIKABE, "smt").settings, "escalate", checks)


def test_auto_is_levels_below_the_size_and_lazy_escalating_above() -> None:
    small = Nurikabe(10, 14, numbers={(0, 0): 12, (9, 13): 20, (5, 5): 1})
    assert small.grid.size < AUTO_LEVELS_CELLS
    model = _build(small)
    assert model.notes["islands"] == "levels" and model.escalation is None
    large = Nurikabe(12, 13, numbers={(0, 0): 30, (11, 12): 40, (6, 6): 1})
    assert large.grid.size >= AUTO_LEVELS_CELLS
    model = _build(large)
    assert model.notes["islands"] == "lazy" and model.notes["escalate_to"] == "levels"
    assert model.escalation is not None and model.escalation[0] == ESCALATE
    assert model.notes["escalate_to"] == auto_islands(large, IslandPlan.of(large))


def test_no_escalation_when_it_would_add_nothing() -> None:
    # small numbers only: the hybrid the board would escalate to levels none of them
    few = Nurikabe(13, 13, numbers={(0, 0): 2, (12, 12): 3, (6, 6): 1})
    model = _build(few)
    assert model.notes["islands"] == "lazy" and model.escalation is None


def test_the_escalation_adds_the_levels_clauses_to_the_solver() -> None:
    large = Nurikabe(12, 13, numbers={(0, 0): 30, (11, 12): 40, (6, 6): 1})
    model = _build(large)
    before = model.text_bools
    (term,) = model.escalation[1]()
    assert model.text_bools > before  # fresh auxiliaries: the owners, levels and counters
    assert term.num_args() > 0


@pytest.fixture(scope="module")
def answered() -> list[Nurikabe]:
    return answered_boards("nurikabe", 11, [(3, 3), (3, 4), (4, 4), (3, 5)], count=8)


@pytest.mark.parametrize("escalate", [1, 2, 4])
@pytest.mark.parametrize("islands", ["lazy", "auto"])
def test_escalating_in_the_middle_of_enumeration_keeps_every_answer(
    monkeypatch, answered, islands: str, escalate: int
) -> None:
    # count=0 on boards of 1 to 50 answers: the switch lands before, between and after answers
    _escalate(monkeypatch, escalate)
    escalated = 0
    for puzzle in answered:
        model = _build(puzzle, islands=islands)
        if islands == "lazy":
            assert model.escalation is not None and model.notes["escalate_to"] == "levels"
        result = pb.solve(puzzle, "smt", count=0, timeout=60, islands=islands)
        assert result.exhausted, puzzle.to_text()
        assert {s.cells for s in result.solutions} == all_solutions(puzzle), puzzle.to_text()
        escalated += result.extra.get("escalated_at") == escalate
    if islands == "lazy":
        assert escalated >= len(answered) // 2


#: janko puzzles the levels or the hybrid left unproved in 40 s and that the lazy rounds prove
#: within a few hundred checks
FORMER_MISSES = ("510_20x36", "970_14x24", "1050_15x25", "1091_15x15")


def test_former_misses_have_their_published_answer_proved_unique(janko_dir) -> None:
    entries = {e.id: e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family.NURIKABE, [])}
    for pid in FORMER_MISSES:
        entry = entries[pid]
        assert _build(entry.puzzle).notes["islands"] == "lazy", pid
        result = pb.solve(entry.puzzle, "smt", count=2, timeout=120)
        assert result.exhausted and result.verified, pid
        assert [s.cells for s in result.solutions] == [entry.solution.cells], pid


def test_cvc5_escalates_too_and_keeps_every_answer(monkeypatch, answered) -> None:
    pytest.importorskip("cvc5", reason="cvc5 is not installed")
    _escalate(monkeypatch, 1)
    escalated = 0
    for puzzle in answered[:4]:
        result = pb.solve(puzzle, "smt", solver="cvc5", count=0, timeout=60, islands="lazy")
        assert result.exhausted, puzzle.to_text()
        assert {s.cells for s in result.solutions} == all_solutions(puzzle), puzzle.to_text()
        escalated += result.extra.get("escalated_at") == 1
    assert escalated >= 2
