"""The one registry: paradigms, their solvers, and family x paradigm x encoding -> specification.

A *paradigm* is a way of stating the rules (ASP, SMT, SAT, CP, MIP); it names the package that
declares its built-in encodings (``ENCODINGS`` in ``puzzlebench.encodings.<paradigm>``) and its
default solver. A *solver* reads that statement: a backend class (the thin adapter of
:mod:`puzzlebench.solvers.base`) plus the settings that make it that solver (python-sat's
``glucose4``, clingo's ``crafty`` configuration). An encoding belongs to a paradigm and runs on
every solver of it.

The built-ins are declared below, once. Researchers add their own through the same calls
(:func:`register_paradigm`, :func:`register_solver`, :func:`register_encoding`), in a notebook
cell, a module passed as ``--plugin`` (or listed in ``PUZZLEBENCH_PLUGINS``), or a package's
``puzzlebench.plugins`` entry point; plugins are loaded on first use of the registry, in the
main process and in every isolated worker alike (:mod:`puzzlebench.plugins`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .encodings.base import EncodingSpec, Option
from .errors import EncodingError, SolverUnavailable
from .model import Family

if TYPE_CHECKING:
    from .solvers.base import Backend


@dataclass(frozen=True)
class ParadigmSpec:
    """A paradigm: where its built-in encodings are declared and which solver runs by default."""

    name: str
    description: str
    default_solver: str
    encodings_module: str | None = None
    #: Peers are measured beside the paradigms but not part of the default comparison.
    peer: bool = False


@dataclass(frozen=True)
class SolverSpec:
    """A solver of one paradigm: a backend class and the settings that make it this solver."""

    name: str
    paradigm: str
    backend: str | type[Backend]  # "module:Class", imported on first use, or the class itself
    description: str = ""
    settings: Mapping[str, Any] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()

    def backend_class(self) -> type[Backend]:
        if not isinstance(self.backend, str):
            return self.backend
        cls = _import(self.backend)
        if cls is None:
            raise SolverUnavailable(
                f"solver {self.name!r}: its backend module {self.backend.partition(':')[0]} is missing"
            )
        return cls

    def supported(self) -> bool:
        return self.unavailable_reason() is None

    def unavailable_reason(self) -> str | None:
        """Why this solver cannot run here (for skips and errors), or None."""
        try:
            cls = self.backend_class()
        except SolverUnavailable as exc:
            return str(exc)
        except ImportError as exc:  # the backend module imports a library that is missing
            return f"solver {self.name!r}: {exc}"
        return cls.unavailable_reason_for(self.settings)

    def version(self) -> str:
        try:
            return self.backend_class().solver_version(self.settings)
        except Exception:  # a version string is best effort; the run does not depend on it
            return "unknown"


# -- the built-ins ------------------------------------------------------------------------------
_PARADIGMS: dict[str, ParadigmSpec] = {}
_SOLVERS: dict[str, dict[str, SolverSpec]] = {}
#: encodings registered at run time (plugins, notebooks), by key
_USER_ENCODINGS: dict[tuple[str, str, str], EncodingSpec] = {}
_DECLARED: dict[str, dict[tuple[str, str, str], EncodingSpec]] = {}


def register_paradigm(
    name: str,
    description: str,
    default_solver: str,
    encodings_module: str | None = None,
    *,
    peer: bool = False,
) -> ParadigmSpec:
    """Add a paradigm (its solvers and encodings are registered separately)."""
    spec = ParadigmSpec(name, description, default_solver, encodings_module, peer)
    _PARADIGMS[name] = spec
    _SOLVERS.setdefault(name, {})
    _DECLARED.pop(name, None)
    return spec


def register_solver(
    name: str,
    paradigm: str,
    backend: str | type[Backend],
    description: str = "",
    settings: Mapping[str, Any] | None = None,
    aliases: Iterable[str] = (),
) -> SolverSpec:
    """Add a solver to a paradigm: a backend class (or ``"module:Class"``) and its settings."""
    if paradigm not in _PARADIGMS:
        raise EncodingError(
            f"register_solver({name!r}): unknown paradigm {paradigm!r} (choose from {', '.join(_PARADIGMS)})"
        )
    spec = SolverSpec(name, paradigm, backend, description, dict(settings or {}), tuple(aliases))
    _SOLVERS[paradigm][name] = spec
    return spec


_BUILTIN_PARADIGMS = (
    ("asp", "answer set programming (clingo)", "clingo", "puzzlebench.encodings.asp", False),
    ("smt", "satisfiability modulo theories (z3, cvc5)", "z3", "puzzlebench.encodings.smt", False),
    ("sat", "propositional satisfiability (python-sat)", "cadical195", "puzzlebench.encodings.sat", False),
    ("cp", "constraint programming (OR-Tools CP-SAT)", "cpsat", "puzzlebench.encodings.cp", False),
    ("mip", "mixed-integer programming (HiGHS)", "highs", "puzzlebench.encodings.mip", False),
    ("minizinc", "MiniZinc models on MiniZinc's solvers", "gecode", "puzzlebench.encodings.minizinc", True),
    (
        "puzzlekit",
        "puzzlekit's own CP-SAT models (a peer)",
        "puzzlekit",
        "puzzlebench.encodings.puzzlekit",
        True,
    ),
)
for _name, _description, _default, _module, _peer in _BUILTIN_PARADIGMS:
    register_paradigm(_name, _description, _default, _module, peer=_peer)

# ASP: clingo, and clasp's preset configurations as solvers of their own.
register_solver(
    "clingo",
    "asp",
    "puzzlebench.solvers.clingo_backend:ClingoBackend",
    "clingo, clasp's default configuration",
)
for _config in ("frumpy", "jumpy", "tweety", "trendy", "crafty", "handy"):
    register_solver(
        f"clingo-{_config}",
        "asp",
        "puzzlebench.solvers.clingo_backend:ClingoBackend",
        f"clingo with --configuration={_config}",
        {"configuration": _config},
    )
# SMT: z3 through its API; cvc5 on the same assertions (z3's terms translated to cvc5's).
register_solver("z3", "smt", "puzzlebench.solvers.z3_backend:Z3Backend", "z3 through its Python API")
register_solver(
    "cvc5",
    "smt",
    "puzzlebench.solvers.cvc5_backend:Cvc5Backend",
    "cvc5 (PyPI cvc5) on the encodings' z3 terms, translated",
)
# SAT: every python-sat solver, by its canonical name (its aliases accepted too).
_PYSAT_SOLVERS = (
    ("cadical195", "CaDiCaL 1.9.5 (IPASIR-UP external propagators)"),
    ("cadical153", "CaDiCaL 1.5.3"),
    ("cadical103", "CaDiCaL 1.0.3"),
    ("glucose42", "Glucose 4.2.1"),
    ("glucose4", "Glucose 4.1"),
    ("glucose3", "Glucose 3.0"),
    (
        "lingeling",
        "Lingeling (its python-sat binding cannot be interrupted: the deadline is enforced between calls)",
    ),
    ("maplechrono", "MapleLCMDistChronoBT"),
    ("maplecm", "MapleCM"),
    ("maplesat", "MapleCOMSPS_LRB"),
    ("mergesat3", "MergeSat 3"),
    ("minisat22", "MiniSat 2.2"),
    ("minisatgh", "MiniSat (GitHub version)"),
    ("minicard", "Minicard 1.2 (MiniSat 2.2 with native cardinality constraints)"),
    ("gluecard3", "Gluecard 3.0 (native cardinality constraints)"),
    ("gluecard4", "Gluecard 4.1 (native cardinality constraints)"),
)
for _name, _description in _PYSAT_SOLVERS:
    register_solver(
        _name,
        "sat",
        "puzzlebench.solvers.pysat_backend:PysatBackend",
        _description,
        {"solver": {"minisatgh": "minisat-gh"}.get(_name, _name)},
    )
# CP: CP-SAT (MiniZinc's solvers run MiniZinc models, under the minizinc paradigm).
register_solver(
    "cpsat", "cp", "puzzlebench.solvers.cpsat_backend:CpSatBackend", "OR-Tools CP-SAT, one worker by default"
)
# MIP: HiGHS.
register_solver("highs", "mip", "puzzlebench.solvers.highs_backend:HighsBackend", "HiGHS through highspy")
# MiniZinc's solvers (Debian's minizinc ships Gecode; others when installed).
for _name, _description in (
    ("gecode", "Gecode through the minizinc driver"),
    ("chuffed", "Chuffed through the minizinc driver"),
    ("cp-sat", "OR-Tools CP-SAT through the minizinc driver"),
):
    register_solver(
        _name,
        "minizinc",
        "puzzlebench.solvers.minizinc_backend:MiniZincBackend",
        _description,
        {"solver": _name},
    )
register_solver(
    "puzzlekit",
    "puzzlekit",
    "puzzlebench.solvers.puzzlekit_backend:PuzzlekitBackend",
    "puzzlekit 0.3.4's CP-SAT models",
)


def _import(path: str):
    module, _, attr = path.partition(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise
    return getattr(mod, attr) if attr else mod


# -- lookups ------------------------------------------------------------------------------------
def _plugins() -> None:
    from . import plugins

    plugins.load_all()


def paradigms(*, peers: bool = True) -> tuple[str, ...]:
    """Registered paradigms in display order (``peers=False``: the compared ones only)."""
    _plugins()
    return tuple(p for p, spec in _PARADIGMS.items() if peers or not spec.peer)


def paradigm(name: str) -> ParadigmSpec:
    _plugins()
    spec = _PARADIGMS.get(name)
    if spec is None:
        raise EncodingError(f"unknown paradigm {name!r} (choose from {', '.join(_PARADIGMS)})")
    return spec


def solvers(paradigm_name: str | None = None) -> list[SolverSpec]:
    """Registered solvers (of one paradigm), the default first within each paradigm."""
    _plugins()
    out = []
    for p in [paradigm_name] if paradigm_name else list(_PARADIGMS):
        default = paradigm(p).default_solver
        out.extend(sorted(_SOLVERS.get(p, {}).values(), key=lambda s: s.name != default))
    return out


def solver(paradigm_name: str, name: str | None = None) -> SolverSpec:
    """The solver ``name`` of a paradigm (its default when None), accepting aliases."""
    par = paradigm(paradigm_name)
    name = name or par.default_solver
    table = _SOLVERS.get(paradigm_name, {})
    spec = table.get(name) or next((s for s in table.values() if name in s.aliases), None)
    if spec is None and paradigm_name == "sat":
        spec = _pysat_alias(name, table)
    if spec is None:
        raise EncodingError(f"no {paradigm_name} solver {name!r} (available: {', '.join(table) or 'none'})")
    return spec


def _pysat_alias(name: str, table: Mapping[str, SolverSpec]) -> SolverSpec | None:
    """python-sat's own aliases (``g4``, ``cd19``, ...) for the registered SAT solvers."""
    try:
        from pysat.solvers import SolverNames
    except ImportError:
        return None
    for canonical, aliases in vars(SolverNames).items():
        if not canonical.startswith("_") and name in aliases and canonical in table:
            return table[canonical]
    return None


