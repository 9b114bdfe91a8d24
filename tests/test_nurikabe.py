"""Nurikabe: verifier, formats, precomputations, lazy cuts, encodings against brute force and the
janko corpus, and the generator."""

from __future__ import annotations

import random
import re

import pytest

from bruteforce import all_solutions
from puzzlebench import registry
from puzzlebench.encodings import islands as islands_module
from puzzlebench.encodings.islands import IslandGraph, IslandPlan, cell_cuts, island_reasoning, wall_size
from puzzlebench.encodings.regions import BLACK, UNKNOWN, WHITE, connectivity_cuts, island_cuts, white_regions
from puzzlebench.errors import ParseError
from puzzlebench.formats import iter_janko, janko, native, puzzlink
from puzzlebench.model import Nurikabe, Rule
from puzzlebench.solvers import solve

DATASET = "Nurikabe_dataset.json"
#: the corpus records with '?' clues (islands of unknown size)
UNKNOWN_RECORDS = ["726_10x10", "758_11x11", "827_13x20"]

# pzprjs's own test boards for its Nurikabe checks (test/script/nurikabe.js): the puzzle of URL
# nurikabe/5/5/g5k2o1k3g with answers that each fail one named check ('#' wall; '.' and '+'
# unshaded).
URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
BOARDS = {
    "cs2x2": (Rule.WALL_2X2, ". 5 . . . /. . 2 . . /# # . . . /# # 1 . . /. . . 3 . /"),
    "bkNoNum": (Rule.ISLAND_WITHOUT_NUMBER, ". 5 # # . /. # 2 . # /. # # # # /. # 1 . . /# . . 3 . /"),
    "csDivide": (Rule.WALL_SPLIT, ". 5 # # # /. # 2 . # /. . # # # /. . 1 . . /# . . 3 . /"),
    "bkNumGe2": (Rule.ISLAND_TWO_NUMBERS, ". 5 # # # /. # 2 . # /. # # # # /. . 1 . . /. . . 3 . /"),
    "bkSizeNe": (Rule.ISLAND_SIZE_WRONG, ". 5 # # # /. # 2 . # /. # # # # /. # 1 # . /. # # 3 . /"),
    "solved": (None, "+ 5 # # # /+ # 2 + # /+ # # # # /+ # 1 # . /# # # 3 . /"),
}


def _wall(board: str) -> frozenset:
    rows = [row.split() for row in board.strip(" /").split("/")]
    return frozenset((r, c) for r, row in enumerate(rows) for c, tok in enumerate(row) if tok == "#")


@pytest.fixture(scope="module")
def sample_puzzle() -> Nurikabe:
    return puzzlink.read(URL)


def test_known_url_decodes_to_its_numbers_and_encodes_back(sample_puzzle):
    assert isinstance(sample_puzzle, Nurikabe)
    assert dict(sample_puzzle.numbers) == {(0, 1): 5, (1, 2): 2, (3, 2): 1, (4, 3): 3}
    assert puzzlink.write(sample_puzzle) == URL


@pytest.mark.parametrize("name", BOARDS)
def test_verifier_names_the_rule_each_pzprjs_board_breaks(sample_puzzle, name):
    rule, board = BOARDS[name]
    found = {v.rule for v in sample_puzzle.verify(_wall(board))}
    # pzprjs reports the first failing check; boards left unfinished may break others too
    assert rule in found if rule else found == set()


def test_a_shaded_number_is_a_violation(sample_puzzle):
    wall = _wall(BOARDS["solved"][1]) | {(0, 1)}
    assert Rule.SHADED_NUMBER in {v.rule for v in sample_puzzle.verify(wall)}


def test_unknown_clue_in_a_url_is_a_clue_of_unknown_size_and_writes_back():
    p = puzzlink.read("https://puzz.link/p?nurikabe/3/3/g.m")
    assert p.unknown == {(0, 1)} and dict(p.numbers) == {} and p.clue_cells == {(0, 1)}
    assert puzzlink.write(p) == "https://puzz.link/p?nurikabe/3/3/g.m"


