"""Light Up (Akari): walls, numbered walls, and bulbs that light their row and column."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import ClueOutOfRange
from .base import Family, Puzzle, Rule, Solution, Violation, freeze_map, prechecked
from .family import (
    ASP_SIZE_DOC,
    DARK,
    LIT,
    MZN_SIZE_DOC,
    WHITE,
    BadBody,
    CellView,
    FamilySpec,
    InstanceSchema,
    JankoCodec,
    PuzzlinkCodec,
    asp_size,
    grid_cells,
    numbers_from_tokens,
    register_family,
)
from .grid import Cell
from .verify import STEPS, inside

BULB_ON_WALL = Rule.define("BULB_ON_WALL", "bulb on a wall")
UNLIT_CELL = Rule.define("UNLIT_CELL", "unlit cell")
BULBS_SEE_EACH_OTHER = Rule.define("BULBS_SEE_EACH_OTHER", "bulbs see each other")
CLUE_COUNT_WRONG = Rule.define("CLUE_COUNT_WRONG", "clue count wrong")


class LightUpSolution(Solution):
    """The set of bulb cells."""

    @property
    def bulbs(self) -> frozenset[Cell]:
        return self.cells


@dataclass(frozen=True, eq=False)
class LightUp(Puzzle):
    """An R x C grid of open cells and walls; a wall may carry a number 0..4.

    Numbered cells are walls whether or not ``walls`` lists them.
    """

    family: ClassVar[Family] = Family.define("lightup", aliases=("akari",))
    solution_type: ClassVar[type[Solution]] = LightUpSolution

    walls: frozenset[Cell] = frozenset()
    numbers: Mapping[Cell, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._check_size()
        numbers = {}
        for cell, n in dict(self.numbers).items():
            if not self._is_cell(cell):
                cell = self._check_cell(cell, "number")
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 4:
                raise ClueOutOfRange(f"Light Up number at {cell} must be 0..4, got {n!r}", cell)
            numbers[cell] = n
        walls = self._check_cells(self.walls, "wall") | set(numbers)
        object.__setattr__(self, "numbers", freeze_map(numbers))
        object.__setattr__(self, "walls", frozenset(walls))

    def key(self) -> tuple:
        return (self.rows, self.cols, tuple(sorted(self.walls)), tuple(self.numbers.items()))

    def is_open(self, cell: Cell) -> bool:
        return cell not in self.walls

    @property
    def open_cells(self) -> list[Cell]:
        return [cell for cell in self.grid.cells() if cell not in self.walls]

    def solution(self, cells: Iterable[Cell]) -> LightUpSolution:
        return LightUpSolution(cells)


def verify_lightup(p: LightUp, bulbs: frozenset[Cell]) -> list[Violation]:
    """Light Up's rules, walked directly on the board."""
    out: list[Violation] = []
    # A bulb stands on an open cell.
    for cell in sorted(bulbs & p.walls):
        out.append(Violation(BULB_ON_WALL, (cell,), f"bulb at {cell} is on a wall"))
    lit: set[Cell] = set()
    seen_pairs: set[tuple[Cell, Cell]] = set()
    for b in sorted(bulbs - p.walls):
        lit.add(b)
        for dr, dc in STEPS:
            r, c = b[0] + dr, b[1] + dc
            while inside(p, r, c) and (r, c) not in p.walls:
                lit.add((r, c))
                # No bulb is lit by another bulb.
                if (r, c) in bulbs:
                    pair = (min(b, (r, c)), max(b, (r, c)))
                    if pair not in seen_pairs:
                        seen_pairs.add(pair)
                        out.append(
                            Violation(
                                BULBS_SEE_EACH_OTHER, pair, f"bulbs at {pair[0]} and {pair[1]} see each other"
                            )
                        )
                r, c = r + dr, c + dc
    # Every open cell is lit.
    unlit = [
        (r, c) for r in range(p.rows) for c in range(p.cols) if (r, c) not in p.walls and (r, c) not in lit
    ]
    for cell in unlit:
        out.append(Violation(UNLIT_CELL, (cell,), f"cell {cell} is not lit"))
    # A numbered wall has exactly that many bulbs on its four neighbours.
    for cell, n in p.numbers.items():
        around = [(cell[0] + dr, cell[1] + dc) for dr, dc in STEPS]
        got = sorted(x for x in around if x in bulbs)
        if len(got) != n:
            out.append(
                Violation(
                    CLUE_COUNT_WRONG,
                    (cell, *got),
                    f"wall {cell} wants {n} bulb(s) next to it, has {len(got)}",
                )
            )
    return out


