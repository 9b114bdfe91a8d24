"""MIP Nurikabe's lazy rounds: the separator cuts (``cuts=separator``) against brute force, each
cut checked against every true answer, and the janko records with '?' clues."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bruteforce import all_solutions, planted_nurikabe
from puzzlebench import registry
from puzzlebench.encodings.mip import nurikabe as mip_nurikabe
from puzzlebench.encodings.mip.common import Cut, Var
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe, Rule, family_spec
from puzzlebench.solvers import solve

pytestmark = pytest.mark.skipif("mip" not in registry.available(), reason="highspy is not installed")


def _boards() -> list[Nurikabe]:
    rng = random.Random(2026)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (4, 4), (3, 5), (4, 4), (2, 5)] * 3]
    # a number whose island must bend around another; a '?' beside numbers; two '?' islands
    return boards + [
        Nurikabe(4, 4, numbers={(0, 0): 5, (3, 3): 1}),
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})),
        Nurikabe(4, 4, numbers={(0, 0): 4}, unknown=frozenset({(3, 3), (1, 2)})),
    ]


def _options(islands: str, connectivity: str) -> dict:
    """The default's options and fixed settings (cuts=separator) with these two options."""
    spec = registry.get("nurikabe", "mip")
    assert spec.settings["cuts"] == "separator"
    return spec.resolve({"islands": islands, "connectivity": connectivity})


@pytest.mark.parametrize("islands", ["owners", "hybrid"])
@pytest.mark.parametrize("connectivity", ["lazy", "flow"])
def test_separator_cuts_find_exactly_the_brute_force_answers(monkeypatch, islands, connectivity):
    # the levels' budget (the fixed setting levels) at 4, as it runs out on large boards: the
    # hybrid's islands without levels are left to the separator cuts
    spec = registry.get("nurikabe", "mip")
    monkeypatch.setitem(spec.settings, "levels", 4)
    for p in _boards():
        result = solve(p, "mip", count=0, timeout=60, islands=islands, connectivity=connectivity)
        assert result.exhausted
        assert {s.cells for s in result.solutions} == all_solutions(p), p.to_text()


def _feasible_with(model, wall_cells: frozenset, cut: Cut) -> bool:
    """Whether the model, its decision cells fixed to an answer, still has a point with ``cut`` added."""
    import highspy

    from puzzlebench.solvers.highs_backend import _new_highs

    h = _new_highs()
    lower, upper = np.array(model.col_lower), np.array(model.col_upper)
    for cell, col in model.decision.items():
        lower[col] = upper[col] = 1.0 if cell in wall_cells else 0.0
    h.addVars(model.num_cols, lower, upper)
    ints = np.flatnonzero(np.array(model.integer)).astype(np.int32)
    h.changeColsIntegrality(len(ints), ints, np.ones(len(ints), dtype=np.uint8))
    h.addRows(
        model.num_rows,
        np.array(model.row_lower),
        np.array(model.row_upper),
        model.num_nonzeros,
        np.array(model.starts[:-1], dtype=np.int32),
        np.array(model.index, dtype=np.int32),
        np.array(model.value),
    )
    entries = [(col, coef) for col, coef in cut.expr.terms.items() if coef]
    h.addRow(
        cut.lower - cut.expr.constant,
        cut.upper - cut.expr.constant,
        len(entries),
        np.array([c for c, _ in entries], dtype=np.int32),
        np.array([v for _, v in entries]),
    )
    h.setOptionValue("presolve", "off")
    h.run()
    return h.getModelStatus() == highspy.HighsModelStatus.kOptimal


def _holds(clause, wall_cells: frozenset) -> bool:
    return any((cell in wall_cells) == positive for cell, positive in clause)


# part: the default's fixed setting (a cut-off wall part's one row); cell: its clause per cell,
# which the part rule falls back to, reached through the build
@pytest.mark.parametrize("wall_cut, clauses", [("part", 20), ("cell", 50)])
@pytest.mark.slow
def test_every_separator_cut_keeps_every_true_answer(wall_cut, clauses):
    rng = random.Random(5)
    checked_rows = checked_clauses = 0
    for p in _boards():
        answers = all_solutions(p)
        if not answers:
            continue
        model = mip_nurikabe.build_default(p, {**_options("owners", "lazy"), "wall_cut": wall_cut})
        free = sorted(model.decision)
        for _ in range(12):  # random candidates: most break a rule somewhere
            marked = frozenset(cell for cell in free if rng.random() < 0.5)
            for cut in model.lazy(marked):
                for answer in answers:
                    if isinstance(cut, Cut):
                        assert _feasible_with(model, answer, cut), (p.to_text(), sorted(marked), cut)
                        checked_rows += 1
                    else:
                        assert _holds(cut, answer), (p.to_text(), sorted(marked), cut)
                        checked_clauses += 1
    assert checked_rows > 50 and checked_clauses > clauses


def test_a_candidate_is_cut_exactly_when_the_verifier_rejects_it():
    rng = random.Random(9)
    cut_off = 0
    for p in _boards():
        model = mip_nurikabe.build_default(p, _options("owners", "lazy"))
        free = sorted(model.decision)
        for _ in range(20):
            marked = frozenset(cell for cell in free if rng.random() < 0.4)
            # the 2x2 rule and the counts are rows, not cuts: judge only the rules left to the cuts
            faults = {v.rule for v in p.verify(marked)} - {Rule.WALL_2X2, Rule.ISLAND_SIZE_WRONG}
            cuts = model.lazy(marked)
            if faults:
                assert cuts, (p.to_text(), sorted(marked), faults)
                cut_off += 1
            if not p.verify(marked):
                assert not cuts
    assert cut_off > 50


