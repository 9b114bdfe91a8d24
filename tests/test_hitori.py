"""Hitori: the verifier, its formats, its deductions, every paradigm against brute force and the
janko corpus, and its generator."""

from __future__ import annotations

import random

import pytest

import puzzlebench as pb
from bruteforce import all_solutions, random_board
from puzzlebench import registry
from puzzlebench.encodings.latin import forced_shaded, forced_unshaded
from puzzlebench.errors import ClueOutOfRange, EncodingError, GridShapeError, ParseError
from puzzlebench.formats import dump, iter_janko, janko, loads, puzzlink
from puzzlebench.generate import generate
from puzzlebench.model import Family, Hitori, Rule
from puzzlebench.model.hitori import BLANK

PARADIGMS = [
    p for p in registry.available() if any(s.name == "default" for s in registry.encodings("hitori", p))
]

# pzprjs's own Hitori example (test/script/hitori.js): its URL and the answer it accepts.
PZPRJS_URL = "https://puzz.link/p?hitori/4/4/1114142333214213"
PZPRJS_ROWS = [[1, 1, 1, 4], [1, 4, 2, 3], [3, 3, 2, 1], [4, 2, 1, 3]]
PZPRJS_ANSWER = {(0, 0), (0, 2), (2, 0), (2, 2), (3, 3)}


def _boards(seed: int, n: int, shapes=((2, 2), (2, 3), (3, 3), (3, 4), (1, 4), (2, 5))) -> list[Hitori]:
    rng = random.Random(seed)
    return [random_board(Family.HITORI, rng, *shapes[i % len(shapes)]) for i in range(n)]


def _blank_boards(seed: int, n: int) -> list[Hitori]:
    """Random small boards with cells without a number (BLANK), from one cell to all of them,
    on boards whose few numbers repeat often (so a blank that counted as a number would matter)."""
    rng = random.Random(seed)
    shapes = ((2, 3), (3, 3), (3, 4), (1, 4), (2, 5), (4, 4))
    out = []
    for i in range(n):
        rows, cols = shapes[i % len(shapes)]
        share = (0.15, 0.4, 0.7, 1.0)[i % 4]
        if share == 1.0:  # an all-blank board has hundreds of answers past 3x3: enumeration's cost
            rows, cols = min(rows, 2), min(cols, 3)
        out.append(
            Hitori.from_rows(
                [
                    [BLANK if rng.random() < share else rng.randint(1, 2) for _ in range(cols)]
                    for _ in range(rows)
                ]
            )
        )
    return out


#: Boards on which a blank counted as a number would decide wrongly: ``. 1 .`` (a x a would leave
#: the 1 unshaded, though shading it is an answer) and ``. . .`` (a a .. a would shade the third).
BLANK_TRAPS = [
    Hitori.from_rows([[0, 1, 0], [2, 3, 4]]),
    Hitori.from_rows([[0, 0, 0], [1, 2, 3]]),
    Hitori.from_rows([[1, 0], [0, 1], [1, 0]]),
]


# -- the model and its verifier -----------------------------------------------------------------


def test_the_published_pzprjs_answer_is_valid_and_each_rule_break_is_named() -> None:
    p = Hitori.from_rows(PZPRJS_ROWS)
    assert p.verify(PZPRJS_ANSWER) == []
    # Unshading (0,2) leaves the 1s at (0,1) and (0,2) unshaded in row 0.
    rules = {v.rule for v in p.verify(PZPRJS_ANSWER - {(0, 2)})}
    assert rules == {Rule.REPEATED_NUMBER}
    # Shading (0,1) as well puts it beside (0,0) and (0,2).
    broken = p.verify(PZPRJS_ANSWER | {(0, 1)})
    assert {v.rule for v in broken} >= {Rule.ADJACENT_SHADED}
    assert [v.cells for v in broken if v.rule is Rule.ADJACENT_SHADED] == [((0, 0), (0, 1)), ((0, 1), (0, 2))]


def test_a_repeated_number_in_a_column_is_found() -> None:
    p = Hitori.from_rows([[1, 2], [1, 3]])
    (v,) = p.verify(set())
    assert v.rule is Rule.REPEATED_NUMBER and v.cells == ((0, 0), (1, 0)) and "column 0" in v.message


def test_cells_without_a_number_never_repeat() -> None:
    p = Hitori.from_rows([[BLANK, BLANK, 1], [BLANK, 1, BLANK]])
    assert p.blanks == {(0, 0), (0, 1), (1, 0), (1, 2)} and p.blank((0, 0)) and not p.blank((0, 2))
    assert p.verify(set()) == []  # four blanks, two per row and column: no repetition
    assert p.verify({(0, 0), (0, 1)})[0].rule is Rule.ADJACENT_SHADED  # still cells like any other