def _declared(paradigm_name: str) -> dict[tuple[str, str, str], EncodingSpec]:
    """The built-in encodings of one paradigm (its package imported on first use only, so that a
    run in one paradigm never pays for importing another's solver library)."""
    table = _DECLARED.get(paradigm_name)
    if table is not None:
        return table
    table = {}
    module = paradigm(paradigm_name).encodings_module
    mod = _import(module) if module else None
    for spec in getattr(mod, "ENCODINGS", ()) if mod else ():
        if spec.paradigm != paradigm_name:
            raise EncodingError(f"{module} declares {spec.key} under the wrong paradigm")
        if spec.key in table:
            raise EncodingError(f"encoding {spec.key} is declared twice")
        table[spec.key] = spec
    _DECLARED[paradigm_name] = table
    return table


def _all(paradigm_name: str | None = None) -> dict[tuple[str, str, str], EncodingSpec]:
    names = [paradigm_name] if paradigm_name is not None else list(paradigms())
    table: dict[tuple[str, str, str], EncodingSpec] = {}
    for name in names:
        if name in _PARADIGMS:
            table.update(_declared(name))
    table.update({k: v for k, v in _USER_ENCODINGS.items() if paradigm_name is None or k[1] == paradigm_name})
    return table


def encodings(family: Family | str | None = None, paradigm: str | None = None) -> list[EncodingSpec]:
    """Registered encodings, optionally filtered, in family/paradigm/name order."""
    fam = Family(family) if family is not None else None
    order = {p: i for i, p in enumerate(paradigms())}
    specs = [s for s in _all(paradigm).values() if fam is None or s.family == fam]
    return sorted(
        specs, key=lambda s: (s.family.value, order.get(s.paradigm, 99), s.name != "default", s.name)
    )


