"""Hitori's deductions: the sound consequences of the Latin rule beside the adjacency rule
(:mod:`puzzlebench.encodings.latin`): ``a x a`` leaves x unshaded, ``a a .. a`` shades the lone a."""

from __future__ import annotations

from ..deduce import Deductions, register_deducer
from ..encodings.latin import forced_shaded, forced_unshaded
from ..model import Hitori, Puzzle


def rules(puzzle: Puzzle) -> Deductions:
    assert isinstance(puzzle, Hitori)
    white, black = forced_unshaded(puzzle), forced_shaded(puzzle)
    both = white & black
    settled = {**{cell: False for cell in white}, **{cell: True for cell in black}}
    clash = f"cell {min(both)} is both forced shaded and unshaded" if both else None
    return Deductions("rules", settled, {}, clash)


register_deducer("hitori", "rules", rules, "a x a: x unshaded; a a .. a: the lone a shaded", default=True)