def test_cut_off_unshaded_cells_are_a_split_region() -> None:
    # Shading (0,1) and (1,0) walls the corner (0,0) in.
    p = Hitori.from_rows([[1, 2, 3], [2, 3, 1], [3, 1, 2]])
    (v,) = p.verify({(0, 1), (1, 0)})
    assert v.rule is Rule.UNSHADED_SPLIT and v.cells == tuple(
        sorted(set(p.grid.all_cells) - {(0, 0), (0, 1), (1, 0)})
    )


def test_boards_need_a_positive_number_or_blank_in_every_cell() -> None:
    with pytest.raises(ClueOutOfRange, match="0 for a cell without a number"):
        Hitori.from_rows([[1, -1]])
    with pytest.raises(GridShapeError):
        Hitori(2, 2, numbers=((1, 2),))
    with pytest.raises(GridShapeError):
        Hitori.from_rows([[1, 2], [3]])


# -- formats ------------------------------------------------------------------------------------


def test_the_pzprjs_url_reads_its_board_and_round_trips() -> None:
    p = puzzlink.read(PZPRJS_URL)
    assert p == Hitori.from_rows(PZPRJS_ROWS)
    assert puzzlink.write(p) == PZPRJS_URL
    assert loads(PZPRJS_URL) == p  # detected as a puzz.link URL


def test_wide_numbers_take_the_dash_form_and_round_trip() -> None:
    p = Hitori.from_rows([[1, 35, 36], [1295, 10, 2]])
    url = puzzlink.write(p)
    assert url.endswith("/3/2/1z-10-zza2")  # base 36: 35 = z, 36 = -10, 1295 = -zz, 10 = a
    assert puzzlink.read(url) == p


@pytest.mark.parametrize(
    "body, words",
    [
        ("1%11", "a [?] cell"),
        ("1@11", "a [?] cell"),
        ("11-1", "2 base-36"),
        ("111", "3 of the board's 4"),
        ("10111", "positive"),
        ("1!11", "unexpected"),
    ],
)
def test_bodies_hitori_cannot_hold_are_parse_errors(body: str, words: str) -> None:
    with pytest.raises(ParseError, match=words):
        puzzlink.read(f"https://puzz.link/p?hitori/2/2/{body}")


def test_pzprjs_cells_without_a_number_read_and_round_trip() -> None:
    # pzprjs's encodeHitori writes one '.' per cell without a number (and a last '/' after a
    # trailing '.', from outputURLData); its decodeHitori reads a '.' as an empty cell
    url = "https://puzz.link/p?hitori/3/2/.1-10.2./"
    p = puzzlink.read(url)
    assert p.numbers == ((BLANK, 1, 36), (BLANK, 2, BLANK)) and p.blanks == {(0, 0), (1, 0), (1, 2)}
    assert puzzlink.write(p) == url
    assert loads(url) == p
    assert puzzlink.read("https://puzz.link/p?hitori/3/2/.1-10.2.") == p  # without the last '/'
    for q in BLANK_TRAPS + _blank_boards(3, 12):
        assert puzzlink.read(puzzlink.write(q)) == q


def test_cells_without_a_number_in_the_text_formats() -> None:
    p = BLANK_TRAPS[0]
    assert dump(p, "native").splitlines()[3:5] == [". 1 .", "2 3 4"]
    assert loads(dump(p, "native")) == p
    # janko writes such a cell '-' and reads '-' or '.'; a grid with '-' needs the family named
    # (Kuromasu's and Nurikabe's grids look the same)
    assert janko.write(p).splitlines()[1:] == ["- 1 -", "2 3 4"]
    assert janko.read(janko.write(p), Family.HITORI) == p
    assert janko.read("2 3\n. 1 .\n2 3 4\n", Family.HITORI) == p
    with pytest.raises(ParseError, match="give the family"):
        janko.read(janko.write(p))
    with pytest.raises(ParseError, match="line 2.*'-' or '.'|'-' or '.'.*line 2"):
        janko.read("2 3\n? 1 .\n2 3 4\n", Family.HITORI)
    # the .lp and .mzn instance interfaces: no num fact, and 0
    from puzzlebench.model import family_spec

    spec = family_spec(Family.HITORI)
    facts = spec.asp_facts.write(p)
    assert "num(0,0," not in facts and "num(0,1,1)." in facts and "num(1,0,2)." in facts
    assert "n = [|  0,  1,  0" in spec.mzn_data.write(p)
    for q in _blank_boards(4, 12):
        assert loads(dump(q, "native")) == q and janko.read(janko.write(q), Family.HITORI) == q
        answer = next(iter(all_solutions(q)), frozenset())
        assert janko.read_solution(janko.write_solution(q, q.solution(answer)), q).cells == answer


