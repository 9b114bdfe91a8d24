"""MIP encodings for HiGHS: one module per family, shared model-building helpers in ``common``."""

from __future__ import annotations

from ..base import EncodingSpec
from . import hitori, kuromasu, lightbulbs, lightup, nurikabe
from .common import MipModel

ENCODINGS: list[EncodingSpec] = [
    *lightup.ENCODINGS,
    *kuromasu.ENCODINGS,
    *lightbulbs.ENCODINGS,
    *hitori.ENCODINGS,
    *nurikabe.ENCODINGS,
]

__all__ = ["ENCODINGS", "MipModel"]
