"""The puzzle model refuses impossible boards with messages that name the cell."""

from __future__ import annotations

import random

import pytest

from puzzlebench.errors import CellOutOfBounds, ClueOutOfRange, GridShapeError, ParseError, PuzzleError
from puzzlebench.formats import loads
from puzzlebench.model import Kuromasu, LightBulbs, LightUp, Rule, family_spec, family_specs


@pytest.mark.parametrize(
    "make, error, words",
    [
        (lambda: LightUp(3, 3, numbers={(1, 1): 5}), ClueOutOfRange, "(1, 1)"),
        (lambda: LightUp(3, 3, numbers={(1, 1): -1}), ClueOutOfRange, "0..4"),
        (lambda: Kuromasu(2, 2, numbers={(0, 1): 4}), ClueOutOfRange, "(0, 1) must be 1..3"),
        (lambda: Kuromasu(2, 2, numbers={(0, 1): 0}), ClueOutOfRange, "(0, 1)"),
        (lambda: LightBulbs.from_rows([[1, 2], [3, 10]]), ClueOutOfRange, "(1, 1)"),
        (lambda: LightBulbs.from_rows([[1, 2], [3]]), GridShapeError, "row 1 has 1"),
        (lambda: LightBulbs.from_rows([]), GridShapeError, "empty"),
        (lambda: LightUp(0, 3), GridShapeError, "0x3"),
        (lambda: LightUp(2, 2, walls=frozenset({(2, 0)})), CellOutOfBounds, "(2, 0)"),
        (lambda: Kuromasu(2, 2, numbers={(0, 5): 1}), CellOutOfBounds, "(0, 5)"),
        (
            lambda: Kuromasu(2, 2, numbers={(0, 0): 2}, unknown=frozenset({(0, 0)})),
            PuzzleError,
            "(0, 0) is both",
        ),
    ],
)
def test_invalid_boards_raise_naming_the_cell(make, error, words):
    with pytest.raises(error) as info:
        make()
    assert words in str(info.value)


def test_model_errors_surface_through_every_reader_as_puzzle_errors():
    # A reader states the model's refusal (the cell and its range) at the token or fact it read.
    with pytest.raises(ParseError, match=r"\(0, 1\) must be 1\.\.2.* at line 4, column 3"):
        loads("kind: kuromasu\nrows: 1\ncols: 2\n. 9\n")
    with pytest.raises(ParseError, match=r"\(0, 0\) must be 1\.\.3.* at line 3, column 1"):
        loads("row(1..2).\ncol(1..2).\nnum(1,1,7).\n")
    assert issubclass(ParseError, PuzzleError)


def test_numbered_walls_are_walls_and_equality_ignores_names():
    a = LightUp(2, 2, numbers={(0, 0): 1}, name="a")
    b = LightUp(2, 2, walls=frozenset({(0, 0)}), numbers={(0, 0): 1}, name="b")
    assert a == b and hash(a) == hash(b) and a.content_hash() == b.content_hash()
    assert (0, 0) in a.walls and a.open_cells == [(0, 1), (1, 0), (1, 1)]


def test_verifier_reports_each_rule_with_its_cells():
    puzzle = LightUp(1, 3, numbers={(0, 1): 1})
    violations = puzzle.verify([(0, 1)])
    assert violations[0].rule is Rule.BULB_ON_WALL and violations[0].cells == ((0, 1),)
    kuro = Kuromasu(2, 2, numbers={(0, 0): 3})
    assert kuro.verify([(1, 1)]) == []
    assert {v.rule for v in kuro.verify([(0, 1), (1, 1)])} == {Rule.ADJACENT_BLACKS, Rule.VISIBLE_COUNT_WRONG}


