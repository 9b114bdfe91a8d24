"""Seeded puzzle generators with uniqueness proofs.

>>> from puzzlebench.generate import generate
>>> g = generate("lightup", 10, 10, seed=7)        # g.puzzle (meta: seed, options, difficulty), g.solution
>>> g.puzzle.meta["proof"]["count"]                 # 1: proved unique by the proof paradigm

Each family's module documents its method. Everything random comes from one
``random.Random(seed)``, so the same seed and options always give the same board. Clue removal
asks an incremental SAT oracle (``cnf``); the finished puzzle is then proved unique (or its
answers counted) with :func:`puzzlebench.solve` in a registered paradigm, whose search figures
become the puzzle's difficulty.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from ..model import Family, family_specs
from .common import Generated, GenerationError, Proof, parse_size, prove, resolve_paradigm
from .hitori import HitoriOptions
from .hitori import generate_hitori as generate_hitori
from .kuromasu import KuromasuOptions
from .kuromasu import generate_kuromasu as generate_kuromasu
from .lightbulbs import LightBulbsOptions
from .lightbulbs import generate_lightbulbs as generate_lightbulbs
from .lightup import LightUpOptions
from .lightup import generate_lightup as generate_lightup
from .nurikabe import NurikabeOptions
from .nurikabe import generate_nurikabe as generate_nurikabe


def generators() -> dict[Family, tuple[type, Callable[..., Generated]]]:
    """Family -> (options class, generator function), for every registered family that has one
    (``FamilySpec.generator``)."""
    return {spec.family: parts for spec in family_specs() if (parts := spec.generator_parts()) is not None}


__all__ = [
    "generators",
    "GenerationError",
    "Generated",
    "HitoriOptions",
    "KuromasuOptions",
    "LightBulbsOptions",
    "LightUpOptions",
    "NurikabeOptions",
    "generate",
    "options_for",
    "parse_size",
]


def options_for(family: Family | str, **options: Any):
    """The family's options object, with a clear error for an option it does not have."""
    known = generators()
    try:
        fam = Family(family)
    except ValueError:
        raise GenerationError(f"unknown family {family!r}; choose {', '.join(map(str, known))}") from None
    if fam not in known:
        raise GenerationError(f"no generator for {fam}; choose {', '.join(map(str, known))}")
    cls = known[fam][0]
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(options) - names)
    if unknown:
        raise GenerationError(
            f"{fam} generator has no option {unknown[0]!r} (options: {', '.join(sorted(names))})"
        )
    return cls(**options).check()


def generate(
    family: Family | str,
    rows: int,
    cols: int,
    seed: int = 0,
    paradigm: str | None = "auto",
    count_limit: int = 10_000,
    count_timeout: float = 60.0,
    **options: Any,
) -> Generated:
    """Generate one puzzle and prove it.

    ``paradigm``: the proof paradigm ("auto": the fastest available; "none": trust the
    generator's own oracle, which every removal already asked). Unique puzzles get a
    ``count=2`` proof; LightBulbs puzzles from seed 003's method get their answers enumerated
    up to ``count_limit`` (a limit on answers, not time, keeps the recorded figure reproducible):
    fewer answers are counted exactly (``meta["solutions"]``), more are recorded as
    ``meta["solutions_at_least"]``. ``count_timeout`` only guards against a stuck enumeration.
    """
    opts = options_for(family, **options)
    fam = Family(family)
    if not (isinstance(rows, int) and isinstance(cols, int) and rows >= 1 and cols >= 1):
        raise GenerationError(f"size must be at least 1x1, got {rows}x{cols}")
    gen = generators()[fam][1](rows, cols, seed, opts)
    proof_paradigm = resolve_paradigm(paradigm, fam)
    if proof_paradigm is None:
        return gen
    if not isinstance(count_limit, int) or count_limit < 1:
        raise GenerationError(f"count_limit must be a positive integer, got {count_limit!r}")
    return _proved(gen, proof_paradigm, count_limit, count_timeout)


def _proved(gen: Generated, paradigm: str, count_limit: int, count_timeout: float) -> Generated:
    """Attach the proof of record (and the difficulty it measures) to a generated puzzle.

    Difficulty: ``unit_propagation`` (from the generator: unit propagation on a fresh clause
    model of the finished puzzle decides every cell), then, from one ``count=1`` run in the
    proof paradigm, ``choices``/``conflicts``/``propagations`` and ``propagation_solves`` (no
    choice and no conflict: that paradigm's propagation alone finds the answer), and the search
    figures of the proof run itself as ``proof_choices``/``proof_conflicts``.
    """
    puzzle, solutions = gen.puzzle, gen.solutions
    if solutions == 1:
        proof = prove(puzzle, paradigm, gen.solution, count=2)
        if proof.count != 1 or not proof.exhausted:
            raise GenerationError(
                f"{paradigm} finds {proof.count} answer(s) for {puzzle.name}, expected exactly 1"
            )
    else:
        try:
            proof = prove(puzzle, paradigm, gen.solution, count=count_limit, timeout=count_timeout)
        except GenerationError:
            proof = Proof(paradigm, 0, False, {}, count_timeout)  # the enumeration got stuck
        solutions = proof.count if proof.exhausted else None
    first = prove(puzzle, paradigm, gen.solution, count=1)
    search = first.search
    difficulty = {
        **dict(puzzle.meta.get("difficulty") or {}),
        "paradigm": paradigm,
        "propagation_solves": search.get("choices", 0) == 0 and search.get("conflicts", 0) == 0,
        **{k: search[k] for k in ("choices", "conflicts", "propagations") if k in search},
        **{f"proof_{k}": proof.search[k] for k in ("choices", "conflicts") if k in proof.search},
    }
    counted: dict[str, Any] = {} if solutions is not None else {"solutions_at_least": proof.count}
    puzzle = puzzle.with_meta(proof=proof.to_json(), difficulty=difficulty, solutions=solutions, **counted)
    return Generated(puzzle, gen.solution, solutions, proof, gen.stats)
