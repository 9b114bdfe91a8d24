"""Nurikabe's deductions: the island plan (which clue may own each cell, within its number's
distance) refined by failed-literal probing of the island, wall, 2x2 and crossing rules
(:mod:`puzzlebench.encodings.nurikabe_deduce`), at depth 1 (``probe``) or 2 (``deep``). The
refined plan is handed on as the fact ``island_plan``: every encoding builds its islands on it."""

from __future__ import annotations

from ..deduce import Deductions, register_deducer
from ..encodings.islands import IslandPlan
from ..encodings.nurikabe_deduce import load_engine
from ..model import Nurikabe, Puzzle


def _deductions(name: str, plan: IslandPlan) -> Deductions:
    settled = {**{cell: True for cell in plan.wall}, **{cell: False for cell in plan.white}}
    clash = f"clues {plan.clash[0]} and {plan.clash[1]} touch" if plan.clash else None
    return Deductions(name, settled, {"island_plan": plan}, clash)


def probe(puzzle: Puzzle) -> Deductions:
    assert isinstance(puzzle, Nurikabe)
    return _deductions("probe", IslandPlan.of(puzzle, deduce=True, depth=1))


def deep(puzzle: Puzzle) -> Deductions:
    assert isinstance(puzzle, Nurikabe)
    return _deductions("deep", IslandPlan.of(puzzle, deduce=True, depth=2))


register_deducer(
    "nurikabe",
    "probe",
    probe,
    "the island plan, then failed-literal probing of the island, wall, 2x2 and crossing rules",
    reference="failed-literal probing: Freeman, 1995; Le Berre, SAT 2001",
    default=True,
    load=load_engine,
)
register_deducer(
    "nurikabe",
    "deep",
    deep,
    "probe, and probing at depth 2 (each side of a cell probed at depth 1)",
    load=load_engine,
)
