"""Generators: reproducibility, planted answers, uniqueness by every paradigm, counts, CLI, suites.

Uniqueness is never taken from the generator's own oracle: it is checked by brute force on tiny
boards and by the registered paradigms (``solve(..., count=2)``) on the rest.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebench import registry
from puzzlebench.generate import GenerationError, generate, parse_size
from puzzlebench.generate.cnf import Cnf
from puzzlebench.model import Family, Kuromasu, LightUp
from puzzlebench.solvers import solve

sys.path.insert(0, str(Path(__file__).parent))
from bruteforce import all_solutions

FAMILIES = ("lightup", "kuromasu", "lightbulbs")
#: Options that make each family's generator plant a unique answer.
UNIQUE = {"lightup": {}, "kuromasu": {}, "lightbulbs": {"unique": True}}
SUITES = ("gen-lightup", "gen-kuromasu", "gen-lightbulbs", "gen-hitori", "gen-nurikabe")
GRID_SIZES = {5, 7, 10, 15, 20, 30, 50, 70, 100}
HITORI_SIZES = {5, 7, 10, 15, 20, 25, 30}


def _paradigms(family: str) -> list[str]:
    """Available paradigms with a default encoding of the family (smt may lack one)."""
    have = [
        p for p in registry.available() if any(s.name == "default" for s in registry.encodings(family, p))
    ]
    if not have:
        pytest.skip(f"no paradigm with a {family} encoding is available")
    return have


def _unique_in(puzzle, planted, paradigm: str, timeout: float = 120) -> None:
    result = solve(puzzle, paradigm, count=2, timeout=timeout)
    assert result.status.value == "sat", (puzzle.name, paradigm, result.status, result.error)
    assert result.count == 1 and result.exhausted, (puzzle.name, paradigm, result.count)
    assert result.solution == planted, (puzzle.name, paradigm)


# -- reproducibility -------------------------------------------------------------------------


@pytest.mark.parametrize("family", FAMILIES)
def test_same_seed_gives_same_puzzle_and_other_seeds_differ(family):
    a = generate(family, 7, 7, seed=5, paradigm="none")
    b = generate(family, 7, 7, seed=5, paradigm="none")
    assert a.puzzle == b.puzzle and a.puzzle.content_hash() == b.puzzle.content_hash()
    assert a.solution == b.solution and a.puzzle.meta == b.puzzle.meta
    others = {generate(family, 7, 7, seed=s, paradigm="none").puzzle.content_hash() for s in (6, 7, 8)}
    assert a.puzzle.content_hash() not in others and len(others) == 3


_HASHES = """
import json
from puzzlebench.generate import generate
print(json.dumps({f: generate(f, 9, 8, seed=11, paradigm="none", **o).puzzle.content_hash()
                  for f, o in (("lightup", {"symmetric": True}), ("kuromasu", {}), ("lightbulbs", {"unique": True}),
                               ("nurikabe", {}))}))
