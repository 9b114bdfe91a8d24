"""Kuromasu (Kurodoko, "Range"): numbered white cells that count what they see."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import ClueBoard, Family, Rule, Solution, Violation, prechecked
from .family import (
    ASP_SIZE_DOC,
    MZN_SIZE_DOC,
    FamilySpec,
    InstanceSchema,
    JankoCodec,
    PuzzlinkCodec,
    asp_size,
    clue_token,
    clue_view,
    dzn_board,
    grid_cells,
    numbers_from_tokens,
    register_family,
)
from .grid import Cell
from .verify import STEPS, adjacent_pairs, inside, regions

BLACK_ON_NUMBER = Rule.define("BLACK_ON_NUMBER", "black on a numbered cell")
ADJACENT_BLACKS = Rule.define("ADJACENT_BLACKS", "adjacent blacks")
WHITE_REGION_SPLIT = Rule.define("WHITE_REGION_SPLIT", "white region split")
VISIBLE_COUNT_WRONG = Rule.define("VISIBLE_COUNT_WRONG", "visible count wrong")


class KuromasuSolution(Solution):
    """The set of black cells."""

    @property
    def black(self) -> frozenset[Cell]:
        return self.cells


@dataclass(frozen=True, eq=False)
class Kuromasu(ClueBoard):
    """An R x C grid with numbered cells (1..R+C-1) and "?" cells (white, number unknown)."""

    family: ClassVar[Family] = Family.define("kuromasu", aliases=("kurodoko",))
    solution_type: ClassVar[type[Solution]] = KuromasuSolution
    NUMBER: ClassVar[str] = "Kuromasu number"

    def highest(self) -> int:
        return self.rows + self.cols - 1

    def key(self) -> tuple:
        return (self.rows, self.cols, tuple(self.numbers.items()), tuple(sorted(self.unknown)))

    def solution(self, cells: Iterable[Cell]) -> KuromasuSolution:
        return KuromasuSolution(cells)


def verify_kuromasu(p: Kuromasu, black: frozenset[Cell]) -> list[Violation]:
    """Kuromasu's rules, walked directly on the board."""
    out: list[Violation] = []
    # Numbered (and '?') cells are white.
    for cell in sorted(black & p.clue_cells):
        out.append(Violation(BLACK_ON_NUMBER, (cell,), f"numbered cell {cell} is black"))
    # No two black cells share a side.
    for a, b in adjacent_pairs(p, black):
        out.append(Violation(ADJACENT_BLACKS, (a, b), f"black cells {a} and {b} share a side"))
    # All white cells form one orthogonally connected region.
    white = [(r, c) for r in range(p.rows) for c in range(p.cols) if (r, c) not in black]
    parts = regions(p, white)
    if len(parts) > 1:
        cut_off = sorted(cell for part in parts[1:] for cell in part)
        out.append(
            Violation(
                WHITE_REGION_SPLIT,
                tuple(cut_off),
                f"{len(cut_off)} white cell(s) are cut off from the region of {white[0]}, first {cut_off[0]}",
            )
        )
    # A number equals the count of white cells it sees, itself included.
    for cell, n in p.numbers.items():
        seen = 1
        for dr, dc in STEPS:
            r, c = cell[0] + dr, cell[1] + dc
            while inside(p, r, c) and (r, c) not in black:
                seen += 1
                r, c = r + dr, c + dc
        if seen != n:
            out.append(
                Violation(VISIBLE_COUNT_WRONG, (cell,), f"number {n} at {cell} sees {seen} white cell(s)")
            )
    return out