def test_a_zero_in_a_url_is_a_parse_error_at_its_character():
    with pytest.raises(ParseError, match=r"number 0 at \(0, 1\)"):
        puzzlink.read("https://puzz.link/p?nurikabe/3/3/g0m")


def test_unknown_clues_read_from_janko_and_native_text():
    p = janko.read("3 3\n? - -\n- - 2\n- - -\n", "nurikabe")
    assert p.unknown == {(0, 0)} and dict(p.numbers) == {(1, 2): 2}
    assert janko.write(p).split("\n")[1].split() == ["?", "-", "-"]
    text = native.write(p)
    assert "?" in text and native.read(text) == p
    with pytest.raises(ParseError, match="'-', '\\?' or a positive number"):
        janko.read("2 2\n? x\n- -\n", "nurikabe")


def test_a_cell_cannot_be_a_number_and_a_question_mark():
    from puzzlebench.errors import PuzzleError

    with pytest.raises(PuzzleError, match=r"cell \(0, 0\) is both a number and a '\?' clue"):
        Nurikabe(2, 2, numbers={(0, 0): 1}, unknown=frozenset({(0, 0)}))
    assert Nurikabe(2, 2, unknown=frozenset({(0, 0)})) != Nurikabe(2, 2, unknown=frozenset({(1, 1)}))


def test_random_boards_round_trip_through_puzzlink_and_janko():
    rng = random.Random(11)
    for _ in range(30):
        rows, cols = rng.randint(1, 9), rng.randint(1, 9)
        numbers = {
            (r, c): rng.randint(1, min(rows * cols, 300))
            for r in range(rows)
            for c in range(cols)
            if rng.random() < 0.3
        }
        unknown = frozenset(cell for cell in list(numbers) if rng.random() < 0.3)
        p = Nurikabe(
            rows, cols, numbers={c: n for c, n in numbers.items() if c not in unknown}, unknown=unknown
        )
        assert puzzlink.read(puzzlink.write(p)) == p
        assert janko.read(janko.write(p), "nurikabe") == p
        assert native.read(native.write(p)) == p


# 3x3 boards with '?' clues: (numbers, '?' cells, the rules the answer breaks, the answer with
# '#' wall and '?', '.' or a number unshaded)
UNKNOWN_BOARDS = {
    "question-island-of-three": ({(2, 1): 2}, {(0, 0)}, set(), "? . . /# # # /. 2 # /"),
    "question-island-of-one": ({(2, 2): 4}, {(0, 0)}, set(), "? # . /# # . /# . 4 /"),
    "two-questions-joined": (
        {(2, 1): 2},
        {(0, 0), (0, 2)},
        {Rule.ISLAND_TWO_NUMBERS},
        "? . ? /# # # /. 2 # /",
    ),
    "question-and-number-joined": (
        {(2, 1): 2},
        {(0, 0)},
        {Rule.ISLAND_TWO_NUMBERS, Rule.ISLAND_WITHOUT_NUMBER},
        "? # . /. # # /. 2 # /",
    ),
    "question-shaded": (
        {(2, 1): 2},
        {(0, 0)},
        {Rule.SHADED_NUMBER, Rule.ISLAND_WITHOUT_NUMBER},
        "# . . /# # # /. 2 # /",
    ),
}


@pytest.mark.parametrize("name", UNKNOWN_BOARDS)
def test_verifier_on_question_mark_islands(name):
    numbers, unknown, rules, board = UNKNOWN_BOARDS[name]
    p = Nurikabe(3, 3, numbers=numbers, unknown=frozenset(unknown))
    found = p.verify(_wall(board))
    assert {v.rule for v in found} == rules, [v.message for v in found]


@pytest.fixture(scope="module")
def corpus(janko_dir):
    malformed: list = []
    entries = list(iter_janko(janko_dir / DATASET, malformed=malformed))
    return entries, dict(malformed)


