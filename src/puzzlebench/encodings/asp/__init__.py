"""ASP (clingo) encodings: ``.lp`` rule files as package data, puzzles written as facts.

Every program ``#show``-s only its answer predicate (bulb/2, black/2, lit/2; lightbulb/2 and
black/2 1-based in seed 000's ports), on which the clingo backend projects when enumerating.
"""

from __future__ import annotations

from ..base import EncodingSpec
from . import hitori, kuromasu, lightbulbs, lightup, nurikabe
from .program import AspProgram, load

__all__ = ["AspProgram", "ENCODINGS", "load"]

ENCODINGS: list[EncodingSpec] = [
    *lightup.ENCODINGS,
    *kuromasu.ENCODINGS,
    *lightbulbs.ENCODINGS,
    *hitori.ENCODINGS,
    *nurikabe.ENCODINGS,
]
