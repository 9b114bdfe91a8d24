"""The cross-check's judgement, on hand-built results (no solver involved)."""

from __future__ import annotations

from puzzlebench.crosscheck import Config, Outcome, Verdict, judge
from puzzlebench.model import LightUp
from puzzlebench.result import Result, Status

PUZZLE = LightUp(1, 3, name="row")  # the only answers: a bulb at (0,0), (0,1) or (0,2)


def outcome(
    paradigm: str,
    answers: list[list[tuple[int, int]]],
    exhausted: bool,
    status: Status = Status.SAT,
    complete: bool = True,
) -> Outcome:
    sols = tuple(PUZZLE.solution(a) for a in answers)
    return Outcome(
        Config(paradigm),
        Result(
            family=PUZZLE.family,
            paradigm=paradigm,
            encoding="default",
            status=status,
            solutions=sols,
            exhausted=exhausted,
            complete=complete,
            violations=tuple(tuple(PUZZLE.verify(s)) for s in sols),
        ),
    )


def test_same_unique_answer_agrees() -> None:
    verdict, diffs = judge([outcome("sat", [[(0, 1)]], True), outcome("asp", [[(0, 1)]], True)], 2)
    assert verdict is Verdict.AGREE and not diffs


def test_different_unique_answers_name_the_cells() -> None:
    verdict, diffs = judge([outcome("sat", [[(0, 1)]], True), outcome("asp", [[(0, 2)]], True)], 2)
    assert verdict is Verdict.DISAGREE
    assert "only in sat/default: (0,1)" in diffs[0] and "only in asp/default: (0,2)" in diffs[0]


def test_unique_against_two_answers_disagrees_on_count() -> None:
    verdict, diffs = judge([outcome("sat", [[(0, 1)]], True), outcome("cp", [[(0, 1)], [(0, 0)]], False)], 2)
    assert verdict is Verdict.DISAGREE and "unique" in diffs[0] and "2+" in diffs[0]


def test_answer_rejected_by_verifier_is_a_disagreement() -> None:
    verdict, diffs = judge([outcome("sat", [[(0, 0), (0, 2)]], True), outcome("asp", [[(0, 1)]], True)], 2)
    assert verdict is Verdict.DISAGREE
    assert any("rejected by the verifier" in d and "bulbs see each other" in d for d in diffs)


def test_relaxed_encoding_is_reported_not_judged() -> None:
    relaxed = outcome("smt", [[(0, 0), (0, 2)]], True, complete=False)
    verdict, diffs = judge([outcome("sat", [[(0, 1)]], True), relaxed], 2)
    assert verdict is Verdict.AGREE
    assert any("relaxed" in d and "do not all pass" in d for d in diffs)


def test_timeout_makes_the_check_inconclusive() -> None:
    verdict, _ = judge([outcome("sat", [[(0, 1)]], True), outcome("z3", [], False, Status.TIMEOUT)], 2)
    assert verdict is Verdict.INCONCLUSIVE


def test_full_enumerations_must_match_as_sets() -> None:
    all3 = [[(0, 0)], [(0, 1)], [(0, 2)]]
    verdict, _ = judge([outcome("sat", all3, True), outcome("cp", all3[::-1], True)], 0)
    assert verdict is Verdict.AGREE
    verdict, diffs = judge([outcome("sat", all3, True), outcome("cp", all3[:2], True)], 0)
    assert verdict is Verdict.DISAGREE
