"""Fuzzing the readers: whatever the text or bytes, only a PuzzleError (or a puzzle) comes out.

Hypothesis drives every reader of ``puzzlebench.formats`` -- ``loads(text, FORMAT)`` for each
registered format and auto-detection, the solution readers, files of random bytes read by path,
and puzzlekit-dataset JSON documents -- with mutated valid samples, assembled syntax pieces and
random text. The measured defects (``str.isdigit`` accepting ``²``, numbers past ``int()``'s
4300-digit limit, non-string janko fields, non-UTF-8 bytes, a byte-order mark) are pinned as
explicit cases below. ``benchmarks/fuzz.py`` is the 10,000-case version of the same contract.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from puzzlebench.errors import ParseError, PuzzleError
from puzzlebench.formats import (
    FORMATS,
    dump,
    iter_janko,
    load,
    load_solution,
    load_with_solution,
    loads,
)
from puzzlebench.model import Kuromasu, LightBulbs, LightUp

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "puzzles" / "seeds"
FUZZ = settings(
    max_examples=120,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
NAMES = sorted(FORMATS)
EXTENSIONS = sorted({ext for fmt in FORMATS.values() for ext in fmt.extensions} | {".txt", ".json"})
HUGE = "9" * 5000  # past int()'s 4300-digit limit


# -- samples ------------------------------------------------------------------------------------
def _puzzles():
    out = [
        LightUp(4, 4, walls=frozenset({(1, 1)}), numbers={(2, 2): 0, (3, 0): 4}),
        Kuromasu(3, 4, numbers={(0, 1): 3, (2, 3): 5}, unknown=frozenset({(1, 0)})),
        Kuromasu(2, 3, numbers={(0, 0): 2, (1, 2): 4}),
        LightBulbs.from_rows([[1, 2, 3], [4, 5, 6]]),
    ]
    for path in sorted(SEEDS.glob("*")):
        if path.suffix in (".lp", ".dzn", ".pt"):
            out.append(load(str(path)))
    return out


PUZZLES = _puzzles()
SAMPLES = [dump(p, fmt.name) for p in PUZZLES for fmt in FORMATS.values() if fmt.can_write(p)]
SAMPLES += [path.read_text(encoding="utf-8") for path in sorted(SEEDS.glob("*.pzl"))]
PIECES = [
    "kind: lightup\n",
    "kind: kuromasu\n",
    "kind: lightbulbs\n",
    "rows: ",
    "cols: ",
    "name: ",
    "meta: ",
    "solution:\n",
    "row(1..",
    "col(1..",
    ").",
    "black(",
    "num(",
    "lightbulb(",
    "h = ",
    "w = ",
    "b = [|",
    "|]",
    "https://puzz.link/p?akari/",
    "https://puzz.link/p?kurodoko/",
    "lightup:",
    "range:",
    "3x3:",
    ":",
    ";",
    ",",
    "|",
    "/",
    "-",
    "x",
    "o",
    "B",
    ".",
    "#",
    "?",
    "*",
    "_",
    "%",
    " ",
    "\n",
    "\r\n",
    "\t",
    "\ufeff",
    "²",
    "³",
    "٣",
    "१",
    "１",
    "½",
    "\x00",
    "\x0b",
    "\u2028",
    "\x85",
    "é",
    "{",
    "}",
    "[",
    "]",
    '"',
    "0",
    "1",
    "4",
    "5",
    "9",
    "26",
    "-1",
    "100000",
    HUGE,
    "0" * 4400 + "1",
    "1e5",
    "nan",
]
piece = st.sampled_from(PIECES) | st.text(max_size=4)


@st.composite
def mutated(draw):
    """A valid sample with a few pieces inserted, spans deleted or duplicated."""
    text = draw(st.sampled_from(SAMPLES))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.integers(0, 3))
        if op == 0:
            text = text[:at] + draw(piece) + text[at:]
        elif op == 1:
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        elif op == 2:
            text = text[:at] + draw(piece) + text[at + 1 :]
        else:
            text = text[:at] + text[at : at + draw(st.integers(1, 12))] * 2 + text[at:]
    return text


texts = st.one_of(mutated(), st.lists(piece, max_size=30).map("".join), st.text(max_size=60))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def survive(call):
    """Call ``call``; a PuzzleError is an acceptable answer, anything else fails the test."""
    try:
        return call()
    except PuzzleError:
        return None


@pytest.fixture(scope="module")
def scratch():
    with tempfile.TemporaryDirectory(prefix="puzzlebench-test-fuzz-") as tmp:
        yield Path(tmp)


# -- every reader, by format name ------------------------------------------------------------------
@FUZZ
@given(
    text=texts,
    fmt=st.sampled_from(NAMES + [None]),
    family=st.sampled_from([None, "lightup", "kuromasu", "lightbulbs"]),
)
@example(text="kind: lightbulbs\nrows: 1\ncols: 1\n²\n", fmt="native", family=None)
@example(text=f"kind: lightup\nrows: {HUGE}\ncols: 1\n.\n", fmt="native", family=None)
@example(text=f"kind: kuromasu\nrows: 1\ncols: 2\n. {HUGE}\n", fmt="native", family=None)
@example(text=f"{HUGE} 1\n-\n", fmt="janko", family=None)
@example(text="2 ²\n- -\n- -\n", fmt=None, family=None)
@example(text=f"row(1..{HUGE}).\ncol(1..2).\nnum(1,1,2).\n", fmt="asp", family=None)
@example(text=f"h = {HUGE};\nw = 1;\nb = [| -1 |];\n", fmt="mzn", family=None)
@example(text=f"h = 1;\nw = 1;\nb = [| {HUGE} |];\n", fmt="mzn", family=None)
@example(text=f"{HUGE}x1:a", fmt="tatham", family=None)
@example(text=f"2x1:{HUGE}a", fmt="tatham", family="kuromasu")
@example(text="kind: lightup\nrows: 1\ncols: 1\nmeta: " + "[" * 100_000 + "\n.\n", fmt="native", family=None)
@example(text='kind: lightup\nrows: 1\ncols: 1\nmeta: {"a": ' + HUGE + "}\n.\n", fmt="native", family=None)
def test_every_reader_gives_a_puzzle_or_a_puzzle_error(text, fmt, family):
    puzzle = survive(lambda: loads(text, fmt, family))
    if puzzle is not None and puzzle.rows * puzzle.cols <= 2500:
        again = loads(dump(puzzle, "native"), "native")  # what loads is written and read back
        assert again == puzzle


@FUZZ
@given(
    text=texts,
    fmt=st.sampled_from([n for n in NAMES if FORMATS[n].read_solution]),
    puzzle=st.sampled_from(PUZZLES),
)
@example(text="lightbulb(1,1).", fmt="asp", puzzle=PUZZLES[3])  # a LightBulbs puzzle: KeyError before
@example(text="2 3\n- x -\n- - -", fmt="janko", puzzle=PUZZLES[3])  # AssertionError before
@example(text=f"lightbulb({HUGE},1).", fmt="asp", puzzle=PUZZLES[0])
@example(text=f"4 {HUGE}\n", fmt="janko", puzzle=PUZZLES[0])
def test_solution_readers_give_an_answer_or_a_puzzle_error(text, fmt, puzzle):
    survive(lambda: load_solution(text, puzzle, fmt))


# -- bytes on disk ---------------------------------------------------------------------------------
noisy_bytes = st.one_of(
    st.binary(max_size=200),
    st.tuples(texts, st.binary(max_size=4), st.integers(0, 400)).map(
        lambda t: (
            t[0].encode("utf-8", "surrogatepass")[: t[2]]
            + t[1]
            + t[0].encode("utf-8", "surrogatepass")[t[2] :]
        )
    ),
    texts.map(lambda t: b"\xef\xbb\xbf" + t.encode("utf-8", "surrogatepass")),
    texts.map(lambda t: t.encode("utf-16")),
)


@FUZZ
@given(data=noisy_bytes, ext=st.sampled_from(EXTENSIONS))
@example(data=b"kind: lightup\nrows: 1\ncols: 1\n\xff\n", ext=".pzl")
@example(data=b"\xef\xbb\xbf7x7:c0a1bBe1f1eBf1e1b1a0c", ext=".sgt")
def test_files_of_any_bytes_give_a_puzzle_or_a_puzzle_error(scratch, data, ext):
    path = scratch / f"case{ext}"
    path.write_bytes(data)
    survive(lambda: load(str(path)))
    survive(lambda: load_with_solution(str(path)))
    survive(lambda: load(path))


@FUZZ
@given(
    doc=st.one_of(
        json_values,
        st.fixed_dictionaries(
            {
                "name": st.sampled_from(["akari", "kuromasu", "x"]) | json_values,
                "data": st.dictionaries(
                    st.text(max_size=6),
                    json_values
                    | st.fixed_dictionaries(
                        {"problem": st.sampled_from(SAMPLES) | texts | json_values},
                        optional={"solution": texts | json_values, "source": json_values},
                    ),
                    max_size=3,
                ),
            }
        ),
    )
)
@example(doc={"name": "akari", "data": {"1": {"problem": 42, "solution": None}}})
@example(doc={"name": "akari", "data": {"1": {"problem": ["3 3"], "solution": "3 3"}}})
@example(doc={"name": "akari", "data": {"1": {"problem": "1 1\n-", "solution": {"a": 1}}}})
@example(doc={"name": "akari", "data": {"1": [1, 2]}})
@example(doc={"name": "akari", "data": {"x\nrow(99).": {"problem": "1 1\n-"}}})
def test_janko_json_documents_give_entries_or_a_puzzle_error(scratch, doc):
    path = scratch / "Akari_dataset.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    entries = survive(lambda: list(iter_janko(path)))
    for entry in entries or ():
        assert loads(dump(entry.puzzle, "native"), "native") == entry.puzzle


@FUZZ
@given(data=noisy_bytes)
def test_janko_json_files_of_any_bytes_give_a_puzzle_error(scratch, data):
    path = scratch / "Kuromasu_dataset.json"
    path.write_bytes(data)
    survive(lambda: list(iter_janko(path)))


# -- the measured defects, one by one ------------------------------------------------------------
@pytest.mark.parametrize(
    "fmt, text",
    [
        ("native", "kind: lightbulbs\nrows: 1\ncols: 2\n² 1\n"),
        ("native", "kind: lightup\nrows: ²\ncols: 1\n.\n"),
        ("janko", "² 1\n-\n"),
        ("asp", "row(1..2).\ncol(1..2).\nnum(1,²,2).\n"),
        ("mzn", "h = ²;\nw = 1;\nb = [| -1 |];\n"),
        ("native", f"kind: kuromasu\nrows: 1\ncols: 1\n{HUGE}\n"),
        ("janko", f"1 1\n{HUGE}\n"),
        ("tatham", f"1x1:{HUGE}"),
        ("asp", f"row(1..1).\ncol(1..1).\nnum(1,1,{HUGE}).\n"),
    ],
)
def test_non_ascii_digits_and_huge_numbers_are_parse_errors(fmt, text):
    with pytest.raises(ParseError):
        loads(text, fmt)


def test_janko_records_with_non_string_fields_are_parse_errors_naming_the_puzzle(tmp_path):
    path = tmp_path / "Akari_dataset.json"
    path.write_text(json.dumps({"name": "akari", "data": {"p7": {"problem": 42, "solution": "1 1\n-"}}}))
    with pytest.raises(ParseError, match=r"puzzle 'p7'.*strings"):
        list(iter_janko(path))


def test_non_utf8_files_are_parse_errors_naming_the_byte(tmp_path):
    path = tmp_path / "bad.pzl"
    path.write_bytes(b"kind: lightup\nrows: 1\ncols: \xe9\n.\n")
    with pytest.raises(ParseError, match=r"not UTF-8.*0xe9") as info:
        load(str(path))
    assert (info.value.line, info.value.column) == (3, 7)
    doc = tmp_path / "Akari_dataset.json"
    doc.write_bytes(b'{"name": "akari", "data": {"\xff": {}}}')
    with pytest.raises(ParseError, match=r"not UTF-8.*0xff"):
        list(iter_janko(doc))


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    puzzle = PUZZLES[0]
    for fmt in ("native", "janko", "asp", "mzn", "tatham", "puzzlink"):
        text = dump(puzzle, fmt)
        path = tmp_path / f"bom{FORMATS[fmt].extensions[0] if FORMATS[fmt].extensions else '.txt'}"
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        assert load(str(path), fmt) == puzzle, fmt
        assert loads("\ufeff" + text, fmt) == puzzle, fmt
    doc = tmp_path / "Akari_dataset.json"
    doc.write_bytes(
        b"\xef\xbb\xbf"
        + json.dumps({"name": "akari", "data": {"1": {"problem": dump(puzzle, "janko")}}}).encode()
    )
    assert [e.puzzle for e in iter_janko(doc)] == [puzzle]
