"""Every format reads what it writes, auto-detection picks the right reader, bad text fails cleanly."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebench.errors import ParseError, PuzzleError
from puzzlebench.formats import (
    FORMATS,
    describe_formats,
    detect_format,
    dump,
    dump_solution,
    load,
    load_solution,
    load_with_solution,
    loads,
)
from puzzlebench.model import Kuromasu, LightBulbs, LightUp


# -- random puzzles ------------------------------------------------------------------------------
@st.composite
def lightups(draw):
    rows, cols = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    kinds = draw(
        st.lists(
            st.sampled_from(["open"] * 4 + ["wall", "0", "1", "2", "3", "4"]),
            min_size=rows * cols,
            max_size=rows * cols,
        )
    )
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    walls = {cell for cell, k in zip(cells, kinds) if k == "wall"}
    numbers = {cell: int(k) for cell, k in zip(cells, kinds) if k.isdigit()}
    return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers)


@st.composite
def kuromasus(draw, unknown: bool = True):
    rows, cols = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    numbers, qs = {}, set()
    for cell in cells:
        kind = draw(st.sampled_from(["."] * 5 + ["n", "?"] if unknown else ["."] * 5 + ["n"]))
        if kind == "n":
            numbers[cell] = draw(st.integers(1, rows + cols - 1))
        elif kind == "?":
            qs.add(cell)
    return Kuromasu(rows, cols, numbers=numbers, unknown=frozenset(qs))


@st.composite
def lightbulbs(draw):
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    return LightBulbs.from_rows([[draw(st.integers(1, 9)) for _ in range(cols)] for _ in range(rows)])


puzzles = st.one_of(lightups(), kuromasus(), lightbulbs())
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(puzzles)
def test_every_format_that_can_express_a_random_puzzle_round_trips_it(puzzle):
    for fmt in FORMATS.values():
        if not fmt.can_write(puzzle):
            with pytest.raises(PuzzleError):
                dump(puzzle, fmt.name)
            continue
        text = dump(puzzle, fmt.name)
        back = loads(text, fmt.name, family=puzzle.family)
        assert back == puzzle, fmt.name
        assert dump(back, fmt.name) == text, fmt.name


@FAST
@given(puzzles, st.data())
def test_solutions_round_trip_in_every_format_that_carries_them(puzzle, data):
    cells = data.draw(st.sets(st.tuples(st.integers(0, puzzle.rows - 1), st.integers(0, puzzle.cols - 1))))
    if isinstance(puzzle, LightUp):
        cells = {c for c in cells if c not in puzzle.walls}
    answer = puzzle.solution(cells)
    for fmt in FORMATS.values():
        if fmt.read_solution is None or not fmt.can_write(puzzle):
            continue
        text = dump_solution(puzzle, answer, fmt.name)
        assert load_solution(text, puzzle, fmt.name) == answer, fmt.name


@FAST
@given(puzzles)
def test_auto_detection_reads_every_dump_back(puzzle):
    for fmt in FORMATS.values():
        if fmt.can_write(puzzle):
            text = dump(puzzle, fmt.name)
            assert loads(text, family=puzzle.family) == puzzle, fmt.name


def _garbage():
    alphabet = st.sampled_from(
        list("0123456789abcxyzBo-.#?*_:/|[]=;,()%\n \t")
        + ["row(1..", "kind: ", "h = ", "?akari/", "5x5:", "\n3 3\n"]
    )
    return st.lists(alphabet, max_size=60).map("".join)


@settings(max_examples=300, deadline=None)
@given(_garbage(), st.sampled_from(sorted(FORMATS)))
def test_readers_raise_only_parse_or_puzzle_errors_on_garbage(text, name):
    try:
        loads(text, name)
    except PuzzleError:  # ParseError is a PuzzleError
        pass


@FAST
@given(
    puzzles,
    st.sampled_from(sorted(FORMATS)),
    st.integers(0, 10_000),
    st.sampled_from(list("x9#?_.-B|;()\n ")),
)
def test_mutated_dumps_fail_cleanly_or_read_as_a_puzzle(puzzle, name, where, char):
    fmt = FORMATS[name]
    if not fmt.can_write(puzzle):
        return
    text = dump(puzzle, name)
    i = where % (len(text) + 1)
    try:
        loads(text[:i] + char + text[i + 1 :], name, family=puzzle.family)
    except PuzzleError:
        pass


# -- concrete encodings ------------------------------------------------------------------------
TATHAM_RANGE = "12x12:10a12g4i10c4d6b8b11m11e7c9c15f10_10_4_10f10c7c7e13m5b6b6d4c4i11g6a7"


def test_tatham_range_ids_from_sgt_range_round_trip_with_separators():
    puzzle = load(TATHAM_RANGE)
    assert isinstance(puzzle, Kuromasu) and puzzle.shape == (12, 12)
    assert puzzle.numbers[(0, 0)] == 10 and puzzle.numbers[(0, 2)] == 12
    assert dump(puzzle, "tatham") == TATHAM_RANGE


def test_tatham_lightup_id_is_columns_by_rows():
    puzzle = load("5x4:0g0bBg2")
    assert isinstance(puzzle, LightUp) and puzzle.shape == (4, 5)
    # 0, then g = 7 empty cells, 0, b = 2 empty, B, g = 7 empty, 2: 20 cells row after row.
    assert dict(puzzle.numbers) == {(0, 0): 0, (1, 3): 0, (3, 4): 2}
    assert puzzle.walls - puzzle.numbers.keys() == {(2, 1)}


@pytest.mark.parametrize(
    "url",
    [  # pzprjs writes Light Up as "akari" (its pzprurl)
        "https://puzz.link/p?akari/4/4/i01..0..i.c",
        "https://puzz.link/p?akari/5/5/1..g5.g.hbg071.h.ga",
        "https://puzz.link/p?akari/10/10/l.hbg..hc.6bg.gbici6bg1b.bg.g.k.k5.i.g2.h.h.bg.hcj",
    ],
)
def test_published_puzzlink_akari_urls_round_trip_exactly(url):
    assert dump(load(url), "puzzlink") == url


def test_puzzlink_mirrors_and_aliases_read_the_same_board():
    want = load("https://puzz.link/p?lightup/4/4/i01..0..i.c")
    for url in (
        "http://pzv.jp/p.html?akari/4/4/i01..0..i.c",
        "https://pzprxs.vercel.app/p?bijutsukan/4/4/i01..0..i.c",
        "puzz.link/p?akari/4/4/i01..0..i.c",
    ):
        assert load(url) == want


def test_puzzlink_akari_number_absorbs_following_empty_cells():
    # pzprjs: 5-9 = number then one empty cell, a-e = number then two empty cells.
    puzzle = LightUp(1, 6, numbers={(0, 0): 2, (0, 3): 1}, walls=frozenset({(0, 5)}))
    assert dump(puzzle, "puzzlink") == "https://puzz.link/p?akari/6/1/c6./"  # pzprjs ends a "." body with "/"


def test_puzzlink_kurodoko_numbers_use_number16_and_question_marks():
    puzzle = Kuromasu(2, 20, numbers={(0, 0): 3, (0, 1): 11, (1, 19): 17}, unknown=frozenset({(0, 2)}))
    url = dump(puzzle, "puzzlink")
    # 3, 11 = b, '?' = ., 36 empty cells = z (20) + v (16), 17 = -11
    assert url == "https://puzz.link/p?kurodoko/20/2/3b.zv-11"
    assert load(url) == puzzle


def test_native_carries_name_meta_unknowns_and_multi_digit_numbers():
    puzzle = Kuromasu(
        2, 12, numbers={(0, 0): 12, (1, 11): 3}, unknown=frozenset({(1, 0)}), name="demo", meta={"seed": 7}
    )
    text = dump(puzzle, "native")
    back = load(text)
    assert back == puzzle and back.name == "demo" and dict(back.meta) == {"seed": 7}
    assert "12" in text.splitlines()[5] and "?" in text.splitlines()[6]


def test_native_answer_file_carries_puzzle_and_solution():
    puzzle = LightUp(2, 2, numbers={(0, 0): 1})
    answer = puzzle.solution([(0, 1)])
    text = dump_solution(puzzle, answer)
    assert load_with_solution(text) == (puzzle, answer)
    assert load_solution(text) == answer


def test_file_names_pick_format_and_family(tmp_path):
    path = tmp_path / "tiny_kuromasu.janko"
    path.write_text("2 2\n- 2\n- -\n")
    puzzle = load(path)
    assert isinstance(puzzle, Kuromasu) and puzzle.name == "tiny_kuromasu"
    assert detect_format("kind: lightup").name == "native"


def test_describe_formats_lists_every_format():
    table = describe_formats()
    assert all(name in table for name in FORMATS)


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, fmt, where, words",
    [
        ("kind: lightup\nrows: 2\ncols: 2\n. .\n. x\n", "native", (5, 3), "'x'"),
        ("kind: lightup\nrows: 2\ncols: 2\n. .\n", "native", (5, 1), "1 row(s), expected 2"),
        ("3 3\n- - -\n- - -\n", "janko", (4, 1), "expected 3 grid rows"),
        ("2 2\n- q\n- x\n", "janko", (2, 3), "'q'"),
        ("2 2\n-   x\n  -  q\n", "janko", (3, 6), "'q'"),
        ("row(1..3).\ncol(1..3).\nnum(1,x,2).\n", "asp", (3, 1), "num(X,Y,N)"),
        ("row(1..3).\ncol(1..3).\nblack(4,1).\n", "asp", (3, 1), "outside"),
        ("h = 2;\nw = 2;\nb = [| -1, 7\n     | -1,-1 |];\n", "mzn", (3, 12), "b[1,2]"),
        ("aBaX", "puzzleteam", (1, 4), "'X'"),
        ("3x3:aaK", "tatham", (1, 7), "'K'"),
        ("https://puzz.link/p?akari/3/3/k!", "puzzlink", (1, 32), "'!'"),
        ("123\n12\n", "digits", (2, 1), "2 digits"),
        ("120\n", "digits", (1, 3), "'0'"),
    ],
)
def test_parse_errors_name_format_line_column_and_expectation(text, fmt, where, words):
    with pytest.raises(ParseError) as info:
        loads(text, fmt)
    err = info.value
    assert err.format == fmt and (err.line, err.column) == where and words in err.reason, str(err)


def test_unknown_text_and_formats_are_reported():
    with pytest.raises(ParseError, match="cannot tell the format"):
        loads("hello world")
    with pytest.raises(PuzzleError, match="unknown format"):
        dump(LightUp(1, 1), "png")
    with pytest.raises(PuzzleError, match="no such file"):
        load("/nonexistent/dir/puzzle.pzl")


def test_formats_refuse_what_they_cannot_express():
    with pytest.raises(PuzzleError, match=r"'\?' clue at \(0, 0\)"):
        dump(Kuromasu(2, 2, unknown=frozenset({(0, 0)})), "janko")
    with pytest.raises(PuzzleError, match="square"):
        dump(LightUp(2, 3), "puzzleteam")
    with pytest.raises(PuzzleError, match="holds lightup"):
        dump(LightBulbs.from_rows([[1]]), "mzn")


# -- command line --------------------------------------------------------------------------------
def _cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "puzzlebench", *args], capture_output=True, text=True, input=stdin, timeout=60
    )


def test_cli_convert_writes_the_target_format(tmp_path):
    done = _cli("convert", "5x4:0g0bBg2", "--to", "janko")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "4 5\n0 - - - -\n- - - 0 -\n- x - - -\n- - - - 2\n"
    out = tmp_path / "p.lp"
    assert _cli("convert", "5x4:0g0bBg2", "--to", "asp", "-o", str(out)).returncode == 0
    assert load(out) == load("5x4:0g0bBg2")


def test_cli_malformed_file_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.pzl"
    bad.write_text("kind: lightup\nrows: 1\ncols: 2\n. %\n")
    done = _cli("convert", str(bad), "--to", "janko")
    assert done.returncode == 2
    assert (
        done.stderr.count("\n") == 1 and "line 4, column 3" in done.stderr and "Traceback" not in done.stderr
    )
