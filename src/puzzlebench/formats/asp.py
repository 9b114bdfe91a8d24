"""ASP facts in the shape of seed 000 (lparse/clingo): 1-based, X = row, Y = column.

::

    % lightup 10x10
    row(1..10).
    col(1..10).
    black(1,1,0).      % numbered Light Up wall
    black(3,4).        % plain Light Up wall
    num(1,3,2).        % Kuromasu number

Answers are the seed's output atoms: ``lightbulb(X,Y)`` (Light Up) and ``black(X,Y)`` (Kuromasu),
read with or without the closing dots. Rules and directives in the text (a whole seed program)
are skipped, so an encoding file with its instance inside loads as that instance.
"""

from __future__ import annotations

import bisect
import re

from ..errors import CellError, ParseError
from ..model import Family, Kuromasu, LightUp, Puzzle, Solution
from .base import Format, check_grid_size, end_of, is_number, parse_number, safe_name, strip_bom

NAME = "asp"
FAMILIES = (Family.LIGHTUP, Family.KUROMASU)
_ATOM = re.compile(r"\s*([a-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*\.\s*$", re.S)
_RANGE = re.compile(r"\s*([0-9]+)\s*\.\.\s*([0-9]+)\s*$")
_HINT = re.compile(r"^%\s*(lightup|kuromasu)\b", re.M)
_NAME = re.compile(r"^%\s*name:\s*(.*?)\s*$", re.M)
_ANSWER = {Family.LIGHTUP: "lightbulb", Family.KUROMASU: "black"}


