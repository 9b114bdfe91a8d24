"""The independent verifier: bounds here, each family's rules in its own module.

The families' verifiers share no code with the encodings (not even the grid helpers of
``model.grid``): each rule is checked by walking the board with the small helpers below, and
every broken rule is reported with the cells involved. A family may also give a quick check
(``FamilySpec.accepts``) of the same rules that only says yes or no: every answer a solver
returns goes through the verifier, and most are valid, so the detailed walk runs only for an
answer the quick check rejects.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from .base import OUT_OF_BOUNDS, Puzzle, Solution, Violation
from .grid import Cell

#: The four orthogonal steps.
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def verify(puzzle: Puzzle, answer: Solution | Iterable[Cell]) -> list[Violation]:
    """Every rule that ``answer`` breaks on ``puzzle``; an empty list means it is valid."""
    from .family import family_spec

    cells = answer.cells if isinstance(answer, Solution) else frozenset(tuple(c) for c in answer)
    outside = sorted(c for c in cells if not (0 <= c[0] < puzzle.rows and 0 <= c[1] < puzzle.cols))
    if outside:
        return [
            Violation(
                OUT_OF_BOUNDS, tuple(outside), f"{len(outside)} cell(s) outside the grid, first {outside[0]}"
            )
        ]
    try:
        spec = family_spec(puzzle.family)
    except (AttributeError, ValueError):
        raise TypeError(f"no verifier for {type(puzzle).__name__}") from None
    if spec.accepts is not None and spec.accepts(puzzle, cells):
        return []
    return spec.verify(puzzle, cells)


def inside(puzzle: Puzzle, r: int, c: int) -> bool:
    return 0 <= r < puzzle.rows and 0 <= c < puzzle.cols


def around(puzzle: Puzzle, cell: Cell) -> Iterator[Cell]:
    """The orthogonal neighbours of ``cell`` inside the grid."""
    for dr, dc in STEPS:
        if inside(puzzle, cell[0] + dr, cell[1] + dc):
            yield (cell[0] + dr, cell[1] + dc)


def regions(puzzle: Puzzle, cells: Iterable[Cell]) -> list[list[Cell]]:
    """The orthogonally connected groups of ``cells``, each sorted, in order of their first cell."""
    todo_cells = set(cells)
    out = []
    for start in sorted(todo_cells):
        if start not in todo_cells:
            continue
        todo_cells.discard(start)
        group, queue = [start], deque([start])
        while queue:
            for n in around(puzzle, queue.popleft()):
                if n in todo_cells:
                    todo_cells.discard(n)
                    group.append(n)
                    queue.append(n)
        out.append(sorted(group))
    return out


def adjacent_pairs(puzzle: Puzzle, cells: frozenset[Cell]) -> list[tuple[Cell, Cell]]:
    """Pairs of ``cells`` that share a side, each once."""
    return [((r, c), other) for r, c in sorted(cells) for other in ((r + 1, c), (r, c + 1)) if other in cells]
