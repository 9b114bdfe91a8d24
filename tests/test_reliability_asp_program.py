"""A user's ``.lp`` encoding: a syntax error is clingo's own message and place; a program that
reads none of the family's facts, or uses atoms nothing defines, is named before it runs."""

from __future__ import annotations

import warnings

import pytest

from puzzlebench import formats
from puzzlebench.cli import main
from puzzlebench.encodings.files import ProgramWarning
from puzzlebench.errors import EncodingError
from puzzlebench.solvers import solve

PUZZLE = "hitori/2/2/1212"


def _solve(path):
    return solve(formats.load(PUZZLE), "asp", str(path), strict=False)


def test_a_syntax_error_is_clingos_message_with_the_files_place(tmp_path, capsys):
    path = tmp_path / "bad.lp"
    path.write_text("shaded(X,Y) :- num(X,Y,N) N > 1.\n")
    with pytest.raises(EncodingError, match=r"bad.lp:1:27-28: error: syntax error"):
        _solve(path)
    assert main(["solve", PUZZLE, "--paradigm", "asp", "--encoding", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.lp:1:27-28: error: syntax error" in err and "Traceback" not in err


def test_a_program_that_reads_nothing_is_named(tmp_path):
    path = tmp_path / "nothing.lp"
    path.write_text("shaded(X,Y) :- cell(X,Y), not keep(X,Y).\nkeep(X,Y) :- wrong(X,Y).\n")
    with pytest.warns(ProgramWarning) as caught:
        _solve(path)
    text = [str(w.message) for w in caught]
    assert any("uses none of the hitori facts (num/3, size/2)" in t for t in text), text
    assert any(
        "occur in no rule head" in t and f"{path}:1:" in t and "cell(X,Y)" in t and "wrong(X,Y)" in t
        for t in text
    ), text


def test_a_program_that_reads_the_facts_gets_no_warning(tmp_path):
    path = tmp_path / "fine.lp"
    path.write_text("{ shaded(X,Y) } :- num(X,Y,_).\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ProgramWarning)
        _solve(path)
