"""What every Nurikabe encoding knows before solving: where each island can reach.

The precomputations are sound (they hold in every answer), each with its reason:

* an island of number n is connected and has n cells, so each of its cells lies fewer than n
  steps from the number along island cells;
* an island holds one number, so it never contains another numbered cell nor a neighbour of one
  (that neighbour, unshaded, would join the two islands); in particular a cell next to two
  different numbers is wall;
* a cell no island can reach is wall;
* two numbers side by side share an island: the puzzle has no answer (``clash``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Container, Iterator, Mapping

from ..model import Cell, Nurikabe, Subgrid
from .base import LazyRule, Option
from .regions import all_rules, connectivity_rule, island_rule

def wall_option(*eager: str) -> Option:
    """The ``connectivity`` option of an encoding whose wall rule is stated by lazy cuts or by
    the paradigm's ``eager`` statements over :func:`wall_region` (rank levels, flow)."""
    described = {"rank": "rank (levels)", "flow": "flow (single-commodity flow)"}
    return Option(
        "connectivity", "lazy", ("lazy", *eager, "none"),
        "how 'the wall is connected' is enforced: lazy (cuts on split candidates), "
        + "".join(f"{described[e]}, " for e in eager) + "none (rule dropped)",
        relaxing=("none",),
    )


@dataclass(frozen=True)
class IslandPlan:
    """``reach[clue]``: cell -> its fewest steps from the clue inside the island's possible cells;
    ``owners[cell]``: the clues whose island may hold the (unnumbered) cell; ``wall``: the
    unnumbered cells no island reaches; ``open``: the unnumbered cells that may be unshaded;
    ``clash``: two numbered cells side by side, if any (then no answer exists)."""

    reach: dict[Cell, dict[Cell, int]]
    owners: dict[Cell, tuple[Cell, ...]]
    wall: frozenset[Cell]
    open: tuple[Cell, ...]
    clash: tuple[Cell, Cell] | None = None

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
        clash = next(((a, b) for a in numbers for b in grid.neighbours4(a) if b in numbers), None)
        return cls(reach, {c: tuple(o) for c, o in owners.items()}, wall,
                   tuple(c for c in candidates if c in owners), clash)

    def steps(self, p: Nurikabe) -> Iterator[tuple[Cell, Cell | None, Cell, bool]]:
        """``(clue, cell, nb, inside)`` for each cell the island of ``clue`` may hold (``cell`` None
        for the number itself) and each unnumbered side-neighbour ``nb`` whose status the island
        decides: an island holding ``cell`` holds an unshaded ``nb`` too when ``inside`` (and
        ``nb`` has several possible owners; with one, owned means unshaded already), and
        needs ``nb`` to be wall when not."""
        for clue, dist in self.reach.items():
            for cell in dist:
                for nb in p.grid.neighbours4(cell):
                    if nb in p.numbers:
                        continue
                    inside = nb in dist
                    if inside and len(self.owners[nb]) == 1:
                        continue
                    yield clue, None if cell == clue else cell, nb, inside


def wall_blocks(p: Nurikabe) -> list[tuple[Cell, Cell, Cell, Cell]]:
    """The 2x2 blocks of unnumbered cells (those with a number are never all wall)."""
    out = []
    for r in range(p.rows - 1):
        for c in range(p.cols - 1):
            block = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            if not any(cell in p.numbers for cell in block):
                out.append(block)
    return out


def lonely_cells(p: Nurikabe, plan: IslandPlan) -> list[tuple[Cell, list[Cell]]]:
    """``(cell, neighbours)`` for the cells that may be unshaded and touch no number: unshaded,
    such a cell needs an unshaded neighbour (its island holds a number besides it)."""
    out = []
    for cell in plan.open:
        around = p.grid.neighbours4(cell)
        if not any(nb in p.numbers for nb in around):
            out.append((cell, around))
    return out


def wall_region(p: Nurikabe, plan: IslandPlan) -> tuple[Subgrid, Cell | None]:
    """The wall as a region for the eager connectivity statements shared with Kuromasu and Hitori:
    the cells that may be wall (numbered cells never are) and a root, a cell wall in every
    answer (one no island reaches), or None when there is none."""
    return Subgrid(p.grid, (c for c in p.grid.all_cells if c not in p.numbers)), min(plan.wall, default=None)


def lazy_rules(p: Nurikabe, markable: Container[Cell], options: Mapping[str, Any]) -> LazyRule | None:
    """The rules an encoding's options leave to lazy cuts, as one: the wall's connectivity
    (``connectivity=lazy``) and the islands' (``islands=lazy``); None when there is neither."""
    return all_rules(
        connectivity_rule(p.rows, p.cols, markable, isolated=False, of_marked=True)
        if options["connectivity"] == "lazy" else None,
        island_rule(p.rows, p.cols, p.numbers) if options["islands"] == "lazy" else None,
    )
