"""SAT encodings (python-sat): one module per family, shared CNF helpers in ``common``."""

from __future__ import annotations

from ..base import EncodingSpec
from . import hitori, kuromasu, lightbulbs, lightup, nurikabe
from .common import CnfModel

ENCODINGS: list[EncodingSpec] = [
    *lightup.SPECS,
    *kuromasu.SPECS,
    *lightbulbs.SPECS,
    *hitori.SPECS,
    *nurikabe.SPECS,
]

__all__ = ["ENCODINGS", "CnfModel"]
