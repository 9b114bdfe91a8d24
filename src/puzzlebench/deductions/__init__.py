"""The built-in families' deductions, one module per family, each registered with
:func:`puzzlebench.deduce.register_deducer` (an outside family registers its own the same way)."""

from . import hitori, kuromasu, lightbulbs, lightup, nurikabe

__all__ = ["hitori", "kuromasu", "lightbulbs", "lightup", "nurikabe"]
