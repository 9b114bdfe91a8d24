"""MIP Nurikabe on the deduction stage's island plan (``deduce=probe``, the default, and
``deduce=deep``): the probed cells and the probed islands' owners in the build. Checked against
brute force on small boards and against the published answer of 683_14x24, never against the
solver's own say-so. (The encoding's own escalation to the probe, ``plan=auto``, is no longer
reachable: the plan is the stage's, docs/decisions/2026-12-05-deduction-stage.md.)"""

from __future__ import annotations

import pytest

from bruteforce import all_solutions, assert_enumerates_brute_force, escalation_boards
from conftest import fix_settings
from puzzlebench import deduce as deduction
from puzzlebench import registry
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.encodings.mip.nurikabe import build_default
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe
from puzzlebench.solvers import solve


def _boards() -> list[Nurikabe]:
    return escalation_boards(31, (24, 16), 10)


def _options(**settings) -> dict:
    """The default's options merged with its fixed settings, ``settings`` overlaid (the code a
    setting's value runs by default on some boards, reached on boards brute force can check)."""
    spec = registry.get(Family.NURIKABE, "mip")
    return {**spec.resolve({}), **settings}


def _setting(monkeypatch, **values) -> None:
    """The MIP default's fixed settings at ``values`` for this test, through :func:`solve`."""
    fix_settings(monkeypatch, Family.NURIKABE, "mip", **values)


@pytest.mark.parametrize("deduce", ["probe", "deep"])
def test_the_stage_plan_in_the_build_keeps_every_brute_forced_answer(deduce):
    for p in _boards():
        result = assert_enumerates_brute_force(p, "mip", deduce=deduce)
        assert result.deduce == deduce
        assert "escalated_at" not in result.extra  # the encoding probes no more on its own


def test_the_stage_plan_fixes_the_white_cells_and_no_escalation_is_set():
    boards = [p for p in _boards() if IslandPlan.of(p, deduce=True).white - IslandPlan.of(p).white][:4]
    assert boards
    for p in boards:
        assert build_default(p, _options()).escalation is None  # the bare puzzle: no stage
        found = deduction.deduce(p, "probe")
        with deduction.stage() as hand:
            hand(found)
            model = build_default(p, _options())
        assert model.escalation is None
        white = IslandPlan.of(p, deduce=True).white
        assert white == found.unmarked - set(p.clue_cells)
        # each probed unshaded cell's binary is held at 0 by a row of its own
        rows = {
            (model.index[model.starts[k]], model.row_upper[k])
            for k in range(model.num_rows)
            if model.starts[k + 1] - model.starts[k] == 1 and model.row_lower[k] == model.row_upper[k]
        }
        assert {(model.decision[c], 0.0) for c in white} <= rows


def test_683_14x24_is_proven_with_its_published_answer_on_the_stage_plan(janko_dir):
    e = next(e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id == "683_14x24")
    result = solve(e.puzzle, "mip", count=2, timeout=120)
    assert result.deduce == "probe" and result.settled > 0
    assert result.exhausted and len(result.solutions) == 1
    assert result.solutions[0].cells == e.solution.cells


def test_the_core_and_its_steps_bound_every_brute_forced_island():
    # IslandPlan.core on the probed plan: in every answer the island holds its clue's core, and
    # each of its other cells lies at least its steps and at most the bound less the core's
    # cells away from the core inside the island (the range of MIP's level columns)
    from collections import deque

    from puzzlebench.encodings.regions import white_regions

    grown = 0
    for p in _boards():
        plan = IslandPlan.of(p, deduce=True)
        answers = all_solutions(p)
        for clue in plan.reach:
            steps = plan.core(p, clue)
            core = {cell for cell, d in steps.items() if d == 0}
            assert clue in core and set(steps) == set(plan.reach[clue])
            grown += len(core) > 1
            for wall in answers:
                island = next(set(r) for r in white_regions(p.rows, p.cols, wall) if clue in r)
                assert core <= island, p.to_text()
                seen = dict.fromkeys(core, 0)
                queue = deque(core)
                while queue:
                    cell = queue.popleft()
                    for nb in p.grid.neighbours4(cell):
                        if nb in island and nb not in seen:
                            seen[nb] = seen[cell] + 1
                            queue.append(nb)
                for cell in island - core:
                    assert steps[cell] <= seen[cell] <= plan.bound[clue] - len(core), p.to_text()
    assert grown >= 5  # cores beyond the clue itself, on several boards


def test_levels_from_the_core_keep_every_brute_forced_answer(monkeypatch):
    # levels_root=auto counts from the core where the stage's plan settled half the board or
    # more: here on every board
    _setting(monkeypatch, levels_root="core")
    for p in _boards():
        assert_enumerates_brute_force(p, "mip", deduce="probe")