def get(family: Family | str, paradigm_name: str, name: str = "default") -> EncodingSpec:
    """The encoding ``name`` of ``paradigm`` for ``family``, or a clear error listing the choices.

    ``name`` may also be the path of an encoding file (ASP ``.lp``, MiniZinc ``.mzn``): it is
    read on every call, so an edited file takes effect on the next solve.
    """
    fam = Family(family)
    paradigm(paradigm_name)
    from .encodings import files

    if files.is_encoding_file(name):
        return files.file_encoding(fam, paradigm_name, name)
    spec = _all(paradigm_name).get((fam.value, paradigm_name, name))
    if spec is None:
        names = sorted(s.name for s in encodings(fam, paradigm_name))
        raise EncodingError(
            f"no {paradigm_name} encoding {name!r} for {fam}"
            + (f" (available: {', '.join(names)})" if names else "")
        )
    return spec


def available(names: Iterable[str] | None = None) -> list[str]:
    """The paradigms among ``names`` (default: the compared ones) whose default solver is usable."""
    out = []
    for p in paradigms(peers=False) if names is None else names:
        try:
            if solver(p).supported():
                out.append(p)
        except EncodingError:
            pass
    return out


def backend(paradigm_name: str) -> type[Backend]:
    """The backend class of a paradigm's default solver."""
    return solver(paradigm_name).backend_class()


