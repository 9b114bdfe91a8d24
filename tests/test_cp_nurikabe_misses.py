"""CP-SAT Nurikabe after the switch to the larger model: the CP-SAT parameters of the searches
after it (the fixed settings ``escalate_inprocessing=False``, ``escalate_linearization=0``) with
the switch's search count set low enough to land on small boards, and the root fixings taken anew
(``refix_every``, on a model of its own). Counts and answers are checked against brute force and
the published solutions, never against the solver's own say-so. (Other parameter values, refixing
in the Nurikabe model and other cuts after the switch are no longer reachable: fixed settings,
docs/decisions/2026-12-05-deduction-stage.md.)"""

from __future__ import annotations

import pytest

from bruteforce import answered_boards, assert_enumerates_brute_force
from conftest import fix_settings
from puzzlebench import registry
from puzzlebench.encodings.cp.common import CpModelArtifact
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe
from puzzlebench.solvers import answers, solve
from puzzlebench.solvers.cpsat_backend import CpSatBackend

pytestmark = pytest.mark.skipif("cp" not in registry.available(), reason="ortools is not installed")


def _boards() -> list[Nurikabe]:
    # boards with one to fifty answers, so that a switch lands before, between and after answers
    boards = answered_boards("nurikabe", 37, [(3, 3), (3, 4), (4, 4), (3, 5)])
    # '?' clues and a number big enough for levels
    return boards + [
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})),
        Nurikabe(4, 4, numbers={(0, 0): 6, (3, 3): 2}),
    ]


def _setting(monkeypatch, **values) -> None:
    """The CP default's fixed settings at ``values`` for this test, through :func:`solve`."""
    fix_settings(monkeypatch, "nurikabe", "cp", **values)


@pytest.mark.slow
def test_the_parameters_after_the_switch_count_equal_brute_force(monkeypatch):
    spec = registry.get("nurikabe", "cp")
    assert spec.settings["escalate_inprocessing"] is False and spec.settings["escalate_linearization"] == "0"
    for p in _boards():
        for after in (1, 3):
            _setting(monkeypatch, escalate=after)
            assert_enumerates_brute_force(p, "cp")


def _chain() -> CpModelArtifact:
    # a or b, b implies c: four answers; a root run before every search (the blocking clauses
    # added since narrow the model, and what a run fixes must keep the answers not yet found)
    art = CpModelArtifact(carry_fixings=True, refix_every=1)
    a, b, c = (art.model.new_bool_var(n) for n in "abc")
    art.model.add_bool_or([a, b])
    art.model.add_implication(b, c)
    art.decision = {(0, 0): a, (0, 1): b, (0, 2): c}
    return art


def test_a_later_root_run_fixes_what_the_added_clauses_imply():
    art = _chain()
    backend = CpSatBackend({"num_workers": 1, "seed": 0, "presolve": False, "enumeration": "resolve"})
    backend.build(art, None)
    found = set(answers(backend, art, 0, None, {}))
    assert backend.exhausted
    # every assignment with a or b, and c when b: the brute-force answers
    want = {
        frozenset(cell for cell, on in zip(((0, 0), (0, 1), (0, 2)), bits) if on)
        for bits in ((1, 0, 0), (1, 0, 1), (0, 1, 1), (1, 1, 1))
    }
    assert found == want
    assert backend.extra()["root_runs"] > 1


@pytest.fixture(scope="module")
def corpus(janko_dir):
    # corpus puzzles whose lazy rounds run into the hundreds, so that the switch happens
    wanted = {"141_9x9", "513_8x9", "938_10x10"}
    return [e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id in wanted]


def test_switched_corpus_puzzles_have_the_published_answer_only(corpus):
    # the bare puzzle (the stage's plan would spare the lazy rounds), the default switch after 20
    assert len(corpus) == 3
    assert registry.get("nurikabe", "cp").settings["escalate"] == 20
    for entry in corpus:
        result = solve(entry.puzzle, "cp", count=2, timeout=120, deduce="none")
        assert result.exhausted and result.extra["escalated_at"] == 20, entry.id
        assert [s.cells for s in result.solutions] == [entry.solution.cells], entry.id
        assert not entry.puzzle.verify(result.solutions[0].cells)
