"""CP-SAT backend and encodings: answers checked by the verifier, counts by brute force.

Every option value of every CP encoding is held to the exhaustive oracle on tiny boards; the
relaxing ``connectivity=none`` must keep every true answer. The seed ports are checked against
the seed's own sample (001) and against the default encoding's counts (003).
"""

from __future__ import annotations

import functools
import itertools
import json
import random

import pytest

pytest.importorskip("ortools", reason="OR-Tools CP-SAT is not installed")

import puzzlebench as pb
from bruteforce import all_solutions, random_kuromasu, random_lightbulbs, random_lightup
from puzzlebench import registry
from puzzlebench.errors import EncodingError
from puzzlebench.model import Kuromasu, LightBulbs, LightUp
from puzzlebench.result import Status

# Seed 001's lightup1 (lightup1.dzn): -1 white, 5 black unnumbered, 0..4 black numbered.
LIGHTUP1 = [
    [-1, -1, -1, -1, 0, -1, -1],
    [-1, -1, -1, -1, -1, -1, -1],
    [0, -1, -1, 3, -1, -1, -1],
    [-1, -1, 2, -1, 4, -1, -1],
    [-1, -1, -1, 5, -1, -1, 1],
    [-1, -1, -1, -1, -1, -1, -1],
    [1, -1, 2, -1, -1, -1, -1],
]


def lightup_from_dzn(board: list[list[int]]) -> LightUp:
    walls = {(r, c) for r, row in enumerate(board) for c, b in enumerate(row) if b != -1}
    numbers = {(r, c): b for r, row in enumerate(board) for c, b in enumerate(row) if 0 <= b <= 4}
    return LightUp(len(board), len(board[0]), walls=frozenset(walls), numbers=numbers, name="lightup1")


def answers(result) -> set[frozenset]:
    return {s.cells for s in result.solutions}


@functools.cache
def truth(puzzle) -> frozenset[frozenset]:
    """Every answer, by brute force over the verifier (cached: several tests share the boards)."""
    return frozenset(all_solutions(puzzle))


def tiny(make, seed: int, n: int, shapes=((2, 2), (2, 3), (3, 3), (3, 4))) -> list:
    rng = random.Random(seed)
    return [make(rng, *shapes[i % len(shapes)]) for i in range(n)]


KUROMASU = tiny(random_kuromasu, 7, 12) + tiny(random_kuromasu, 17, 2, shapes=((4, 4),))
LIGHTUP = tiny(random_lightup, 8, 12)
LIGHTBULBS = tiny(random_lightbulbs, 9, 10, shapes=((1, 3), (2, 3), (3, 3), (2, 4)))


# -- every family solves, and the verifier accepts ------------------------------------------------


@pytest.mark.parametrize("encoding", ["default", "seed001"])
def test_lightup1_has_one_answer_the_verifier_accepts(encoding: str) -> None:
    puzzle = lightup_from_dzn(LIGHTUP1)
    result = pb.solve(puzzle, "cp", encoding, count=2)
    assert result.status is Status.SAT and result.count == 1 and result.exhausted
    assert puzzle.verify(result.solution) == []


def test_seed001_reproduces_the_default_answer_on_lightup1() -> None:
    puzzle = lightup_from_dzn(LIGHTUP1)
    seed = pb.solve(puzzle, "cp", "seed001").solution
    assert seed == pb.solve(puzzle, "cp", "default").solution
    # Seed 001 declares a light variable on every square: 49 on the 7x7 board.
    assert pb.solve(puzzle, "cp", "seed001").size["variables"] == 49


def test_kuromasu_and_lightbulbs_answers_pass_the_verifier() -> None:
    # Clues read off the black cells (0,1), (1,3), (2,0), (3,2), (4,4).
    kuro = Kuromasu(5, 5, numbers={(0, 0): 2, (1, 1): 6, (2, 3): 6, (3, 4): 5, (4, 0): 5, (1, 4): 4})
    bulbs = LightBulbs.from_rows([[2, 3, 2], [3, 4, 3], [2, 3, 2]])
    for puzzle in (kuro, bulbs):
        result = pb.solve(puzzle, "cp", count=3)
        assert result.status is Status.SAT
        assert all(puzzle.verify(s) == [] for s in result.solutions)


# -- counts against brute force -------------------------------------------------------------------


