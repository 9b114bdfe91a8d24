"""Kuromasu's deductions: every number's feasible views (its four ray lengths) revised against
the board and each other until nothing changes, the cells they settle, and failed-literal
probing on cells, ray lengths and whole views (:mod:`puzzlebench.encodings.mip.kuromasu_probe`).
The feasible views are handed on as the fact ``views`` (MIP's view rows are built from them)."""

from __future__ import annotations

from ..deduce import Deductions, register_deducer
from ..encodings.mip.kuromasu_probe import Views, load_engine
from ..model import Kuromasu, Puzzle

#: A number's views are probed one by one while it has at most this many.
WHOLE_VIEWS = 200


def _deductions(name: str, views: Views) -> Deductions:
    return Deductions(name, dict(views.colour), {"views": views}, views.contradiction)


def views(puzzle: Puzzle) -> Deductions:
    assert isinstance(puzzle, Kuromasu)
    return _deductions("views", Views(puzzle))


def probe(puzzle: Puzzle) -> Deductions:
    assert isinstance(puzzle, Kuromasu)
    return _deductions("probe", Views(puzzle, probe=True, whole_views=WHOLE_VIEWS))


register_deducer(
    "kuromasu",
    "views",
    views,
    "each number's feasible views revised to a fixpoint, and the cells they settle",
    load=load_engine,
)
register_deducer(
    "kuromasu",
    "probe",
    probe,
    "views, then failed-literal probing of cells, ray lengths and each number's whole views",
    reference="failed-literal probing: Freeman, 1995; Le Berre, SAT 2001",
    default=True,
    load=load_engine,
)
