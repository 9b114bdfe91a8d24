"""Nurikabe: a connected wall around islands whose sizes the numbers give ("?": any size)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import ClueBoard, Family, Rule, Solution, Violation
from .family import (
    ASP_SIZE_DOC,
    MZN_SIZE_DOC,
    BadBody,
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
from .verify import regions

SHADED_NUMBER = Rule.define("SHADED_NUMBER", "shaded number")
WALL_SPLIT = Rule.define("WALL_SPLIT", "wall split")
WALL_2X2 = Rule.define("WALL_2X2", "2x2 wall")
ISLAND_WITHOUT_NUMBER = Rule.define("ISLAND_WITHOUT_NUMBER", "island without number")
ISLAND_TWO_NUMBERS = Rule.define("ISLAND_TWO_NUMBERS", "island with two numbers")
ISLAND_SIZE_WRONG = Rule.define("ISLAND_SIZE_WRONG", "island size wrong")


class NurikabeSolution(Solution):
    """The set of shaded (wall) cells."""

    @property
    def wall(self) -> frozenset[Cell]:
        return self.cells


@dataclass(frozen=True, eq=False)
class Nurikabe(ClueBoard):
    """An R x C grid with numbered cells (1..R*C), each the size of its island, and "?" cells
    (unshaded clues whose island, of any size, holds no other clue). Clue cells are never shaded
    and each anchors one island."""

    family: ClassVar[Family] = Family.define("nurikabe")
    solution_type: ClassVar[type[Solution]] = NurikabeSolution
    NUMBER: ClassVar[str] = "Nurikabe number"

    def highest(self) -> int:
        return self.rows * self.cols

    def key(self) -> tuple:
        # '?' cells join the key only when there are some: boards of numbers keep their content hash
        unknown = (tuple(sorted(self.unknown)),) if self.unknown else ()
        return (self.rows, self.cols, tuple(self.numbers.items())) + unknown

    def solution(self, cells: Iterable[Cell]) -> NurikabeSolution:
        return NurikabeSolution(cells)


def verify_nurikabe(p: Nurikabe, wall: frozenset[Cell]) -> list[Violation]:
    """Nurikabe's rules, walked directly on the board."""
    out: list[Violation] = []
    # Numbered (and '?') cells are unshaded.
    for cell in sorted(wall & p.clue_cells):
        kind = "'?'" if cell in p.unknown else "numbered"
        out.append(Violation(SHADED_NUMBER, (cell,), f"{kind} cell {cell} is shaded"))
    # All shaded cells form one orthogonally connected wall.
    parts = regions(p, wall)
    if len(parts) > 1:
        cut_off = sorted(cell for part in parts[1:] for cell in part)
        out.append(
            Violation(
                WALL_SPLIT,
                tuple(cut_off),
                f"{len(cut_off)} wall cell(s) are cut off from the wall of {parts[0][0]}, first {cut_off[0]}",
            )
        )
    # No 2x2 block is entirely shaded.
    for r in range(p.rows - 1):
        for c in range(p.cols - 1):
            block = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            if all(cell in wall for cell in block):
                out.append(Violation(WALL_2X2, block, f"the 2x2 block at {(r, c)} is all wall"))
    # Every island holds exactly one clue (a number or '?'); a number equals the island's size.
    clues = p.clue_cells
    island_cells = [cell for cell in grid_cells(p.rows, p.cols) if cell not in wall]
    for island in regions(p, island_cells):
        numbered = [cell for cell in island if cell in clues]
        if not numbered:
            out.append(
                Violation(
                    ISLAND_WITHOUT_NUMBER,
                    tuple(island),
                    f"the island of {island[0]} ({len(island)} cell(s)) has no number",
                )
            )
        elif len(numbered) > 1:
            out.append(
                Violation(
                    ISLAND_TWO_NUMBERS,
                    tuple(numbered),
                    f"the island of {island[0]} holds {len(numbered)} clues (numbers or '?')",
                )
            )
        elif numbered[0] in p.numbers and len(island) != p.numbers[numbered[0]]:
            out.append(
                Violation(
                    ISLAND_SIZE_WRONG,
                    tuple(island),
                    f"the island of number {p.numbers[numbered[0]]} at {numbered[0]} has "
                    f"{len(island)} cell(s)",
                )
            )
    return out


def _from_tokens(rows: int, cols: int, tokens: list[list[str]], blank: str, **kw: Any) -> Nurikabe:
    """A board of ``blank`` cells, positive numbers and '?' clues (native and janko text)."""
    unknown = frozenset((r, c) for r, row in enumerate(tokens) for c, t in enumerate(row) if t == "?")
    plain = [[blank if t == "?" else t for t in row] for row in tokens]
    numbers = numbers_from_tokens(plain, blank, f"'{blank}', '?' or a positive number", 1)
    return Nurikabe(rows, cols, numbers=numbers, unknown=unknown, **kw)


