"""Nurikabe's compiled probe (``encodings/nurikabe_probe_compiled.py``): the same closure as the
readable ``nurikabe_deduce.settle`` on random partial assignments (the same cells or the same
conflict), the same crossing verdict, the same cells settled by a whole probe on corpus boards,
each cell as in the published answer; the deadline; the engine's choice."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from puzzlebench.encodings import nurikabe_deduce as nd
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.encodings.regions import BLACK, UNKNOWN, WHITE
from puzzlebench.formats import iter_janko
from puzzlebench.model import Nurikabe

jit = pytest.importorskip(
    "puzzlebench.encodings.nurikabe_probe_compiled",
    reason="the compiled engine needs numba (a dependency of the project)",
)

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "janko" / "Nurikabe_dataset.json"
#: small and mid-sized corpus boards, among them some the probe settles whole and some it leaves
#: mostly open, with '?' clues and without
IDS = [
    "120_6x6",
    "200_10x10",
    "360_10x10",
    "400_9x12",
    "480_12x12",
    "560_12x16",
    "683_14x24",
    "688_20x20",
    "800_14x24",
    "940_15x15",
    "960_15x15",
    "1080_10x14",
]


@pytest.fixture(scope="module")
def corpus() -> dict:
    if not CORPUS.exists():
        pytest.skip(f"the janko corpus is not beside the project ({CORPUS})")
    return {entry.id: entry for entry in iter_janko(CORPUS, malformed=[])}


def start(puzzle: Nurikabe) -> tuple[nd.Board, list[int]]:
    return nd.initial(puzzle, IslandPlan.of(puzzle))


def scattered(state: list[int], rng: random.Random, share: float) -> list[int]:
    """``state`` with a random ``share`` of its open cells set at random."""
    return [rng.choice((WHITE, BLACK)) if s == UNKNOWN and rng.random() < share else s for s in state]


def test_settle_closes_random_assignments_as_the_reference_does(corpus: dict) -> None:
    rng = random.Random(2026)
    outcomes = {True: 0, False: 0}
    crossings = 0
    for name in IDS:
        board, state = start(corpus[name].puzzle)
        g, ws = board.arrays(jit), jit.workspace(len(state), len(board.g.clues))
        for share in (0.05, 0.15, 0.3):
            for _ in range(8):
                trial = scattered(state, rng, share)
                slow = list(trial)
                fast = np.array(trial, np.int8)
                closed = nd.settle(board, slow)
                assert jit.settle(g, ws, fast) == closed, (name, share)
                if closed:
                    assert fast.tolist() == slow, (name, share)
                outcomes[closed] += 1
                # the crossing check alone, on the assignment as drawn
                crossed = nd.crossing(board, trial)
                assert jit._crossing(g, ws, np.array(trial, np.int8)) == crossed, (name, share)
                crossings += crossed
    assert min(outcomes.values()) >= 20, outcomes  # both outcomes were exercised
    assert crossings >= 5


@pytest.mark.parametrize("name", IDS)
def test_a_whole_probe_settles_the_reference_cells_each_as_published(corpus: dict, name: str) -> None:
    entry = corpus[name]
    board, state = start(entry.puzzle)
    slow, fast = list(state), list(state)
    assert nd.probe(board, slow, time.process_time() + 300, stop="budget", engine="python")
    assert nd.probe(board, fast, time.process_time() + 300, stop="budget", engine="compiled")
    assert fast == slow
    cols = entry.puzzle.cols
    shaded = {r * cols + c for r, c in entry.solution.cells}
    for i, s in enumerate(fast):
        if s != UNKNOWN:
            assert (s == BLACK) == (i in shaded), (name, divmod(i, cols))


def test_a_side_probed_from_the_cells_beside_its_changes_is_closed_as_by_whole_passes(corpus: dict) -> None:
    # depth 2's sides start from the cells around what the closure changed (``_side``), and a
    # whole pass looks again at the end: the same cells as settle and whole passes from the start
    rng = random.Random(7)
    compared = refuted = 0
    for name in ("200_10x10", "688_20x20", "800_14x24", "940_15x15"):
        board, state = start(corpus[name].puzzle)
        g, ws = board.arrays(jit), jit.workspace(len(state), len(board.g.clues))
        closed = np.array(state, np.int8)
        assert jit.probe_whole(g, ws, closed)
        open_cells = [i for i in range(closed.size) if closed[i] == UNKNOWN]
        for i in rng.sample(open_cells, min(12, len(open_cells))):
            for colour in (BLACK, WHITE):
                whole = closed.copy()
                whole[i] = colour
                ok = jit.probe_whole(g, ws, whole)
                side = jit._side(g, ws, closed, i, colour)
                assert (side is not None) == ok, (name, i, colour)
                if ok:
                    assert side.tolist() == whole.tolist(), (name, i, colour)
                    compared += 1
                else:
                    refuted += 1
    assert compared >= 20 and refuted >= 1  # both kinds of side were met


def test_a_board_without_an_answer_fails() -> None:
    # two 2s side by side in a corner: no wall can separate their islands
    p = Nurikabe(3, 3, numbers={(0, 0): 2, (0, 1): 2}, name="no-answer")
    plan = IslandPlan.searched(p)
    board, state = nd.initial(p, plan)
    assert nd.probe(board, list(state), float("inf"), engine="python") is False
    assert nd.probe(board, list(state), float("inf"), engine="compiled") is False


def test_the_deadline_stops_the_probe_after_the_first_closure(corpus: dict) -> None:
    board, state = start(corpus["688_20x20"].puzzle)
    closed = np.array(state, np.int8)
    assert jit.settle(board.arrays(jit), jit.workspace(len(state), len(board.g.clues)), closed)
    late = list(state)
    assert nd.probe(board, late, time.process_time() - 1, stop="budget", engine="compiled")
    assert late == closed.tolist()
    whole = list(state)
    assert nd.probe(board, whole, time.process_time() + 300, stop="budget", engine="compiled")
    assert sum(s != UNKNOWN for s in whole) > sum(s != UNKNOWN for s in late)


def test_a_depth_two_probe_past_its_deadline_makes_no_whole_pass(corpus: dict, monkeypatch) -> None:
    # the pass that decides whether depth 2 pays cannot be stopped: none once the deadline has passed
    board, state = start(corpus["688_20x20"].puzzle)
    calls = []
    whole = jit.probe_whole
    monkeypatch.setattr(jit, "probe_whole", lambda *args: calls.append(1) or whole(*args))
    late = list(state)
    assert nd.probe(board, late, time.process_time() - 1, depth=2, engine="compiled", stall=1.0)
    assert calls == []
    assert nd.probe(board, list(state), time.process_time() + 300, depth=2, engine="compiled", stall=1.0)
    assert calls  # (with time left the pass is made)


def test_an_unknown_engine_is_refused() -> None:
    board, state = nd.initial(
        Nurikabe(2, 2, numbers={(0, 0): 1}, name="tiny"),
        IslandPlan.searched(Nurikabe(2, 2, numbers={(0, 0): 1}, name="tiny")),
    )
    with pytest.raises(ValueError, match="unknown probe engine"):
        nd.probe(board, state, float("inf"), engine="gpu")


@pytest.mark.slow
def test_auto_leaves_an_uncompiled_engine_alone_and_says_so(tmp_path: Path) -> None:
    # With an empty numba cache, auto probes with the readable engine and warns (a solve never
    # pays for the first compile); the warm-up compiles every entry point.
    script = (
        "import warnings\n"
        "from puzzlebench.model import Nurikabe\n"
        "from puzzlebench.encodings import nurikabe_deduce as nd, nurikabe_probe_compiled as jit\n"
        "from puzzlebench.encodings.compiled import compiled_ready\n"
        "from puzzlebench.encodings.islands import IslandPlan\n"
        "p = Nurikabe(4, 4, numbers={(0, 0): 2, (3, 3): 3}, name='tiny')\n"
        "board, state = nd.initial(p, IslandPlan.searched(p))\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    nd.probe(board, state, float('inf'))\n"
        "print(any('not compiled yet' in str(w.message) for w in caught))\n"
        "jit.warm_up()\n"
        "print(compiled_ready(jit.settle, jit.probe_slice, jit.probe_whole, jit.probe2_slice))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]


def thinned(puzzle: Nurikabe, keep: int) -> Nurikabe:
    """``puzzle`` without every ``keep``-th clue (cells stay open, or the board has no answer)."""
    numbers = {cell: n for j, (cell, n) in enumerate(sorted(puzzle.numbers.items())) if j % keep}
    return Nurikabe(puzzle.rows, puzzle.cols, numbers=numbers, name=f"{puzzle.name}-thinned")


def test_a_probe_at_depth_two_settles_the_reference_cells(corpus: dict) -> None:
    small = [e for e in corpus.values() if e.puzzle.rows * e.puzzle.cols <= 64 and not e.puzzle.unknown][:6]
    assert len(small) == 6
    deeper = 0
    for entry in small:
        for keep in (3, 4):
            p = thinned(entry.puzzle, keep)
            outcomes = []
            for engine in ("python", "compiled"):
                board, state = start(p)
                ok = nd.probe(board, state, time.process_time() + 120, depth=2, engine=engine)
                outcomes.append((ok, state if ok else None))
            assert outcomes[0] == outcomes[1], (entry.id, keep)
            one_board, one = start(p)
            if outcomes[0][0] and nd.probe(one_board, one, time.process_time() + 120, stop="budget"):
                deeper += sum(s != UNKNOWN for s in outcomes[0][1]) > sum(s != UNKNOWN for s in one)
    assert deeper >= 1  # depth 2 settled more than depth 1 somewhere


def test_an_encodings_load_runs_once_before_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # the Nurikabe encodings and the Kuromasu deductions (the views MIP builds on) read their
    # compiled engines from numba's cache in ``load``; a slow load must not reach the solve's timings
    import dataclasses

    import puzzlebench as pb
    from puzzlebench import deduce as deduction
    from puzzlebench import registry
    from puzzlebench.encodings.mip.kuromasu_probe import load_engine as kuromasu_load
    from puzzlebench.model import Family

    assert registry.get(Family.NURIKABE, "cp").load is nd.load_engine
    loads = {d.name: d.load for d in deduction.deducers(Family.KUROMASU)}
    assert loads["probe"] is kuromasu_load and loads["views"] is kuromasu_load
    calls = []

    def slow() -> None:
        calls.append(time.perf_counter())
        nd.load_engine()
        time.sleep(0.5)

    spec = dataclasses.replace(registry.get(Family.NURIKABE, "sat"), load=slow)
    monkeypatch.setattr(registry, "get", lambda *args, **kwargs: spec)
    p = Nurikabe(4, 4, numbers={(0, 1): 3, (2, 3): 3, (3, 0): 1}, name="two-answers")
    result = pb.solve(p, "sat", count=0)
    assert len(calls) == 1 and result.count == 2
    assert result.timings.total < 0.5


def test_the_stall_of_depth_two_follows_the_estimated_pass() -> None:
    # a pass at depth 2 costs about two depth-1 passes per open cell
    stall = 0.5
    cheap = nd.DEEP_PASS / 2
    assert nd._stall(stall, cheap / (2 * 100), 100) == pytest.approx(cheap)  # one whole pass may go by
    assert nd._stall(stall, 0.1 / (2 * 100), 100) == stall  # a pass shorter than the stall
    middle = (nd.DEEP_PASS + nd.DEEP_SAMPLE * stall) / 2
    assert nd._stall(stall, middle / (2 * 400), 400) == stall  # too long a pass to wait for
    assert (
        nd._stall(stall, 2 * nd.DEEP_SAMPLE * stall / (2 * 400), 400) is None
    )  # the stall would see few cells