def test_corpus_reads_with_malformed_records_named_by_id(corpus):
    entries, malformed = corpus
    assert len(entries) + len(malformed) == 1130
    # 20 records whose header does not match the grid; the 3 with '?' clues read
    assert "1086_21x10" in malformed and "expected 21 grid rows" in malformed["1086_21x10"]
    assert len(malformed) == 20
    assert sorted(e.id for e in entries if e.puzzle.unknown) == UNKNOWN_RECORDS
    assert all(isinstance(e.puzzle, Nurikabe) and e.puzzle.name == e.id for e in entries)


def test_verifier_accepts_every_published_answer_and_janko_round_trips(corpus):
    entries, _ = corpus
    assert [e.id for e in entries if e.puzzle.verify(e.solution)] == []
    for e in entries[::50]:
        assert janko.read(janko.write(e.puzzle), "nurikabe") == e.puzzle
        assert (
            janko.read_solution(janko.write_solution(e.puzzle, e.solution), e.puzzle).cells
            == e.solution.cells
        )


def test_precomputation_holds_for_every_published_answer(corpus):
    entries, _ = corpus
    for e in entries[::5] + [e for e in entries if e.puzzle.unknown]:
        plan = IslandPlan.of(e.puzzle)
        wall = e.solution.cells
        assert plan.wall <= wall, e.id
        fewest, most = wall_size(e.puzzle, plan)
        assert fewest <= len(wall) <= most and (fewest == most or e.puzzle.unknown), e.id
        for island in white_regions(e.puzzle.rows, e.puzzle.cols, wall):
            clue = next(c for c in island if c in e.puzzle.clue_cells)
            assert set(island) <= set(plan.reach[clue]) and len(island) <= plan.bound[clue], e.id


def test_question_mark_bounds_hold_for_every_brute_forced_answer():
    checked = 0
    for p in _small_boards():
        plan = IslandPlan.of(p)
        assert all(plan.bound[clue] == n for clue, n in p.numbers.items())
        for wall in all_solutions(p):
            assert plan.wall <= wall
            for island in white_regions(p.rows, p.cols, wall):
                clue = next(c for c in island if c in p.clue_cells)
                assert set(island) <= set(plan.reach[clue]) and len(island) <= plan.bound[clue], p.to_text()
                checked += clue in p.unknown
    assert checked >= 5  # '?' islands were among the answers


def test_a_question_mark_bound_counts_the_cells_left_and_what_its_search_reaches():
    # 3x3: 9 cells, a 2, one other '?', one wall cell at least: 9 - 2 - 1 - 1 = 5
    p = Nurikabe(3, 3, numbers={(2, 2): 2}, unknown=frozenset({(0, 0), (0, 2)}))
    plan = IslandPlan.of(p)
    # (0,1) touches both '?' and (1,2) touches the '?' (0,2): (0,2) reaches itself only, and the 2
    # reaches (2,1) only, so its island is forced; (1,1) and (2,0) touch it: (0,0) two cells
    assert plan.bound[(0, 2)] == 1 and plan.bound[(0, 0)] == 2 and plan.bound[(2, 2)] == 2
    assert {(0, 1), (1, 2), (1, 1), (2, 0)} <= plan.wall
    # the search reaches more: 16 cells less the 2 and one wall cell
    assert IslandPlan.of(Nurikabe(4, 4, numbers={(3, 3): 2}, unknown=frozenset({(0, 0)}))).bound[(0, 0)] == 13
    alone = IslandPlan.of(Nurikabe(2, 3, unknown=frozenset({(1, 1)})))
    assert alone.bound[(1, 1)] == 6 and not alone.wall  # one clue: the whole board may be its island


def test_redundant_wall_rules_hold_for_every_answer(corpus):
    from puzzlebench.encodings.islands import wall_partners, wall_size

    entries, _ = corpus
    boards = [(e.puzzle, [e.solution.cells]) for e in entries[::25]]
    boards += [(p, all_solutions(p)) for p in _small_boards()]
    seen = 0
    for p, answers in boards:
        plan = IslandPlan.of(p)
        partners = wall_partners(p, plan)
        fewest, most = wall_size(p, plan)
        for wall in answers:
            seen += 1
            assert fewest <= len(wall) <= most, p.to_text()
            assert fewest == most or p.unknown, p.to_text()  # exact without '?' clues
            # a wall cell has a wall neighbour (listed whenever every answer's wall has two cells
            # or more, which without '?' clues is whenever this one has)
            assert all(any(nb in wall for nb in around) for cell, around in partners if cell in wall), (
                p.to_text()
            )
            if partners:
                assert len(wall) >= 2
            if not p.unknown:
                assert bool(partners) == (len(wall) >= 2)
    assert seen > 40


