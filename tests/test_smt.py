"""SMT paradigm (z3): answers checked by the verifier, published solutions and other paradigms.

Every option value of every SMT encoding is held to the brute-force oracle or the published
answer; LightBulbs counts up to 4x4 are compared with brute force and another paradigm's; the relaxing
``connectivity=none`` must keep every true answer and may accept a split board.
"""

from __future__ import annotations

import functools
import json
import random

import pytest

pytest.importorskip("z3", reason="z3 is not installed")

import puzzlebench as pb
from bruteforce import all_solutions, random_kuromasu, random_lightbulbs, random_lightup
from puzzlebench import registry
from puzzlebench.encodings.regions import white_regions
from puzzlebench.encodings.smt import kuromasu as smt_kuromasu
from puzzlebench.errors import EncodingError
from puzzlebench.model import Family, Hitori, Kuromasu, LightBulbs, LightUp, Nurikabe
from puzzlebench.model.base import Rule
from puzzlebench.result import Status
from puzzlebench.solvers.z3_backend import Z3Backend
from puzzlebench.suites import load_suite

SMT = registry.encodings(paradigm="smt")


def answers(result) -> set[frozenset]:
    return {s.cells for s in result.solutions}


@functools.cache
def truth(puzzle) -> frozenset[frozenset]:
    """Every answer, by brute force over the verifier (cached across tests)."""
    return frozenset(all_solutions(puzzle))


def tiny(make, seed: int, n: int, shapes) -> list:
    rng = random.Random(seed)
    return [make(rng, *shapes[i % len(shapes)]) for i in range(n)]


KUROMASU = tiny(random_kuromasu, 21, 12, ((2, 2), (2, 3), (3, 3), (3, 4))) + [Kuromasu(3, 3), Kuromasu(1, 3)]
LIGHTUP = tiny(random_lightup, 22, 8, ((2, 3), (3, 3), (3, 4)))
LIGHTBULBS = tiny(random_lightbulbs, 23, 8, ((1, 3), (2, 3), (3, 3), (2, 4)))

#: A small puzzle per family for the option sweep (each has exactly one answer).
SMALL = {
    # Clues read off the black cells (0,1), (1,3), (2,0), (3,2), (4,4).
    Family.KUROMASU: Kuromasu(
        5, 5, numbers={(0, 0): 2, (1, 1): 6, (2, 3): 6, (3, 4): 5, (4, 0): 5, (1, 4): 4}
    ),
    Family.LIGHTUP: LightUp(3, 3, walls=frozenset({(1, 1)}), numbers={(1, 1): 4}),
    # Only the pair (2,2), (2,3) is lit (brute force).
    Family.LIGHTBULBS: LightBulbs.from_rows([[2, 3, 3, 4], [4, 2, 1, 1], [4, 3, 2, 2]]),
    # pzprjs's Hitori example (test/script/hitori.js): shaded (0,0), (0,2), (2,0), (2,2), (3,3).
    Family.HITORI: Hitori.from_rows([[1, 1, 1, 4], [1, 4, 2, 3], [3, 3, 2, 1], [4, 2, 1, 3]]),
    # pzprjs's Nurikabe example (puzz.link nurikabe/5/5/g5k2o1k3g).
    Family.NURIKABE: Nurikabe(5, 5, numbers={(0, 1): 5, (1, 2): 2, (3, 2): 1, (4, 3): 3}),
}


def janko(janko_dir, family: str, most_cells: int, n: int):
    """The first ``n`` janko puzzles of at most ``most_cells`` cells, with published answers."""
    name = {"kuromasu": "Kuromasu_dataset.json", "lightup": "Akari_dataset.json"}[family]
    suite = load_suite(janko_dir / name)
    small = [e for e in suite if e.puzzle.rows * e.puzzle.cols <= most_cells]
    assert small, f"no janko {family} puzzle of at most {most_cells} cells"
    return small[:n]


# -- registration ---------------------------------------------------------------------------------


