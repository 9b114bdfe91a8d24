"""Hitori's Latin rule on the board, shared by its encodings: which cells share a number in a
line, and the consequences of the rules every paradigm may state up front.

Only cells whose number repeats in a row or column take part in the rule "no number twice among
the unshaded cells of a line": :func:`repeated_groups` lists them. A cell without a number
(:data:`puzzlebench.model.hitori.BLANK`) repeats nothing, so it is in no group and no deduction
starts from it. The deductions below follow strictly from the three rules (they remove no
answer), each with its argument:

* a cell between two equal numbers in a line (``a x a``) is unshaded: at most one of the two
  ``a`` stays unshaded, so one is shaded, and a shaded ``x`` would touch it;
* beside two adjacent equal numbers in a line (``a a``), every other ``a`` of that line is
  shaded: the pair cannot be shaded together (they touch), so one ``a`` of the pair stays
  unshaded, and no second ``a`` may stay unshaded in the line.
"""

from __future__ import annotations

from .. import deduce as deduction
from ..model import Cell, Hitori


def repeated_groups(puzzle: Hitori) -> list[list[Cell]]:
    """Per row, then per column, the groups of two or more cells holding the same number."""
    groups: list[list[Cell]] = []
    for line in puzzle.lines():
        by_number: dict[int, list[Cell]] = {}
        for cell in line:
            if not puzzle.blank(cell):
                by_number.setdefault(puzzle.number(cell), []).append(cell)
        groups.extend(cells for cells in by_number.values() if len(cells) > 1)
    return groups


def forced_unshaded(puzzle: Hitori) -> set[Cell]:
    """Cells between two equal numbers of their row or column (``a x a``)."""
    out: set[Cell] = set()
    for line in puzzle.lines():
        for before, cell, after in zip(line, line[1:], line[2:]):
            if not puzzle.blank(before) and puzzle.number(before) == puzzle.number(after):
                out.add(cell)
    return out


def forced_shaded(puzzle: Hitori) -> set[Cell]:
    """Cells whose number also sits on two adjacent cells elsewhere in the line (``a a .. a``)."""
    out: set[Cell] = set()
    for line in puzzle.lines():
        for first, second in zip(line, line[1:]):
            n = puzzle.number(first)
            if not puzzle.blank(first) and puzzle.number(second) == n:
                out.update(c for c in line if c not in (first, second) and puzzle.number(c) == n)
    return out


def root(puzzle: Hitori, unshaded: set[Cell]) -> Cell | None:
    """A cell known unshaded to root the connectivity rule at: the one nearest the centre."""
    if not unshaded:
        return None
    mid_r, mid_c = (puzzle.rows - 1) / 2, (puzzle.cols - 1) / 2
    return min(unshaded, key=lambda c: (abs(c[0] - mid_r) + abs(c[1] - mid_c), c))


def known_root(puzzle: Hitori) -> Cell | None:
    """The connectivity root: a cell the deduction stage settled unshaded (the one nearest the
    centre), or None when it settled none (``deduce=none``)."""
    return root(puzzle, set(deduction.current().unmarked))