# -- researchers' own encodings -----------------------------------------------------------------
def register_encoding(
    family: Family | str,
    paradigm: str,
    name: str,
    build: Callable[..., Any] | None = None,
    *,
    description: str = "",
    options: Iterable[Option] = (),
    complete: bool = True,
    origin: str = "user",
    reference: str = "",
    replace: bool = True,
) -> Any:
    """Register a Python encoding builder ``build(puzzle, options) -> artefact``.

    Called with ``build`` it registers and returns the :class:`EncodingSpec`; without, it is a
    decorator that registers the function and returns it unchanged. ``options`` are
    :class:`Option` axes (``relaxing`` values mark the encoding incomplete), ``complete=False``
    marks a relaxation whatever its options. ``puzzlebench encodings --schema FAMILY PARADIGM``
    prints what the artefact must contain.
    """
    fam = Family(family)
    if paradigm not in _PARADIGMS:
        raise EncodingError(
            f"register_encoding: unknown paradigm {paradigm!r} (choose from {', '.join(_PARADIGMS)})"
        )

    def add(fn: Callable[..., Any]) -> EncodingSpec:
        key = (fam.value, paradigm, name)
        if not replace and (key in _USER_ENCODINGS or key in _declared(paradigm)):
            raise EncodingError(f"encoding {key} is already registered")
        if key in _declared(paradigm):
            raise EncodingError(f"{paradigm}/{name} for {fam} is a built-in encoding; choose another name")
        spec = EncodingSpec(
            family=fam,
            paradigm=paradigm,
            name=name,
            build=fn,
            description=description or (fn.__doc__ or "").strip(),
            origin=origin,
            reference=reference,
            options=tuple(options),
            complete=complete,
        )
        _USER_ENCODINGS[key] = spec
        return spec

    if build is not None:
        return add(build)

    def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
        add(fn)
        return fn

    return decorator


def unregister_encoding(family: Family | str, paradigm: str, name: str) -> None:
    """Forget a registered (non built-in) encoding."""
    _USER_ENCODINGS.pop((Family(family).value, paradigm, name), None)


def user_encodings() -> list[EncodingSpec]:
    """The encodings registered at run time (plugins, notebook cells), for isolated workers."""
    return list(_USER_ENCODINGS.values())


_BUILTIN_SOLVERS = {(s.paradigm, s.name) for table in _SOLVERS.values() for s in table.values()}


def shipped(family: Family | str, paradigm_name: str, encoding: str, solver_name: str) -> list[str]:
    """What a worker process needs to run this configuration that it cannot import by itself:
    the run-time registered encoding and solver (e.g. defined in a notebook cell), pickled by
    value with cloudpickle and base64-encoded. Empty for built-ins and file encodings."""
    items: list[Any] = []
    spec = _USER_ENCODINGS.get((Family(family).value, paradigm_name, encoding))
    if spec is not None:  # with the parent's content hash: the worker may not see the builder's file
        items.append(replace(spec, source_hash=spec.content_hash()))
    table = _SOLVERS.get(paradigm_name, {})
    if solver_name in table and (paradigm_name, solver_name) not in _BUILTIN_SOLVERS:
        items.append(table[solver_name])
    if paradigm_name in _PARADIGMS and paradigm_name not in {p[0] for p in _BUILTIN_PARADIGMS}:
        items.insert(0, _PARADIGMS[paradigm_name])
    if not items:
        return []
    import base64

    import cloudpickle

    return [base64.b64encode(cloudpickle.dumps(item)).decode("ascii") for item in items]


def receive(payloads: Iterable[str]) -> None:
    """Register what :func:`shipped` packed (in a worker process)."""
    import base64
    import pickle

    for payload in payloads:
        item = pickle.loads(base64.b64decode(payload))
        if isinstance(item, ParadigmSpec):
            if item.name not in _PARADIGMS:
                register_paradigm(
                    item.name, item.description, item.default_solver, item.encodings_module, peer=item.peer
                )
        elif isinstance(item, SolverSpec):
            _SOLVERS.setdefault(item.paradigm, {})[item.name] = item
        elif isinstance(item, EncodingSpec):
            _USER_ENCODINGS[item.key] = item


#: Kept for code that reads the paradigm tuples directly (the compared ones, and the peers).
PARADIGMS: tuple[str, ...] = ("asp", "smt", "sat", "cp", "mip")
PEERS: tuple[str, ...] = ("minizinc", "puzzlekit")