"""


def test_content_hashes_agree_across_processes_and_hash_seeds():
    """The hash pinned by two fresh interpreters (different PYTHONHASHSEED) is the in-process one."""
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", _HASHES], env=env, capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert runs[0] == runs[1]
    here = {
        f: generate(f, 9, 8, seed=11, paradigm="none", **o).puzzle.content_hash()
        for f, o in (
            ("lightup", {"symmetric": True}),
            ("kuromasu", {}),
            ("lightbulbs", {"unique": True}),
            ("nurikabe", {}),
        )
    }
    assert here == runs[0]


@pytest.mark.parametrize("family", FAMILIES)
def test_metadata_records_parameters_seed_and_difficulty(family):
    g = generate(family, 6, 6, seed=3, density=0.3)
    meta = g.puzzle.meta
    assert meta["seed"] == 3 and meta["options"]["density"] == 0.3
    assert meta["generator"].endswith(family)
    difficulty = meta["difficulty"]
    assert (
        difficulty["paradigm"] in registry.PARADIGMS and meta["proof"]["paradigm"] == difficulty["paradigm"]
    )
    assert isinstance(difficulty["unit_propagation"], bool)
    # "propagation solves it" means the proof paradigm found the answer without choice or conflict.
    assert difficulty["propagation_solves"] == (
        difficulty.get("choices", 0) == 0 and difficulty.get("conflicts", 0) == 0
    )


def test_paradigm_none_skips_the_proof():
    g = generate("lightup", 6, 6, seed=3, paradigm="none")
    assert g.proof is None and "proof" not in g.puzzle.meta
    assert set(g.puzzle.meta["difficulty"]) == {"unit_propagation"}


# -- planted answers and uniqueness ------------------------------------------------------------


@pytest.mark.parametrize(
    "family,opts",
    [
        ("lightup", {}),
        ("lightup", {"symmetric": True, "numbered": 0.5}),
        ("kuromasu", {}),
        ("kuromasu", {"clues": 0.5, "density": 0.1}),
        ("lightbulbs", {}),
        ("lightbulbs", {"unique": True, "density": 0.3}),
    ],
)
def test_planted_answer_passes_the_verifier(family, opts):
    for seed in range(8):
        g = generate(family, 9, 8, seed=seed, paradigm="none", **opts)
        assert g.puzzle.verify(g.solution) == []
        assert (g.puzzle.rows, g.puzzle.cols) == (9, 8)


def test_symmetric_walls_are_rotation_symmetric():
    for seed in range(4):
        walls = generate("lightup", 9, 10, seed=seed, paradigm="none", symmetric=True).puzzle.walls
        assert walls == {(8 - r, 9 - c) for r, c in walls}  # repair walls come in rotated pairs too


@pytest.mark.parametrize(
    "family,rows,cols", [("lightup", 4, 4), ("kuromasu", 4, 4), ("kuromasu", 3, 5), ("lightbulbs", 3, 4)]
)
def test_oracle_uniqueness_matches_brute_force(family, rows, cols):
    for seed in range(10):
        g = generate(family, rows, cols, seed=seed, paradigm="none", **UNIQUE[family])
        assert all_solutions(g.puzzle, max_cells=20) == {g.solution.cells}


@pytest.mark.parametrize("family", FAMILIES)
def test_small_generated_puzzles_are_unique_in_every_paradigm(family):
    for seed in (1, 2):
        g = generate(family, 7, 7, seed=seed, paradigm="none", **UNIQUE[family])
        for paradigm in _paradigms(family):
            _unique_in(g.puzzle, g.solution, paradigm, timeout=60)


def test_minimized_clue_sets_have_no_removable_clue():
    """With one clue per removal question and none undecided, every remaining clue is needed."""
    for family, seed in (("lightup", 4), ("kuromasu", 4)):
        g = generate(family, 7, 7, seed=seed, paradigm="none")
        assert g.stats["oracle_undecided"] == 0
        p = g.puzzle
        checker = _paradigms(family)[0]
        assert len(p.numbers) >= 1
        for cell in p.numbers:
            rest = {c: n for c, n in p.numbers.items() if c != cell}
            fewer = (
                LightUp(p.rows, p.cols, walls=p.walls, numbers=rest)
                if family == "lightup"
                else Kuromasu(p.rows, p.cols, numbers=rest)
            )
            assert solve(fewer, checker, count=2, timeout=60).count == 2, (family, cell)


def test_seed003_counts_equal_brute_force():
    for seed in range(6):
        g = generate("lightbulbs", 3, 4, seed=seed)
        assert g.solutions == len(all_solutions(g.puzzle, max_cells=12)) >= 1
        assert g.puzzle.meta["solutions"] == g.solutions


def test_count_limit_records_a_lower_bound():
    seed = next(s for s in range(50) if generate("lightbulbs", 3, 4, seed=s).solutions >= 3)
    capped = generate("lightbulbs", 3, 4, seed=seed, count_limit=2)
    assert capped.solutions is None and capped.puzzle.meta["solutions_at_least"] == 2


def test_kuromasu_batches_keep_the_clues_one_at_a_time_keeps():
    """Group testing (several clues per question, halved when an answer breaks more than one)
    keeps exactly the clues of one-clue questions when no question is left undecided."""
    for seed in range(4):
        one = generate("kuromasu", 8, 9, seed=seed, paradigm="none", budget=0)
        many = generate("kuromasu", 8, 9, seed=seed, paradigm="none", budget=0, batch=5)
        assert one.stats["oracle_undecided"] == many.stats["oracle_undecided"] == 0
        assert one.puzzle.numbers == many.puzzle.numbers, seed


def test_kuromasu_witnesses_are_answers_that_break_exactly_their_clues():
    from puzzlebench.generate.common import plant_black
    from puzzlebench.generate.kuromasu import Witnesses, visible
    from puzzlebench.model import KuromasuSolution
    from puzzlebench.model.grid import Grid

    for seed in range(6):
        rng = random.Random(seed)
        grid = Grid(7, 8)
        black = frozenset(plant_black(rng, grid, 0.25))
        count = {c: visible(grid, black, c) for c in grid.cells() if c not in black}
        clues = {c for c in count if rng.random() < 0.4}
        bare = Kuromasu(7, 8, numbers={})
        w = Witnesses(grid, black, count, clues)
        found = {(removed, added, broken) for ws in w.by_clue.values() for removed, added, broken in ws}
        assert len(found) > 10
        for removed, added, broken in found:
            other = (black - removed) | added
            assert other != black and bare.verify(KuromasuSolution(other)) == [], (seed, removed, added)
            assert broken == {c for c in clues if c in other or visible(grid, other, c) != count[c]}


def test_cut_cells_are_the_cells_that_split_the_white_cells():
    from puzzlebench.generate.common import cut_cells, white_components

    rng = random.Random(0)
    for _ in range(200):
        rows, cols = rng.randint(1, 7), rng.randint(1, 7)
        black = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.35}
        parts = len(white_components(rows, cols, black))
        splitting = {
            (r, c)
            for r in range(rows)
            for c in range(cols)
            if (r, c) not in black and len(white_components(rows, cols, black | {(r, c)})) > parts
        }
        assert cut_cells(rows, cols, black) == splitting


def test_unguarded_cnf_answers_like_a_guarded_one():
    rng = random.Random(1)
    for _ in range(20):
        n = rng.randint(2, 6)
        values = [rng.random() < 0.5 for _ in range(n)]
        answers = []
        for guarded in (True, False):
            with Cnf(guarded) as cnf:
                xs = [cnf.var(("x", i)) for i in range(n)]
                outs = cnf.totalizer("t", xs, n)
                cnf.exactly(cnf.var(("k",)), outs, sum(values))
                model = cnf.solve([cnf.var(("k",)), *(x if v else -x for x, v in zip(xs[1:], values[1:]))])
                answers.append(model[xs[0] - 1] > 0)
        assert answers == [values[0], values[0]]
    with Cnf(guarded=False) as cnf, pytest.raises(ValueError):
        cnf.propagated([])


def test_totalizer_counts_exactly():
    rng = random.Random(0)
    for _ in range(30):
        n = rng.randint(1, 7)
        values = [rng.random() < 0.5 for _ in range(n)]
        with Cnf() as cnf:
            xs = [cnf.var(("x", i)) for i in range(n)]
            outs = cnf.totalizer("t", xs, n)
            model = cnf.solve([x if v else -x for x, v in zip(xs, values)])
            assert [model[o - 1] > 0 for o in outs] == [k < sum(values) for k in range(len(outs))]


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "family,bad,message",
    [
        ("lightup", dict(density=1.5), "density"),
        ("lightup", dict(batch=-1), "batch"),
        ("lightup", dict(nonsense=1), "nonsense"),
        ("kuromasu", dict(density=0.9), "density"),
        ("kuromasu", dict(budget=-5), "budget"),
        ("lightbulbs", dict(density=0.0), "density"),
        ("lightbulbs", dict(count_limit=0), "count_limit"),
        ("sudoku", {}, "unknown family"),
    ],
)
def test_bad_options_are_clear_errors(family, bad, message):
    with pytest.raises(GenerationError, match=message):
        generate(family, 5, 5, **bad)


def test_bad_size_and_paradigm_are_clear_errors():
    with pytest.raises(GenerationError, match="at least 1x1"):
        generate("lightup", 0, 5)
    with pytest.raises(Exception, match="nope"):
        generate("lightup", 5, 5, paradigm="nope")


def test_size_parsing():
    assert parse_size("10x12") == (10, 12)
    assert parse_size(" 7 ") == (7, 7)
    for bad in ("x", "0x5", "3by3", ""):
        with pytest.raises(GenerationError, match="size"):
            parse_size(bad)


# -- command line -------------------------------------------------------------------------------


def test_cli_generate_writes_parseable_files(tmp_path):
    from puzzlebench.cli import main
    from puzzlebench.formats import load, load_solution

    assert (
        main(
            [
                "generate",
                "kuromasu",
                "--size",
                "6x5",
                "--seed",
                "2",
                "--count",
                "2",
                "--density",
                "0.2",
                "--out",
                str(tmp_path),
                "--solution",
            ]
        )
        == 0
    )
    puzzles = sorted(f for f in tmp_path.glob("*.pzl") if not f.name.endswith(".solution.pzl"))
    assert [f.name for f in puzzles] == ["kuromasu-6x5-s2.pzl", "kuromasu-6x5-s3.pzl"]
    for f in puzzles:
        puzzle = load(str(f))
        assert (puzzle.rows, puzzle.cols) == (6, 5)
        assert puzzle.verify(load_solution(str(f).replace(".pzl", ".solution.pzl"), puzzle)) == []
        assert puzzle.meta["seed"] in (2, 3) and puzzle.meta["options"]["density"] == 0.2
        assert puzzle.meta["proof"]["count"] == 1


def test_cli_generate_prints_other_formats(capsys):
    from puzzlebench.cli import main
    from puzzlebench.formats import loads

    assert (
        main(
            [
                "generate",
                "lightup",
                "--size",
                "6",
                "--seed",
                "4",
                "--format",
                "puzzlink",
                "--option",
                "symmetric=true",
            ]
        )
        == 0
    )
    printed = loads(capsys.readouterr().out.strip(), "puzzlink")
    expected = generate("lightup", 6, 6, seed=4, paradigm="none", symmetric=True).puzzle
    assert (printed.walls, printed.numbers) == (expected.walls, expected.numbers)


@pytest.mark.parametrize(
    "argv,message",
    [
        (["generate", "lightup", "--size", "5y5"], "ROWSxCOLS"),
        (["generate", "lightup", "--size", "5x5", "--count", "0"], "--count"),
        (["generate", "lightbulbs", "--size", "5x5", "--format", "puzzlink"], "cannot hold lightbulbs"),
        (["generate", "kuromasu", "--size", "5x5", "--option", "walls=3"], "no option 'walls'"),
    ],
)
def test_cli_generate_rejects_bad_input(capsys, argv, message):
    from puzzlebench.cli import main

    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_suite_writer_is_reproducible_and_loadable(tmp_path):
    from puzzlebench.generate.suites import Job, write_suites
    from puzzlebench.suites import load_suite

    jobs = [
        Job("gen-lightup", Family.LIGHTUP, 5, 1),
        Job("gen-lightup", Family.LIGHTUP, 7, 2),
        Job("gen-lightbulbs", Family.LIGHTBULBS, 4, 1, {"unique": True}),
    ]
    snapshots = []
    for out in (tmp_path / "a", tmp_path / "b"):
        write_suites(out, jobs, progress=False)
        snapshots.append({p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()})
    assert snapshots[0] == snapshots[1] and len(snapshots[0]) == 2 * 3 + 2
    suite = load_suite(str(tmp_path / "a" / "gen-lightup"))
    assert [e.id for e in suite] == ["lightup-005x005-s1", "lightup-007x007-s2"]
    assert all(e.solutions == 1 and e.puzzle.verify(e.solution) == [] for e in suite)


# -- the committed suites -----------------------------------------------------------------------


def _suite(name: str):
    from puzzlebench.suites import list_suites, load_suite

    if name not in list_suites():
        pytest.skip(f"suite {name} not generated")
    return load_suite(name)


@pytest.mark.parametrize("name", SUITES)
def test_committed_suites_load_and_their_answers_verify(name):
    suite = _suite(name)
    sizes: dict[int, int] = {}
    for e in suite:
        p = e.puzzle
        assert p.rows == p.cols
        assert p.family.value == e.family and p.content_hash() == e.meta["content_hash"]
        assert p.verify(e.solution) == [], e.id
        assert p.meta["seed"] == e.meta["seed"] and "difficulty" in e.meta and "options" in e.meta
        sizes[p.rows] = sizes.get(p.rows, 0) + 1
        if name != "gen-lightbulbs" or e.meta["options"]["unique"]:
            assert e.solutions == 1, e.id
        else:
            assert (e.solutions or 0) >= 1 or e.meta["solutions_at_least"] >= 1
    if name == "gen-lightbulbs":
        assert min(sizes) == 4 and max(sizes) == 20 and set(sizes.values()) == {4}
    elif name in ("gen-hitori", "gen-nurikabe"):
        assert set(sizes) == HITORI_SIZES and set(sizes.values()) == {3}
    else:
        assert set(sizes) == GRID_SIZES and set(sizes.values()) == {3}


def _entries(max_size: int, min_size: int = 0):
    out = [
        (name, e)
        for name in SUITES
        for e in _suite(name)
        if e.solutions == 1 and min_size <= e.puzzle.rows <= max_size
    ]
    assert out
    return out


def test_committed_small_puzzles_are_unique_in_every_paradigm():
    for _, e in _entries(max_size=10):
        for paradigm in _paradigms(e.family):
            _unique_in(e.puzzle, e.solution, paradigm)


def test_committed_puzzles_up_to_15x15_are_unique_in_the_fastest_paradigm():
    for _, e in _entries(max_size=15, min_size=11):
        _unique_in(e.puzzle, e.solution, e.meta["proof"]["paradigm"])


def test_committed_nurikabe_puzzles_beyond_10x10_are_unique_in_a_second_paradigm():
    """The Nurikabe generator's oracle and its proof of record are SAT: a second paradigm (ASP,
    under a second on a 30x30 board) proves every larger board unique again."""
    larger = [e for e in _suite("gen-nurikabe") if e.puzzle.rows > 10]
    assert larger
    for e in larger:
        other = next(p for p in _paradigms("nurikabe") if p != e.meta["proof"]["paradigm"])
        _unique_in(e.puzzle, e.solution, other, timeout=60)


def test_committed_lightbulbs_counts_agree_with_another_paradigm():
    counted = [e for e in _suite("gen-lightbulbs") if e.solutions and e.solutions > 1 and e.puzzle.rows <= 8]
    assert counted
    for e in counted:
        other = next(p for p in _paradigms("lightbulbs") if p != e.meta["proof"]["paradigm"])
        result = solve(e.puzzle, other, count=0, timeout=60)
        assert result.exhausted and result.count == e.solutions, e.id
        assert e.solution in result.solutions


@pytest.mark.slow
@pytest.mark.parametrize("size", sorted(s for s in GRID_SIZES | HITORI_SIZES if s > 15))
def test_committed_large_puzzles_are_unique_in_the_fastest_paradigm(size):
    for _, e in _entries(max_size=size, min_size=size):
        _unique_in(e.puzzle, e.solution, e.meta["proof"]["paradigm"], timeout=600)