def _from_native(rows: int, cols: int, tokens: list[list[str]], **kw: Any) -> Nurikabe:
    return _from_tokens(rows, cols, tokens, ".", **kw)


def random_nurikabe(
    rng: random.Random,
    rows: int,
    cols: int,
    clue_p: float = 0.2,
    unknown_p: float = 0.35,
    unknown_cells: int = 20,
) -> Nurikabe:
    """Random numbers on a small board; at least one so that some answer may exist. On boards of
    at most ``unknown_cells`` cells a clue is '?' with probability ``unknown_p``."""
    numbers, unknown = {}, set()
    small = rows * cols <= unknown_cells
    for r in range(rows):
        for c in range(cols):
            if rng.random() < clue_p:
                numbers[(r, c)] = rng.randint(1, min(rows * cols, 4))
                if small and rng.random() < unknown_p:
                    unknown.add((r, c))
    if not numbers:
        numbers[(rng.randrange(rows), rng.randrange(cols))] = rng.randint(1, min(rows * cols, 4))
    numbers = {cell: n for cell, n in numbers.items() if cell not in unknown}
    return Nurikabe(
        rows, cols, numbers=numbers, unknown=frozenset(unknown), name=f"rand-nurikabe-{rows}x{cols}"
    )


def _url_decode(body: str, rows: int, cols: int) -> Nurikabe:
    from ..formats.puzzlink import decode_number16

    numbers, unknown = decode_number16(body, rows, cols)
    bad = next(((cell, n) for cell, n in sorted(numbers.items()) if n < 1), None)
    if bad:
        raise BadBody(
            f"number {bad[1]} at {bad[0]} (islands have at least one cell)",
            _body_index(body, rows, cols, bad[0]),
        )
    return Nurikabe(rows, cols, numbers=numbers, unknown=frozenset(unknown))


def _body_index(body: str, rows: int, cols: int, cell: Cell) -> int:
    """The index of the body character that writes ``cell`` (0 when not found)."""
    from ..formats.puzzlink import decode_number16

    for i in range(1, len(body) + 1):
        numbers, unknown = decode_number16(body[:i], rows, cols)
        if cell in numbers or cell in unknown:
            return i - 1
    return 0


def _url_encode(p: Nurikabe) -> str:
    from ..formats.puzzlink import encode_number16

    return encode_number16(p.rows, p.cols, dict(p.numbers), p.unknown)


SPEC = register_family(
    FamilySpec(
        family=Nurikabe.family,
        title="Nurikabe",
        puzzle_type=Nurikabe,
        answer="wall cells",
        rules=(
            "numbered (and '?') cells are unshaded",
            "all shaded cells form one orthogonally connected wall",
            "no 2x2 block is entirely shaded",
            "every island (unshaded region) holds exactly one clue, a number equal to its size or a '?' "
            "(any size)",
        ),
        verify=verify_nurikabe,
        view=clue_view,
        native_token=clue_token,
        from_native=_from_native,
        native_mark="#",
        native_help="'.' cell, a number (the size of its island), '?' a clue whose island has any size",
        candidates=lambda p: [cell for cell in grid_cells(p.rows, p.cols) if cell not in p.clue_cells],
        random_board=random_nurikabe,
        asp_facts=InstanceSchema(
            "wall",
            ASP_SIZE_DOC
            + (
                "num(X,Y,N).     (X,Y) holds the number N (an island of N cells)\n"
                "clue(X,Y).      (X,Y) is a clue: numbered or '?' (unshaded; its island holds no other clue)"
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
            "wall",
            MZN_SIZE_DOC
            + (
                "array[1..h,1..w] of int: n;         0 no clue, -1 a '?' clue (an island of any size), else the "
                "island's size\n"
                "output: array[1..h,1..w] of var bool: wall"
            ),
            lambda p: dzn_board(p, "n", lambda cell: p.numbers.get(cell, -1 if cell in p.unknown else 0)),
        ),
        # janko text: '-' cell, a number, '?' a clue of unknown size; answers '-' island, 'x' wall
        # (clues may be copied)
        janko=JankoCodec(
            tokens=lambda p: [[p.clue_label((r, c)) or "-" for c in range(p.cols)] for r in range(p.rows)],
            parse=lambda rows, cols, tokens: _from_tokens(rows, cols, tokens, "-"),
            dataset_names=("nurikabe",),
        ),
        puzzlink=PuzzlinkCodec(ids=("nurikabe",), decode=_url_decode, encode=_url_encode),
        generator="puzzlebench.generate.nurikabe:NurikabeOptions:generate_nurikabe",
        description="shade a connected wall with no 2x2 block so that every unshaded island holds one "
        "number equal to its size",
    )
)
