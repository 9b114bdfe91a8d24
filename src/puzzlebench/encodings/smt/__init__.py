"""SMT (z3) encodings of the three families; each module declares its specifications."""

from __future__ import annotations

from ..base import EncodingSpec
from . import lightup
from .common import SmtModel

ENCODINGS: list[EncodingSpec] = [*lightup.SPECS]

__all__ = ["ENCODINGS", "SmtModel"]
