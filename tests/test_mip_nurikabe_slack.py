"""HiGHS's lean presolve (backend option ``presolve_rules``) for MIP Nurikabe, whose lazy cut rows
are presolved again every round: the answers against brute force and the published janko answers,
and which rules each setting switches off."""

from __future__ import annotations

import random

import pytest

from bruteforce import assert_enumerates_brute_force
from puzzlebench import registry
from puzzlebench.encodings.mip.common import MipModel
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, Nurikabe, family_spec
from puzzlebench.solvers import solve
from puzzlebench.solvers.highs_backend import LEAN_RULES_OFF, HighsBackend

pytestmark = pytest.mark.skipif("mip" not in registry.available(), reason="highspy is not installed")


def _boards() -> list[Nurikabe]:
    rng = random.Random(4013)
    make = family_spec("nurikabe").random_board
    boards = [make(rng, *shape) for shape in [(3, 3), (3, 4), (4, 4), (3, 5), (2, 5)] * 3]
    # an island that must bend around another, and a '?' beside a number
    return boards + [
        Nurikabe(4, 4, numbers={(0, 0): 5, (3, 3): 1}),
        Nurikabe(3, 4, numbers={(0, 3): 3, (2, 0): 1}, unknown=frozenset({(0, 0), (2, 2)})),
    ]


@pytest.mark.parametrize("rules", ["all", "lean"])
def test_each_presolve_setting_finds_exactly_the_brute_force_answers(rules):
    for p in _boards():
        assert_enumerates_brute_force(p, "mip", presolve_rules=rules)


def _rules_off(model: MipModel, rules: str) -> int:
    backend = HighsBackend({"presolve_rules": rules})
    backend.build(model, None)
    try:
        value = backend._highs.getOptionValue("presolve_rule_off")
        return value[1] if isinstance(value, tuple) else value
    finally:
        backend.close()


def test_lean_switches_off_its_rules_and_auto_follows_the_encoding():
    spec = registry.get("nurikabe", "mip")
    nurikabe = spec.build(Nurikabe(3, 3, numbers={(0, 0): 2, (2, 2): 1}), spec.resolve({}))
    assert nurikabe.presolve_rules == "lean"  # the Nurikabe encoding asks for it
    plain = MipModel()
    plain.binary()
    assert plain.presolve_rules == "all"  # other encodings keep every rule unless they ask
    assert _rules_off(plain, "lean") == LEAN_RULES_OFF
    assert _rules_off(plain, "all") == 0
    assert _rules_off(plain, "auto") == 0
    assert _rules_off(nurikabe, "auto") == LEAN_RULES_OFF
    assert _rules_off(nurikabe, "all") == 0


# boards that need many rounds of island and wall cuts (14x24, 10x18, 8x12)
@pytest.mark.parametrize("record", ["18_14x24", "163_10x18", "490_8x12"])
def test_janko_records_get_their_published_answer_proven_unique_with_lean_presolve(janko_dir, record):
    entry = next(
        e for e in iter_janko(janko_dir / "Nurikabe_dataset.json", Family("nurikabe"), []) if e.id == record
    )
    result = solve(entry.puzzle, "mip", count=2, timeout=120, presolve_rules="lean")
    assert result.exhausted and len(result.solutions) == 1
    assert result.solutions[0] == entry.solution


def test_the_wall_part_rows_find_exactly_the_brute_force_answers():
    # the default's lazy wall connectivity: a cut-off wall part gets one row (wall_cut=part)
    assert registry.get("nurikabe", "mip").settings["wall_cut"] == "part"
    for p in _boards():
        assert_enumerates_brute_force(p, "mip", connectivity="lazy")


def _key(cut) -> tuple:
    return tuple(sorted(cut.expr.terms.items())), cut.expr.constant, cut.lower, cut.upper


def test_a_part_row_excludes_exactly_the_points_its_cell_clauses_exclude():
    # random candidates; on random 0/1 points, the wall-part rows (the default's fixed setting
    # wall_cut=part) hold exactly when the one-clause-per-cell cuts (wall_cut=cell, the reference
    # here, reached through the build) do
    spec = registry.get("nurikabe", "mip")
    options = spec.resolve({})
    checked = 0
    for p in _boards():
        by_cell = spec.build(p, {**options, "wall_cut": "cell"})
        by_part = spec.build(p, {**options, "wall_cut": "part"})
        cells = sorted(by_cell.decision)
        rng = random.Random(len(cells) * 7919 + p.rows * 31 + p.cols)
        for _ in range(100):
            marked = frozenset(c for c in cells if rng.random() < 0.6)
            cell_cuts = by_cell.lazy(marked)
            island_rows = {_key(c) for c in cell_cuts if not isinstance(c, list)}
            clauses = [c for c in cell_cuts if isinstance(c, list)]
            part_cuts = by_part.lazy(marked)
            rows = [c for c in part_cuts if not isinstance(c, list) and _key(c) not in island_rows]
            fallback = [c for c in part_cuts if isinstance(c, list)]
            if fallback:  # no fault the rule names: both give the cell cuts
                assert fallback == clauses and not rows
                continue
            if not clauses:
                assert not rows
                continue
            assert rows
            for _ in range(20):
                point = frozenset(c for c in cells if rng.random() < 0.5)
                value = {by_part.decision[c]: float(c in point) for c in cells}
                holds_clauses = all(
                    any((cell in point) == positive for cell, positive in clause) for clause in clauses
                )
                holds_rows = all(
                    r.lower <= r.expr.constant + sum(k * value[col] for col, k in r.expr.terms.items())
                    for r in rows
                )
                assert holds_clauses == holds_rows, (p.to_text(), sorted(marked), sorted(point))
                checked += 1
    assert checked > 100
