"""Generators: determinism, planted answers, uniqueness by every paradigm, counts, CLI, suites."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from puzzlebench import registry
from puzzlebench.generate import GenerationError, generate, parse_size
from puzzlebench.generate.cnf import Cnf
from puzzlebench.model import Family

sys.path.insert(0, str(Path(__file__).parent))
from bruteforce import all_solutions  # noqa: E402

SUITES = Path(__file__).resolve().parent.parent / "puzzles"
FAMILIES = ("lightup", "kuromasu", "lightbulbs")
# One pinned board per family: a change here means the generator's output drifted.
PINNED = {
    "lightup": (("lightup", 8, 8, 11), {}),
    "kuromasu": (("kuromasu", 8, 8, 11), {}),
    "lightbulbs": (("lightbulbs", 6, 6, 11), {"unique": True}),
}


def _paradigms(family: str) -> list[str]:
    have = [p for p in registry.available() if any(s.name == "default" for s in registry.encodings(family, p))]
    if not have:
        pytest.skip(f"no paradigm with a {family} encoding is available")
    return have


@pytest.mark.parametrize("family", FAMILIES)
def test_same_seed_gives_same_puzzle_and_other_seed_another(family):
    a = generate(family, 7, 7, seed=5, paradigm="none")
    b = generate(family, 7, 7, seed=5, paradigm="none")
    c = generate(family, 7, 7, seed=6, paradigm="none")
    assert a.puzzle == b.puzzle and a.puzzle.content_hash() == b.puzzle.content_hash()
    assert a.solution == b.solution
    assert a.puzzle.content_hash() != c.puzzle.content_hash()


def test_pinned_hashes_catch_drift():
    got = {}
    for family, (args, opts) in PINNED.items():
        got[family] = generate(*args, paradigm="none", **opts).puzzle.content_hash()
    assert got == EXPECTED_HASHES


EXPECTED_HASHES = {
    "lightup": "6628c8edb0932f05",
    "kuromasu": "7fb39b83236a1ea5",
    "lightbulbs": "b11716bf0cdce00b",
}


@pytest.mark.parametrize("family", FAMILIES)
def test_metadata_records_seed_and_options(family):
    g = generate(family, 6, 6, seed=3, paradigm="none", density=0.3)
    assert g.puzzle.meta["seed"] == 3
    assert g.puzzle.meta["options"]["density"] == 0.3
    assert g.puzzle.meta["generator"].endswith(family)


@pytest.mark.parametrize("family,opts", [("lightup", {}), ("lightup", {"symmetric": True, "numbered": 0.5}),
                                         ("kuromasu", {}), ("kuromasu", {"clues": 0.05}),
                                         ("lightbulbs", {}), ("lightbulbs", {"unique": True})])
def test_planted_answer_passes_the_verifier(family, opts):
    for seed in range(8):
        g = generate(family, 9, 8, seed=seed, paradigm="none", **opts)
        assert g.puzzle.verify(g.solution) == []


def test_symmetric_walls_are_rotation_symmetric_before_repair():
    g = generate("lightup", 9, 9, seed=2, paradigm="none", symmetric=True)
    if g.puzzle.meta["repairs"] == 0:
        walls = g.puzzle.walls
        assert walls == {(8 - r, 8 - c) for r, c in walls}
    rotated = {(8 - r, 8 - c) for r, c in g.puzzle.walls}
    assert rotated == g.puzzle.walls  # repair walls come in rotated pairs too


@pytest.mark.parametrize("family,rows,cols,opts", [("lightup", 4, 4, {}), ("kuromasu", 4, 4, {}),
                                                   ("kuromasu", 3, 5, {}), ("lightbulbs", 3, 4, {"unique": True})])
def test_oracle_uniqueness_matches_brute_force(family, rows, cols, opts):
    for seed in range(10):
        g = generate(family, rows, cols, seed=seed, paradigm="none", **opts)
        assert all_solutions(g.puzzle, max_cells=20) == {g.solution.cells}


@pytest.mark.parametrize("family,opts", [("lightup", {}), ("kuromasu", {}), ("lightbulbs", {"unique": True})])
def test_small_generated_puzzles_are_unique_in_every_paradigm(family, opts):
    from puzzlebench.solvers import solve

    for seed in (1, 2):
        g = generate(family, 7, 7, seed=seed, paradigm="none", **opts)
        for paradigm in _paradigms(family):
            result = solve(g.puzzle, paradigm, count=2, timeout=60)
            assert result.count == 1 and result.exhausted, (paradigm, seed)
            assert result.solution == g.solution


def test_minimized_lightup_has_no_removable_number():
    from puzzlebench.model import LightUp

    from puzzlebench.solvers import solve

    g = generate("lightup", 6, 6, seed=4, paradigm="none")
    p = g.puzzle
    assert p.numbers
    for wall in p.numbers:
        fewer = LightUp(p.rows, p.cols, walls=p.walls, numbers={w: n for w, n in p.numbers.items() if w != wall})
        # two paradigms independently find a second verified answer once the number is gone
        for paradigm in ("sat", "asp"):
            result = solve(fewer, paradigm, count=2, timeout=60)
            assert result.count == 2 and not any(fewer.verify(s) for s in result.solutions), (wall, paradigm)


def test_seed003_count_equals_brute_force():
    for seed in range(6):
        g = generate("lightbulbs", 3, 4, seed=seed, paradigm="auto")
        assert g.solutions == len(all_solutions(g.puzzle, max_cells=12))
        assert g.puzzle.meta["solutions"] == g.solutions


def test_proof_records_difficulty():
    g = generate("lightup", 8, 8, seed=1)
    difficulty = g.puzzle.meta["difficulty"]
    assert difficulty["paradigm"] in registry.PARADIGMS
    assert isinstance(difficulty["propagation_solves"], bool)
    assert g.puzzle.meta["proof"]["count"] == 1


def test_totalizer_counts_exactly():
    rng = random.Random(0)
    for _ in range(30):
        n = rng.randint(1, 7)
        values = [rng.random() < 0.5 for _ in range(n)]
        with Cnf() as cnf:
            xs = [cnf.var(("x", i)) for i in range(n)]
            outs = cnf.totalizer("t", xs, n)
            model = cnf.solve([x if v else -x for x, v in zip(xs, values)])
            pos = set(x for x in model if x > 0)
            assert [o in pos for o in outs] == [k < sum(values) for k in range(len(outs))]


@pytest.mark.parametrize("bad", [dict(density=1.5), dict(batch=-1), dict(nonsense=1)])
def test_bad_options_are_clear_errors(bad):
    with pytest.raises(GenerationError):
        generate("lightup", 5, 5, paradigm="none", **bad)


def test_size_parsing():
    assert parse_size("10x12") == (10, 12)
    assert parse_size("7") == (7, 7)
    for bad in ("x", "0x5", "3by3"):
        with pytest.raises(GenerationError):
            parse_size(bad)


def test_cli_generate_writes_parseable_files(tmp_path):
    from puzzlebench.cli import main
    from puzzlebench.formats import load, load_solution

    assert main(["generate", "kuromasu", "--size", "6x5", "--seed", "2", "--count", "2",
                 "--out", str(tmp_path), "--solution", "--paradigm", "none"]) == 0
    files = sorted(tmp_path.glob("*.pzl"))
    puzzles = [f for f in files if not f.name.endswith(".solution.pzl")]
    assert len(puzzles) == 2
    for f in puzzles:
        puzzle = load(str(f))
        assert (puzzle.rows, puzzle.cols) == (6, 5)
        solution = load_solution(str(f).replace(".pzl", ".solution.pzl"), puzzle)
        assert puzzle.verify(solution) == []
        assert puzzle.meta["seed"] in (2, 3)


def test_cli_generate_rejects_bad_size(capsys):
    from puzzlebench.cli import main

    assert main(["generate", "lightup", "--size", "5y5"]) == 2
    assert "ROWSxCOLS" in capsys.readouterr().err


def _suite_entries():
    out = []
    for suite in ("gen-lightup", "gen-kuromasu", "gen-lightbulbs"):
        path = SUITES / suite / "manifest.json"
        if path.exists():
            manifest = json.loads(path.read_text())
            out += [(path.parent, e) for e in manifest["puzzles"]]
    return out


def test_committed_suites_have_every_size_and_planted_answers_verify():
    from puzzlebench.formats import load, load_solution

    entries = _suite_entries()
    if not entries:
        pytest.skip("generated suites not present")
    sizes = {(e["family"], e["rows"]) for _, e in entries}
    for family in ("lightup", "kuromasu"):
        assert {s for f, s in sizes if f == family} >= {5, 7, 10, 15, 20, 30, 50, 70, 100}
    for folder, e in entries:
        puzzle = load(str(folder / e["file"]))
        assert puzzle.content_hash() == e["meta"]["content_hash"]
        assert puzzle.verify(load_solution(str(folder / e["solution"]), puzzle)) == []


def _check_suite_unique(max_size: int | None, min_size: int = 0, every_paradigm: bool = True):
    from puzzlebench.formats import load, load_solution
    from puzzlebench.solvers import solve

    entries = [(f, e) for f, e in _suite_entries() if e["solutions"] == 1
               and e["rows"] >= min_size and (max_size is None or e["rows"] <= max_size)]
    if not entries:
        pytest.skip("generated suites not present")
    for folder, e in entries:
        puzzle = load(str(folder / e["file"]))
        planted = load_solution(str(folder / e["solution"]), puzzle)
        paradigms = _paradigms(e["family"]) if every_paradigm else [e["meta"]["proof"]["paradigm"]]
        for paradigm in paradigms:
            result = solve(puzzle, paradigm, count=2, timeout=120)
            assert result.count == 1 and result.exhausted and result.solution == planted, (e["id"], paradigm)


def test_committed_small_suite_puzzles_are_unique_in_every_paradigm():
    _check_suite_unique(max_size=10)


@pytest.mark.slow
def test_committed_large_suite_puzzles_are_unique_in_the_fastest_paradigm():
    _check_suite_unique(max_size=None, min_size=11, every_paradigm=False)
