"""Nurikabe's contact graph (``islands.EDGE``): in MIP (the fixed setting ``contacts=acyclic``: the
forest's rows and the ranks) its rows and its lazy cycle rows hold in every true answer, a ring of
islands round wall is cut by its cycle (and ruled out by the ranks of ``acyclic``), and the model
finds exactly the brute-force answers; in CP-SAT (``escalate_contacts=acyclic``, the switched model
built on the probed plan, with the switch's count lowered to land on small boards) the switched
model with the contacts finds exactly the brute-force answers, and the ranks of ``acyclic`` rule
out a ring of islands that the triangles leave to the lazy cuts. (The forest alone through
:func:`solve`, and the switched model on the searched plan, are no longer reachable: fixed
settings, docs/decisions/2026-12-05-deduction-stage.md.)"""

from __future__ import annotations

import random

import pytest

from bruteforce import all_solutions, planted_nurikabe
from conftest import fix_settings
from puzzlebench import registry
from puzzlebench.encodings.islands import EDGE, contact_cycles
from puzzlebench.encodings.mip import nurikabe as mip_nurikabe
from puzzlebench.encodings.mip.common import Cut
from puzzlebench.encodings.regions import white_regions
from puzzlebench.model import Nurikabe, Rule, family_spec
from puzzlebench.solvers import solve

needs_mip = pytest.mark.skipif("mip" not in registry.available(), reason="highspy is not installed")
needs_cp = pytest.mark.skipif("cp" not in registry.available(), reason="ortools is not installed")


def _boards() -> list[Nurikabe]:
    rng = random.Random(2027)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (2, 5)] * 3]
    boards += planted_nurikabe(11, 12, [(4, 4), (4, 5), (3, 6)], 0.55, 12)
    # numbers on the edge, touching at corners
    return boards + [Nurikabe(3, 5, numbers={(0, 1): 2, (2, 3): 2, (1, 4): 1})]


def _model(p: Nurikabe, **settings):
    """The MIP default's model on the searched plan (no stage), its options and fixed settings
    merged, ``settings`` overlaid."""
    spec = registry.get("nurikabe", "mip")
    assert spec.settings["plan"] == "search"
    return spec.build(p, {**spec.resolve({}), **settings})


def _setting(monkeypatch, paradigm: str, **values) -> None:
    """The default's fixed settings at ``values`` for this test, through :func:`solve`."""
    fix_settings(monkeypatch, "nurikabe", paradigm, **values)


def _answer_point(model, p: Nurikabe, wall: frozenset) -> dict[int, float]:
    """Every column of the model at the answer ``wall``: a cell's owner is its island's clue, a
    contact column 1 where its two islands touch at its corner, an edge column 1 where its
    island meets the board's edge (the values the rows force, found by HiGHS with the cells fixed)."""
    import highspy
    import numpy as np

    from puzzlebench.solvers.highs_backend import _new_highs, load_model

    h = _new_highs()
    load_model(h, model)
    for cell, col in model.decision.items():
        v = 1.0 if cell in wall else 0.0
        h.changeColBounds(col, v, v)
    h.setOptionValue("presolve", "off")
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal, (p.to_text(), sorted(wall))
    return dict(enumerate(np.asarray(h.getSolution().col_value).tolist()))


def _edges(p: Nurikabe) -> dict:
    """The contact graph's edges on a fresh owners model."""
    from puzzlebench.encodings.islands import planned
    from puzzlebench.encodings.mip.common import MipModel

    plan = planned(p, "search")
    model = MipModel()
    wall = model.binaries(c for c in p.grid.all_cells if c not in p.clue_cells)
    return mip_nurikabe._contacts(model, p, plan, mip_nurikabe._owners(model, p, plan, wall))


@needs_mip
def test_the_contact_rows_and_cycle_rows_hold_in_every_true_answer():
    answers_seen = edges_seen = 0
    for p in _boards():
        model, edges = _model(p), _edges(p)
        for answer in all_solutions(p):
            answers_seen += 1
            # the model with the answer's cells fixed has a point: its contact rows hold
            _answer_point(model, p, answer)
            # an answer's islands have no cycle of contacts
            assert contact_cycles(p, answer, white_regions(p.rows, p.cols, answer)) == []
            edges_seen += len(edges)
    assert answers_seen > 20 and edges_seen > 100


@needs_mip
def test_a_ring_of_islands_round_a_wall_cell_is_cut_by_its_cycle():
    # four 1s in a diamond round (2, 2), every other cell wall: the wall splits at (2, 2)
    p = Nurikabe(5, 5, numbers={(1, 2): 1, (2, 1): 1, (2, 3): 1, (3, 2): 1, (0, 0): 2})
    candidate = frozenset(c for c in p.grid.all_cells if c not in p.clue_cells and c != (0, 1))
    assert Rule.WALL_SPLIT in {v.rule for v in p.verify(candidate)}
    model = _model(p)
    cuts = [c for c in model.lazy(candidate) if isinstance(c, Cut) and c.upper == 3.0]
    assert len(cuts) == 1
    (cycle,) = cuts
    # the four contacts' pair sums, each 1 at the candidate: 4 > 3
    assert len(cycle.expr.terms) >= 4


