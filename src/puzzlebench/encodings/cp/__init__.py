"""CP encodings for OR-Tools CP-SAT: one module per family, each declaring its ``ENCODINGS``."""

from __future__ import annotations

from ..base import EncodingSpec
from . import hitori, kuromasu, lightbulbs, lightup, nurikabe
from .common import CpModelArtifact

__all__ = ["ENCODINGS", "CpModelArtifact"]

ENCODINGS: list[EncodingSpec] = [
    *lightup.ENCODINGS,
    *kuromasu.ENCODINGS,
    *lightbulbs.ENCODINGS,
    *hitori.ENCODINGS,
    *nurikabe.ENCODINGS,
]