def _holds(clause, wall) -> bool:
    return any((cell in wall) == marked for cell, marked in clause)


def test_lazy_cuts_reject_the_candidate_and_keep_the_published_answer(corpus):
    entries, _ = corpus
    rng = random.Random(5)
    cut_seen = 0
    for e in entries[:40] + [e for e in entries if e.puzzle.unknown]:
        answer = e.solution.cells
        markable = [c for c in e.puzzle.grid.all_cells if c not in e.puzzle.clue_cells]
        for _ in range(5):
            flipped = set(rng.sample(markable, 3))
            candidate = frozenset(answer ^ flipped)
            cuts = island_cuts(e.puzzle.rows, e.puzzle.cols, e.puzzle.numbers, candidate, e.puzzle.unknown)
            cuts += connectivity_cuts(
                e.puzzle.rows, e.puzzle.cols, candidate, frozenset(markable), isolated=False, of_marked=True
            )
            cut_seen += len(cuts)
            for clause in cuts:
                assert not _holds(clause, candidate), (e.id, clause)
                assert _holds(clause, answer), (e.id, clause)
            if e.puzzle.verify(candidate):
                assert cuts, e.id
    assert cut_seen > 100


def test_cell_cuts_reject_the_candidate_and_keep_the_published_answer(corpus):
    entries, _ = corpus
    rng = random.Random(6)
    cut_seen = 0
    for e in entries[:60] + [e for e in entries if e.puzzle.unknown]:
        answer = e.solution.cells
        plan = IslandPlan.of(e.puzzle)
        anchor = min(plan.wall) if plan.wall else None
        markable = [c for c in e.puzzle.grid.all_cells if c not in e.puzzle.clue_cells and c not in plan.wall]
        for _ in range(5):
            # candidates keep the cells known to be wall, as every solver's do
            candidate = frozenset(answer ^ set(rng.sample(markable, 3)))
            cuts = cell_cuts(
                e.puzzle.rows,
                e.puzzle.cols,
                e.puzzle.numbers,
                candidate,
                anchor,
                True,
                True,
                e.puzzle.unknown,
            )
            cut_seen += len(cuts)
            for clause in cuts:
                assert not _holds(clause, candidate), (e.id, clause)
                assert _holds(clause, answer), (e.id, clause)
                assert not any(cell in e.puzzle.clue_cells for cell, _ in clause), (e.id, clause)
            if e.puzzle.verify(candidate):
                assert cuts, e.id
    assert cut_seen > 100