# two records with '?' clues, and two that need rounds of island and wall cuts
@pytest.mark.parametrize("record", ["726_10x10", "758_11x11", "241_10x10", "481_7x7"])
def test_janko_records_get_their_published_answer_proven_unique(janko_dir, record):
    entry = next(
        e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family("nurikabe"), []) if e.id == record
    )
    result = solve(entry.puzzle, "mip", count=2, timeout=120)
    assert result.exhausted and len(result.solutions) == 1
    assert result.solutions[0] == entry.solution


def test_the_feasibility_jump_probe_finds_exactly_the_brute_force_answers():
    hits = 0
    for p in _boards():
        result = solve(p, "mip", count=0, timeout=60, probe="jump")
        assert result.exhausted
        assert {s.cells for s in result.solutions} == all_solutions(p), p.to_text()
        hits += result.extra.get("probe_hits", 0)
    assert hits > 0  # the probe answered some of the runs itself


# -- start=repair: the previous candidate, away from the round's cut rows, as a partial MIP start --


@pytest.mark.parametrize("enumeration", ["auto", "nogood"])
def test_the_repaired_start_finds_exactly_the_brute_force_answers(enumeration):
    starts = 0
    for p in _boards():
        result = solve(p, "mip", count=0, timeout=60, start="always", enumeration=enumeration)
        assert result.exhausted
        found = [s.cells for s in result.solutions]
        assert len(found) == len(set(found)), p.to_text()
        assert set(found) == all_solutions(p), p.to_text()
        starts += result.extra.get("starts", 0)
    assert starts > 0  # some runs were handed a start


class _Recorder:
    """Stands in for the HiGHS instance: records the partial starts and forwards the rest."""

    def __init__(self, highs):
        self.highs, self.starts = highs, []

    def __getattr__(self, name):
        return getattr(self.highs, name)

    def setSolution(self, count, index, value):
        self.starts.append(dict(zip(np.asarray(index).tolist(), np.asarray(value).tolist())))
        return self.highs.setSolution(count, index, value)


@pytest.mark.parametrize("start", ["always", "repair"])
def test_the_start_is_the_candidate_away_from_the_cut_rows_and_none_after_a_block(start):
    from puzzlebench.solvers.highs_backend import HighsBackend

    p = next(
        b
        for b in planted_nurikabe(7, 20, [(5, 5)], 0.6, 25)
        if (2, 2) not in b.clue_cells and not {(1, 2), (3, 2), (2, 1), (2, 3)} & b.clue_cells
    )
    model = _model_with(p)
    backend = HighsBackend({"start": start})
    backend.build(model, None)
    try:
        recorder = _Recorder(backend._highs)
        backend._highs = recorder
        candidate = frozenset(cell for cell in model.decision if cell[0] % 2 == 0)
        backend._candidate = candidate  # as marked() leaves it
        named = (2, 2)
        backend.add_clause(Cut(Var(model.decision[named]), lower=0.0))  # a round's row naming one cell
        backend._searched = False  # repair: no start after a run that found its point without simplex
        assert backend.check(None) is True
        assert len(recorder.starts) == (1 if start == "always" else 0)
        if start == "repair":
            backend._candidate = candidate
            backend.add_clause(Cut(Var(model.decision[named]), lower=0.0))
            backend._searched = True  # the last run needed simplex iterations
            assert backend.check(None) is True
        assert len(recorder.starts) == 1
        start = recorder.starts[0]
        cell_of = {col: cell for cell, col in model.decision.items()}
        near = {named, (1, 2), (3, 2), (2, 1), (2, 3)}
        assert {cell_of[col] for col in start} == set(model.decision) - near
        assert all(value == float(cell_of[col] in candidate) for col, value in start.items())
        # a block or a run without new rows hands no start
        assert backend.check(None) is True
        backend.block(backend.marked(), list(model.decision))
        assert backend.check(None) in (True, False)
        assert len(recorder.starts) == 1
    finally:
        backend._highs = recorder.highs
        backend.close()


def test_owner_columns_name_their_cell_for_the_start():
    p = Nurikabe(5, 5, numbers={(0, 0): 4, (0, 4): 4})
    model = _model_with(p)
    assert model.cells_of  # the cells two numbers may both reach have owner columns
    assert set(model.cells_of.values()) <= set(model.decision)
    assert not set(model.cells_of) & set(model.decision.values())


def _model_with(p: Nurikabe):
    spec = registry.get("nurikabe", "mip")
    return spec.build(p, spec.resolve({}))


# records whose bare puzzle takes lazy rounds under the default's settings (962_10x10 and
# 241_10x10, formerly here, take none without the former contacts=forest and levels=3000)
@pytest.mark.parametrize("record", ["313_7x7", "353_10x10"])
def test_janko_records_with_the_repaired_start_get_their_published_answer(janko_dir, record):
    entry = next(
        e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family("nurikabe"), []) if e.id == record
    )
    # the bare puzzle: lazy rounds (the stage's plan leaves fewer)
    result = solve(entry.puzzle, "mip", count=1, timeout=120, start="always", deduce="none")
    assert result.solutions and result.solutions[0] == entry.solution
    assert result.extra.get("starts", 0) > 0