def lightup_accepts(p: LightUp, bulbs: frozenset[Cell]) -> bool:
    """Whether ``bulbs`` (in-bounds cells) breaks none of Light Up's rules: the yes-or-no of
    :func:`verify_lightup`, with the light spread over bit sets of the board (bit
    ``r * (cols + 1) + c``: each row is followed by a dark bit, so light moved along a row stops
    at its end) a step per shift rather than a cell at a time."""
    walls = p.walls
    # A bulb stands on an open cell.
    if not bulbs.isdisjoint(walls):
        return False
    rows, cols = p.rows, p.cols
    width = cols + 1
    dark = 0
    for r, c in walls:
        dark |= 1 << r * width + c
    # every cell of the board, row by row: `cols` ones, then the dark bit
    board = ((1 << cols) - 1) * (((1 << rows * width) - 1) // ((1 << width) - 1))
    open_ = board & ~dark
    on = 0
    for r, c in bulbs:
        on |= 1 << r * width + c
    lit = on
    for step in (1, width):  # along rows, along columns
        ray = on
        while ray:  # towards the higher bits: right, down
            ray = ray << step & open_
            # No bulb is lit by another bulb (a pair is met from the bulb before the other).
            if ray & on:
                return False
            lit |= ray
        ray = on
        while ray:  # left, up
            ray = ray >> step & open_
            lit |= ray
    # Every open cell is lit.
    if lit != open_:
        return False
    # A numbered wall has exactly that many bulbs on its four neighbours.
    return all(
        ((r - 1, c) in bulbs) + ((r + 1, c) in bulbs) + ((r, c - 1) in bulbs) + ((r, c + 1) in bulbs) == n
        for (r, c), n in p.numbers.items()
    )


def lit_cells(puzzle: LightUp, bulbs: frozenset[Cell]) -> frozenset[Cell]:
    """Open cells lit by ``bulbs`` (each bulb's own cell and its rays up to a wall)."""
    lit: set[Cell] = set()
    for bulb in bulbs:
        if bulb in puzzle.walls:
            continue
        lit.add(bulb)
        for ray in puzzle.grid.rays(bulb, blocked=lambda c: c in puzzle.walls).values():
            lit.update(ray)
    return frozenset(lit)


def _view(p: LightUp, cell: Cell, bulbs: frozenset[Cell], lit: Any) -> CellView:
    if cell in p.walls:
        label = str(p.numbers[cell]) if cell in p.numbers else None
        return CellView(label or "#", DARK, label, ink="#fff")
    if cell in bulbs:
        return CellView("*", LIT, disc=True)
    return CellView("+", LIT) if cell in lit else CellView(".", WHITE)


def _token(p: LightUp, cell: Cell) -> str:
    return str(p.numbers[cell]) if cell in p.numbers else "#" if cell in p.walls else "."


def _from_native(rows: int, cols: int, tokens: list[list[str]], **kw: Any) -> LightUp:
    walls = {(r, c) for r, row in enumerate(tokens) for c, t in enumerate(row) if t == "#"}
    plain = [["." if t == "#" else t for t in row] for row in tokens]
    numbers = numbers_from_tokens(plain, ".", "'.', '#' or 0..4", 0, 4)
    return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers, **kw)


def random_lightup(
    rng: random.Random, rows: int, cols: int, wall_p: float = 0.3, number_p: float = 0.5
) -> LightUp:
    walls = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < wall_p}
    numbers = {}
    for r, c in walls:
        if rng.random() < number_p:
            free = sum(
                (r + dr, c + dc) not in walls and 0 <= r + dr < rows and 0 <= c + dc < cols
                for dr, dc in STEPS
            )
            numbers[(r, c)] = rng.randint(0, min(4, free))
    return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers, name=f"rand-lightup-{rows}x{cols}")


# janko text: '-' empty, 'x' wall, 0-4 numbered wall; answers repeat the board with 'o' on bulbs.


def _janko_tokens(p: LightUp) -> list[list[str]]:
    return [
        ["x" if t == "#" else "-" if t == "." else t for t in row]
        for row in ([_token(p, (r, c)) for c in range(p.cols)] for r in range(p.rows))
    ]


_JANKO_NUMBERS = {str(n): n for n in range(5)}


def _janko_parse(rows: int, cols: int, tokens: list[list[str]]) -> LightUp:
    walls: list[Cell] = []
    numbers: dict[Cell, int] = {}
    for r, row in enumerate(tokens):
        for c in [c for c, t in enumerate(row) if t != "-"]:  # most cells are empty
            t = row[c]
            if t == "x":
                walls.append((r, c))
            elif t in _JANKO_NUMBERS:
                numbers[(r, c)] = _JANKO_NUMBERS[t]
            else:  # another spelling of a number, or a bad token: the checked path reads it
                walls = [(r, c) for r, row in enumerate(tokens) for c, t in enumerate(row) if t == "x"]
                plain = [["-" if t == "x" else t for t in row] for row in tokens]
                return LightUp(
                    rows,
                    cols,
                    walls=frozenset(walls),
                    numbers=numbers_from_tokens(plain, "-", "'-', 'x' or 0..4", 0, 4),
                )
    # The cells were made here, in bounds and in row-major order, with numbers 0..4 (a number's
    # cell is a wall too).
    walls.extend(numbers)
    return prechecked(LightUp, rows, cols, walls=frozenset(walls), numbers=numbers)


def _janko_fits(token: str, clue: str) -> bool:
    """An answer's copy of a clue: walls stay walls (published answers write a numbered wall
    as a plain ``x`` now and then)."""
    walls = ("x", "0", "1", "2", "3", "4")
    return clue != "-" and (token == clue or (token in walls and clue in walls))