@pytest.mark.parametrize("enumeration", ["resolve", "callback"])
@pytest.mark.parametrize("encoding", ["default", "seed001"])
def test_lightup_counts_equal_brute_force(encoding: str, enumeration: str) -> None:
    for puzzle in LIGHTUP:
        result = pb.solve(puzzle, "cp", encoding, count=0, enumeration=enumeration)
        assert answers(result) == truth(puzzle), puzzle.name
        assert result.exhausted


@pytest.mark.parametrize("visibility", ["rays", "distance"])
@pytest.mark.parametrize("connectivity", ["lazy", "rank", "flow"])
def test_kuromasu_connectivity_options_agree_with_brute_force(connectivity: str, visibility: str) -> None:
    for puzzle in KUROMASU:
        result = pb.solve(puzzle, "cp", count=0, connectivity=connectivity, visibility=visibility)
        assert answers(result) == truth(puzzle), puzzle.name
        assert result.exhausted and result.complete


@pytest.mark.parametrize("visibility", ["rays", "distance"])
def test_kuromasu_without_connectivity_keeps_every_true_answer(visibility: str) -> None:
    for puzzle in KUROMASU:
        result = pb.solve(puzzle, "cp", count=0, connectivity="none", visibility=visibility)
        assert truth(puzzle) <= answers(result), puzzle.name
        assert not result.complete


def test_relaxed_kuromasu_accepts_a_split_board_the_rules_reject() -> None:
    # A 1 in the corner of a 2x2 board blackens both neighbours and cuts (1,1) off.
    puzzle = Kuromasu(2, 2, numbers={(0, 0): 1})
    assert pb.solve(puzzle, "cp", connectivity="rank").status is Status.UNSAT
    relaxed = pb.solve(puzzle, "cp", connectivity="none")
    assert relaxed.status is Status.SAT and puzzle.verify(relaxed.solution) != []


@pytest.mark.parametrize("encoding", ["default", "seed003"])
def test_lightbulbs_counts_equal_brute_force(encoding: str) -> None:
    for puzzle in LIGHTBULBS:
        result = pb.solve(puzzle, "cp", encoding, count=0)
        assert answers(result) == truth(puzzle), puzzle.name
        assert result.exhausted


def test_seed003_counts_equal_default_on_small_boards_for_every_search_strategy() -> None:
    rng = random.Random(11)
    boards = [
        LightBulbs.from_rows([[rng.randint(1, 5) for _ in range(5)] for _ in range(5)]) for _ in range(6)
    ]
    for puzzle in boards:
        expected = answers(pb.solve(puzzle, "cp", "default", count=0))
        for search in ("auto", "leftmost", "leftmost-down", "ff", "min", "max"):
            result = pb.solve(puzzle, "cp", "seed003", count=0, search=search)
            assert answers(result) == expected and result.exhausted, search


# -- uniqueness, unsat, limits --------------------------------------------------------------------


def test_count_two_stops_at_two_answers_without_claiming_exhaustion() -> None:
    # An open 2x2 Light Up board has two answers (a bulb pair on either diagonal).
    puzzle = LightUp(2, 2)
    assert len(all_solutions(puzzle)) == 2
    for enumeration in ("resolve", "callback"):
        result = pb.solve(puzzle, "cp", count=2, enumeration=enumeration)
        assert result.count == 2 and result.unique is False


@pytest.mark.parametrize(
    "puzzle",
    [
        LightUp(2, 2, numbers={(0, 0): 3}),
        Kuromasu(1, 3, numbers={(0, 0): 3, (0, 2): 1}),
        LightBulbs.from_rows([[2]]),
    ],
    ids=["lightup-corner-3", "kuromasu-row-3-1", "lightbulbs-lone-2"],
)
def test_unsatisfiable_puzzles_are_unsat_and_exhausted(puzzle) -> None:
    result = pb.solve(puzzle, "cp", count=2)
    assert result.status is Status.UNSAT and result.exhausted


def test_deadline_passed_before_search_gives_timeout() -> None:
    puzzle = LightUp(30, 30)
    result = pb.solve(puzzle, "cp", count=1, timeout=1e-6)
    assert result.status is Status.TIMEOUT and not result.exhausted