def test_every_family_has_a_default_smt_encoding_and_the_seed_ports() -> None:
    names = {(s.family, s.name) for s in SMT}
    for family in Family:
        assert (family, "default") in names
    assert (Family.LIGHTUP, "seed002") in names and (Family.LIGHTBULBS, "seed003") in names
    kuro = registry.get(Family.KUROMASU, "smt")
    assert kuro.option("connectivity").choices == ("lazy", "rank", "none")
    assert kuro.option("connectivity").default == "lazy"
    assert kuro.option("visibility").choices == ("auto", "distance", "rays", "shared")
    assert kuro.option("visibility").default == "auto"
    assert kuro.option("card").choices == ("adder", "pb", "sum")


def test_bad_option_values_are_refused_with_the_choices() -> None:
    with pytest.raises(EncodingError, match="connectivity"):
        pb.solve(SMALL[Family.KUROMASU], "smt", connectivity="flow")
    with pytest.raises(EncodingError, match="unknown option"):
        pb.solve(SMALL[Family.LIGHTBULBS], "smt", "seed003", card="pb")


# -- every option value builds and solves -----------------------------------------------------------


def _option_cases():
    """Each SMT encoding with its defaults, then with one option (or backend option) changed."""
    for spec in SMT:
        yield pytest.param(spec, {}, id=f"{spec.family.value}-{spec.name}")
        for opt in (*spec.options, *Z3Backend.OPTIONS):
            for value in opt.choices or ():
                if value != opt.default:
                    label = f"{spec.family.value}-{spec.name}-{opt.name}={value}"
                    yield pytest.param(spec, {opt.name: value}, id=label)


@pytest.mark.parametrize("spec,options", list(_option_cases()))
def test_every_option_value_builds_and_solves_a_small_puzzle(spec, options) -> None:
    puzzle = SMALL[spec.family]
    result = pb.solve(puzzle, "smt", spec.name, count=2, **options)
    assert result.status is Status.SAT, result.error
    assert result.complete == spec.is_complete(
        spec.resolve({k: v for k, v in options.items() if k != "logic"})
    )
    if result.complete:
        # One answer, proved the only one, and the verifier accepts it.
        assert result.count == 1 and result.exhausted
        assert puzzle.verify(result.solution) == []
    else:
        # A relaxation keeps the true answer among its (more numerous) answers.
        expected = pb.solve(puzzle, "smt", spec.name).solution
        assert expected in pb.solve(puzzle, "smt", spec.name, count=0, **options).solutions


# -- counts against brute force ---------------------------------------------------------------------


@pytest.mark.parametrize("visibility", ["distance", "rays", "shared"])
@pytest.mark.parametrize("connectivity", ["lazy", "rank"])
def test_kuromasu_answers_equal_brute_force(connectivity: str, visibility: str) -> None:
    for puzzle in KUROMASU:
        result = pb.solve(puzzle, "smt", count=0, connectivity=connectivity, visibility=visibility)
        assert answers(result) == truth(puzzle), puzzle.name
        assert result.exhausted and result.complete


@pytest.mark.parametrize("card", ["pb", "sum"])
def test_kuromasu_ray_counts_agree_for_both_counting_forms(card: str) -> None:
    for puzzle in KUROMASU[:6]:
        result = pb.solve(puzzle, "smt", count=0, visibility="rays", card=card)
        assert answers(result) == truth(puzzle), puzzle.name


def test_kuromasu_without_connectivity_keeps_every_true_answer() -> None:
    for puzzle in KUROMASU:
        result = pb.solve(puzzle, "smt", count=0, connectivity="none")
        assert truth(puzzle) <= answers(result), puzzle.name
        assert not result.complete