def _reasoning_cases(puzzle, answers, rng, rounds):
    """Partial assignments of ``puzzle``: cells fixed at random to one answer's value or (every
    other round) to a random value, with the island reasoning's findings on each."""
    plan = IslandPlan.of(puzzle)
    graph = IslandGraph.of(puzzle, plan)
    cols = puzzle.cols
    for t in range(rounds):
        answer = rng.choice(answers) if answers else frozenset()
        share = rng.random()
        state = []
        for i in range(puzzle.rows * cols):
            cell = (i // cols, i % cols)
            if cell in puzzle.clue_cells:
                state.append(WHITE)
            elif cell in plan.wall:
                state.append(BLACK)
            elif answers and t % 2 == 0 and rng.random() < share:
                state.append(BLACK if cell in answer else WHITE)
            else:
                state.append(
                    rng.choice((UNKNOWN, UNKNOWN, BLACK, WHITE)) if t % 2 or not answers else UNKNOWN
                )
        yield state, island_reasoning(graph, state)


def _check_findings(state, found, answers, cols, where):
    def now(i, wall):
        return None if state[i] == UNKNOWN else (state[i] == BLACK) == wall

    clauses = ([found.conflict] if found.conflict is not None else []) + found.implied
    for clause in clauses:
        # every clause holds in every answer
        for answer in answers:
            assert any(((i // cols, i % cols) in answer) == wall for i, wall in clause), (where, clause)
    if found.conflict is not None:  # a conflict is false now
        assert all(now(i, wall) is False for i, wall in found.conflict), (where, found.conflict)
    for clause in found.implied:  # an inference: an undecided cell, its reason false now
        assert now(*clause[0]) is None and all(now(i, wall) is False for i, wall in clause[1:]), (
            where,
            clause,
        )


def test_island_reasoning_is_sound_on_brute_forced_boards():
    rng = random.Random(11)
    seen = 0
    for p in _small_boards():
        answers = [frozenset(a) for a in all_solutions(p)]
        for state, found in _reasoning_cases(p, answers, rng, 60):
            _check_findings(state, found, answers, p.cols, p.to_text())
            seen += len(found.implied) + (found.conflict is not None)
    assert seen > 100


def test_island_reasoning_keeps_the_published_answer(corpus):
    entries, _ = corpus
    rng = random.Random(12)
    seen = 0
    for e in entries[:200:4] + [e for e in entries if e.puzzle.unknown]:
        for state, found in _reasoning_cases(e.puzzle, [e.solution.cells], rng, 10):
            _check_findings(state, found, [e.solution.cells], e.puzzle.cols, e.id)
            seen += len(found.implied) + (found.conflict is not None)
    assert seen > 1000


@pytest.mark.parametrize("paradigm", [p for p in ("sat", "asp") if p in registry.available()])
def test_hybrid_islands_count_equal_brute_force_when_the_budget_runs_out(paradigm, monkeypatch):
    # a budget of a few levels leaves most numbers to the lazy cuts (sat) or recursion (asp)
    from puzzlebench.encodings.sat import nurikabe as sat_nurikabe

    monkeypatch.setattr(islands_module, "HYBRID_LEVELS", 6)
    monkeypatch.setattr(sat_nurikabe, "HYBRID_SMALLEST", 1)
    for p in _small_boards():
        plan = IslandPlan.of(p)
        result = solve(p, paradigm, count=0, timeout=60, islands="hybrid")
        assert result.exhausted
        assert {s.cells for s in result.solutions} == all_solutions(p), p.to_text()
        assert len(plan.levelled(p, budget=True)) < len(plan.reach) or len(plan.reach) <= 1


# Every option of every paradigm's encoding against brute force on small random boards.
def _variants():
    out = []
    for paradigm in registry.available():
        for spec in registry.encodings("nurikabe", paradigm):
            for option in spec.options:
                for value in option.choices or ():
                    if value != option.default and value not in option.relaxing:
                        out.append(
                            pytest.param(
                                paradigm,
                                spec.name,
                                {option.name: value},
                                id=f"{paradigm}-{spec.name}-{option.name}={value}",
                            )
                        )
            out.append(pytest.param(paradigm, spec.name, {}, id=f"{paradigm}-{spec.name}-default"))
    return out


def _small_boards() -> list[Nurikabe]:
    from puzzlebench.model import family_spec

    rng = random.Random(77)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (3, 5)] * 2]
    # hand-made: numbers side by side (never an answer), and a lone 1 whose walls must meet
    boards += [
        Nurikabe(3, 3, numbers={(1, 1): 2, (1, 2): 3}),
        Nurikabe(3, 4, numbers={(0, 0): 2, (2, 3): 1}),
        Nurikabe(3, 3, numbers={(1, 1): 1}),
    ]
    # '?' clues: a lone '?' (any island, the whole board included), two '?', a '?' beside a
    # number (never an answer), and '?' islands sharing the board with numbers
    return boards + [
        Nurikabe(2, 3, unknown=frozenset({(1, 1)})),
        Nurikabe(3, 4, unknown=frozenset({(0, 0), (2, 3)})),
        Nurikabe(3, 3, numbers={(1, 1): 2}, unknown=frozenset({(1, 2)})),
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})),
        Nurikabe(4, 4, numbers={(0, 0): 4}, unknown=frozenset({(3, 3), (1, 2)})),
    ]