def test_random_boards_round_trip_through_every_format() -> None:
    for p in _boards(5, 12):
        assert puzzlink.read(puzzlink.write(p)) == p
        assert janko.read(janko.write(p)) == p  # every token a positive number: Hitori claims it
        assert loads(dump(p, "native")) == p
        answer = next(iter(all_solutions(p)), frozenset())
        assert janko.read_solution(janko.write_solution(p, p.solution(answer)), p).cells == answer


def test_the_corpus_loads_every_puzzle_and_names_its_one_unreadable_solution(janko_dir) -> None:
    # 85_17x17's solution holds janko's move record: the puzzle is read, without a solution
    malformed: list = []
    entries = list(iter_janko(janko_dir / "Hitori_dataset.json", malformed=malformed))
    assert len(entries) == 941 and all(isinstance(e.puzzle, Hitori) for e in entries)
    assert malformed == []
    unread = {e.id: e.solution_error for e in entries if e.solution is None}
    assert list(unread) == ["85_17x17"]
    assert "solution of '85_17x17'" in unread["85_17x17"] and "line" in unread["85_17x17"]
    assert all(e.puzzle.verify(e.solution) == [] for e in entries if e.solution is not None)


# -- deductions and encodings against brute force --------------------------------------------


def test_deduced_cells_agree_with_every_answer() -> None:
    # Small random boards against brute force, then generated boards (unique by the generator's
    # own oracle, which shares nothing with the deductions) against their planted answer.
    cases = [(p, all_solutions(p)) for p in _boards(11, 30)]
    for seed in range(30):
        g = generate("hitori", 5 + seed % 4, 6, seed=seed, paradigm="none")
        cases.append((g.puzzle, {g.solution.cells}))
    seen_white = seen_black = 0
    for p, answers in cases:
        white, black = forced_unshaded(p), forced_shaded(p)
        for answer in answers:
            assert not (white & answer) and black <= answer, p.numbers
        seen_white += bool(answers and white)
        seen_black += bool(answers and black)
    assert seen_white > 10 and seen_black > 10  # the boards do exercise both deductions


def test_deductions_stay_sound_on_cells_without_a_number() -> None:
    # Rule: a blank repeats nothing, so no deduction starts from it
    assert forced_unshaded(BLANK_TRAPS[0]) == set() and forced_shaded(BLANK_TRAPS[1]) == set()
    for p in BLANK_TRAPS + _blank_boards(12, 40):
        white, black = forced_unshaded(p), forced_shaded(p)
        for answer in all_solutions(p):
            assert not (white & answer) and black <= answer, p.numbers
    p = Hitori.from_rows([[2, BLANK, 2], [1, 2, 1]])  # a real a x a beside a blank still counts
    assert forced_unshaded(p) == {(0, 1), (1, 1)}


@pytest.mark.parametrize("paradigm", PARADIGMS)
def test_boards_with_cells_without_a_number_match_brute_force(paradigm: str) -> None:
    boards = BLANK_TRAPS + _blank_boards(21, 12)
    if registry.paradigm(paradigm).peer:  # puzzlekit cannot state such a cell: refused with why
        with pytest.raises(EncodingError, match=r"cell \(0, 0\) has no number"):
            pb.solve(boards[0], paradigm)
        return
    # the bare puzzle once, then each option with the deductions stated
    for options in [{"deduce": "none"}, {"deduce": "rules"}, *_variants(paradigm)]:
        for p in boards:
            result = pb.solve(p, paradigm, count=0, timeout=60, **options)
            assert result.exhausted, (options, result.status, result.error)
            assert {s.cells for s in result.solutions} == all_solutions(p), (paradigm, options, p.numbers)


def _variants(paradigm: str) -> list[dict]:
    """Each non-default, non-relaxing option value of the paradigm's Hitori encoding."""
    spec = registry.get(Family.HITORI, paradigm)
    return [
        {opt.name: v}
        for opt in spec.options
        for v in opt.choices or ()
        if v != opt.default and v not in opt.relaxing
    ]


