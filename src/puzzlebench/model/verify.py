"""Independent verifiers, written straight from the rules in the design guide.

They share no code with the encodings (not even the grid helpers): each rule is checked by
walking the board directly, and every broken rule is reported with the cells involved.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable

from .base import Puzzle, Rule, Solution, Violation
from .grid import Cell
from .kuromasu import Kuromasu
from .lightbulbs import LightBulbs
from .lightup import LightUp

_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def verify(puzzle: Puzzle, answer: Solution | Iterable[Cell]) -> list[Violation]:
    """Every rule that ``answer`` breaks on ``puzzle``; an empty list means it is valid."""
    cells = answer.cells if isinstance(answer, Solution) else frozenset(tuple(c) for c in answer)
    outside = sorted(c for c in cells if not (0 <= c[0] < puzzle.rows and 0 <= c[1] < puzzle.cols))
    if outside:
        return [Violation(Rule.OUT_OF_BOUNDS, tuple(outside), f"{len(outside)} cell(s) outside the grid, first {outside[0]}")]
    if isinstance(puzzle, LightUp):
        return _verify_lightup(puzzle, cells)
    if isinstance(puzzle, Kuromasu):
        return _verify_kuromasu(puzzle, cells)
    if isinstance(puzzle, LightBulbs):
        return _verify_lightbulbs(puzzle, cells)
    raise TypeError(f"no verifier for {type(puzzle).__name__}")


def _inside(puzzle: Puzzle, r: int, c: int) -> bool:
    return 0 <= r < puzzle.rows and 0 <= c < puzzle.cols


def _verify_lightup(p: LightUp, bulbs: frozenset[Cell]) -> list[Violation]:
    out: list[Violation] = []
    # A bulb stands on an open cell.
    for cell in sorted(bulbs & p.walls):
        out.append(Violation(Rule.BULB_ON_WALL, (cell,), f"bulb at {cell} is on a wall"))
    lit: set[Cell] = set()
    seen_pairs: set[tuple[Cell, Cell]] = set()
    for b in sorted(bulbs - p.walls):
        lit.add(b)
        for dr, dc in _STEPS:
            r, c = b[0] + dr, b[1] + dc
            while _inside(p, r, c) and (r, c) not in p.walls:
                lit.add((r, c))
                # No bulb is lit by another bulb.
                if (r, c) in bulbs:
                    pair = (min(b, (r, c)), max(b, (r, c)))
                    if pair not in seen_pairs:
                        seen_pairs.add(pair)
                        out.append(Violation(Rule.BULBS_SEE_EACH_OTHER, pair, f"bulbs at {pair[0]} and {pair[1]} see each other"))
                r, c = r + dr, c + dc
    # Every open cell is lit.
    unlit = [(r, c) for r in range(p.rows) for c in range(p.cols) if (r, c) not in p.walls and (r, c) not in lit]
    for cell in unlit:
        out.append(Violation(Rule.UNLIT_CELL, (cell,), f"cell {cell} is not lit"))
    # A numbered wall has exactly that many bulbs on its four neighbours.
    for cell, n in p.numbers.items():
        around = [(cell[0] + dr, cell[1] + dc) for dr, dc in _STEPS]
        got = sorted(x for x in around if x in bulbs)
        if len(got) != n:
            out.append(Violation(Rule.CLUE_COUNT_WRONG, (cell, *got), f"wall {cell} wants {n} bulb(s) next to it, has {len(got)}"))
    return out


def _verify_kuromasu(p: Kuromasu, black: frozenset[Cell]) -> list[Violation]:
    out: list[Violation] = []
    # Numbered (and '?') cells are white.
    for cell in sorted(black & p.clue_cells):
        out.append(Violation(Rule.BLACK_ON_NUMBER, (cell,), f"numbered cell {cell} is black"))
    # No two black cells share a side.
    for r, c in sorted(black):
        for other in ((r + 1, c), (r, c + 1)):
            if other in black:
                out.append(Violation(Rule.ADJACENT_BLACKS, ((r, c), other), f"black cells {(r, c)} and {other} share a side"))
    # All white cells form one orthogonally connected region.
    white = [(r, c) for r in range(p.rows) for c in range(p.cols) if (r, c) not in black]
    if white:
        region = {white[0]}
        todo = deque([white[0]])
        while todo:
            r, c = todo.popleft()
            for dr, dc in _STEPS:
                n = (r + dr, c + dc)
                if _inside(p, *n) and n not in black and n not in region:
                    region.add(n)
                    todo.append(n)
        cut_off = [cell for cell in white if cell not in region]
        if cut_off:
            out.append(Violation(
                Rule.WHITE_REGION_SPLIT, tuple(cut_off),
                f"{len(cut_off)} white cell(s) are cut off from the region of {white[0]}, first {cut_off[0]}",
            ))
    # A number equals the count of white cells it sees, itself included.
    for cell, n in p.numbers.items():
        seen = 1
        for dr, dc in _STEPS:
            r, c = cell[0] + dr, cell[1] + dc
            while _inside(p, r, c) and (r, c) not in black:
                seen += 1
                r, c = r + dr, c + dc
        if seen != n:
            out.append(Violation(Rule.VISIBLE_COUNT_WRONG, (cell,), f"number {n} at {cell} sees {seen} white cell(s)"))
    return out


def _verify_lightbulbs(p: LightBulbs, lit: frozenset[Cell]) -> list[Violation]:
    out: list[Violation] = []
    # A board with no lit cell is not a solution.
    if not lit:
        out.append(Violation(Rule.EMPTY_ANSWER, (), "no cell is lit"))
    # A cell is lit iff its number equals the lit cells in its 3x3 neighbourhood, itself included.
    for r in range(p.rows):
        for c in range(p.cols):
            count = sum(
                1
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if _inside(p, rr, cc) and (rr, cc) in lit
            )
            n = p.numbers[r][c]
            is_lit = (r, c) in lit
            if is_lit != (count == n):
                state = "lit" if is_lit else "unlit"
                out.append(Violation(Rule.LIT_IFF_BROKEN, ((r, c),), f"{state} cell {(r, c)} has number {n} and {count} lit in its 3x3 block"))
    return out
