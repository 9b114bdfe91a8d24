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

from dataclasses import fields
from typing import Any, Callable

from ..model import Family
from .common import GenerationError, Generated, Proof, parse_size, prove, resolve_paradigm
from .kuromasu import KuromasuOptions, generate_kuromasu
from .lightbulbs import LightBulbsOptions, generate_lightbulbs
from .lightup import LightUpOptions, generate_lightup

#: Family -> (options class, generator function).
GENERATORS: dict[Family, tuple[type, Callable[..., Generated]]] = {
    Family.LIGHTUP: (LightUpOptions, generate_lightup),
    Family.KUROMASU: (KuromasuOptions, generate_kuromasu),
    Family.LIGHTBULBS: (LightBulbsOptions, generate_lightbulbs),
}

__all__ = [
    "GENERATORS", "GenerationError", "Generated", "KuromasuOptions", "LightBulbsOptions", "LightUpOptions",
    "generate", "options_for", "parse_size",
]


def options_for(family: Family | str, **options: Any):
    """The family's options object, with a clear error for an option it does not have."""
    try:
        fam = Family(family)
    except ValueError:
        raise GenerationError(f"unknown family {family!r}; choose lightup, kuromasu or lightbulbs") from None
    cls = GENERATORS[fam][0]
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise GenerationError(f"{fam} generator has no option {unknown[0]!r} (options: {', '.join(sorted(known))})")
    return cls(**options).check()


def generate(
    family: Family | str,
    rows: int,
    cols: int,
    seed: int = 0,
    paradigm: str | None = "auto",
    count_timeout: float = 20.0,
    **options: Any,
) -> Generated:
    """Generate one puzzle and prove it.

    ``paradigm``: the proof paradigm ("auto": the fastest available; "none": trust the
    generator's own oracle, which every removal already asked). Unique puzzles get a
    ``count=2`` proof; LightBulbs puzzles from seed 003's method get all their answers counted
    (``count=0``) when that finishes within ``count_timeout`` seconds.
    """
    opts = options_for(family, **options)
    fam = Family(family)
    if not (isinstance(rows, int) and isinstance(cols, int) and rows >= 1 and cols >= 1):
        raise GenerationError(f"size must be at least 1x1, got {rows}x{cols}")
    gen = GENERATORS[fam][1](rows, cols, seed, opts)
    proof_paradigm = resolve_paradigm(paradigm, fam)
    if proof_paradigm is None:
        return gen
    return _proved(gen, proof_paradigm, count_timeout)


def _proved(gen: Generated, paradigm: str, count_timeout: float) -> Generated:
    """Attach the proof of record (and the difficulty it measures) to a generated puzzle."""
    puzzle, solutions = gen.puzzle, gen.solutions
    if solutions == 1:
        proof = prove(puzzle, paradigm, gen.solution, count=2)
        if proof.count != 1 or not proof.exhausted:
            raise GenerationError(f"{paradigm} finds {proof.count} answer(s) for {puzzle.name}, expected exactly 1")
    else:
        try:
            proof = prove(puzzle, paradigm, gen.solution, count=0, timeout=count_timeout)
        except GenerationError:
            proof = Proof(paradigm, 0, False, {}, count_timeout)  # counting did not finish in time
        solutions = proof.count if proof.exhausted else None
    difficulty = {
        "paradigm": paradigm,
        "propagation_solves": puzzle.meta.get("propagation_solves"),
        **{k: proof.search[k] for k in ("choices", "conflicts", "propagations") if k in proof.search},
    }
    counted = {} if solutions is not None else {"solutions_at_least": proof.count}
    puzzle = puzzle.with_meta(proof=proof.to_json(), difficulty=difficulty, solutions=solutions, **counted)
    return Generated(puzzle, gen.solution, solutions, proof, gen.stats)
