"""z3's lazy rounds: cut and blocking clauses built from the decision literals made once, held to
the assignments a brute force over the cells finds; the enumeration loop over them held to brute
force on random boards of every SMT family that uses cuts or blocking clauses.
"""

from __future__ import annotations

import itertools
import random

import pytest

pytest.importorskip("z3", reason="z3 is not installed")

import puzzlebench as pb
from puzzlebench.encodings.smt.common import SmtModel
from puzzlebench.model import Family, family_spec
from puzzlebench.solvers.z3_backend import Z3Backend

from bruteforce import all_solutions

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


@pytest.mark.parametrize("clauses", [
    [],
    [[((0, 0), True)]],
    [[((0, 1), False)]],
    [[((0, 0), True), ((1, 1), False)]],
    [[((0, 0), False), ((0, 1), False), ((1, 0), False)], [((1, 1), True), ((0, 0), True)]],
    [[((0, 0), True), ((0, 0), False)]],
    [[((1, 0), True)], [((1, 0), False), ((0, 1), True)], [((0, 1), False), ((1, 1), False)]],
], ids=lambda c: f"{len(c)}-clauses-{sum(map(len, c))}-literals")
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


@pytest.mark.parametrize("family, shapes", [
    (Family.NURIKABE, ((3, 3), (3, 4), (4, 4))),
    (Family.KUROMASU, ((3, 3), (3, 4), (4, 4))),
    (Family.HITORI, ((3, 3), (3, 4), (4, 4))),
])
def test_enumeration_through_the_cuts_equals_brute_force(family: Family, shapes) -> None:
    rng = random.Random(5)
    spec = family_spec(family)
    for _ in range(6):
        puzzle = spec.random_board(rng, *rng.choice(shapes))
        result = pb.solve(puzzle, "smt", count=0, timeout=60)
        assert result.exhausted, puzzle.to_text()
        assert {s.cells for s in result.solutions} == all_solutions(puzzle), puzzle.to_text()