def test_relaxed_kuromasu_accepts_a_split_board_the_rules_reject() -> None:
    # A 1 in the corner of a 2x2 board blackens both neighbours and walls (1,1) in.
    puzzle = Kuromasu(2, 2, numbers={(0, 0): 1})
    for connectivity in ("lazy", "rank"):
        assert pb.solve(puzzle, "smt", connectivity=connectivity, count=2).status is Status.UNSAT
    relaxed = pb.solve(puzzle, "smt", connectivity="none")
    assert relaxed.status is Status.SAT and not relaxed.complete
    assert relaxed.solution.cells == {(0, 1), (1, 0)}
    assert [v.rule for v in puzzle.verify(relaxed.solution)] == [Rule.WHITE_REGION_SPLIT]


def test_lazy_cuts_exclude_the_split_candidate_and_keep_every_true_answer() -> None:
    from puzzlebench.encodings.regions import connectivity_cuts

    def holds(cells, cut):  # a cut is a clause over cell literals: (cell, marked?)
        return any((cell in cells) == marked for cell, marked in cut)

    for puzzle in KUROMASU:
        model = smt_kuromasu.build_default(
            puzzle, {"connectivity": "lazy", "visibility": "rays", "card": "pb"}
        )
        true_answers = truth(puzzle)
        # Every colouring without adjacent blacks whose white cells are split.
        for marked in _colourings(puzzle):
            regions = white_regions(puzzle.rows, puzzle.cols, marked)
            general = connectivity_cuts(puzzle.rows, puzzle.cols, marked, model.decision, isolated=False)
            for cuts, per_region in ((model.lazy(marked), len(regions) - 1), (general, len(regions))):
                assert bool(cuts) == (len(regions) > 1)
                if cuts:  # one per region (isolated marks: all but the largest, fences alone)
                    assert len(cuts) == per_region
                for cut in cuts:
                    assert all(cell in model.decision for cell, _ in cut)  # clue cells never appear
                    assert not holds(marked, cut)  # the candidate is cut off
                    assert all(holds(ans, cut) for ans in true_answers)  # no true answer is


def _colourings(puzzle: Kuromasu):
    free = [c for c in puzzle.grid.all_cells if c not in puzzle.clue_cells]
    for bits in range(1 << len(free)):
        marked = frozenset(c for i, c in enumerate(free) if bits >> i & 1)
        if not any((r + 1, c) in marked or (r, c + 1) in marked for r, c in marked):
            yield marked


def test_rank_roots_the_first_white_cell_on_a_clueless_board() -> None:
    # Without clues the root is chosen by the colouring; every answer is still counted once.
    for shape in ((1, 1), (1, 2), (2, 2), (2, 3), (3, 3)):
        puzzle = Kuromasu(*shape)
        result = pb.solve(puzzle, "smt", count=0, connectivity="rank")
        assert answers(result) == truth(puzzle), shape


@pytest.mark.parametrize(
    "encoding,options",
    [("default", {"card": "pb"}), ("default", {"card": "sum"}), ("seed002", {})],
    ids=["default-pb", "default-sum", "seed002"],
)
def test_lightup_answers_equal_brute_force(encoding: str, options: dict) -> None:
    for puzzle in LIGHTUP:
        result = pb.solve(puzzle, "smt", encoding, count=0, **options)
        assert answers(result) == truth(puzzle), puzzle.name
        assert result.exhausted


@pytest.mark.parametrize(
    "encoding,options",
    [("default", {"card": "pb"}), ("default", {"card": "sum"}), ("seed003", {})],
    ids=["default-pb", "default-sum", "seed003"],
)
def test_lightbulbs_answers_equal_brute_force(encoding: str, options: dict) -> None:
    for puzzle in LIGHTBULBS:
        result = pb.solve(puzzle, "smt", encoding, count=0, **options)
        assert answers(result) == truth(puzzle), puzzle.name
        assert result.exhausted


def _other_paradigm() -> str | None:
    for paradigm in ("sat", "cp", "asp"):
        if paradigm in registry.available():
            return paradigm
    return None