def kuromasu_accepts(p: Kuromasu, black: frozenset[Cell]) -> bool:
    """Whether ``black`` (in-bounds cells) breaks none of Kuromasu's rules: the yes-or-no of
    :func:`verify_kuromasu`, with the white region filled over a flat array of the board."""
    # Numbered (and '?') cells are white.
    if not black.isdisjoint(p.numbers) or not black.isdisjoint(p.unknown):
        return False
    rows, cols = p.rows, p.cols
    # No two black cells share a side.
    if any((r + 1, c) in black or (r, c + 1) in black for r, c in black):
        return False
    # A number equals the count of white cells it sees, itself included.
    for (r, c), n in p.numbers.items():
        seen = 1
        for dr, dc in STEPS:
            y, x = r + dr, c + dc
            while 0 <= y < rows and 0 <= x < cols and (y, x) not in black:
                seen += 1
                y, x = y + dr, x + dc
        if seen != n:
            return False
    # All white cells form one orthogonally connected region: grown from the lowest white cell a
    # layer at a time over bit sets of the board (bit r * (cols + 1) + c: each row is followed by
    # a bit that is never white, so a step along a row stops at its end), it reaches every one.
    width = cols + 1
    black_bits = 0
    for r, c in black:
        black_bits |= 1 << r * width + c
    white = ((1 << cols) - 1) * (((1 << rows * width) - 1) // ((1 << width) - 1)) & ~black_bits
    reach = white & -white
    while True:
        grown = (reach | reach << 1 | reach >> 1 | reach << width | reach >> width) & white
        if grown == reach:
            return reach == white
        reach = grown


def _from_native(rows: int, cols: int, tokens: list[list[str]], **kw: Any) -> Kuromasu:
    unknown = {(r, c) for r, row in enumerate(tokens) for c, t in enumerate(row) if t == "?"}
    plain = [["." if t == "?" else t for t in row] for row in tokens]
    numbers = numbers_from_tokens(plain, ".", "'.', '?' or a number", 0)
    return Kuromasu(rows, cols, numbers=numbers, unknown=frozenset(unknown), **kw)


def random_kuromasu(rng: random.Random, rows: int, cols: int, clue_p: float = 0.25) -> Kuromasu:
    numbers = {}
    for r in range(rows):
        for c in range(cols):
            if rng.random() < clue_p:
                numbers[(r, c)] = rng.randint(1, min(rows + cols - 1, 5))
    return Kuromasu(rows, cols, numbers=numbers, name=f"rand-kuromasu-{rows}x{cols}")


def _url_decode(body: str, rows: int, cols: int) -> Kuromasu:
    from ..formats.puzzlink import decode_number16

    numbers, unknown = decode_number16(body, rows, cols)
    return Kuromasu(rows, cols, numbers=numbers, unknown=frozenset(unknown))


def _url_encode(p: Kuromasu) -> str:
    from ..formats.puzzlink import encode_number16

    return encode_number16(p.rows, p.cols, dict(p.numbers), p.unknown)


def _janko_parse(rows: int, cols: int, tokens: list[list[str]]) -> Kuromasu:
    numbers: dict[Cell, int] = {}
    high = rows + cols - 1
    for r, row in enumerate(tokens):
        for c in [c for c, t in enumerate(row) if t != "-"]:  # most cells are empty
            t = row[c]
            if not (t.isascii() and t.isdecimal()) or len(t) > 9 or not 1 <= int(t) <= high:
                # a bad token or a number out of range: the checked path says what is wrong
                return Kuromasu(
                    rows, cols, numbers=numbers_from_tokens(tokens, "-", "'-' or a positive integer", 1)
                )
            numbers[(r, c)] = int(t)
    # The cells were made here, in bounds and in row-major order, with numbers 1..rows+cols-1.
    return prechecked(Kuromasu, rows, cols, numbers=numbers, unknown=frozenset())


SPEC = register_family(
    FamilySpec(
        family=Kuromasu.family,
        title="Kuromasu",
        aliases=("kurodoko",),
        puzzle_type=Kuromasu,
        answer="black cells",
        rules=(
            "numbered cells are white",
            "no two black cells share a side",
            "all white cells are orthogonally connected",
            "a number counts the white cells it sees in its row and column, itself included",
        ),
        verify=verify_kuromasu,
        accepts=kuromasu_accepts,
        view=clue_view,
        native_token=clue_token,
        from_native=_from_native,
        native_mark="#",
        native_help="'.' cell, a number, '?' white cell with an unknown number",
        candidates=lambda p: [cell for cell in grid_cells(p.rows, p.cols) if cell not in p.clue_cells],
        random_board=random_kuromasu,
        asp_facts=InstanceSchema(
            "black",
            ASP_SIZE_DOC
            + (
                "num(X,Y,N).     (X,Y) holds the number N\n"
                "clue(X,Y).      (X,Y) is a clue: numbered or '?' (always white)"
            ),
            lambda p: (
                "\n".join(
                    asp_size(p)
                    + [f"num({r},{c},{n})." for (r, c), n in sorted(p.numbers.items())]
                    + [f"clue({r},{c})." for r, c in sorted(p.clue_cells)]
                )
                + "\n"
            ),
        ),
        mzn_data=InstanceSchema(
            "black",
            MZN_SIZE_DOC
            + (
                "array[1..h,1..w] of int: n;         0 no clue, -1 a '?' clue, else the number\n"
                "output: array[1..h,1..w] of var bool: black"
            ),
            lambda p: dzn_board(p, "n", lambda cell: p.numbers.get(cell, -1 if cell in p.unknown else 0)),
        ),
        # janko text: '-' cell, a number; answers '-' white, 'x' black (clues may be copied)
        janko=JankoCodec(
            tokens=lambda p: [
                [str(p.numbers.get((r, c), "-")) for c in range(p.cols)] for r in range(p.rows)
            ],
            parse=_janko_parse,
            claims=lambda tokens: (
                any(t == "-" for row in tokens for t in row)
                and any(len(t) > 1 or t in "56789" for row in tokens for t in row if t.isdecimal())
            ),
            limits=lambda p: (
                f"'?' clue at {min(p.unknown)} (janko Kuromasu has numbers only)" if p.unknown else None
            ),
            dataset_names=("kuromasu", "kurodoko"),
        ),
        puzzlink=PuzzlinkCodec(ids=("kurodoko",), decode=_url_decode, encode=_url_encode),
        generator="puzzlebench.generate.kuromasu:KuromasuOptions:generate_kuromasu",
        description="blacken cells, never two side by side, keeping the white cells connected, so that "
        "each number sees that many white cells in its row and column",
    )
)
