"""SMT (z3) encodings of the three families; each module declares its specifications."""

from __future__ import annotations

from ..base import EncodingSpec
from . import hitori, kuromasu, lightbulbs, lightup, nurikabe
from .common import SmtModel

ENCODINGS: list[EncodingSpec] = [
    *lightup.SPECS,
    *kuromasu.SPECS,
    *lightbulbs.SPECS,
    *hitori.SPECS,
    *nurikabe.SPECS,
]

__all__ = ["ENCODINGS", "SmtModel"]
