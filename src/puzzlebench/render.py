"""Pictures of puzzles and answers: plain text for the terminal, SVG for notebooks.

Each family says how its cells look (:class:`~puzzlebench.model.family.CellView`); cells named
by violations are marked (``!`` in text, red in SVG). :func:`show` wraps a puzzle and an answer for Jupyter.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

from .model import Puzzle, Solution, Violation, family_spec
from .model.family import CellView
from .model.grid import Cell
from .model.lightup import lit_cells  # noqa: F401  (kept importable from here)

CELL = 28  # SVG cell size in pixels
MAX_NOTES = 10  # violations listed under a shown answer


def _cells(solution: Solution | Iterable[Cell] | None) -> frozenset[Cell]:
    if solution is None:
        return frozenset()
    return solution.cells if isinstance(solution, Solution) else frozenset(tuple(c) for c in solution)


def _bad_cells(violations: Iterable[Violation]) -> frozenset[Cell]:
    return frozenset(cell for v in violations for cell in v.cells)


def _views(puzzle: Puzzle, marked: frozenset[Cell]) -> list[list[CellView]]:
    """Every cell's view, as its family draws it."""
    spec = family_spec(puzzle)
    context = spec.context(puzzle, marked)
    return [
        [spec.view(puzzle, (r, c), marked, context) for c in range(puzzle.cols)] for r in range(puzzle.rows)
    ]


def render_text(
    puzzle: Puzzle, solution: Solution | Iterable[Cell] | None = None, violations: Iterable[Violation] = ()
) -> str:
    """The board as text, in the family's glyphs (Light Up: ``#`` wall, ``*`` bulb, ``+`` lit;
    Kuromasu: ``#`` black; LightBulbs: ``(n)`` lit); cells in ``violations`` get a ``!``."""
    bad = _bad_cells(violations)
    views = _views(puzzle, _cells(solution))
    rows = [
        [view.text + ("!" if (r, c) in bad else "") for c, view in enumerate(row)]
        for r, row in enumerate(views)
    ]
    width = max(len(t) for row in rows for t in row)
    return "\n".join(" ".join(t.rjust(width) for t in row) for row in rows)


def render_svg(
    puzzle: Puzzle,
    solution: Solution | Iterable[Cell] | None = None,
    violations: Iterable[Violation] = (),
    cell_size: int = CELL,
) -> str:
    """The board as an SVG picture in the family's colours (violations outlined in red)."""
    bad = _bad_cells(violations)
    views = _views(puzzle, _cells(solution))
    s = cell_size
    w, h = puzzle.cols * s, puzzle.rows * s
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2}" height="{h + 2}" '
        f'viewBox="-1 -1 {w + 2} {h + 2}" font-family="sans-serif">'
    ]
    from .formats.base import safe_name

    name = safe_name(puzzle.name)  # control characters are not even allowed in XML
    if name:
        out.append(f"<title>{escape(name)}</title>")
    for r, row in enumerate(views):
        for c, view in enumerate(row):
            x, y = c * s, r * s
            out.append(
                f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{view.fill}" stroke="#999" stroke-width="1"/>'
            )
            if view.disc:
                out.append(
                    f'<circle cx="{x + s / 2}" cy="{y + s / 2}" r="{s * 0.32:.1f}" fill="#e8a800" stroke="#7a5800"/>'
                )
            if view.label is not None:
                out.append(
                    f'<text x="{x + s / 2}" y="{y + s * 0.68:.1f}" font-size="{s * 0.5:.0f}" '
                    f'text-anchor="middle" fill="{view.ink}">{escape(view.label)}</text>'
                )
            if (r, c) in bad:
                out.append(
                    f'<rect x="{x + 2}" y="{y + 2}" width="{s - 4}" height="{s - 4}" fill="red" '
                    f'fill-opacity="0.25" stroke="red" stroke-width="2"/>'
                )
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
    answer = (
        None
        if solution is None
        else solution
        if isinstance(solution, Solution)
        else puzzle.solution(solution)
    )
    violations = tuple(puzzle.verify(answer)) if (check and answer is not None) else ()
    return Shown(puzzle, answer, violations)