def test_random_small_boards_hold_question_marks():
    from puzzlebench.model import family_spec

    rng = random.Random(1)
    boards = [family_spec("nurikabe").random_board(rng, 3, 4) for _ in range(40)]
    assert sum(bool(b.unknown) for b in boards) >= 5
    assert all(b.clue_cells for b in boards)
    big = [family_spec("nurikabe").random_board(rng, 8, 8) for _ in range(10)]
    assert not any(b.unknown for b in big)  # larger boards keep numbers only


@pytest.mark.parametrize("paradigm,encoding,options", _variants())
def test_every_option_counts_equal_brute_force(paradigm, encoding, options):
    if options.get("card") not in (None, "seqcounter", "totalizer", "pb", "sum", "auto"):
        pytest.skip("one cardinality encoding stands for the rest (tested in test_sat)")
    for p in _small_boards():
        result = solve(p, paradigm, encoding, count=0, timeout=60, **options)
        assert result.exhausted
        assert {s.cells for s in result.solutions} == all_solutions(p), (p.to_text(), options)


@pytest.mark.parametrize("paradigm", [p for p in ("sat", "asp") if p in registry.available()])
def test_wall_count_auto_counts_equal_brute_force_when_stated_on_every_board(paradigm, monkeypatch):
    # the small random boards rarely have a small wall: state the count whenever it is sound
    monkeypatch.setattr(islands_module, "WALL_COUNT_SHARE", 1.0)
    stated = 0
    for p in _small_boards():
        stated += islands_module.wall_count_pays(p, IslandPlan.of(p))
        assert registry.get("nurikabe", paradigm).settings["wall_count"] == "auto"
        result = solve(p, paradigm, count=0, timeout=60)
        assert result.exhausted
        assert {s.cells for s in result.solutions} == all_solutions(p), p.to_text()
    assert stated >= len(_small_boards()) // 2


def _smallest(entries, n):
    return sorted(entries, key=lambda e: (e.puzzle.rows * e.puzzle.cols, e.id))[:n]


@pytest.mark.parametrize("paradigm", registry.available())
def test_small_corpus_puzzles_have_the_published_answer_only(corpus, paradigm):
    if not any(s.name == "default" for s in registry.encodings("nurikabe", paradigm)):
        pytest.skip(f"no default {paradigm} encoding for nurikabe")
    entries, _ = corpus
    for e in _smallest(entries, 15):
        result = solve(e.puzzle, paradigm, count=2, timeout=60)
        assert result.status.value == "sat" and result.exhausted, (e.id, result.status, result.error)
        assert [s.cells for s in result.solutions] == [e.solution.cells], e.id
        assert e.puzzle.verify(result.solutions[0]) == []


# A researcher's Nurikabe program on the documented facts alone (size/2, num/3, clue/2).
NURIKABE_LP = """
cell(R,C) :- size(H,W), R = 0..H-1, C = 0..W-1.
adj(R,C,R2,C2) :- cell(R,C), cell(R2,C2), |R-R2| + |C-C2| = 1.
{ wall(R,C) } :- cell(R,C), not clue(R,C).
white(R,C) :- cell(R,C), not wall(R,C).
% the island of each clue: the white cells joined to it
in(A,B,A,B) :- clue(A,B).
in(A,B,R2,C2) :- in(A,B,R,C), adj(R,C,R2,C2), white(R2,C2).
% every white cell lies in a clue's island, no island holds two clues, a number is its size
:- white(R,C), not in(_,_,R,C).
:- clue(A,B), clue(A2,B2), (A,B) != (A2,B2), in(A,B,A2,B2).
:- num(A,B,N), #count { R,C : in(A,B,R,C) } != N.
% no 2x2 wall; the wall is joined to its first cell
:- wall(R,C), wall(R+1,C), wall(R,C+1), wall(R+1,C+1).
root(R,C) :- wall(R,C), not wall(R2,C2) : cell(R2,C2), (R2,C2) < (R,C).
reach(R,C) :- root(R,C).
reach(R2,C2) :- reach(R,C), adj(R,C,R2,C2), wall(R2,C2).
:- wall(R,C), not reach(R,C).
#show wall/2.
"""


