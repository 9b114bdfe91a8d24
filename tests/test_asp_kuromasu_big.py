"""ASP Kuromasu's large-board statements: the lazy connectivity rule (a check-only clingo
propagator adding cuts), ``sum=paired`` (SAT's pairing of the rays), and ``connectivity=auto`` /
the ``cut=auto`` setting's choice by board size (``cut`` and ``links`` are fixed settings of the
encoding; a test reaches their other values with :func:`setting`).

Oracles are the brute-force enumerator, the verifier and the generator's planted answers,
never clingo's own say-so.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from conftest import fix_settings

pytest.importorskip("clingo")

from bruteforce import all_solutions, random_kuromasu
from puzzlebench import registry, solve
from puzzlebench.encodings.asp.kuromasu import ADDER_CELLS
from puzzlebench.model import Family, Kuromasu
from puzzlebench.result import Status
from puzzlebench.suites import load_suite


def setting(monkeypatch, **values) -> None:
    """The ASP Kuromasu default's fixed settings at ``values`` for this test: the statements the
    default makes on large boards (``cut=cell``, ``links=counts``), or without one of them, on
    boards brute force can check."""
    fix_settings(monkeypatch, Family.KUROMASU, "asp", **values)


def _solve(puzzle, **options):
    result = solve(puzzle, "asp", count=0, timeout=60, **options)
    assert result.status in (Status.SAT, Status.UNSAT), result.error
    return result


def _tiny_boards(n: int, seed: int) -> list[Kuromasu]:
    rng = random.Random(seed)
    boards = [random_kuromasu(rng, rng.randint(1, 4), rng.randint(2, 4), clue_p=0.35) for _ in range(n)]
    # two numbers facing each other, one behind the other, and a lone clue seeing a whole row
    return boards + [
        Kuromasu(3, 4, numbers={(1, 0): 4, (1, 3): 4}),
        Kuromasu(2, 4, numbers={(0, 0): 3, (0, 2): 4}),
        Kuromasu(1, 4, numbers={(0, 1): 4}),
    ]


BOARDS = _tiny_boards(24, seed=61)
TRUTHS = [all_solutions(p) for p in BOARDS]


def test_the_tiny_boards_mix_counts_and_need_connectivity() -> None:
    assert any(len(t) > 1 for t in TRUTHS) and any(not t for t in TRUTHS) and any(len(t) == 1 for t in TRUTHS)
    # the relaxation finds more answers somewhere: the connectivity rule matters on these boards
    assert any(_solve(p, connectivity="none").count > len(t) for p, t in zip(BOARDS, TRUTHS))


@pytest.mark.parametrize("total,cut", list(product(("adder", "paired", "count"), ("auto", "none"))))
def test_lazy_connectivity_enumerates_the_brute_force_answers(monkeypatch, total, cut) -> None:
    # cut=auto states the walled-in cells up front with the lazy rule (as on large boards);
    # cut=none leaves the whole rule to the lazy cuts, which must then be complete on their own
    setting(monkeypatch, cut=cut)
    rounds = 0
    for puzzle, truth in zip(BOARDS, TRUTHS):
        result = _solve(puzzle, connectivity="lazy", sum=total, deduce="none")
        assert {s.cells for s in result.solutions} == truth, (total, cut, puzzle.key())
        rounds += result.extra.get("lazy_rounds", 0)
        # after the deduction stage too
        result = _solve(puzzle, connectivity="lazy", sum=total)
        assert {s.cells for s in result.solutions} == truth, (total, cut, puzzle.key())
    if cut == "none":  # nothing else states the rule: the cuts did the work
        assert rounds > 0


def test_auto_picks_lazy_and_cell_cuts_on_large_boards_only() -> None:
    spec = registry.get(Family.KUROMASU, "asp")
    defaults = spec.resolve({})
    assert defaults["connectivity"] == "auto" and spec.settings["cut"] == "auto"
    side = int(ADDER_CELLS**0.5) + 1
    big = spec.build(Kuromasu(side, side, numbers={(0, 0): 3}), defaults)
    small = spec.build(Kuromasu(side - 2, side - 2, numbers={(0, 0): 3}), defaults)
    assert (
        big.propagator is not None
        and "kuromasu_cut_cell.lp" in big.files
        and "connect_reach.lp" not in big.files
    )
    assert big.notes == {"connectivity": "lazy", "sum": "adder", "cut": "cell"}
    assert (
        small.propagator is None
        and "connect_reach.lp" in small.files
        and "kuromasu_cut_cell.lp" not in small.files
    )
    assert small.notes == {"connectivity": "reach", "sum": "count", "cut": "none"}
    # an explicit value wins over auto
    assert (
        spec.build(
            Kuromasu(side, side, numbers={(0, 0): 3}), {**defaults, "connectivity": "reach"}
        ).propagator
        is None
    )


def test_the_default_proves_the_planted_answer_of_a_50x50_board() -> None:
    item = min((i for i in load_suite("gen-kuromasu") if i.puzzle.shape == (50, 50)), key=lambda i: i.id)
    result = solve(item.puzzle, "asp", count=2, timeout=300)  # strict: the verifier checks the answer
    assert result.status == Status.SAT and result.unique and result.solutions[0] == item.solution
    assert result.extra.get("lazy_rounds") is not None  # the lazy rule ran
