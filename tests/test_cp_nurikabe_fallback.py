"""CP-SAT Nurikabe after the switch to the larger model: the root fixings carried between searches
(the fixed setting ``escalate_fixings=noprobe``), with the switch's search count (``escalate``)
set low enough to land on small boards. Counts and answers are checked against brute force and the
published solutions, never against the solver's own say-so. (The other fixings, presolve, the
connectivity after the switch and the other cuts are no longer reachable: fixed settings,
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
    boards = answered_boards("nurikabe", 31, [(3, 3), (3, 4), (4, 4), (3, 5)])
    # '?' clues and a number big enough for levels
    return boards + [
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})),
        Nurikabe(4, 4, numbers={(0, 0): 6, (3, 3): 2}),
    ]


def _setting(monkeypatch, **values) -> None:
    """The CP default's fixed settings at ``values`` for this test, through :func:`solve`."""
    fix_settings(monkeypatch, "nurikabe", "cp", **values)


@pytest.mark.slow
def test_switching_with_root_fixings_at_any_search_counts_equal_brute_force(monkeypatch):
    spec = registry.get("nurikabe", "cp")
    assert spec.settings["escalate_fixings"] == "noprobe" and spec.settings["escalate_to"] == "levels"
    fixed = 0
    for p in _boards():
        for after in (1, 2, 3, 5):
            _setting(monkeypatch, escalate=after)
            extra = assert_enumerates_brute_force(p, "cp").extra
            fixed += extra.get("root_fixings", 0) > 0
    assert fixed >= len(_boards())  # the fixings were taken, on most boards


def _two_free_bools() -> CpModelArtifact:
    # a or b, c fixed to 1 by a clause, and an integer z in [3, 9] above c (tightened, not fixed):
    # three answers over a, b
    art = CpModelArtifact(carry_fixings=True)
    a, b, c = (art.model.new_bool_var(n) for n in "abc")
    z = art.model.new_int_var(3, 9, "z")
    art.model.add_bool_or([a, b])
    art.model.add_bool_or([c])
    art.model.add(z >= 3 + c)
    art.decision = {(0, 0): a, (0, 1): b}
    return art


def test_root_fixings_fix_what_the_root_implies_and_nothing_else():
    art = _two_free_bools()
    backend = CpSatBackend({"num_workers": 1, "seed": 0, "presolve": False, "enumeration": "resolve"})
    backend.build(art, None)
    found = set(answers(backend, art, 0, None, {}))
    assert backend.exhausted
    # the answers of "a or b": a fixing read from a wrong domain bound would lose some
    assert found == {frozenset({(0, 0)}), frozenset({(0, 1)}), frozenset({(0, 0), (0, 1)})}
    domains = {v.name: list(v.domain) for v in art.model.proto.variables}
    assert domains["c"] == [1, 1] and domains["z"] == [3, 9]  # fixed only what is fixed
    assert domains["a"] != [0, 0] and domains["b"] != [0, 0]


@pytest.fixture(scope="module")
def corpus(janko_dir):
    # corpus puzzles whose lazy rounds run into the hundreds, so that the switch happens
    wanted = {"141_9x9", "513_8x9", "938_10x10"}
    return [e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id in wanted]


def test_switched_corpus_puzzles_with_fixings_have_the_published_answer_only(corpus):
    # the bare puzzle (the stage's plan would spare the lazy rounds), the default switch after 20
    assert len(corpus) == 3
    assert registry.get("nurikabe", "cp").settings["escalate"] == 20
    for entry in corpus:
        result = solve(entry.puzzle, "cp", count=2, timeout=120, deduce="none")
        assert result.exhausted and result.extra["escalated_at"] == 20, entry.id
        assert result.extra["root_fixings"] > 0, entry.id
        assert [s.cells for s in result.solutions] == [entry.solution.cells], entry.id
        assert not entry.puzzle.verify(result.solutions[0].cells)