def test_documented_facts_state_question_marks_for_encoding_files(tmp_path):
    from puzzlebench.encodings.files import asp_facts, mzn_data, schema

    p = Nurikabe(2, 3, numbers={(0, 0): 2}, unknown=frozenset({(1, 2)}))
    facts = asp_facts(p).split()
    assert {"num(0,0,2).", "clue(0,0).", "clue(1,2)."} <= set(facts) and not any(
        f.startswith("num(1,2") for f in facts
    )
    assert "clue(X,Y)." in schema("nurikabe", "asp") and "-1 a '?' clue" in schema("nurikabe", "minizinc")
    assert re.findall(r"-?\d+", mzn_data(p).split("n =")[1]) == ["2", "0", "0", "0", "0", "-1"]
    path = tmp_path / "nurikabe.lp"
    path.write_text(NURIKABE_LP)
    for board in _small_boards():
        result = solve(board, "asp", str(path), count=0, timeout=60)
        assert result.exhausted and {s.cells for s in result.solutions} == all_solutions(board), (
            board.to_text()
        )


def test_question_mark_records_have_the_published_answer_only_with_default_sat(corpus):
    entries, _ = corpus
    records = {e.id: e for e in entries if e.id in UNKNOWN_RECORDS}
    assert sorted(records) == UNKNOWN_RECORDS
    for e in records.values():
        assert e.puzzle.unknown
        result = solve(e.puzzle, "sat", count=2, timeout=60)
        assert result.status.value == "sat" and result.exhausted, (e.id, result.status, result.error)
        assert [s.cells for s in result.solutions] == [e.solution.cells], e.id
        assert e.puzzle.verify(result.solutions[0]) == []


def test_puzzlekit_declines_question_marks_with_the_reason():
    from puzzlebench.encodings.puzzlekit import ENCODINGS
    from puzzlebench.errors import EncodingError

    spec = next(s for s in ENCODINGS if s.family.value == "nurikabe")
    assert spec.build(Nurikabe(3, 3, numbers={(0, 0): 2}), {}).grid[0] == ["2", "-", "-"]
    with pytest.raises(EncodingError, match=r"'\?' clue at \(2, 2\) \(an island of unknown size\)"):
        spec.build(Nurikabe(3, 3, numbers={(0, 0): 2}, unknown=frozenset({(2, 2)})), {})


# -- the generator -----------------------------------------------------------------------------


def test_generator_is_seeded_and_proves_its_puzzles_unique():
    from puzzlebench.generate import generate

    a = generate("nurikabe", 6, 6, seed=3)
    b = generate("nurikabe", 6, 6, seed=3)
    assert a.puzzle == b.puzzle and a.solution.cells == b.solution.cells and a.puzzle.meta == b.puzzle.meta
    assert a.puzzle.meta["proof"]["count"] == 1 and a.puzzle.meta["proof"]["exhausted"]
    assert a.puzzle.verify(a.solution) == []
    others = {generate("nurikabe", 6, 6, seed=s, paradigm="none").puzzle.content_hash() for s in (4, 5, 6)}
    assert a.puzzle.content_hash() not in others and len(others) == 3


def _islands(p: Nurikabe, wall: frozenset) -> list[set]:
    return [set(r) for r in white_regions(p.rows, p.cols, wall)]


def test_planted_answers_pass_the_verifier_with_islands_within_the_bound():
    from puzzlebench.generate import generate

    for seed in range(6):
        for max_island in (2, 4):
            g = generate("nurikabe", 11, 8, seed=seed, paradigm="none", max_island=max_island)
            assert (g.puzzle.rows, g.puzzle.cols) == (11, 8)
            assert g.puzzle.verify(g.solution) == []
            assert max(len(i) for i in _islands(g.puzzle, g.solution.cells)) <= max_island


