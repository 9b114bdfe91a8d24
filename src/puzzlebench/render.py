"""Pictures of puzzles and answers: plain text for the terminal, SVG for notebooks.

Both show walls, numbers, bulbs, lit cells and black cells; cells named by violations are
marked (``!`` in text, red in SVG). :func:`show` wraps a puzzle and an answer for Jupyter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Iterable

from .model import Kuromasu, LightBulbs, LightUp, Puzzle, Solution, Violation
from .model.grid import Cell

CELL = 28  # SVG cell size in pixels
MAX_NOTES = 10  # violations listed under a shown answer


def _cells(solution: Solution | Iterable[Cell] | None) -> frozenset[Cell]:
    if solution is None:
        return frozenset()
    return solution.cells if isinstance(solution, Solution) else frozenset(tuple(c) for c in solution)


def _bad_cells(violations: Iterable[Violation]) -> frozenset[Cell]:
    return frozenset(cell for v in violations for cell in v.cells)


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


def _glyph(puzzle: Puzzle, cell: Cell, marked: frozenset[Cell], lit: frozenset[Cell]) -> str:
    """One cell's text: the clue, the answer's mark, or the background."""
    if isinstance(puzzle, LightUp):
        if cell in puzzle.numbers:
            return str(puzzle.numbers[cell])
        if cell in puzzle.walls:
            return "#"
        return "*" if cell in marked else "+" if cell in lit else "."
    if isinstance(puzzle, Kuromasu):
        if cell in marked:
            return "#"
        if cell in puzzle.numbers:
            return str(puzzle.numbers[cell])
        return "?" if cell in puzzle.unknown else "."
    assert isinstance(puzzle, LightBulbs)
    n = str(puzzle.number(cell))
    return f"({n})" if cell in marked else n


def render_text(puzzle: Puzzle, solution: Solution | Iterable[Cell] | None = None,
                violations: Iterable[Violation] = ()) -> str:
    """The board as text: ``#`` wall/black, numbers, ``*`` bulb, ``+`` lit, ``(n)`` lit LightBulb;
    cells in ``violations`` get a ``!`` after them."""
    marked = _cells(solution)
    bad = _bad_cells(violations)
    lit = lit_cells(puzzle, marked) if isinstance(puzzle, LightUp) else frozenset()
    rows = [[_glyph(puzzle, (r, c), marked, lit) + ("!" if (r, c) in bad else "") for c in range(puzzle.cols)]
            for r in range(puzzle.rows)]
    width = max(len(t) for row in rows for t in row)
    return "\n".join(" ".join(t.rjust(width) for t in row) for row in rows)


def render_svg(puzzle: Puzzle, solution: Solution | Iterable[Cell] | None = None,
               violations: Iterable[Violation] = (), cell_size: int = CELL) -> str:
    """The board as an SVG picture (lit cells shaded yellow, violations outlined in red)."""
    marked = _cells(solution)
    bad = _bad_cells(violations)
    lit = lit_cells(puzzle, marked) if isinstance(puzzle, LightUp) else frozenset()
    s = cell_size
    w, h = puzzle.cols * s, puzzle.rows * s
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2}" height="{h + 2}" '
           f'viewBox="-1 -1 {w + 2} {h + 2}" font-family="sans-serif">']
    from .formats.base import safe_name

    name = safe_name(puzzle.name)  # control characters are not even allowed in XML
    if name:
        out.append(f"<title>{escape(name)}</title>")
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            cell, x, y = (r, c), c * s, r * s
            dark = (isinstance(puzzle, LightUp) and cell in puzzle.walls) or (isinstance(puzzle, Kuromasu) and cell in marked)
            fill = "#222" if dark else "#fff3a0" if cell in lit or (isinstance(puzzle, LightBulbs) and cell in marked) else "#fff"
            out.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{fill}" stroke="#999" stroke-width="1"/>')
            text = None
            if isinstance(puzzle, LightUp) and cell in puzzle.numbers:
                text = str(puzzle.numbers[cell])
            elif isinstance(puzzle, Kuromasu) and cell in puzzle.numbers:
                text = str(puzzle.numbers[cell])
            elif isinstance(puzzle, Kuromasu) and cell in puzzle.unknown:
                text = "?"
            elif isinstance(puzzle, LightBulbs):
                text = str(puzzle.number(cell))
            if isinstance(puzzle, LightUp) and cell in marked and cell not in puzzle.walls:
                out.append(f'<circle cx="{x + s / 2}" cy="{y + s / 2}" r="{s * 0.32:.1f}" fill="#e8a800" stroke="#7a5800"/>')
            if text is not None:
                colour = "#fff" if dark else "#000"
                out.append(f'<text x="{x + s / 2}" y="{y + s * 0.68:.1f}" font-size="{s * 0.5:.0f}" '
                           f'text-anchor="middle" fill="{colour}">{text}</text>')
            if cell in bad:
                out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{s - 4}" height="{s - 4}" fill="red" '
                           f'fill-opacity="0.25" stroke="red" stroke-width="2"/>')
    out.append(f'<rect x="0" y="0" width="{w}" height="{h}" fill="none" stroke="#000" stroke-width="2"/>')
    out.append("</svg>")
    return "\n".join(out)


@dataclass(frozen=True)
class Shown:
    """A puzzle with an answer, displayed as SVG in Jupyter and as text elsewhere."""

    puzzle: Puzzle
    solution: Solution | None = None
    violations: tuple[Violation, ...] = field(default=())

    def _repr_svg_(self) -> str:
        return render_svg(self.puzzle, self.solution, self.violations)

    def __repr__(self) -> str:
        text = render_text(self.puzzle, self.solution, self.violations)
        notes = "".join(f"\n{v}" for v in self.violations[:MAX_NOTES])
        if len(self.violations) > MAX_NOTES:
            notes += f"\n... and {len(self.violations) - MAX_NOTES} more violation(s)"
        return text + notes

    __str__ = __repr__


def show(puzzle: Puzzle, solution: Solution | Iterable[Cell] | None = None, check: bool = True) -> Shown:
    """Display ``puzzle`` with ``solution``; with ``check``, the verifier's complaints are marked."""
    answer = None if solution is None else solution if isinstance(solution, Solution) else puzzle.solution(solution)
    violations = tuple(puzzle.verify(answer)) if (check and answer is not None) else ()
    return Shown(puzzle, answer, violations)