class _Positions:
    """Offsets in the text -> (line, column), both 1-based."""

    def __init__(self, text: str):
        self.starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def __call__(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


def _strip_comments(text: str) -> str:
    """Blank out % comments, keeping every offset in place."""
    return re.sub(r"%[^\n]*", lambda m: " " * len(m.group()), text)


def _statements(body: str) -> tuple[list[tuple[int, str]], int]:
    """(start offset, text) of each statement ending in a '.' that is not part of '..'; and
    the offset where the unterminated rest begins."""
    out, start, i = [], 0, 0
    while i < len(body):
        if body[i] == ".":
            if body.startswith("..", i):
                i += 2
                continue
            out.append((start, body[start : i + 1]))
            start = i + 1
        i += 1
    return out, start


def _ints(fmt_args: str, arity: int, where: tuple[int, int], what: str) -> tuple[int, ...]:
    parts = [p.strip() for p in fmt_args.split(",")]
    if len(parts) != arity or not all(is_number(p) for p in parts):
        raise ParseError(
            NAME, f"{what} needs {arity} non-negative integers, got ({fmt_args.strip()[:40]})", *where
        )
    return tuple(parse_number(NAME, p, what, *where) for p in parts)


def read(text: str, family: Family | None = None) -> Puzzle:
    text = strip_bom(text)
    pos = _Positions(text)
    body = _strip_comments(text)
    size: dict[str, int] = {}
    nums: dict[tuple[int, int], tuple[int, tuple[int, int]]] = {}
    numbered: dict[tuple[int, int], tuple[int, tuple[int, int]]] = {}
    walls: dict[tuple[int, int], tuple[int, int]] = {}
    statements, end = _statements(body)
    for offset, stmt in statements:
        start = offset + len(stmt) - len(stmt.lstrip())
        where = pos(start)
        # Rules, constraints and directives belong to an encoding, not to the instance.
        if ":-" in stmt or ":=" in stmt or stmt.lstrip().startswith(("#", "hide", "show", "{", "\\")):
            continue
        atom = _ATOM.match(stmt)
        if not atom:
            raise ParseError(
                NAME, f"expected a fact like name(args). or a rule, got {stmt.strip()[:30]!r}", *where
            )
        name, args = atom.group(1), atom.group(2) or ""
        if name in ("row", "col"):
            rng = _RANGE.match(args)
            low = parse_number(NAME, rng.group(1), f"{name} start", *where) if rng else None
            high = parse_number(NAME, rng.group(2), f"{name} end", *where) if rng else None
            if low != 1 or high is None or high < 1:
                raise ParseError(
                    NAME, f"expected {name}(1..N) with N >= 1, got {name}({args.strip()[:40]})", *where
                )
            if name in size:
                raise ParseError(NAME, f"{name}(1..N) given twice", *where)
            size[name] = high
        elif name == "num":
            x, y, n = _ints(args, 3, where, "num(X,Y,N)")
            nums[(x, y)] = (n, where)
        elif name == "black":
            arity = args.count(",") + 1
            if arity == 3:
                x, y, n = _ints(args, 3, where, "black(X,Y,N)")
                numbered[(x, y)] = (n, where)
            else:
                x, y = _ints(args, 2, where, "black(X,Y)")
                walls[(x, y)] = where
        # Other facts (such as seed 000's color(b;w).) are part of the encoding: skipped.
    rest = body[end:].strip()
    if rest:
        raise ParseError(NAME, f"statement without a closing '.': {rest[:30]!r}", *pos(body.index(rest, end)))
    for key in ("row", "col"):
        if key not in size:
            raise ParseError(NAME, f"no {key}(1..N). fact giving the grid size", *end_of(text))
    rows, cols = size["row"], size["col"]
    check_grid_size(NAME, rows, cols)
    hint = _HINT.search(text)
    first_clue = min(
        [w for _, w in nums.values()] + [w for _, w in numbered.values()] + list(walls.values()),
        default=(1, 1),
    )
    if nums and (numbered or walls):
        raise ParseError(
            NAME, "both num/3 (Kuromasu) and black/2,3 (Light Up) facts; which puzzle is it?", *first_clue
        )
    found = Family.KUROMASU if nums else Family.LIGHTUP if (numbered or walls) else None
    found = found or (Family(family) if family else None) or (Family(hint.group(1)) if hint else None)
    if found is None:
        raise ParseError(
            NAME,
            "no clue facts and no '% lightup' or '% kuromasu' line: cannot tell the family",
            *end_of(text),
        )
    if family is not None and Family(family) is not found:
        raise ParseError(
            NAME, f"facts describe a {found.value} puzzle, not {Family(family).value}", *first_clue
        )
    name_m = _NAME.search(text)
    name = name_m.group(1) if name_m else ""

    def cell(xy: tuple[int, int], where: tuple[int, int]) -> tuple[int, int]:
        x, y = xy
        if not (1 <= x <= rows and 1 <= y <= cols):
            raise ParseError(NAME, f"cell ({x},{y}) is outside row(1..{rows}), col(1..{cols})", *where)
        return (x - 1, y - 1)

    try:
        if found is Family.KUROMASU:
            return Kuromasu(rows, cols, numbers={cell(xy, w): n for xy, (n, w) in nums.items()}, name=name)
        return LightUp(
            rows,
            cols,
            walls=frozenset(cell(xy, w) for xy, w in walls.items()),
            numbers={cell(xy, w): n for xy, (n, w) in numbered.items()},
            name=name,
        )
    except CellError as exc:  # Rule: a clue the model refuses is named at its fact
        facts = {(x - 1, y - 1): w for (x, y), (_, w) in {**nums, **numbered}.items()}
        place = facts.get(exc.cell, first_clue) if exc.cell is not None else first_clue
        raise ParseError(NAME, str(exc), *place) from None


def write(puzzle: Puzzle) -> str:
    FORMAT.check_writable(puzzle)
    lines = [
        f"% {puzzle.family.value} {puzzle.rows}x{puzzle.cols} (rows x columns; X = row, Y = column, 1-based)"
    ]
    name = safe_name(puzzle.name)
    if name:
        lines.append(f"% name: {name}")
    lines += [f"row(1..{puzzle.rows}).", f"col(1..{puzzle.cols})."]
    if isinstance(puzzle, LightUp):
        lines += [f"black({r + 1},{c + 1},{n})." for (r, c), n in puzzle.numbers.items()]
        lines += [f"black({r + 1},{c + 1})." for r, c in sorted(puzzle.walls - puzzle.numbers.keys())]
    else:
        assert isinstance(puzzle, Kuromasu)
        lines += [f"num({r + 1},{c + 1},{n})." for (r, c), n in puzzle.numbers.items()]
    return "\n".join(lines) + "\n"


def write_solution(puzzle: Puzzle, solution: Solution) -> str:
    """The answer as the seed's output atoms, one fact per line."""
    FORMAT.check_writable(puzzle)
    pred = _ANSWER[puzzle.family]
    return "".join(f"{pred}({r + 1},{c + 1}).\n" for r, c in sorted(solution.cells))


def read_solution(text: str, puzzle: Puzzle) -> Solution:
    """``lightbulb(X,Y)`` / ``black(X,Y)`` atoms anywhere in the text (dots optional)."""
    if puzzle.family not in _ANSWER:
        raise ParseError(NAME, f"holds Light Up or Kuromasu answers, not {puzzle.family.value}")
    text = strip_bom(text)
    pos = _Positions(text)
    pred = _ANSWER[puzzle.family]
    body = _strip_comments(text)
    cells = []
    for m in re.finditer(r"\b([a-z_]\w*)\s*\(([^()]*)\)", body):
        if m.group(1) != pred:
            continue
        x, y = _ints(m.group(2), 2, pos(m.start()), f"{pred}(X,Y)")
        if not (1 <= x <= puzzle.rows and 1 <= y <= puzzle.cols):
            raise ParseError(
                NAME, f"{pred}({x},{y}) is outside the {puzzle.rows}x{puzzle.cols} grid", *pos(m.start())
            )
        cells.append((x - 1, y - 1))
    leftover = re.sub(r"\b[a-z_]\w*\s*\([^()]*\)\s*\.?", " ", body).strip()
    if leftover:
        raise ParseError(
            NAME, f"expected only {pred}(X,Y) atoms, found {leftover[:20]!r}", *pos(body.index(leftover[0]))
        )
    return puzzle.solution(cells)


def detect(text: str) -> bool:
    return re.search(r"^\s*(row|col)\s*\(\s*1\s*\.\.", strip_bom(text), re.M) is not None


def _limits(puzzle: Puzzle) -> str | None:
    if isinstance(puzzle, Kuromasu) and puzzle.unknown:
        return f"'?' clue at {min(puzzle.unknown)} (seed 000's facts have numbers only)"
    return None


FORMAT = Format(
    name=NAME,
    description="seed 000's ASP facts: row(1..R). col(1..C). num(X,Y,N) / black(X,Y,N) / black(X,Y)",
    families=FAMILIES,
    extensions=(".lp",),
    read=read,
    write=write,
    detect=detect,
    limits=_limits,
    read_solution=read_solution,
    write_solution=write_solution,
)
