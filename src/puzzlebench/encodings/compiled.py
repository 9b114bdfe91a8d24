"""The encodings' compiled engines (numba): whether one is ready, and compiling them all.

``python -m puzzlebench.encodings.compiled`` compiles every engine once into numba's cache beside
its source (``make setup`` runs it): a solve never pays for the first compile, since ``auto``
engines run their readable reference until the compiled one is ready
(:func:`compiled_ready`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any


def compiled_ready(*entries: Any) -> bool:
    """Whether the numba functions ``entries`` are compiled, in this process or in numba's cache
    for their source. (The cache is read through numba's private ``_cache``; if that ever
    changes, this says no and the engines run their readable reference, as where numba is
    missing.)"""
    try:
        return all(fn.signatures for fn in entries) or all(
            fn._cache._cache_file._load_index() for fn in entries
        )
    except Exception:  # numba's private cache API changed
        return False


def load(find: Callable[[], Any]) -> None:
    """An encoding's ``load`` (:attr:`~puzzlebench.encodings.base.EncodingSpec.load`): the engine
    module ``find`` returns (None: the readable one runs) read from numba's cache before the
    solve's clock starts, by its ``warm_up``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (the solve's own probe warns)
        jit = find()
    if jit is not None:
        jit.warm_up()


def warm_up() -> None:
    """Compile every engine (or load it from numba's cache)."""
    from . import nurikabe_probe_compiled
    from .mip import kuromasu_probe_compiled

    kuromasu_probe_compiled.warm_up()
    nurikabe_probe_compiled.warm_up()


if __name__ == "__main__":
    warm_up()
