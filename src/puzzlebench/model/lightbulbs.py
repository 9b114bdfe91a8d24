"""LightBulbs (seed 003): every cell holds 1..9; lit iff the number counts lit cells around it."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Family, NumberBoard, Rule, Solution, Violation
from .family import (
    ASP_SIZE_DOC,
    LIT,
    MZN_SIZE_DOC,
    WHITE,
    CellView,
    FamilySpec,
    InstanceSchema,
    asp_size,
    dzn_board,
    grid_cells,
    numbers_from_tokens,
    register_family,
)
from .grid import Cell
from .verify import inside

LIT_IFF_BROKEN = Rule.define("LIT_IFF_BROKEN", "lit-iff rule broken")
EMPTY_ANSWER = Rule.define("EMPTY_ANSWER", "empty answer")


class LightBulbsSolution(Solution):
    """The set of lit cells."""

    @property
    def lit(self) -> frozenset[Cell]:
        return self.cells


@dataclass(frozen=True, eq=False)
class LightBulbs(NumberBoard):
    """An R x C grid of numbers 1..9, one per cell (``numbers[row][col]``)."""

    family: ClassVar[Family] = Family.define("lightbulbs")
    solution_type: ClassVar[type[Solution]] = LightBulbsSolution

    HIGH: ClassVar[int | None] = 9
    RANGE: ClassVar[str] = "1..9"

    def solution(self, cells: Iterable[Cell]) -> LightBulbsSolution:
        return LightBulbsSolution(cells)


def verify_lightbulbs(p: LightBulbs, lit: frozenset[Cell]) -> list[Violation]:
    """LightBulbs' rules, walked directly on the board."""
    out: list[Violation] = []
    # A board with no lit cell is not a solution.
    if not lit:
        out.append(Violation(EMPTY_ANSWER, (), "no cell is lit"))
    # A cell is lit iff its number equals the lit cells in its 3x3 neighbourhood, itself included.
    for r in range(p.rows):
        for c in range(p.cols):
            count = sum(
                1
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if inside(p, rr, cc) and (rr, cc) in lit
            )
            n = p.numbers[r][c]
            is_lit = (r, c) in lit
            if is_lit != (count == n):
                state = "lit" if is_lit else "unlit"
                out.append(
                    Violation(
                        LIT_IFF_BROKEN,
                        ((r, c),),
                        f"{state} cell {(r, c)} has number {n} and {count} lit in its 3x3 block",
                    )
                )
    return out


def _view(p: LightBulbs, cell: Cell, lit: frozenset[Cell], _: Any) -> CellView:
    n = str(p.number(cell))
    return CellView(f"({n})", LIT, n) if cell in lit else CellView(n, WHITE, n)


def _from_native(rows: int, cols: int, tokens: list[list[str]], **kw: Any) -> LightBulbs:
    numbers = numbers_from_tokens(tokens, "", "a number 1..9", 1, 9)
    return LightBulbs(
        rows, cols, numbers=tuple(tuple(numbers[(r, c)] for c in range(cols)) for r in range(rows)), **kw
    )


def random_lightbulbs(rng: random.Random, rows: int, cols: int) -> LightBulbs:
    return LightBulbs.from_rows(
        [[rng.randint(1, 4) for _ in range(cols)] for _ in range(rows)], name=f"rand-lightbulbs-{rows}x{cols}"
    )


SPEC = register_family(
    FamilySpec(
        family=LightBulbs.family,
        title="LightBulbs",
        puzzle_type=LightBulbs,
        answer="lit cells",
        rules=(
            "a cell is lit exactly when its number equals the lit cells in its 3x3 block, itself included",
            "at least one cell is lit",
        ),
        verify=verify_lightbulbs,
        view=_view,
        native_token=lambda p, cell: str(p.number(cell)),
        from_native=_from_native,
        native_mark="*",
        native_help="the cell's number 1..9",
        candidates=lambda p: grid_cells(p.rows, p.cols),
        random_board=random_lightbulbs,
        asp_facts=InstanceSchema(
            "lit",
            ASP_SIZE_DOC + "n(X,Y,N).       cell (X,Y) holds the number N (1..9)",
            lambda p: (
                "\n".join(
                    asp_size(p)
                    + [f"n({r},{c},{n})." for r, row in enumerate(p.numbers) for c, n in enumerate(row)]
                )
                + "\n"
            ),
        ),
        mzn_data=InstanceSchema(
            "lit",
            MZN_SIZE_DOC
            + ("array[1..h,1..w] of 1..9: n;        the numbers\noutput: array[1..h,1..w] of var bool: lit"),
            lambda p: dzn_board(p, "n", p.number),
        ),
        proof_paradigms=("asp", "cp", "sat", "smt"),
        generator="puzzlebench.generate.lightbulbs:LightBulbsOptions:generate_lightbulbs",
        description="seed 003's puzzle: light cells so that a cell is lit exactly when its number counts "
        "the lit cells of its 3x3 neighbourhood",
    )
)
