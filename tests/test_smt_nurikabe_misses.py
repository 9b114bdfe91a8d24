"""z3's cheaper lazy rounds and the islands' statement chosen per board: the cells read from each
model by raw C calls held to z3's own evaluation of the same model (before and after the
escalation, models left uncompacted), z3's global ``model.compact`` parameter left as found, the
stronger islands from the start on a board whose largest number holds half its cells, and
``1030_32x32`` (one island of 994 of its 1,024 cells) proved unique with its published answer.
"""

from __future__ import annotations

import pytest

z3 = pytest.importorskip("z3", reason="z3 is not installed")

import puzzlebench as pb
from bruteforce import all_solutions, answered_boards
from puzzlebench import registry
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.encodings.smt.nurikabe import AUTO_LEVELS_CELLS, AUTO_START_SHARE, auto_islands
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe
from puzzlebench.solvers.z3_backend import Z3Backend


def _build(puzzle: Nurikabe, settings: dict | None = None, **options):
    """The default with ``options``, its fixed settings overlaid with ``settings`` (an escalation
    after a few checks: the code that runs after 300 on large boards, on boards brute force can
    check)."""
    spec = registry.get(Family.NURIKABE, "smt")
    return spec.build(puzzle, {**spec.resolve(options), **(settings or {})})


@pytest.fixture(scope="module")
def answered() -> list[Nurikabe]:
    return answered_boards("nurikabe", 13, [(3, 3), (3, 4), (4, 4), (3, 5)], count=6)


@pytest.mark.parametrize(
    "options, settings",
    [
        ({"islands": "lazy"}, {"escalate": 2}),
        ({"islands": "levels"}, {}),
        ({"islands": "lazy"}, {"escalate": 0}),
    ],
)
def test_the_marked_cells_are_the_ones_the_model_makes_true(answered, options, settings) -> None:
    # the check-read-cut loop by hand: every model read cell by cell against z3's model evaluation
    # (with completion), and the answers the loop finds against brute force
    checks = 0
    for puzzle in answered:
        model = _build(puzzle, settings, **options)
        backend = Z3Backend({"logic": "auto", "seed": 0})
        backend.build(model, None)
        found = set()
        while backend.check(None):
            checks += 1
            cells = backend.marked()
            evaluated = {
                cell for cell, var in model.decision.items() if z3.is_true(backend._model.eval(var, True))
            }
            assert cells == frozenset(evaluated), puzzle.to_text()
            cuts = model.lazy(cells) if model.lazy is not None else []
            for clause in cuts:
                backend.add_clause(clause)
            if not cuts:
                found.add(cells)
                backend.block(cells, list(model.decision))
        assert found == all_solutions(puzzle), puzzle.to_text()
        backend.close()
    assert checks > len(answered)


@pytest.mark.parametrize("before", ["true", "false"])
def test_reading_a_model_leaves_z3s_model_compact_parameter_as_it_was(
    monkeypatch, answered, before: str
) -> None:
    # the escalation (a fixed setting: after 300 checks) after one check, through the harness
    monkeypatch.setitem(registry.get(Family.NURIKABE, "smt").settings, "escalate", 1)
    z3.set_param("model.compact", before)
    try:
        result = pb.solve(answered[0], "smt", count=0, timeout=60, islands="lazy")
        assert result.exhausted
        assert z3.get_param("model.compact") == before
    finally:
        z3.set_param("model.compact", "true")


def test_auto_starts_with_the_stronger_islands_where_one_number_holds_half_the_board() -> None:
    board = Nurikabe(12, 13, numbers={(0, 0): 100, (11, 12): 12, (6, 0): 1})
    assert board.grid.size >= AUTO_LEVELS_CELLS and 100 >= AUTO_START_SHARE * board.grid.size
    model = _build(board)
    assert model.notes["islands"] == auto_islands(board, IslandPlan.of(board)) != "lazy"
    assert model.escalation is None
    # a largest number below the share: lazy rounds first, escalating later
    below = Nurikabe(12, 13, numbers={(0, 0): 70, (11, 12): 12, (6, 0): 1})
    assert 70 < AUTO_START_SHARE * below.grid.size
    model = _build(below)
    assert model.notes["islands"] == "lazy" and model.escalation is not None
    # the option stated outright is kept
    assert _build(board, islands="lazy").notes["islands"] == "lazy"


@pytest.mark.slow
def test_1030_32x32_has_its_published_answer_proved_unique(janko_dir) -> None:
    entry = next(
        e
        for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family.NURIKABE, [])
        if e.id == "1030_32x32"
    )
    assert _build(entry.puzzle).notes["islands"] != "lazy"
    result = pb.solve(entry.puzzle, "smt", count=2, timeout=180)
    assert result.exhausted and result.verified
    assert [s.cells for s in result.solutions] == [entry.solution.cells]
