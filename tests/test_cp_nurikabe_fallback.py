"""CP-SAT Nurikabe after the switch to the larger model: the root fixings carried between searches
(``escalate_fixings``) and the connectivity variant after the switch (``escalate_connectivity``).
Counts and answers are checked against brute force and the published solutions, never against the
solver's own say-so."""

from __future__ import annotations

import pytest

from bruteforce import answered_boards, assert_enumerates_brute_force
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


@pytest.mark.parametrize("fixings", ["noprobe", "probe"])
@pytest.mark.parametrize("presolve", [False, True])
def test_switching_with_root_fixings_at_any_search_counts_equal_brute_force(fixings, presolve):
    fixed = 0
    for p in _boards():
        for after in (1, 2, 3, 5):
            extra = assert_enumerates_brute_force(
                p,
                "cp",
                escalate=after,
                escalate_to="levels",
                escalate_fixings=fixings,
                escalate_presolve=presolve,
            ).extra
            fixed += extra.get("root_fixings", 0) > 0
    assert fixed >= len(_boards())  # the fixings were taken, on most boards


@pytest.mark.parametrize("connectivity", ["rank", "flow"])
def test_switching_to_eager_connectivity_counts_equal_brute_force(connectivity):
    for p in _boards()[::2]:
        for after in (1, 3):
            assert_enumerates_brute_force(p, "cp", escalate=after, escalate_connectivity=connectivity)


@pytest.mark.parametrize("cuts", ["mixed", "separator"])
def test_the_other_cuts_count_equal_brute_force(cuts):
    for p in _boards()[::2]:
        assert_enumerates_brute_force(p, "cp", cuts=cuts)
        assert_enumerates_brute_force(p, "cp", cuts=cuts, escalate=2)


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


@pytest.mark.parametrize("fixings", ["noprobe", "probe"])
def test_switched_corpus_puzzles_with_fixings_have_the_published_answer_only(corpus, fixings):
    assert len(corpus) == 3
    for entry in corpus:
        result = solve(
            entry.puzzle, "cp", count=2, timeout=120, escalate=20, escalate_fixings=fixings, plan="search"
        )
        assert result.exhausted and result.extra["escalated_at"] == 20, entry.id
        assert result.extra["root_fixings"] > 0, entry.id
        assert [s.cells for s in result.solutions] == [entry.solution.cells], entry.id
        assert not entry.puzzle.verify(result.solutions[0].cells)
