"""Encodings as files: a researcher's MiniZinc model and ASP program, against brute force."""

from __future__ import annotations

import random

import pytest

import puzzlebench as pb
import puzzlebench.formats
from bruteforce import all_solutions, random_kuromasu, random_lightbulbs
from puzzlebench import registry
from puzzlebench.cli import main
from puzzlebench.encodings.files import asp_facts, schema
from puzzlebench.errors import EncodingError
from puzzlebench.model import Family, Kuromasu, family_spec

LIGHTBULBS_MZN = """
int: h; int: w;
array[1..h, 1..w] of 1..9: n;
array[1..h, 1..w] of var bool: lit;
% a cell is lit iff its number counts the lit cells of its 3x3 neighbourhood
constraint forall(i in 1..h, j in 1..w)(
  lit[i, j] <-> sum(a in max(1, i - 1)..min(h, i + 1), b in max(1, j - 1)..min(w, j + 1))(bool2int(lit[a, b])) = n[i, j]);
% some cell is lit
constraint exists(i in 1..h, j in 1..w)(lit[i, j]);
solve satisfy;
"""

KUROMASU_LP = """
{ black(R,C) } :- size(H,W), R = 0..H-1, C = 0..W-1, not clue(R,C).
% no two black cells share a side
:- black(R,C), black(R+1,C).
:- black(R,C), black(R,C+1).
% white cells are connected: reached from the first clue (or any white cell)
white(R,C) :- size(H,W), R = 0..H-1, C = 0..W-1, not black(R,C).
root(R,C) :- clue(R,C), not clue(R2,C2) : clue(R2,C2), (R2,C2) < (R,C).
reach(R,C) :- root(R,C).
reach(R2,C2) :- reach(R,C), white(R2,C2), |R-R2| + |C-C2| = 1.
:- white(R,C), not reach(R,C), root(_,_).
% a number counts the white cells it sees, itself included
see(R,C,R,C) :- num(R,C,_).
see(R,C,R2+D,C2) :- see(R,C,R2,C2), R2 >= R, D = 1, white(R2+D,C2), C2 = C.
see(R,C,R2-1,C2) :- see(R,C,R2,C2), R2 <= R, white(R2-1,C2), C2 = C.
see(R,C,R2,C2+1) :- see(R,C,R2,C2), C2 >= C, white(R2,C2+1), R2 = R.
see(R,C,R2,C2-1) :- see(R,C,R2,C2), C2 <= C, white(R2,C2-1), R2 = R.
:- num(R,C,N), #count { R2,C2 : see(R,C,R2,C2) } != N.
#show black/2.
"""


def test_schema_names_the_facts_and_the_answer_of_every_family() -> None:
    for family in Family:
        text = schema(family, "asp")
        predicate = family_spec(family).asp_facts.answer
        assert f"#show {predicate}/2." in text and "size(R,C)." in text
        assert f"'{family_spec(family).mzn_data.answer}'" in schema(family, "minizinc")
    assert "num(0,1,2)." in asp_facts(Kuromasu(2, 2, numbers={(0, 1): 2}))


def test_encodings_schema_command_prints_it(capsys) -> None:
    assert main(["encodings", "--schema", "kuromasu", "asp"]) == 0
    assert "clue(X,Y)." in capsys.readouterr().out
    assert main(["encodings", "--schema", "kuromasu", "nosuch"]) == 2


def test_an_asp_file_counts_like_brute_force_and_is_hashed(tmp_path) -> None:
    path = tmp_path / "mine.lp"
    path.write_text(KUROMASU_LP)
    rng = random.Random(7)
    for _ in range(8):
        puzzle = random_kuromasu(rng, 3, 4)
        result = pb.solve(puzzle, "asp", str(path), count=0)
        assert {s.cells for s in result.solutions} == all_solutions(puzzle)
        assert result.exhausted and result.encoding == str(path)
    first = result.encoding_hash
    path.write_text(KUROMASU_LP.replace("#show black/2.", "% edited\n#show black/2."))
    assert pb.solve(puzzle, "asp", str(path)).encoding_hash != first


def test_an_encoding_file_of_the_wrong_paradigm_or_missing_is_a_clear_error(tmp_path) -> None:
    path = tmp_path / "mine.lp"
    path.write_text(KUROMASU_LP)
    with pytest.raises(EncodingError, match="run by the 'asp' paradigm"):
        pb.solve(Kuromasu(2, 2), "sat", str(path))
    with pytest.raises(EncodingError, match="encoding file"):
        pb.solve(Kuromasu(2, 2), "asp", str(tmp_path / "absent.lp"))
    board = tmp_path / "board.pzl"
    board.write_text(pb.formats.dump(Kuromasu(2, 2, numbers={(0, 0): 2}), "native"))
    assert main(["solve", str(board), "--paradigm", "asp", "--encoding", str(tmp_path / "absent.lp")]) == 2


@pytest.mark.skipif(
    registry.solver("minizinc").unavailable_reason() is not None,
    reason=str(registry.solver("minizinc").unavailable_reason()),
)
def test_a_minizinc_file_counts_like_brute_force(tmp_path) -> None:
    path = tmp_path / "lightbulbs.mzn"
    path.write_text(LIGHTBULBS_MZN)
    rng = random.Random(3)
    for _ in range(4):
        puzzle = random_lightbulbs(rng, 3, 3)
        result = pb.solve(puzzle, "minizinc", str(path), count=0, timeout=60)
        assert {s.cells for s in result.solutions} == all_solutions(puzzle)
        assert result.solver == "gecode" and result.solver_version.startswith("minizinc")
