"""SAT encodings (python-sat): one module per family, shared CNF helpers in ``common``."""

from __future__ import annotations

from ..base import EncodingSpec
from . import hitori, kuromasu, lightbulbs, lightup
from .common import CnfModel

ENCODINGS: list[EncodingSpec] = [*lightup.SPECS, *kuromasu.SPECS, *lightbulbs.SPECS, *hitori.SPECS]

__all__ = ["ENCODINGS", "CnfModel"]