@needs_mip
def test_two_islands_and_the_edge_close_a_cycle():
    # 1s at (0, 1) and (1, 0) touch at a corner and both meet the edge: (0, 0) is walled off
    p = Nurikabe(4, 4, numbers={(0, 1): 1, (1, 0): 1, (3, 3): 1})
    candidate = frozenset(c for c in p.grid.all_cells if c not in p.clue_cells)
    assert Rule.WALL_SPLIT in {v.rule for v in p.verify(candidate)}
    model = _model(p)
    cycles = contact_cycles(p, candidate, white_regions(p.rows, p.cols, candidate))
    assert [sorted(c) for c in cycles] == [sorted([((0, 1), (1, 0)), (EDGE, (0, 1)), (EDGE, (1, 0))])]
    assert model.lazy(candidate)


@needs_mip
@pytest.mark.parametrize("islands", ["owners", "hybrid"])
def test_contacts_find_exactly_the_brute_force_answers(monkeypatch, islands):
    # the levels' budget at 4 (as it runs out on large boards): the contacts carry the hybrid too
    assert registry.get("nurikabe", "mip").settings["contacts"] == "acyclic"
    _setting(monkeypatch, "mip", levels=4)
    for p in _boards():
        result = solve(p, "mip", count=0, timeout=60, islands=islands, deduce="none")
        assert result.exhausted
        assert {s.cells for s in result.solutions} == all_solutions(p), p.to_text()


@needs_cp
def test_the_switched_cp_model_with_contacts_finds_exactly_the_brute_force_answers(monkeypatch):
    spec = registry.get("nurikabe", "cp")
    assert spec.settings["escalate_contacts"] == "acyclic" and spec.settings["escalate_reach"] == "probed"
    assert spec.settings["escalate_to"] == "levels"
    switched = contacts_seen = 0
    for p in _boards():
        for after in (1, 2, 4):
            _setting(monkeypatch, "cp", escalate=after, escalate_time=0)
            result = solve(p, "cp", count=0, timeout=60, deduce="none")
            assert result.exhausted
            assert {s.cells for s in result.solutions} == all_solutions(p), p.to_text()
            switched += "escalated_at" in result.extra
            contacts_seen += result.extra.get("contacts", 0) > 0
    assert switched > 10 and contacts_seen >= 3  # some switched models did get contact Booleans


def _ring() -> tuple[Nurikabe, frozenset]:
    """Four 1s in a diamond round (2, 2) touch pairwise at corners (a cycle of four, no triangle);
    1s in the board's corners leave every 2x2 block an unshaded cell: the one candidate walls off
    (2, 2), so the board has no answer."""
    p = Nurikabe(
        5, 5, numbers={cell: 1 for cell in [(1, 2), (2, 1), (2, 3), (3, 2), (0, 0), (0, 4), (4, 0), (4, 4)]}
    )
    only = frozenset(c for c in p.grid.all_cells if c not in p.clue_cells)
    assert {v.rule for v in p.verify(only)} == {Rule.WALL_SPLIT}
    # every other cell borders a 1, so it is wall in any answer: `only` is the one candidate
    assert all(any(nb in p.clue_cells for nb in p.grid.neighbours4(c)) for c in only)
    return p, only


@needs_mip
def test_the_mip_ranks_rule_out_a_ring_of_islands_the_triangles_miss():
    import highspy

    from puzzlebench.solvers.highs_backend import _new_highs, load_model

    p, _ = _ring()
    for contacts, feasible in (("forest", True), ("acyclic", False)):
        h = _new_highs()
        # (no wall rules: "a wall cell has a wall neighbour" alone rules out the lone (2, 2))
        load_model(h, _model(p, islands="owners", contacts=contacts, wall_rules="none"))
        h.run()
        # the triangle rows leave the ring to a lazy cycle row; the ranks rule it out in the model
        assert (h.getModelStatus() == highspy.HighsModelStatus.kOptimal) == feasible, contacts


@needs_cp
def test_the_ranks_rule_out_a_ring_of_islands_the_triangles_miss():
    from ortools.sat.python import cp_model

    from puzzlebench.encodings.cp import nurikabe as cp_nurikabe
    from puzzlebench.encodings.islands import planned

    p, _ = _ring()
    spec = registry.get("nurikabe", "cp", "default")
    for acyclic, feasible in ((False, True), (True, False)):
        art, owns = cp_nurikabe._build(p, {**spec.resolve({"islands": "levels"}), "escalate": 0})
        cp_nurikabe._contacts(art.model, p, planned(p, "search"), owns, acyclic=acyclic)
        status = cp_model.CpSolver().solve(art.model)
        # the triangles alone leave the ring to the lazy cuts; the ranks rule it out in the model
        assert (status in (cp_model.OPTIMAL, cp_model.FEASIBLE)) == feasible, acyclic