@pytest.mark.parametrize("encoding", ["default", "seed003"])
@pytest.mark.slow
def test_lightbulbs_counts_equal_another_paradigms_on_3x3_and_4x4(encoding: str) -> None:
    other = _other_paradigm()
    rng = random.Random(31)
    boards = [
        LightBulbs.from_rows([[rng.randint(1, 4) for _ in range(n)] for _ in range(n)])
        for n in (3, 3, 4, 4, 4)
    ]
    boards.append(LightBulbs.from_rows([[2, 3, 2], [3, 4, 3], [2, 3, 2]]))
    for puzzle in boards:
        mine = pb.solve(puzzle, "smt", encoding, count=0)
        assert mine.exhausted
        # Brute force reaches 4x4 (16 cells): the answers are held to it, not only to another paradigm.
        assert answers(mine) == all_solutions(puzzle, max_cells=16), puzzle.numbers
        assert all(puzzle.verify(s) == [] for s in mine.solutions)
        if other is not None:
            theirs = pb.solve(puzzle, other, count=0)
            assert theirs.exhausted
            assert answers(mine) == answers(theirs), (puzzle.numbers, other)


# -- bundled seed puzzles and the janko corpus --------------------------------------------------------


@pytest.mark.parametrize(
    "entry_id", ["seed000_kuromasu", "seed000_lightup", "seed001_lightup1", "seed002_lightup25"]
)
def test_bundled_seed_puzzles_have_one_answer_equal_to_the_published_one(puzzles_dir, entry_id: str) -> None:
    entry = load_suite(puzzles_dir / "seeds")[entry_id]
    encodings = [s.name for s in SMT if s.family.value == entry.family]
    for encoding in encodings:
        result = pb.solve(entry.puzzle, "smt", encoding, count=2)
        assert result.status is Status.SAT and result.unique is True, encoding
        assert entry.puzzle.verify(result.solution) == []
        if entry.solution is not None:
            assert result.solution == entry.solution, encoding


def test_janko_kuromasu_answers_match_the_published_ones_under_every_option(janko_dir) -> None:
    for entry in janko(janko_dir, "kuromasu", 81, 3):
        for connectivity in ("lazy", "rank"):
            for visibility in ("distance", "rays", "shared"):
                result = pb.solve(
                    entry.puzzle, "smt", count=2, connectivity=connectivity, visibility=visibility
                )
                assert result.unique is True, (entry.id, connectivity, visibility)
                assert result.solution == entry.solution
                assert entry.puzzle.verify(result.solution) == []


@pytest.mark.parametrize("encoding", ["default", "seed002"])
def test_janko_akari_answers_match_the_published_ones(janko_dir, encoding: str) -> None:
    for entry in janko(janko_dir, "lightup", 49, 4):
        result = pb.solve(entry.puzzle, "smt", encoding, count=2)
        assert result.unique is True, entry.id
        assert result.solution == entry.solution
        assert entry.puzzle.verify(result.solution) == []


def test_janko_kuromasu_10x10_uniqueness_is_proved(janko_dir) -> None:
    entries = [e for e in load_suite(janko_dir / "Kuromasu_dataset.json") if e.puzzle.rows == 10][:3]
    assert entries
    for entry in entries:
        result = pb.solve(entry.puzzle, "smt", count=2)
        assert result.unique is True and result.solution == entry.solution, entry.id
        assert result.extra["checks"] >= 2  # an answer, then the proof that none other exists


def test_a_board_of_clues_alone_has_one_answer_and_is_exhausted() -> None:
    # No cell can be black, so there are no decision Booleans to block on.
    result = pb.solve(Kuromasu(1, 1, numbers={(0, 0): 1}), "smt", count=2)
    assert result.status is Status.SAT and result.unique is True and result.solution.cells == frozenset()
    assert pb.solve(Kuromasu(1, 2, numbers={(0, 0): 1, (0, 1): 2}), "smt", count=2).status is Status.UNSAT


# -- limits and figures -------------------------------------------------------------------------------


def test_deadline_passed_before_search_gives_timeout() -> None:
    result = pb.solve(LightUp(30, 30), "smt", count=1, timeout=1e-6)
    assert result.status is Status.TIMEOUT and not result.exhausted and not result.solutions