def test_planting_covers_every_2x2_block_on_a_30x30_board():
    """The wall a 30x30 board starts from is connected, has no 2x2 block and islands of at most
    max_island cells (the verifier says so once each island shows its size)."""
    from puzzlebench.generate.nurikabe import plant
    from puzzlebench.model.grid import Grid

    walls = [plant(random.Random(seed), Grid(30, 30), 4) for seed in range(4)]
    assert sum(w is not None for w in walls) >= 2
    for wall in filter(None, walls):
        islands = _islands(Nurikabe(30, 30), frozenset(wall))
        puzzle = Nurikabe(30, 30, numbers={min(i): len(i) for i in islands})
        assert puzzle.verify(frozenset(wall)) == [] and max(map(len, islands)) <= 4


def test_boards_too_small_for_a_wall_are_one_island():
    from puzzlebench.generate import generate

    for rows, cols in ((1, 1), (1, 2), (2, 2)):
        g = generate("nurikabe", rows, cols, seed=0)
        assert g.solution.cells == frozenset() and list(g.puzzle.numbers.values()) == [rows * cols]


def test_generated_puzzles_have_one_answer_by_brute_force():
    from puzzlebench.generate import generate

    for seed in range(8):
        g = generate("nurikabe", 3, 4, seed=seed, paradigm="none")
        assert all_solutions(g.puzzle, max_cells=12) == {g.solution.cells}, g.puzzle.to_text()


@pytest.mark.parametrize("paradigm", ["asp", "cp"])
def test_generated_puzzles_are_unique_in_another_paradigm(paradigm):
    """The generator's oracle and the proof of record are SAT; ASP and CP-SAT state the rules
    their own way."""
    from puzzlebench.generate import generate

    if paradigm not in registry.available():
        pytest.skip(f"{paradigm} unavailable")
    for seed in (1, 2, 3):
        g = generate("nurikabe", 9, 9, seed=seed, paradigm="none")
        result = solve(g.puzzle, paradigm, count=2, timeout=60)
        assert result.exhausted and [s.cells for s in result.solutions] == [g.solution.cells], (
            seed,
            paradigm,
        )


def test_the_oracle_finds_another_answer_exactly_when_asp_does():
    """One incremental oracle asked about many numberings of planted walls (before any repair,
    then with each number one larger): its cuts are guarded by the numbers they rely on, so an
    answer it finds is a valid one, and it finds one whenever ASP does."""
    from puzzlebench.generate.nurikabe import NurikabeOracle, plant
    from puzzlebench.model.grid import Grid

    rng = random.Random(5)
    oracle = NurikabeOracle(6, 6)
    found = asked = 0
    try:
        for _ in range(3):
            wall = plant(rng, Grid(6, 6), 3)
            if wall is None:
                continue
            numbers = {rng.choice(sorted(i)): len(i) for i in _islands(Nurikabe(6, 6), frozenset(wall))}
            for cell in [None, *sorted(numbers)]:
                board = {c: n + (c == cell) for c, n in numbers.items()}
                puzzle = Nurikabe(6, 6, numbers=board)
                other = oracle.alternative(board, frozenset(wall))
                answers = solve(puzzle, "asp", count=2, timeout=60).solutions
                assert (other is not None) == any(s.cells != frozenset(wall) for s in answers), (wall, board)
                if other is not None:
                    assert other != frozenset(wall) and puzzle.verify(other) == []
                    found += 1
                asked += 1
    finally:
        oracle.close()
    assert 0 < found < asked


def test_bad_options_and_exhausted_attempts_are_clear_errors():
    from puzzlebench.generate import GenerationError, generate

    with pytest.raises(GenerationError, match="max_island"):
        generate("nurikabe", 5, 5, max_island=0)
    with pytest.raises(GenerationError, match="repairs"):
        generate("nurikabe", 5, 5, repairs=-1)
    with pytest.raises(GenerationError, match="no unique 20x20 Nurikabe within 1 boards of 1 repair rounds"):
        generate("nurikabe", 20, 20, seed=1, paradigm="none", attempts=1, repairs=1)
    with pytest.raises(GenerationError, match="more than 2 rounds of cuts .* islands of up to 4 cells"):
        generate("nurikabe", 20, 20, seed=1, paradigm="none", budget=2)
