"""CP-SAT Nurikabe's lazy rounds: the escalation from islands=lazy to a larger islands model (the
fixed setting escalate_to=levels) in the middle of the resolve loop keeps every cut and blocking
clause, so counts and answers stay those of brute force and of the published solutions. The
switch's search count (the fixed setting ``escalate``) is set lower here so that it lands on small
boards."""

from __future__ import annotations

import pytest

from bruteforce import all_solutions, answered_boards
from conftest import fix_settings
from puzzlebench import registry
from puzzlebench.encodings.cp.common import CpModelArtifact
from puzzlebench.errors import EncodingError
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe
from puzzlebench.solvers import solve

pytestmark = pytest.mark.skipif("cp" not in registry.available(), reason="ortools is not installed")


def _boards() -> list[Nurikabe]:
    # boards with answers (one to fifty), so that an escalation lands after blocking clauses too
    boards = answered_boards("nurikabe", 13, [(3, 3), (3, 4), (4, 4), (3, 5)])
    return boards + [
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})),
        Nurikabe(4, 4, numbers={(0, 0): 4}, unknown=frozenset({(3, 3), (1, 2)})),
    ]


def _setting(monkeypatch, **values) -> None:
    """The CP default's fixed settings at ``values`` for this test, through :func:`solve`."""
    fix_settings(monkeypatch, "nurikabe", "cp", **values)


def test_escalating_at_any_search_counts_equal_brute_force(monkeypatch):
    # escalating after 1 to 8 searches lands before, between and after answers and cuts
    assert registry.get("nurikabe", "cp").settings["escalate_to"] == "levels"
    escalated = 0
    for p in _boards():
        expected = all_solutions(p)
        for after in (1, 2, 3, 5, 8):
            _setting(monkeypatch, escalate=after)
            result = solve(p, "cp", count=0, timeout=60)
            assert result.exhausted
            found = [s.cells for s in result.solutions]
            assert len(found) == len(set(found)) and set(found) == expected, (p.to_text(), after)
            escalated += "escalated_at" in result.extra
    assert escalated >= len(_boards())


def test_without_escalation_the_loop_stays_lazy():
    p = _boards()[0]
    result = solve(p, "cp", count=0, timeout=60)
    assert "escalated_at" not in result.extra
    assert {s.cells for s in result.solutions} == all_solutions(p)


@pytest.fixture(scope="module")
def many_rounds(janko_dir):
    # corpus puzzles whose lazy default needed hundreds of rounds
    wanted = {"141_9x9", "513_8x9"}
    return [e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id in wanted]


def test_escalated_corpus_puzzles_have_the_published_answer_only(monkeypatch, many_rounds):
    assert len(many_rounds) == 2
    _setting(monkeypatch, escalate=10)
    for entry in many_rounds:
        # the bare puzzle: the lazy rounds the stage's plan would spare
        result = solve(entry.puzzle, "cp", count=2, timeout=120, deduce="none")
        assert result.exhausted and result.extra["escalated_at"] == 10
        assert [s.cells for s in result.solutions] == [entry.solution.cells], entry.id
        assert not entry.puzzle.verify(result.solutions[0].cells)


def test_an_escalation_over_other_cells_is_refused():
    p = Nurikabe(3, 3, numbers={(0, 0): 2, (2, 2): 2})
    spec = registry.get("nurikabe", "cp", "default")
    options = spec.resolve({})
    art = spec.build(p, options)
    other = CpModelArtifact()
    other.decision = {(0, 1): other.model.new_bool_var("x")}
    art.escalation = (1, lambda: other)
    from puzzlebench.solvers.cpsat_backend import CpSatBackend

    backend = CpSatBackend(
        {"num_workers": 1, "seed": 0, "presolve": True, "hints": True, "enumeration": "resolve"}
    )
    backend.build(art, None)
    assert backend.check(None) is True
    with pytest.raises(EncodingError):
        backend.check(None)
