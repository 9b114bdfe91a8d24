"""Kuromasu's compiled deductions (``encodings/mip/kuromasu_probe_compiled.py``, run by the
deduction stage for every paradigm): the same
fixpoint as the readable engine of ``kuromasu_probe.py`` (the same settled cells, kept lengths,
contradictions and even the same number of branches run), on bundled boards, thinned ones with
many answers, and random small boards; pools that start tiny and grow; the solve's deadline."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

import puzzlebench as pb
from puzzlebench.encodings import base
from puzzlebench.encodings.mip import kuromasu_probe
from puzzlebench.encodings.mip.kuromasu_probe import Views
from puzzlebench.formats import load_solution
from puzzlebench.model import Kuromasu
from puzzlebench.model.kuromasu import random_kuromasu

pytest.importorskip("numba", reason="the compiled engine needs numba (a dependency of the project)")

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "gen-kuromasu"


def outcome(views: Views) -> tuple:
    return views.colour, views.lengths, views.contradiction, views.tries, views.probes_run


def both(puzzle: Kuromasu, **options) -> tuple[Views, Views]:
    slow = Views(puzzle, engine="python", **options)
    fast = Views(puzzle, engine="compiled", **options)
    assert (slow.engine, fast.engine) == ("python", "compiled")
    return slow, fast


def thinned(puzzle: Kuromasu, keep: int) -> Kuromasu:
    numbers = {cell: n for j, (cell, n) in enumerate(sorted(puzzle.numbers.items())) if j % keep}
    return Kuromasu(puzzle.rows, puzzle.cols, numbers=numbers, name=f"{puzzle.name}-thinned")


@pytest.mark.parametrize("name", ["kuromasu-015x015-s1", "kuromasu-020x020-s2", "kuromasu-030x030-s1"])
@pytest.mark.parametrize("keep", [0, 3])
def test_the_compiled_engine_reaches_the_readable_engines_fixpoint(name: str, keep: int) -> None:
    puzzle = pb.load(str(PUZZLES / f"{name}.pzl"))
    if keep:
        puzzle = thinned(puzzle, keep)  # many answers: cells stay open, branches are woken often
    for whole_views in (0, 50):
        slow, fast = both(puzzle, probe=True, whole_views=whole_views)
        assert outcome(fast) == outcome(slow), (name, keep, whole_views)
    assert keep or len(fast.colour) > puzzle.rows * puzzle.cols // 2


def test_the_engines_agree_on_random_boards_with_and_without_connectivity() -> None:
    rng = random.Random(2026)
    contradictions = settled = 0
    for trial in range(250):
        rows, cols = rng.randint(2, 7), rng.randint(2, 7)
        puzzle = random_kuromasu(rng, rows, cols, clue_p=rng.choice((0.1, 0.25, 0.4)))
        options = dict(
            probe=rng.random() < 0.8, connected=rng.random() < 0.7, whole_views=rng.choice((0, 3, 50))
        )
        slow, fast = both(puzzle, **options)
        assert outcome(fast) == outcome(slow), (trial, puzzle, options)
        contradictions += slow.contradiction is not None
        settled += len(slow.colour)
    assert contradictions >= 5 and settled > 1_000


def test_pools_that_start_tiny_grow_and_reach_the_same_fixpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = thinned(pb.load(str(PUZZLES / "kuromasu-020x020-s1.pzl")), 4)
    expected = outcome(Views(puzzle, probe=True, whole_views=50, engine="compiled"))
    monkeypatch.setattr(kuromasu_probe, "COMPILED_POOLS", (4, 2, 4, 2))
    monkeypatch.setattr(kuromasu_probe, "COMPILED_SLICE", 7)
    assert outcome(Views(puzzle, probe=True, whole_views=50, engine="compiled")) == expected


def test_the_compiled_probing_stops_at_the_solves_deadline() -> None:
    puzzle = pb.load(str(PUZZLES / "kuromasu-030x030-s1.pzl"))
    token = base.BUILD_DEADLINE.set(time.perf_counter() - 1.0)
    try:
        with pytest.raises(base.BuildTimeout):
            Views(puzzle, probe=True, engine="compiled")
    finally:
        base.BUILD_DEADLINE.reset(token)


def test_numbers_too_big_for_the_compiled_masks_fall_back_to_the_readable_engine() -> None:
    big = Kuromasu(1, 70, numbers={(0, 0): 70}, name="wide")
    assert Views(big, probe=True).engine == "python"
    assert Views(big, probe=True).colour == {(0, c): False for c in range(70)}
    with pytest.raises(ValueError, match="at most 61"):
        Views(big, engine="compiled")
    assert Views(pb.load(str(PUZZLES / "kuromasu-005x005-s1.pzl"))).engine == "compiled"


def test_the_deduction_stage_proves_the_same_answer_on_either_engine(monkeypatch) -> None:
    # The stage runs the engine ``auto`` picks (compiled here); the readable one, swapped in for
    # this test, settles the same cells and the solve proves the same answer.
    from functools import partial

    from puzzlebench.deductions import kuromasu as deductions

    puzzle = pb.load(str(PUZZLES / "kuromasu-020x020-s1.pzl"))
    planted = load_solution(str(PUZZLES / "kuromasu-020x020-s1.solution.pzl"), puzzle).cells
    settled = []
    for engine in ("python", "compiled"):
        with monkeypatch.context() as patch:
            patch.setattr(deductions, "Views", partial(Views, engine=engine))
            result = pb.solve(puzzle, "mip", count=2, timeout=120)
        assert result.deduce == "probe", engine
        assert result.exhausted and [s.cells for s in result.solutions] == [planted], engine
        settled.append(result.settled)
    assert settled[0] == settled[1] > 0


@pytest.mark.slow
def test_auto_leaves_an_uncompiled_engine_alone_and_says_so(tmp_path: Path) -> None:
    # A first compile takes about 40 s, which no solve's deadline should pay: with an empty numba
    # cache, auto runs the readable engine (the same fixpoint) and warns; compiled compiles.
    script = (
        "import warnings\n"
        "from puzzlebench.model import Kuromasu\n"
        "from puzzlebench.encodings.mip import kuromasu_probe as kp, kuromasu_probe_compiled as jit\n"
        "board = Kuromasu(3, 3, numbers={(0, 0): 3, (2, 2): 2}, name='tiny')\n"
        "print(kp._compiled_ready(jit))\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    print(kp.Views(board, probe=True).engine, any('not compiled yet' in str(w.message) for w in caught))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "python", "True"]
    assert Views(Kuromasu(3, 3, numbers={(0, 0): 3, (2, 2): 2}, name="tiny"), probe=True).engine == "compiled"


def test_the_warm_up_reaches_every_entry_point() -> None:
    # `make setup` compiles the engine through warm_up(): a solve must find every entry point
    # compiled, compact() included (it only runs once a pool is full).
    script = (
        "from puzzlebench.encodings.mip import kuromasu_probe_compiled as jit\n"
        "jit.warm_up()\n"
        "print([bool(fn.signatures) for fn in (jit.start, jit.probe_slice, jit.compact)])\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[True, True, True]"


def test_views_a_probe_ruled_out_stay_out_in_both_engines():
    # A number's failed views stay out of its later revisions (the masks alone would let such a
    # view back in): both engines keep them and reach the same fixpoint with them.
    puzzle = pb.load(PUZZLES / "kuromasu-030x030-s1.pzl")
    slow, fast = both(puzzle, probe=True, whole_views=200)
    assert sum(len(views) for views in slow.gone) > 100  # the rule has something to keep out
    assert outcome(slow) == outcome(fast)


@pytest.mark.parametrize("seed, most_open", [(1, 5), (3, 5)])
def test_ruled_out_views_settle_the_big_boards(seed, most_open):
    # 100x100 s1 and s3: without the rule the probe left 978 and 2,835 cells open; with it a few,
    # each settled cell as in the bundled answer.
    name = f"kuromasu-100x100-s{seed}"
    puzzle = pb.load(PUZZLES / f"{name}.pzl")
    truth = load_solution(PUZZLES / f"{name}.solution.pzl", puzzle)
    views = Views(puzzle, probe=True, whole_views=200, engine="compiled")
    assert views.contradiction is None
    cells = [c for c in puzzle.grid.all_cells if c not in puzzle.clue_cells]
    assert sum(c not in views.colour for c in cells) <= most_open
    assert all(black == (cell in truth.cells) for cell, black in views.colour.items())
