"""The one registry: family x paradigm x encoding -> specification, and paradigm -> backend.

Each paradigm's encodings are declared beside their code (``ENCODINGS`` in
``puzzlebench.encodings.<paradigm>``); this module is the only place that gathers them, and the
only place that maps a paradigm to its backend class.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING

from .encodings.base import EncodingSpec
from .errors import EncodingError
from .model import Family

if TYPE_CHECKING:
    from .solvers.base import Backend

#: The four paradigms compared by default, in display order.
PARADIGMS: tuple[str, ...] = ("asp", "smt", "sat", "cp")
#: Peers measured beside them (optional software).
PEERS: tuple[str, ...] = ("minizinc", "puzzlekit")

_BACKENDS: dict[str, str] = {
    "asp": "puzzlebench.solvers.clingo_backend:ClingoBackend",
    "smt": "puzzlebench.solvers.z3_backend:Z3Backend",
    "sat": "puzzlebench.solvers.pysat_backend:PysatBackend",
    "cp": "puzzlebench.solvers.cpsat_backend:CpSatBackend",
    "minizinc": "puzzlebench.solvers.minizinc_backend:MiniZincBackend",
    "puzzlekit": "puzzlebench.solvers.puzzlekit_backend:PuzzlekitBackend",
}

_ENCODING_MODULES: dict[str, str] = {
    "asp": "puzzlebench.encodings.asp",
    "smt": "puzzlebench.encodings.smt",
    "sat": "puzzlebench.encodings.sat",
    "cp": "puzzlebench.encodings.cp",
    "minizinc": "puzzlebench.encodings.minizinc",
    "puzzlekit": "puzzlebench.encodings.puzzlekit",
}


def _import(path: str):
    module, _, attr = path.partition(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise
    return getattr(mod, attr) if attr else mod


@lru_cache(maxsize=None)
def _declared(paradigm: str) -> dict[tuple[str, str, str], EncodingSpec]:
    """The encodings one paradigm's package declares (imported on first use only, so that a run
    in one paradigm never pays for importing another's solver library)."""
    module = _ENCODING_MODULES[paradigm]
    mod = _import(module)
    table: dict[tuple[str, str, str], EncodingSpec] = {}
    for spec in getattr(mod, "ENCODINGS", ()) if mod else ():
        if spec.paradigm != paradigm:
            raise EncodingError(f"{module} declares {spec.key} under the wrong paradigm")
        if spec.key in table:
            raise EncodingError(f"encoding {spec.key} is declared twice")
        table[spec.key] = spec
    return table


def _all(paradigm: str | None = None) -> dict[tuple[str, str, str], EncodingSpec]:
    if paradigm is not None:
        return _declared(paradigm) if paradigm in _ENCODING_MODULES else {}
    table: dict[tuple[str, str, str], EncodingSpec] = {}
    for name in _ENCODING_MODULES:
        table.update(_declared(name))
    return table


def encodings(family: Family | str | None = None, paradigm: str | None = None) -> list[EncodingSpec]:
    """Registered encodings, optionally filtered, in family/paradigm/name order."""
    fam = Family(family) if family is not None else None
    order = {p: i for i, p in enumerate(PARADIGMS + PEERS)}
    specs = [
        s for s in _all(paradigm).values()
        if fam is None or s.family == fam
    ]
    return sorted(specs, key=lambda s: (s.family.value, order.get(s.paradigm, 99), s.name != "default", s.name))


def get(family: Family | str, paradigm: str, name: str = "default") -> EncodingSpec:
    """The encoding ``name`` of ``paradigm`` for ``family``, or a clear error listing the choices."""
    fam = Family(family)
    if paradigm not in _BACKENDS:
        raise EncodingError(f"unknown paradigm {paradigm!r} (choose from {', '.join(_BACKENDS)})")
    spec = _all(paradigm).get((fam.value, paradigm, name))
    if spec is None:
        names = sorted(s.name for s in encodings(fam, paradigm))
        raise EncodingError(
            f"no {paradigm} encoding {name!r} for {fam}" + (f" (available: {', '.join(names)})" if names else "")
        )
    return spec


def backend(paradigm: str) -> type["Backend"]:
    """The backend class of a paradigm (imported on first use)."""
    if paradigm not in _BACKENDS:
        raise EncodingError(f"unknown paradigm {paradigm!r} (choose from {', '.join(_BACKENDS)})")
    cls = _import(_BACKENDS[paradigm])
    if cls is None:
        raise EncodingError(f"paradigm {paradigm!r} has no backend module yet")
    return cls


def available(paradigms: tuple[str, ...] = PARADIGMS) -> list[str]:
    """The paradigms among ``paradigms`` whose backend is installed and usable."""
    out = []
    for p in paradigms:
        try:
            if backend(p).supported():
                out.append(p)
        except EncodingError:
            pass
    return out