@pytest.mark.parametrize(
    "puzzle",
    [
        LightUp(3, 4, walls={(0, 0)}, numbers={(1, 1): 2}, name="l", meta={"seed": 3}),
        Kuromasu(3, 3, numbers={(0, 0): 5}, unknown={(2, 2)}, meta={"origin": {"n": 1}}),
        LightBulbs.from_rows([[4, 4], [4, 4]]),
    ],
)
def test_puzzles_pickle_for_worker_processes(puzzle):
    import pickle

    back = pickle.loads(pickle.dumps(puzzle))
    assert back == puzzle and back.name == puzzle.name and dict(back.meta) == dict(puzzle.meta)
    assert back.content_hash() == puzzle.content_hash()
    with pytest.raises(TypeError):
        back.meta["new"] = 1  # still read-only after the round trip


def test_families_are_registered_names_that_behave_like_enum_members():
    import copy
    import pickle

    from puzzlebench.model import Family, Rule, family_spec, family_specs

    assert Family("akari") is Family.LIGHTUP is Family("lightup") and Family.LIGHTUP == "lightup"
    assert Family.LIGHTUP.value == "lightup" and Family.LIGHTUP.name == "LIGHTUP"
    assert list(Family) == [spec.family for spec in family_specs()]
    assert pickle.loads(pickle.dumps(Family.KUROMASU)) is Family.KUROMASU
    assert copy.deepcopy(Rule.UNLIT_CELL) is Rule.UNLIT_CELL and Rule("unlit cell") is Rule.UNLIT_CELL
    with pytest.raises(ValueError, match="not a puzzle family"):
        Family("sudoku")
    with pytest.raises(PuzzleError, match="unknown puzzle family 'sudoku'"):
        family_spec("sudoku")
    with pytest.raises(AttributeError):
        Family.SUDOKU  # noqa: B018  (the lookup is what raises)


@pytest.mark.parametrize("name", [spec.family.value for spec in family_specs() if spec.accepts is not None])
def test_a_quick_check_says_yes_exactly_when_the_verifier_finds_nothing(name):
    """The harness trusts a family's quick check (``FamilySpec.accepts``) for every answer it
    accepts: on random boards of several shapes, every subset of cells (valid answers and
    broken ones alike) gets the same yes or no from it as from the detailed verifier."""
    spec = family_spec(name)
    rng = random.Random(16)
    agreed = valid = 0
    for rows, cols in [(1, 1), (1, 4), (4, 1), (2, 3), (3, 2), (3, 3), (2, 5), (5, 2)] * 5:
        puzzle = spec.random_board(rng, rows, cols)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        for bits in range(1 << len(cells)):
            answer = frozenset(cell for k, cell in enumerate(cells) if bits >> k & 1)
            found = spec.verify(puzzle, answer)
            assert spec.accepts(puzzle, answer) == (not found), (puzzle, sorted(answer), found)
            assert (puzzle.verify(answer) == []) == (not found)
            agreed += 1
            valid += not found
    assert valid > 20 and agreed > 10 * valid


def test_cells_in_other_forms_are_converted_or_refused_as_before():
    """Cells that are in-bounds pairs of plain ints are taken as they are; any other form goes
    through the full check, which converts it (numpy integers, lists, bools) or names it."""
    np = pytest.importorskip("numpy")
    lightup = LightUp(
        3, 3, walls=frozenset({(np.int64(1), np.int64(2)), (True, 0)}), numbers={(np.int32(2), 2): 1}
    )
    assert lightup.walls == {(1, 2), (1, 0), (2, 2)} and all(
        type(x) is int for cell in lightup.walls for x in cell
    )
    assert dict(lightup.numbers) == {(2, 2): 1} and all(type(x) is int for x in next(iter(lightup.numbers)))
    kuro = Kuromasu(2, 2, numbers={(np.int64(0), 1): 2}, unknown=[[1, 1]])
    assert kuro.unknown == {(1, 1)} and list(kuro.numbers) == [(0, 1)]
    with pytest.raises(CellOutOfBounds, match=r"wall at \(3, 0\)"):
        LightUp(3, 3, walls=frozenset({(3, 0)}))
    with pytest.raises(PuzzleError, match="not a \\(row, col\\) pair"):
        LightUp(3, 3, walls=frozenset({(1, 2, 3)}))
    with pytest.raises(CellOutOfBounds, match=r"'\?' clue at \(0, -1\)"):
        Kuromasu(2, 2, unknown=frozenset({(0, -1)}))
