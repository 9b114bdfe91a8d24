"""ASP encoding of LightBulbs (seed 003): lit iff the number counts the lit cells of its block."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model import Family, LightBulbs, Puzzle
from ..base import EncodingSpec, Option, axes
from .program import AspProgram

#: sign option value -> sign of clingo's domain heuristic on lit/2 (None: no heuristic).
_SIGN: dict[str, int | None] = {"none": None, "unlit-first": -1, "lit-first": 1}

SIGN = Option(
    "sign",
    "none",
    tuple(_SIGN),
    "clingo domain heuristic on lit/2 (#heuristic ... [S, sign] with --heuristic=Domain): "
    "try every cell unlit first, lit first, or leave clasp's own heuristic",
)


def build_default(puzzle: Puzzle, options: Mapping[str, Any]) -> AspProgram:
    if not isinstance(puzzle, LightBulbs):
        raise TypeError(f"expected a LightBulbs puzzle, got {type(puzzle).__name__}")
    facts = "".join(f"n({r},{c},{n})." for r, row in enumerate(puzzle.numbers) for c, n in enumerate(row))
    files: tuple[str, ...] = ("lightbulbs.lp",)
    args: tuple[str, ...] = ()
    sign = _SIGN[options["sign"]]
    if sign is not None:
        files += ("lightbulbs_heuristic.lp",)
        facts += f"hsign({sign})."
        args = ("--heuristic=Domain",)
    return AspProgram(files=files, facts=facts, predicate="lit", args=args)


def build_seed003(puzzle: Puzzle, options: Mapping[str, Any]) -> AspProgram:
    if not isinstance(puzzle, LightBulbs):
        raise TypeError(f"expected a LightBulbs puzzle, got {type(puzzle).__name__}")
    facts = "".join(f"n({r},{c},{n})." for r, row in enumerate(puzzle.numbers) for c, n in enumerate(row))
    return AspProgram(files=("lightbulbs_seed003.lp",), facts=facts, predicate="lit")


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.LIGHTBULBS,
        paradigm="asp",
        name="default",
        build=build_default,
        description="choice of lit cells; lit cells match and unlit cells miss their block's #count; "
        "at least one lit cell",
        options=(SIGN,),
    ),
    EncodingSpec(
        family=Family.LIGHTBULBS,
        paradigm="asp",
        name="seed003",
        build=build_seed003,
        description="seed 003's CLP(FD) model: sum (some cell lit), lockout (lit neighbours != n) and "
        "light (lit -> lit neighbours = n - 1) conditions as #count constraints",
        origin="seed003",
        reference="seed 003: LightBulbs, Constraint Logic Programming (FEUP, SICStus CLP(FD))",
    ),
]

#: The default's options are the ways it states a rule; the rest of its options are fixed settings.
ENCODINGS = [axes(spec) if spec.name == "default" else spec for spec in ENCODINGS]