@pytest.mark.parametrize("paradigm", PARADIGMS)
def test_every_option_enumerates_exactly_the_brute_force_answers(paradigm: str) -> None:
    boards = _boards(7, 8)
    for options in _variants(paradigm):
        for p in boards:
            result = pb.solve(p, paradigm, count=0, timeout=60, **options)
            assert result.exhausted, (options, result.status, result.error)
            assert {s.cells for s in result.solutions} == all_solutions(p), (paradigm, options, p.numbers)


@pytest.mark.parametrize("paradigm", PARADIGMS)
def test_the_pzprjs_example_is_unique_in_every_paradigm(paradigm: str) -> None:
    result = pb.solve(puzzlink.read(PZPRJS_URL), paradigm, count=2)
    assert result.unique and result.solution.cells == PZPRJS_ANSWER


def test_the_puzzlekit_peer_answers_without_a_time_limit() -> None:
    if not registry.backend("puzzlekit").supported():
        pytest.skip("puzzlekit is not installed")
    # puzzlekit's Hitori solver is an iterative MIP (SCIP), with a time limit in integer ms.
    result = pb.solve(puzzlink.read(PZPRJS_URL), "puzzlekit", count=1)
    assert result.status is pb.Status.SAT and result.solution.cells == PZPRJS_ANSWER, result.error


@pytest.fixture(scope="module")
def corpus_sample(janko_dir) -> list:
    """20 corpus puzzles of mixed sizes: every size class, then a spread of the largest."""
    entries = sorted(
        iter_janko(janko_dir / "Hitori_dataset.json", malformed=[]), key=lambda e: (e.puzzle.rows, e.id)
    )
    by_size: dict = {}
    for e in entries:
        by_size.setdefault(e.puzzle.shape, []).append(e)
    sample = [group[len(group) // 2] for group in by_size.values()]
    rest = [e for e in entries if e not in sample and 10 <= e.puzzle.rows <= 17]
    return sample + rest[:: max(1, len(rest) // (20 - len(sample)))][: 20 - len(sample)]


@pytest.mark.parametrize("paradigm", PARADIGMS)
def test_corpus_sample_is_unique_and_equal_to_the_published_answer(paradigm: str, corpus_sample) -> None:
    assert len(corpus_sample) == 20 and len({e.puzzle.shape for e in corpus_sample}) >= 10
    for e in corpus_sample:
        result = pb.solve(e.puzzle, paradigm, count=2, timeout=60)
        assert result.unique, (e.id, paradigm, result.status, result.count)
        assert result.solution.cells == e.solution.cells, e.id
        assert e.puzzle.verify(result.solution) == []


@pytest.mark.skipif("mip" not in PARADIGMS, reason="no mip backend")
def test_a_board_whose_model_highs_presolve_once_failed_on_is_solved(janko_dir) -> None:
    # HiGHS's presolve ended this board's model (its deduced cells fixed, with the cuts of the
    # time) in "Solve error"; the backend runs such a model again without presolve (the rerun
    # itself is tested on a simulated failure in test_mip.py).
    e = next(e for e in iter_janko(janko_dir / "Hitori_dataset.json", malformed=[]) if e.id == "591_8x8")
    result = pb.solve(e.puzzle, "mip", count=2, timeout=60)
    assert result.unique and result.solution.cells == e.solution.cells, (result.status, result.error)


# -- the generator --------------------------------------------------------------------------


def test_same_seed_gives_the_same_puzzle_and_other_seeds_differ() -> None:
    a, b = (generate("hitori", 7, 6, seed=4, paradigm="none") for _ in range(2))
    assert a.puzzle == b.puzzle and a.solution == b.solution and a.puzzle.meta == b.puzzle.meta
    others = {generate("hitori", 7, 6, seed=s, paradigm="none").puzzle.content_hash() for s in (5, 6, 7)}
    assert a.puzzle.content_hash() not in others and len(others) == 3


def test_generated_small_boards_are_unique_by_brute_force() -> None:
    for seed in range(10):
        g = generate("hitori", *((3, 4), (4, 3))[seed % 2], seed=seed, paradigm="none")
        assert all_solutions(g.puzzle) == {g.solution.cells}, seed


def test_generated_puzzles_are_proved_unique_in_every_paradigm() -> None:
    g = generate("hitori", 8, 8, seed=1)
    assert g.puzzle.meta["proof"]["count"] == 1 and g.puzzle.meta["generator"].endswith("hitori")
    for paradigm in PARADIGMS:
        result = pb.solve(g.puzzle, paradigm, count=2, timeout=60)
        assert result.unique and result.solution == g.solution, paradigm
