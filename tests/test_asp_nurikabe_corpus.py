"""ASP Nurikabe's lazy cuts checked on total assignments only (clingo calls LazyCuts on candidates,
the waiting cuts watched on their literals), and the flat-index flood fills the lazy rules run on
every candidate: checked against brute force, an independent flood fill and published answers
(never against the solver's own say-so)."""

from __future__ import annotations

import random

import pytest

from bruteforce import all_solutions, answered_boards, assert_enumerates_brute_force
from puzzlebench import registry
from puzzlebench.encodings.asp.nurikabe import ENCODINGS, LAZY_CELLS, LazyCuts, build_default
from puzzlebench.encodings.regions import connectivity_cuts, island_cuts, white_regions
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe
from puzzlebench.solvers import solve

DATASET = "Nurikabe_dataset.json"

asp = pytest.mark.skipif("asp" not in registry.available(), reason="no ASP backend")


def _options(**given) -> dict:
    """The default's options and fixed settings, ``given`` overlaid."""
    assert registry.get("nurikabe", "asp") in ENCODINGS
    return {**registry.get("nurikabe", "asp").resolve({}), **given}


def _flood(rows: int, cols: int, marked: frozenset) -> list[set]:
    """The unmarked regions by a plain breadth-first search over cell tuples, first cells row-major."""
    seen, out = set(), []
    for start in ((r, c) for r in range(rows) for c in range(cols)):
        if start in marked or start in seen:
            continue
        region, queue = {start}, [start]
        for r, c in queue:
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= nb[0] < rows and 0 <= nb[1] < cols and nb not in marked and nb not in region:
                    region.add(nb)
                    queue.append(nb)
        seen |= region
        out.append(region)
    return out


def test_white_regions_are_the_connected_unmarked_regions_in_row_major_order():
    rng = random.Random(5)
    for _ in range(300):
        rows, cols = rng.randint(1, 9), rng.randint(1, 9)
        density = rng.random()
        marked = frozenset((r, c) for r in range(rows) for c in range(cols) if rng.random() < density)
        regions = white_regions(rows, cols, marked)
        assert [set(region) for region in regions] == _flood(rows, cols, marked)
        assert all(len(region) == len(set(region)) for region in regions)  # no cell twice


def test_region_cuts_of_random_candidates_hold_for_every_published_answer(janko_dir):
    # a cut is sound when no answer breaks it: each must keep the published answer
    rng = random.Random(8)
    entries = list(iter_janko(janko_dir / DATASET, malformed=[]))[::60]
    for entry in entries:
        p, answer = entry.puzzle, entry.solution.cells
        markable = frozenset(c for c in p.grid.all_cells if c not in p.clue_cells)
        for _ in range(5):
            flip = rng.random() * 0.3
            candidate = frozenset(c for c in markable if (c in answer) != (rng.random() < flip))
            cuts = island_cuts(p.rows, p.cols, p.numbers, candidate, p.unknown)
            cuts += connectivity_cuts(p.rows, p.cols, candidate, markable, isolated=False, of_marked=True)
            for cut in cuts:
                assert any((cell in answer) == wall for cell, wall in cut), entry.id
                # and it cuts the candidate
                assert not any((cell in candidate) == wall for cell, wall in cut), entry.id


@asp
@pytest.mark.parametrize("solver", ["clingo", "clingo-crafty", "clingo-trendy"])
def test_lazy_cuts_on_total_assignments_enumerate_exactly_the_brute_forced_answers(solver):
    # boards with 1 to 50 answers: every answer is found once, no candidate breaking a rule left
    # to the cuts gets through, also under configurations that leave variables open
    for p in answered_boards("nurikabe", 31, [(3, 3), (3, 4), (4, 4), (3, 5)], count=6):
        assert_enumerates_brute_force(p, "asp", solver=solver, islands="lazy", connectivity="lazy")


@asp
def test_waiting_cuts_reach_the_solver_when_a_candidate_raises_several():
    # a board whose candidates break several cuts at once: all are added (the count of cuts
    # exceeds the rounds), and the answers are exactly the brute-forced ones
    p = Nurikabe(4, 4, numbers={(0, 0): 5, (3, 3): 2})
    art = build_default(p, _options(islands="lazy", connectivity="lazy"))
    assert isinstance(art.propagator, LazyCuts)
    result = solve(p, "asp", count=0, timeout=60, islands="lazy", connectivity="lazy")
    assert result.exhausted
    assert {s.cells for s in result.solutions} == all_solutions(p)
    assert result.extra["lazy_cuts"] > result.extra["lazy_rounds"] >= 1


@asp
def test_auto_is_lazy_on_large_boards_even_when_every_number_gets_levels(janko_dir):
    entries = {e.id: e for e in iter_janko(janko_dir / DATASET, malformed=[])}
    large, small = entries["669_14x24"], entries["201_10x10"]
    assert large.puzzle.rows * large.puzzle.cols >= LAZY_CELLS > small.puzzle.rows * small.puzzle.cols
    assert build_default(large.puzzle, _options()).notes == {"islands": "lazy", "connectivity": "lazy"}
    assert build_default(small.puzzle, _options()).notes == {"islands": "hybrid", "connectivity": "reach"}
    # 669_14x24 took 5-6 CPU s with hybrid and reach; the published answer, proven unique
    result = solve(large.puzzle, "asp", count=2, timeout=120)
    assert result.exhausted
    assert [s.cells for s in result.solutions] == [large.solution.cells]


@asp
def test_the_encoding_prefers_trendy_unless_a_configuration_is_asked(janko_dir):
    entry = next(e for e in iter_janko(janko_dir / DATASET, malformed=[]) if e.id == "201_10x10")
    assert build_default(entry.puzzle, _options()).configuration == "trendy"
    asks = [({}, "trendy"), ({"configuration": "jumpy"}, "jumpy"), ({"solver": "clingo-crafty"}, "crafty")]
    for asked, ran in asks:
        result = solve(entry.puzzle, "asp", count=2, timeout=60, **asked)
        assert result.extra["clasp_configuration"] == ran
        assert result.exhausted and [s.cells for s in result.solutions] == [entry.solution.cells]
