"""Hitori: shade cells until no number repeats in a line, shaded cells apart, unshaded connected."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Family, NumberBoard, Rule, Solution, Violation
from .family import (
    ASP_SIZE_DOC,
    DARK,
    MZN_SIZE_DOC,
    WHITE,
    BadBody,
    CellView,
    FamilySpec,
    InstanceSchema,
    JankoCodec,
    PuzzlinkCodec,
    asp_size,
    dzn_board,
    grid_cells,
    numbers_from_tokens,
    register_family,
)
from .grid import Cell
from .verify import adjacent_pairs, regions

REPEATED_NUMBER = Rule.define("REPEATED_NUMBER", "repeated number")
ADJACENT_SHADED = Rule.define("ADJACENT_SHADED", "adjacent shaded")
UNSHADED_SPLIT = Rule.define("UNSHADED_SPLIT", "unshaded region split")


class HitoriSolution(Solution):
    """The set of shaded cells."""

    @property
    def shaded(self) -> frozenset[Cell]:
        return self.cells


#: ``numbers[row][col]`` of a cell without a number (puzz.link's ``.``, janko's ``-``): it may be
#: shaded or not like any cell, and takes part in no repetition.
BLANK = 0


@dataclass(frozen=True, eq=False)
class Hitori(NumberBoard):
    """An R x C grid with a positive number in each cell (``numbers[row][col]``), or
    :data:`BLANK` (0) for a cell without a number (pzprjs's editor writes such cells, cspuz
    solves them): such a cell takes part in no repetition."""

    family: ClassVar[Family] = Family.define("hitori")
    solution_type: ClassVar[type[Solution]] = HitoriSolution
    LOW: ClassVar[int] = BLANK
    RANGE: ClassVar[str] = "a positive integer, or 0 for a cell without a number"

    def blank(self, cell: Cell) -> bool:
        """True for a cell without a number."""
        return self.numbers[cell[0]][cell[1]] == BLANK

    @property
    def blanks(self) -> frozenset[Cell]:
        """The cells without a number."""
        return frozenset(
            (r, c) for r, row in enumerate(self.numbers) for c, n in enumerate(row) if n == BLANK
        )

    def lines(self) -> list[list[Cell]]:
        """Every row, then every column, as lists of cells."""
        return [[(r, c) for c in range(self.cols)] for r in range(self.rows)] + [
            [(r, c) for r in range(self.rows)] for c in range(self.cols)
        ]

    def solution(self, cells: Iterable[Cell]) -> HitoriSolution:
        return HitoriSolution(cells)


def verify_hitori(p: Hitori, shaded: frozenset[Cell]) -> list[Violation]:
    """Hitori's rules, walked directly on the board."""
    out: list[Violation] = []
    # No number appears twice among the unshaded cells of a row or column.
    lines = [("row", r, [(r, c) for c in range(p.cols)]) for r in range(p.rows)]
    lines += [("column", c, [(r, c) for r in range(p.rows)]) for c in range(p.cols)]
    for kind, index, cells in lines:
        kept: dict[int, list[Cell]] = {}
        for cell in cells:
            # Rule: a cell without a number repeats nothing
            if cell not in shaded and not p.blank(cell):
                kept.setdefault(p.numbers[cell[0]][cell[1]], []).append(cell)
        for n, where in kept.items():
            if len(where) > 1:
                out.append(
                    Violation(
                        REPEATED_NUMBER,
                        tuple(where),
                        f"{n} is unshaded {len(where)} times in {kind} {index}: {', '.join(map(str, where))}",
                    )
                )
    # No two shaded cells share a side.
    for a, b in adjacent_pairs(p, shaded):
        out.append(Violation(ADJACENT_SHADED, (a, b), f"shaded cells {a} and {b} share a side"))
    # All unshaded cells form one orthogonally connected region.
    unshaded = [(r, c) for r in range(p.rows) for c in range(p.cols) if (r, c) not in shaded]
    parts = regions(p, unshaded)
    if len(parts) > 1:
        cut_off = sorted(cell for part in parts[1:] for cell in part)
        out.append(
            Violation(
                UNSHADED_SPLIT,
                tuple(cut_off),
                f"{len(cut_off)} unshaded cell(s) are cut off from the region of {unshaded[0]}, first {cut_off[0]}",
            )
        )
    return out


def _view(p: Hitori, cell: Cell, shaded: frozenset[Cell], _: Any) -> CellView:
    if p.blank(cell):
        return CellView("#", DARK) if cell in shaded else CellView(".", WHITE)
    n = str(p.number(cell))
    return CellView(f"#{n}", DARK, n, ink="#fff") if cell in shaded else CellView(n, WHITE, n)


def _token(p: Hitori, cell: Cell, blank: str) -> str:
    """The cell's number as text, ``blank`` for a cell without one."""
    return blank if p.blank(cell) else str(p.number(cell))


def _from_native(rows: int, cols: int, tokens: list[list[str]], **kw: Any) -> Hitori:
    return Hitori(rows, cols, numbers=_grid(rows, cols, tokens, ".", "a positive integer or '.'"), **kw)


def _grid(
    rows: int, cols: int, tokens: list[list[str]], blank: str, expected: str
) -> tuple[tuple[int, ...], ...]:
    """Numbers from tokens: a positive integer, or ``blank`` for a cell without a number."""
    numbers = numbers_from_tokens(tokens, blank, expected, 1)
    return tuple(tuple(numbers.get((r, c), BLANK) for c in range(cols)) for r in range(rows))


def _janko_grid(rows: int, cols: int, tokens: list[list[str]]) -> Hitori:
    """janko writes a cell without a number as ``-`` (``.`` is read too)."""
    plain = [["-" if t == "." else t for t in row] for row in tokens]
    return Hitori(rows, cols, numbers=_grid(rows, cols, plain, "-", "a positive integer, '-' or '.'"))


