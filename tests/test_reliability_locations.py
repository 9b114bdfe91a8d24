"""Every input error names its format, line and column: clues the model refuses, declared sizes
past the cell bound, and what a text lacks altogether."""

from __future__ import annotations

import pytest

from puzzlebench import formats
from puzzlebench.errors import ParseError, RequestError
from puzzlebench.model import LightUp


@pytest.mark.parametrize(
    "fmt, text, family, line, column",
    [
        # the refused clue's own token or fact
        ("native", "kind: lightup\nrows: 2\ncols: 3\n. # .\n. . 7\n", None, 5, 5),
        ("native", "kind: kuromasu\nrows: 2\ncols: 2\n.  9\n. .\n", None, 4, 4),
        ("janko", "2 2\n- -\n- 4\n", "kuromasu", 3, 3),
        ("janko", "2 3\n- x -\n- - 6", "lightup", 3, 5),
        ("asp", "row(1..2).\ncol(1..3).\nblack(1,2).\n  black(2,3,9).\n", None, 4, 3),
        ("asp", "row(1..2).\ncol(1..2).\nnum(1,1,2).\nnum(2,2,8).\n", None, 4, 1),
        # one-line formats: the place the reader knows, else the start of the text
        ("tatham", "3x2:aBc7", None, 1, 8),
        ("puzzlink", "https://puzz.link/p?kurodoko/3/2/ge", None, 1, 1),
    ],
)
def test_a_clue_out_of_range_names_format_line_and_column(fmt, text, family, line, column):
    with pytest.raises(ParseError) as info:
        formats.loads(text, fmt, family)
    error = info.value
    assert (error.format, error.line, error.column) == (fmt, line, column), str(error)
    assert error.reason and str(error).startswith(f"{fmt}: ")


def test_an_oversize_puzzlink_board_fails_at_its_declared_size(monkeypatch):
    monkeypatch.setenv("PUZZLEBENCH_MAX_CELLS", "100")
    with pytest.raises(ParseError, match="larger than the limit of 100 cells") as info:
        formats.loads("https://puzz.link/p?akari/20/20/", "puzzlink")
    assert (info.value.line, info.value.column) == (1, 27)


@pytest.mark.parametrize(
    "fmt, text, family, where",
    [
        ("native", "kind: lightup\nrows: 2\n", None, (3, 1)),  # a header missing: the end
        ("native", "kind: lightup\nrows: 1\ncols: 1\n.\n", "kuromasu", (1, 7)),  # another family: its kind
        ("mzn", "h = 2;\nw = 3;", None, (2, 7)),
        ("asp", "col(1..2).\n", None, (2, 1)),
        ("janko", "1 1\n-\n", None, (1, 1)),  # cannot tell the family
    ],
)
def test_what_a_text_lacks_is_placed(fmt, text, family, where):
    with pytest.raises(ParseError) as info:
        formats.loads(text, fmt, family)
    assert (info.value.line, info.value.column) == where, str(info.value)


def test_a_native_answer_without_solution_section_is_placed():
    puzzle = LightUp(1, 1)
    with pytest.raises(ParseError, match="no 'solution:' section at line 5, column 1"):
        formats.load_solution("kind: lightup\nrows: 1\ncols: 1\n.\n", puzzle, "native")


def test_janko_corpus_structure_errors_point_at_the_record(tmp_path):
    path = tmp_path / "akari.json"
    path.write_text('{"name": "akari",\n "data": {\n  "p1": {"problem": 7}}}\n')
    with pytest.raises(ParseError, match="puzzle 'p1': expected 'problem'") as info:
        list(formats.iter_janko(path))
    assert (info.value.line, info.value.column) == (3, 3)
    path.write_text('{"name": "akari",\n  "data": []}\n')
    with pytest.raises(ParseError, match="'data' object") as info:
        list(formats.iter_janko(path))
    assert (info.value.line, info.value.column) == (2, 3)


def test_requests_no_text_can_serve_are_request_errors():
    with pytest.raises(RequestError, match="cannot carry a solution"):
        formats.load_solution("3x3:g", LightUp(3, 3), "tatham")
    with pytest.raises(RequestError, match="unknown format"):
        formats.loads("x", "nope")
