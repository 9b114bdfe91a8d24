"""Nurikabe: a connected wall around islands whose sizes the numbers give."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping

from .base import Family, Puzzle, Rule, Solution, Violation, freeze_map
from .family import (ASP_SIZE_DOC, DARK, MZN_SIZE_DOC, WHITE, BadBody, CellView, FamilySpec, InstanceSchema,
                     JankoCodec, PuzzlinkCodec, asp_size, dzn_board, grid_cells, numbers_from_tokens,
                     register_family)
from .grid import Cell
from .verify import around, regions

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
class Nurikabe(Puzzle):
    """An R x C grid with numbered cells (1..R*C), each the size of its island."""

    family: ClassVar[Family] = Family.define("nurikabe")
    solution_type: ClassVar[type[Solution]] = NurikabeSolution

    numbers: Mapping[Cell, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._check_size()
        numbers = self._check_numbers(self.numbers, 1, self.rows * self.cols, "Nurikabe number")
        object.__setattr__(self, "numbers", freeze_map(numbers))

    def key(self) -> tuple:
        return (self.rows, self.cols, tuple(self.numbers.items()))

    @property
    def clue_cells(self) -> frozenset[Cell]:
        """The numbered cells (never shaded)."""
        return frozenset(self.numbers)

    def solution(self, cells: Iterable[Cell]) -> NurikabeSolution:
        return NurikabeSolution(cells)


def verify_nurikabe(p: Nurikabe, wall: frozenset[Cell]) -> list[Violation]:
    """Nurikabe's rules, walked directly on the board."""
    out: list[Violation] = []
    # Numbered cells are unshaded.
    for cell in sorted(wall & p.clue_cells):
        out.append(Violation(SHADED_NUMBER, (cell,), f"numbered cell {cell} is shaded"))
    # All shaded cells form one orthogonally connected wall.
    parts = regions(p, wall)
    if len(parts) > 1:
        cut_off = sorted(cell for part in parts[1:] for cell in part)
        out.append(Violation(
            WALL_SPLIT, tuple(cut_off),
            f"{len(cut_off)} wall cell(s) are cut off from the wall of {parts[0][0]}, first {cut_off[0]}",
        ))
    # No 2x2 block is entirely shaded.
    for r in range(p.rows - 1):
        for c in range(p.cols - 1):
            block = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            if all(cell in wall for cell in block):
                out.append(Violation(WALL_2X2, block, f"the 2x2 block at {(r, c)} is all wall"))
    # Every island holds exactly one number, equal to its size.
    island_cells = [cell for cell in grid_cells(p.rows, p.cols) if cell not in wall]
    for island in regions(p, island_cells):
        numbered = [cell for cell in island if cell in p.numbers]
        if not numbered:
            out.append(Violation(ISLAND_WITHOUT_NUMBER, tuple(island),
                                 f"the island of {island[0]} ({len(island)} cell(s)) has no number"))
        elif len(numbered) > 1:
            out.append(Violation(ISLAND_TWO_NUMBERS, tuple(numbered),
                                 f"the island of {island[0]} holds {len(numbered)} numbers"))
        elif len(island) != p.numbers[numbered[0]]:
            out.append(Violation(ISLAND_SIZE_WRONG, tuple(island),
                                 f"the island of number {p.numbers[numbered[0]]} at {numbered[0]} has "
                                 f"{len(island)} cell(s)"))
    return out


def _view(p: Nurikabe, cell: Cell, wall: frozenset[Cell], _: Any) -> CellView:
    if cell in wall:
        return CellView("#", DARK)
    label = str(p.numbers[cell]) if cell in p.numbers else None
    return CellView(label or ".", WHITE, label)


def _token(p: Nurikabe, cell: Cell) -> str:
    return str(p.numbers[cell]) if cell in p.numbers else "."


def _from_native(rows: int, cols: int, tokens: list[list[str]], **kw: Any) -> Nurikabe:
    return Nurikabe(rows, cols, numbers=numbers_from_tokens(tokens, ".", "'.' or a positive number", 1), **kw)


def random_nurikabe(rng: random.Random, rows: int, cols: int, clue_p: float = 0.2) -> Nurikabe:
    """Random numbers on a small board; at least one so that some answer may exist."""
    numbers = {}
    for r in range(rows):
        for c in range(cols):
            if rng.random() < clue_p:
                numbers[(r, c)] = rng.randint(1, min(rows * cols, 4))
    if not numbers:
        numbers[(rng.randrange(rows), rng.randrange(cols))] = rng.randint(1, min(rows * cols, 4))
    return Nurikabe(rows, cols, numbers=numbers, name=f"rand-nurikabe-{rows}x{cols}")


def _url_decode(body: str, rows: int, cols: int) -> Nurikabe:
    from ..formats.puzzlink import decode_number16

    numbers, unknown = decode_number16(body, rows, cols)
    if unknown:
        at = min(unknown)
        raise BadBody(f"'?' clue at {at} (an island of unknown size) is not supported", _body_index(body, rows, cols, at))
    bad = next(((cell, n) for cell, n in sorted(numbers.items()) if n < 1), None)
    if bad:
        raise BadBody(f"number {bad[1]} at {bad[0]} (islands have at least one cell)", _body_index(body, rows, cols, bad[0]))
    return Nurikabe(rows, cols, numbers=numbers)


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

    return encode_number16(p.rows, p.cols, dict(p.numbers))


SPEC = register_family(FamilySpec(
    family=Nurikabe.family,
    title="Nurikabe",
    puzzle_type=Nurikabe,
    answer="wall cells",
    rules=("numbered cells are unshaded", "all shaded cells form one orthogonally connected wall",
           "no 2x2 block is entirely shaded",
           "every island (unshaded region) holds exactly one number, equal to its size"),
    verify=verify_nurikabe,
    view=_view,
    native_token=_token,
    from_native=_from_native,
    native_mark="#",
    native_help="'.' cell, a number (the size of its island)",
    candidates=lambda p: [cell for cell in grid_cells(p.rows, p.cols) if cell not in p.numbers],
    random_board=random_nurikabe,
    asp_facts=InstanceSchema("wall", ASP_SIZE_DOC + "num(X,Y,N).     (X,Y) holds the number N (an island of N cells)",
                             lambda p: "\n".join(asp_size(p) + [f"num({r},{c},{n})."
                                                                for (r, c), n in sorted(p.numbers.items())]) + "\n"),
    mzn_data=InstanceSchema("wall", MZN_SIZE_DOC + (
        "array[1..h,1..w] of int: n;         0 no number, else the island's size\n"
        "output: array[1..h,1..w] of var bool: wall"),
        lambda p: dzn_board(p, "n", lambda cell: p.numbers.get(cell, 0))),
    # janko text: '-' cell, a number; answers '-' island, 'x' wall (numbers may be copied)
    janko=JankoCodec(
        tokens=lambda p: [[str(p.numbers.get((r, c), "-")) for c in range(p.cols)] for r in range(p.rows)],
        parse=lambda rows, cols, tokens: Nurikabe(
            rows, cols, numbers=numbers_from_tokens(tokens, "-", "'-' or a positive integer", 1)),
        dataset_names=("nurikabe",),
    ),
    puzzlink=PuzzlinkCodec(ids=("nurikabe",), decode=_url_decode, encode=_url_encode),
    generator="puzzlebench.generate.nurikabe:NurikabeOptions:generate_nurikabe",
    description="shade a connected wall with no 2x2 block so that every unshaded island holds one "
                "number equal to its size",
))