def test_search_interrupted_at_the_deadline_gives_timeout() -> None:
    # Seed 003's model on a random 40x40 board takes z3 far longer than the deadline.
    rng = random.Random(0)
    puzzle = LightBulbs.from_rows([[rng.randint(1, 5) for _ in range(40)] for _ in range(40)])
    result = pb.solve(puzzle, "smt", "seed003", count=1, timeout=1.5)
    assert result.status is Status.TIMEOUT and not result.exhausted and not result.solutions
    assert result.timings.total < 15.0  # the timer interrupted the check


def test_enumeration_cut_by_the_deadline_is_not_exhausted() -> None:
    # A clueless 6x6 Kuromasu has far more answers than can be listed in half a second.
    puzzle = Kuromasu(6, 6)
    result = pb.solve(puzzle, "smt", count=0, timeout=0.5)
    assert result.status in (Status.SAT, Status.TIMEOUT) and not result.exhausted
    assert all(puzzle.verify(s) == [] for s in result.solutions)


def test_result_records_sizes_logic_and_refinements() -> None:
    puzzle = Kuromasu(4, 4, numbers={(0, 0): 4, (3, 3): 4})
    lazy = pb.solve(puzzle, "smt", count=0)
    rank = pb.solve(puzzle, "smt", count=0, connectivity="rank")
    assert answers(lazy) == answers(rank) == truth(puzzle)
    for result in (lazy, rank):
        assert {"assertions", "bool_vars", "int_vars"} <= set(result.size) and result.size["assertions"] > 0
        assert result.backend == "z3" and result.backend_version
        json.dumps(result.to_json())
    # logic=auto: Boolean encodings go to QF_FD, integer ranks to the arithmetic solver.
    assert lazy.options["logic"] == "auto" and lazy.extra["logic"] == "QF_FD"
    assert rank.extra["logic"] == "QF_LIA"
    assert pb.solve(puzzle, "smt", connectivity="rank", logic="QF_FD").extra["logic"] == "QF_FD"
    assert rank.size["int_vars"] >= puzzle.rows * puzzle.cols
    assert lazy.extra["checks"] >= 2
    split = Kuromasu(4, 4, numbers={(0, 3): 2, (2, 0): 5})  # its enumeration meets a split candidate
    cut = pb.solve(split, "smt", count=0)
    assert answers(cut) == truth(split) and cut.extra["lazy_rounds"] >= 1 and cut.extra["lazy_cuts"] >= 1


def test_a_lazy_solve_leaves_no_cyclic_garbage_of_z3_terms():
    import gc

    puzzle = Kuromasu(4, 4, numbers={(0, 0): 4, (3, 3): 4})
    pb.solve(puzzle, "smt", count=2)  # warm: one-time objects of the libraries
    gc.collect()
    gc.disable()
    try:
        pb.solve(puzzle, "smt", count=2, connectivity="lazy")
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        kinds = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    # the refine hook's cycle with its model used to hold every term of the encoding
    assert not kinds & {"SmtModel", "BoolRef", "ArithRef"}, kinds


def test_kuromasu_shared_stretches_keep_every_answer_of_the_rays_on_boards_where_numbers_see_each_other() -> (
    None
):
    from puzzlebench.model.kuromasu import random_kuromasu
    from puzzlebench.suites import load_suite

    rng = random.Random(5)
    for _ in range(15):
        puzzle = random_kuromasu(rng, 6, 7, clue_p=0.35)
        shared = pb.solve(puzzle, "smt", count=0, visibility="shared")
        assert answers(shared) == answers(pb.solve(puzzle, "smt", count=0, visibility="rays")), puzzle
    for entry in (e for e in load_suite("gen-kuromasu") if e.puzzle.rows == 10):
        result = pb.solve(entry.puzzle, "smt", count=2, visibility="shared")
        assert result.unique and result.solution == entry.solution, entry.id
