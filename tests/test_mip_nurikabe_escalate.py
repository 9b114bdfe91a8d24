"""MIP Nurikabe, ``plan=auto`` and ``plan=probe``: the cells failed-literal probing settles
(``nurikabe_deduce.refine``) and the probed islands' owners, fixed by column bounds after
``escalate`` HiGHS runs (or put into the build). Checked against brute force on small boards
(escalating before the first run, after one, after two: in the middle of an enumeration) and
against the published answer of 683_14x24, never against the solver's own say-so."""

from __future__ import annotations

import math

import pytest

from bruteforce import all_solutions, assert_enumerates_brute_force, escalation_boards
from puzzlebench import registry
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.encodings.mip.nurikabe import build_default
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe
from puzzlebench.solvers import solve


def _boards() -> list[Nurikabe]:
    return escalation_boards(31, (24, 16), 10)


def _options(**given) -> dict:
    spec = registry.get(Family.NURIKABE, "mip")
    return {**{o.name: o.default for o in spec.options}, **given}


@pytest.mark.parametrize("after", [0, 1, 2])
def test_escalating_keeps_every_brute_forced_answer(after):
    fired = 0
    for p in _boards():
        result = assert_enumerates_brute_force(p, "mip", plan="auto", escalate=after, escalate_cpu=0.0)
        extra = result.extra
        if extra.get("escalated_at") == after and extra.get("escalation_fixings", 0) > 0:
            fired += 1
        # the escalation came before the run after the first ``after`` (a board settled without
        # HiGHS, e.g. whose only answer leaves nothing to block, makes fewer runs)
        if extra["runs"] > after:
            assert extra.get("escalated_at") == after, p.to_text()
    # the probe fixed columns, mid-enumeration for after >= 1, on several boards
    assert fired >= 5


def test_the_probed_plan_in_the_build_keeps_every_brute_forced_answer():
    for p in _boards():
        assert_enumerates_brute_force(p, "mip", plan="probe")


def test_the_fixed_cells_hold_in_every_brute_forced_answer():
    # the escalation's fixings of wall binaries agree with every answer; fixings exist, and some
    # fix owner columns (columns that are no cell's wall binary)
    owners_fixed = cells_fixed = 0
    for p in _boards():
        model = build_default(p, _options(plan="auto"))
        assert model.escalation is not None
        fixings = model.escalation[2](math.inf)
        cell_of = {col: cell for cell, col in model.decision.items()}
        for col, value in fixings:
            if col not in cell_of:
                owners_fixed += 1
                assert value == 0.0  # an owner column is only ever ruled out
                continue
            cells_fixed += 1
            for answer in all_solutions(p):
                assert (cell_of[col] in answer) == (value == 1.0), p.to_text()
    assert cells_fixed >= 5 and owners_fixed >= 5


def test_search_sets_no_escalation_and_probe_fixes_the_white_cells():
    boards = [p for p in _boards() if IslandPlan.of(p, deduce=True).white - IslandPlan.of(p).white][:4]
    assert boards
    for p in boards:
        assert build_default(p, _options(plan="search")).escalation is None
        model = build_default(p, _options(plan="probe"))
        assert model.escalation is None
        white = IslandPlan.of(p, deduce=True).white
        # each probed unshaded cell's binary is held at 0 by a row of its own
        rows = {
            (model.index[model.starts[k]], model.row_upper[k])
            for k in range(model.num_rows)
            if model.starts[k + 1] - model.starts[k] == 1 and model.row_lower[k] == model.row_upper[k]
        }
        assert {(model.decision[c], 0.0) for c in white} <= rows


def test_683_14x24_is_proven_with_its_published_answer_once_escalated(janko_dir):
    e = next(e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", malformed=[]) if e.id == "683_14x24")
    result = solve(e.puzzle, "mip", count=2, timeout=120, plan="auto", escalate=0, escalate_cpu=0.0)
    assert result.extra.get("escalated_at") == 0 and result.extra.get("escalation_fixings", 0) > 0
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


def test_levels_from_the_core_keep_every_brute_forced_answer():
    for p in _boards():
        assert_enumerates_brute_force(p, "mip", plan="probe", levels_root="core")
