"""Bad input that used to end in a traceback: each is a clean error (exit 2) naming what is wrong."""

from __future__ import annotations

import json

import pytest

from puzzlebench import formats
from puzzlebench.bench import runner
from puzzlebench.cli import main
from puzzlebench.errors import ParseError, PuzzleError
from puzzlebench.generate import parse_size
from puzzlebench.suites import load_suite

ZEROS = "0" * 5000


@pytest.mark.parametrize("text", [f"akari/{ZEROS}7/7/g", f"https://puzz.link/p?akari/7/{ZEROS}7/g"])
def test_puzzlink_size_with_thousands_of_leading_zeros_is_the_number(text):
    puzzle = formats.loads(text, "puzzlink")
    assert (puzzle.rows, puzzle.cols) == (7, 7)
    assert formats.loads(text).rows == 7  # format detection reads the size too


def test_puzzlink_size_of_only_zeros_or_too_many_digits_is_a_parse_error():
    for text in (f"akari/{ZEROS}/7/g", f"akari/{'9' * 5000}/7/g"):
        with pytest.raises(ParseError, match="puzzlink: expected PID/COLS/ROWS/BODY.* at line 1, column 7"):
            formats.loads(text, "puzzlink")


def test_a_hitori_number_past_1295_cannot_be_written_to_puzzlink(tmp_path, capsys):
    path = tmp_path / "h.txt"
    path.write_text("2 2\n1 2000\n2 1\n")
    assert main(["convert", str(path), "--format", "janko", "--to", "puzzlink"]) == 2
    err = capsys.readouterr().err
    assert "format puzzlink cannot express this puzzle: cell (1, 2) holds 2000" in err and "1295" in err
    puzzle = formats.load(str(path), "janko")
    assert not formats.FORMATS["puzzlink"].can_write(puzzle)
    path.write_text("2 2\n1 1295\n2 1\n")  # the largest number the body holds still goes through
    assert "-zz" in formats.dump(formats.load(str(path), "janko"), "puzzlink")


@pytest.mark.parametrize(
    "entry, message",
    [
        ({"id": 1, "file": 7}, "'file' must be a string, got 7"),
        ({"id": 1, "file": ["a"]}, "'file' must be a string"),
        ({"id": 1, "file": "p.txt", "solution": 3}, "'solution' must be a string"),
        ({"id": 1, "file": "p.txt", "meta": "x"}, "'meta' must be an object"),
        ({"id": 1, "file": "p.txt", "meta": {"format": 5}}, "'meta.format' must be a string"),
        ({"id": 1, "file": ""}, "an empty file name"),
    ],
)
def test_a_manifest_entry_of_the_wrong_type_is_named(tmp_path, entry, message):
    (tmp_path / "manifest.json").write_text(json.dumps({"puzzles": [entry]}))
    with pytest.raises(PuzzleError, match=f"puzzle 0: {message}"):
        load_suite(tmp_path)


def test_a_manifest_that_is_not_an_object_is_named(tmp_path):
    (tmp_path / "manifest.json").write_text("[1, 2]")
    with pytest.raises(PuzzleError, match="expected a JSON object"):
        load_suite(tmp_path)


def test_a_manifest_entry_outside_the_suite_is_refused_unread(tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-LINE\n")
    suite = tmp_path / "a" / "b"
    suite.mkdir(parents=True)
    for name in ("../../secret.txt", str(secret), "../b/../../secret.txt"):
        (suite / "manifest.json").write_text(json.dumps({"puzzles": [{"id": 1, "file": name}]}))
        with pytest.raises(PuzzleError, match="outside the suite's folder") as info:
            load_suite(suite)
        assert "TOP-SECRET" not in str(info.value)
    assert (
        main(
            [
                "bench",
                "--suite",
                str(suite),
                "--paradigm",
                "sat",
                "--quiet",
                "--out",
                str(tmp_path / "r.jsonl"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "outside the suite's folder" in err and "TOP-SECRET" not in err
    (suite / "p.txt").write_text("x")  # a file inside, named with a harmless '..', is still fine
    (suite / "manifest.json").write_text(json.dumps({"puzzles": [{"id": 1, "file": "../b/p.txt"}]}))
    assert len(load_suite(suite)) == 1


def test_generate_size_obeys_the_cell_bound(monkeypatch, capsys):
    monkeypatch.setenv("PUZZLEBENCH_MAX_CELLS", "1000")
    with pytest.raises(PuzzleError, match="larger than the limit of 1000 cells"):
        parse_size("100000x100000")
    assert parse_size("0010x0020") == (10, 20)
    with pytest.raises(PuzzleError, match="more than 18 digits"):
        parse_size("9" * 5000)
    assert main(["generate", "lightup", "--size", "40x40", "--paradigm", "none"]) == 2
    assert "larger than the limit of 1000 cells" in capsys.readouterr().err


def test_an_unknown_runner_names_the_choices(monkeypatch, capsys):
    monkeypatch.setenv("PUZZLEBENCH_RUNNER", "x")
    with pytest.raises(PuzzleError, match="unknown runner 'x'.*auto, benchexec, subprocess"):
        runner.choose_runner()
    assert main(["solve", "akari/3/3/g", "--paradigm", "sat", "--timeout", "5"]) == 2
    assert "unknown runner 'x'" in capsys.readouterr().err