@pytest.mark.parametrize("connectivity", ["lazy", "rank"])
def test_enumeration_cut_by_the_deadline_is_not_exhausted(connectivity: str) -> None:
    # A clueless 6x6 Kuromasu has far more answers than can be listed in half a second.
    result = pb.solve(Kuromasu(6, 6), "cp", count=0, timeout=0.5, connectivity=connectivity)
    assert result.status in (Status.SAT, Status.TIMEOUT)
    assert not result.exhausted
    assert result.timings.total < 5.0
    assert all(Kuromasu(6, 6).verify(s) == [] for s in result.solutions)


# -- statistics and options -----------------------------------------------------------------------


def test_result_records_sizes_search_figures_and_workers() -> None:
    result = pb.solve(Kuromasu(4, 4, numbers={(0, 0): 4, (3, 3): 4}), "cp", count=2, num_workers=1)
    assert {"variables", "constraints"} <= set(result.size) and result.size["variables"] > 0
    assert {"choices", "conflicts", "propagations", "restarts"} <= set(result.search)
    assert {"wall_time", "solves", "num_booleans"} <= set(result.extra)
    assert result.options["num_workers"] == 1
    assert result.backend == "cpsat" and result.backend_version
    json.dumps(result.to_json())  # the record is serialisable


def test_callback_enumeration_is_refused_where_auxiliaries_would_multiply_counts() -> None:
    with pytest.raises(EncodingError, match="enumeration=callback"):
        pb.solve(Kuromasu(3, 3), "cp", count=0, connectivity="flow", enumeration="callback")


def test_unknown_option_values_are_rejected_with_the_allowed_ones() -> None:
    with pytest.raises(EncodingError, match="rank"):
        pb.solve(Kuromasu(3, 3), "cp", connectivity="bogus")
    with pytest.raises(EncodingError, match="leftmost"):
        pb.solve(LightBulbs.from_rows([[1]]), "cp", search="bogus")


def test_negative_worker_count_is_rejected() -> None:
    with pytest.raises(EncodingError, match="num_workers"):
        pb.solve(LightUp(2, 2), "cp", num_workers=-1)


def test_registry_lists_the_cp_encodings() -> None:
    names = {(s.family.value, s.name): s for s in registry.encodings(paradigm="cp")}
    assert {
        ("lightup", "default"),
        ("lightup", "seed001"),
        ("kuromasu", "default"),
        ("lightbulbs", "default"),
        ("lightbulbs", "seed003"),
    } <= set(names)
    assert names[("lightup", "seed001")].origin == "seed001"
    assert names[("lightbulbs", "seed003")].origin == "seed003"
    assert names[("kuromasu", "default")].option("connectivity").relaxing == ("none",)


# -- the janko corpus (a sample; the whole corpus is a benchmark) ---------------------------------


def _janko(path, kind: str, limit: int):
    data = json.loads(path.read_text())["data"]
    for pid, rec in itertools.islice(data.items(), limit):
        lines = rec["problem"].split("\n")
        rows, cols = map(int, lines[0].split())
        grid = [line.split() for line in lines[1 : 1 + rows]]
        sol = [line.split() for line in rec["solution"].split("\n")[1 : 1 + rows]]
        if kind == "akari":
            walls = {(r, c) for r in range(rows) for c in range(cols) if grid[r][c] != "-"}
            numbers = {(r, c): int(grid[r][c]) for r, c in walls if grid[r][c].isdigit()}
            puzzle = LightUp(rows, cols, walls=frozenset(walls), numbers=numbers, name=pid)
            marked = {(r, c) for r in range(rows) for c in range(cols) if sol[r][c] == "o"}
        else:
            numbers = {
                (r, c): int(grid[r][c]) for r in range(rows) for c in range(cols) if grid[r][c].isdigit()
            }
            puzzle = Kuromasu(rows, cols, numbers=numbers, name=pid)
            marked = {(r, c) for r in range(rows) for c in range(cols) if sol[r][c] == "x"}
        yield puzzle, frozenset(marked)


@pytest.mark.parametrize(
    "kind,file", [("akari", "Akari_dataset.json"), ("kuromasu", "Kuromasu_dataset.json")]
)
def test_janko_sample_answers_are_the_published_ones_and_unique(janko_dir, kind: str, file: str) -> None:
    for puzzle, published in _janko(janko_dir / file, kind, 15):
        result = pb.solve(puzzle, "cp", count=2, timeout=30)
        assert result.count == 1 and result.exhausted, puzzle.name
        assert result.solution.cells == published, puzzle.name