def random_hitori(rng: random.Random, rows: int, cols: int) -> Hitori:
    """Numbers 1..max(rows, cols): small boards repeat numbers in most lines."""
    top = max(rows, cols)
    return Hitori.from_rows(
        [[rng.randint(1, top) for _ in range(cols)] for _ in range(rows)], name=f"rand-hitori-{rows}x{cols}"
    )


# puzz.link body (pzprjs ``Encode.decodeHitori``/``encodeHitori``, src/variety/hitori.js), one
# entry per cell in row-major order: ``0``-``9``/``a``-``z`` a base-36 number below 36; ``-`` and
# two base-36 digits a number 36..1295; ``.`` a cell without a number (encodeHitori writes one
# ``.`` per such cell; decodeHitori leaves a cell empty for it, and pzprjs's checker compares only
# unshaded cells that hold a number); ``%``/``@`` a "?" cell (a number nobody knows), which this
# model cannot state, so it is refused.
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _url_decode(body: str, rows: int, cols: int) -> Hitori:
    values: list[int] = []
    i = 0
    while i < len(body) and len(values) < rows * cols:  # pzprjs stops once the board is full
        ch, at = body[i], i
        if ch in _BASE36:
            n = int(ch, 36)
            i += 1
        elif ch == "-":
            chunk = body[i + 1 : i + 3]
            if len(chunk) != 2 or any(x not in _BASE36 for x in chunk):
                raise BadBody("'-' must be followed by 2 base-36 digits", i)
            n = int(chunk, 36)
            i += 3
        elif ch == ".":
            values.append(BLANK)
            i += 1
            continue
        elif ch in "%@":
            raise BadBody(f"a ? cell ({ch!r}): a Hitori number nobody knows cannot be stated", i)
        else:
            raise BadBody(f"unexpected {ch!r}", i)
        if n < 1:
            raise BadBody("a Hitori number must be positive", at)
        values.append(n)
    if len(values) < rows * cols:
        raise BadBody(f"body holds {len(values)} of the board's {rows * cols} numbers", len(body))
    return Hitori(rows, cols, numbers=tuple(tuple(values[r * cols : (r + 1) * cols]) for r in range(rows)))


#: The largest number a puzz.link Hitori body holds: '-' and two base-36 digits.
URL_MAX_NUMBER = 36 * 36 - 1


def _url_limits(p: Hitori) -> str | None:
    """Why ``p`` cannot be written as a puzz.link body: a number past :data:`URL_MAX_NUMBER`."""
    for r, row in enumerate(p.numbers):
        for c, n in enumerate(row):
            if n > URL_MAX_NUMBER:
                return f"cell ({r + 1}, {c + 1}) holds {n}; puzz.link Hitori numbers stop at {URL_MAX_NUMBER}"
    return None


def _url_encode(p: Hitori) -> str:
    out = []
    for row in p.numbers:
        for n in row:
            if n == BLANK:
                out.append(".")
            else:
                out.append(_BASE36[n] if n < 36 else "-" + _BASE36[n // 36] + _BASE36[n % 36])
    return "".join(out)


SPEC = register_family(
    FamilySpec(
        family=Hitori.family,
        title="Hitori",
        puzzle_type=Hitori,
        answer="shaded cells",
        rules=(
            "no number appears twice among the unshaded cells of a row or column",
            "no two shaded cells share a side",
            "all unshaded cells are orthogonally connected",
        ),
        verify=verify_hitori,
        view=_view,
        native_token=lambda p, cell: _token(p, cell, "."),
        from_native=_from_native,
        native_mark="#",
        native_help="the cell's number (a positive integer), '.' a cell without a number",
        candidates=lambda p: grid_cells(p.rows, p.cols),
        random_board=random_hitori,
        asp_facts=InstanceSchema(
            "shaded",
            ASP_SIZE_DOC + "num(X,Y,N).     cell (X,Y) holds the number N (no fact: a cell without a number)",
            lambda p: (
                "\n".join(
                    asp_size(p)
                    + [
                        f"num({r},{c},{n})."
                        for r, row in enumerate(p.numbers)
                        for c, n in enumerate(row)
                        if n != BLANK
                    ]
                )
                + "\n"
            ),
        ),
        mzn_data=InstanceSchema(
            "shaded",
            MZN_SIZE_DOC
            + (
                "array[1..h,1..w] of int: n;         the numbers (positive; 0: a cell without a number)\n"
                "output: array[1..h,1..w] of var bool: shaded"
            ),
            lambda p: dzn_board(p, "n", p.number),
        ),
        # janko text: a positive integer in each cell, '-' (or '.') a cell without a number; answers
        # '-' unshaded, 'x' shaded. Only an all-number grid is told apart as Hitori's (a grid with
        # '-' cells reads as Kuromasu's or Nurikabe's too: the family must be given)
        janko=JankoCodec(
            tokens=lambda p: [[_token(p, (r, c), "-") for c in range(p.cols)] for r in range(p.rows)],
            parse=_janko_grid,
            claims=lambda tokens: all(
                t.isascii() and t.isdecimal() and len(t) <= 9 and int(t) > 0 for row in tokens for t in row
            ),
            dataset_names=("hitori",),
        ),
        puzzlink=PuzzlinkCodec(ids=("hitori",), decode=_url_decode, encode=_url_encode, limits=_url_limits),
        generator="puzzlebench.generate.hitori:HitoriOptions:generate_hitori",
        description="shade cells, never two side by side, keeping the unshaded cells connected, so that no "
        "number repeats among the unshaded cells of a row or column",
    )
)
