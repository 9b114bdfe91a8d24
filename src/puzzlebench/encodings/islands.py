"""What every Nurikabe encoding knows before solving: where each island can reach.

The precomputations are sound (they hold in every answer), each with its reason:

* an island of number n is connected and has n cells, so each of its cells lies fewer than n
  steps from the number along island cells;
* an island holds one number, so it never contains another numbered cell nor a neighbour of one
  (that neighbour, unshaded, would join the two islands); in particular a cell next to two
  different numbers is wall;
* a cell no island can reach is wall.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Cell, Nurikabe


@dataclass(frozen=True)
class IslandPlan:
    """``reach[clue]``: cell -> its fewest steps from the clue inside the island's possible cells;
    ``owners[cell]``: the clues whose island may hold the (unnumbered) cell; ``wall``: the
    unnumbered cells no island reaches; ``open``: the unnumbered cells that may be unshaded."""

    reach: dict[Cell, dict[Cell, int]]
    owners: dict[Cell, tuple[Cell, ...]]
    wall: frozenset[Cell]
    open: tuple[Cell, ...]

    @classmethod
    def of(cls, p: Nurikabe) -> "IslandPlan":
        grid = p.grid
        numbers = p.numbers
        near: dict[Cell, set[Cell]] = {}  # cell -> the numbers it touches
        for clue in numbers:
            for nb in grid.neighbours4(clue):
                near.setdefault(nb, set()).add(clue)
        reach: dict[Cell, dict[Cell, int]] = {}
        for clue, n in numbers.items():
            dist = {clue: 0}
            frontier = [clue]
            for step in range(1, n):  # island cells lie fewer than n steps away
                nxt = []
                for cell in frontier:
                    for nb in grid.neighbours4(cell):
                        # never another number, nor a cell touching another number
                        if nb in dist or nb in numbers or near.get(nb, {clue}) - {clue}:
                            continue
                        dist[nb] = step
                        nxt.append(nb)
                frontier = nxt
            reach[clue] = dist
        owners: dict[Cell, list[Cell]] = {}
        for clue, dist in reach.items():
            for cell in dist:
                if cell != clue:
                    owners.setdefault(cell, []).append(clue)
        candidates = [cell for cell in grid.all_cells if cell not in numbers]
        wall = frozenset(cell for cell in candidates if cell not in owners)
        return cls(reach, {c: tuple(o) for c, o in owners.items()}, wall,
                   tuple(c for c in candidates if c in owners))