# puzz.link body (pzprjs decode4Cell/encode4Cell): 0-4 a numbered wall; 5-9 one (n+5) followed by
# one empty cell; a-e one (n+10) followed by two; '.' a wall without number; g-z 1..20 empty cells.


def _url_decode(body: str, rows: int, cols: int) -> LightUp:
    size = rows * cols
    walls, numbers = set(), {}
    c = 0
    for i, ch in enumerate(body):
        if c >= size:
            break  # the board is full: pzprjs ignores the rest
        if "0" <= ch <= "4":
            numbers[divmod(c, cols)] = int(ch)
        elif "5" <= ch <= "9":
            numbers[divmod(c, cols)] = int(ch) - 5
            c += 1
        elif "a" <= ch <= "e":
            numbers[divmod(c, cols)] = int(ch, 16) - 10
            c += 2
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        elif ch == ".":
            walls.add(divmod(c, cols))
        else:
            raise BadBody(f"unexpected {ch!r} (0-9, a-e, g-z or '.')", i)
        c += 1
    return LightUp(rows, cols, walls=frozenset(walls), numbers=numbers)


def _url_encode(p: LightUp) -> str:
    from ..formats.puzzlink import run_letter

    cells = [p.numbers.get(cell, "." if cell in p.walls else None) for cell in grid_cells(p.rows, p.cols)]
    out, count, c = [], 0, 0
    while c < len(cells):
        qn, token = cells[c], ""
        if isinstance(qn, int):
            # A number absorbs up to two empty cells after it (pzprjs's encode4Cell).
            if c + 1 < len(cells) and cells[c + 1] is not None:
                token = str(qn)
            elif c + 2 < len(cells) and cells[c + 2] is not None:
                token, c = str(qn + 5), c + 1
            else:
                token, c = "abcde"[qn], c + 2
        elif qn == ".":
            token = "."
        else:
            count += 1
        if count and (token or count == 20):
            out.append(run_letter(count))
            count = 0
        out.append(token)
        c += 1
    if count:
        out.append(run_letter(count))
    return "".join(out)


def _asp_facts(p: LightUp) -> str:
    return (
        "\n".join(
            asp_size(p)
            + [f"wall({r},{c})." for r, c in sorted(p.walls)]
            + [f"num({r},{c},{n})." for (r, c), n in sorted(p.numbers.items())]
            + [f"open({r},{c})." for r, c in sorted(p.open_cells)]
        )
        + "\n"
    )


def _dzn(p: LightUp) -> str:
    from ..encodings.minizinc import lightup_dzn

    return lightup_dzn(p)


SPEC = register_family(
    FamilySpec(
        family=LightUp.family,
        title="Light Up",
        aliases=("akari",),
        puzzle_type=LightUp,
        answer="bulbs",
        rules=(
            "a bulb lights its row and column up to a wall",
            "every open cell is lit",
            "no bulb lights another",
            "a numbered wall has that many bulbs beside it",
        ),
        verify=verify_lightup,
        accepts=lightup_accepts,
        view=_view,
        context=lambda p, bulbs: lit_cells(p, bulbs),
        native_token=_token,
        from_native=_from_native,
        native_mark="*",
        native_help="'.' open, '#' wall, 0-4 numbered wall",
        candidates=lambda p: [cell for cell in grid_cells(p.rows, p.cols) if cell not in p.walls],
        random_board=random_lightup,
        asp_facts=InstanceSchema(
            "bulb",
            ASP_SIZE_DOC
            + (
                "wall(X,Y).      (X,Y) is a wall\n"
                "num(X,Y,N).     the wall at (X,Y) carries the number N (0..4)\n"
                "open(X,Y).      (X,Y) is an open cell (a bulb may go there)"
            ),
            _asp_facts,
        ),
        mzn_data=InstanceSchema(
            "x",
            MZN_SIZE_DOC
            + (
                "array[1..h,1..w] of int: b;         -1 open cell, 5 plain wall, 0..4 numbered wall (seed 001's data)\n"
                "output: array[1..h,1..w] of var bool: x   (x[i,j] = a bulb on open cell (i,j))"
            ),
            _dzn,
        ),
        janko=JankoCodec(
            tokens=_janko_tokens,
            parse=_janko_parse,
            mark="o",
            marks_over_problem=True,
            fits=_janko_fits,
            claims=lambda tokens: any(t in ("x", "o", "0") for row in tokens for t in row),
            dataset_names=("akari", "lightup"),
        ),
        # pzprjs's PIDs for this genre (pzpr.variety.toPID); it writes "akari"
        puzzlink=PuzzlinkCodec(
            ids=("akari", "lightup", "bijutsukan"), decode=_url_decode, encode=_url_encode
        ),
        generator="puzzlebench.generate.lightup:LightUpOptions:generate_lightup",
        description="place bulbs on open cells so every open cell is lit, no bulb sees another, and "
        "numbered walls have that many bulbs next to them",
    )
)
