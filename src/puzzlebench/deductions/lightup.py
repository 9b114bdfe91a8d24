"""Light Up's deductions from the numbered walls, closed under the bulbs' sight lines.

* a 0 has no bulb beside it;
* a number with as many open neighbours left as bulbs still due has a bulb on each of them;
* a number whose bulbs are all placed has none on its other neighbours;
* a bulb's row and column segments hold no other bulb.
"""

from __future__ import annotations

from ..deduce import Deductions, register_deducer
from ..model import Cell, LightUp, Puzzle


def rules(puzzle: Puzzle) -> Deductions:
    assert isinstance(puzzle, LightUp)
    p = puzzle
    settled: dict[Cell, bool] = {}
    sight = {
        cell: [x for ray in p.grid.rays(cell, lambda x: not p.is_open(x)).values() for x in ray]
        for cell in p.open_cells
    }
    changed = True
    while changed:
        changed = False
        for wall, n in p.numbers.items():
            around = [x for x in p.grid.neighbours4(wall) if p.is_open(x)]
            on = sum(1 for x in around if settled.get(x) is True)
            free = [x for x in around if x not in settled]
            if on > n or on + len(free) < n:
                return Deductions("rules", settled, {}, f"the {n} at {wall} cannot get its bulbs")
            value = True if on + len(free) == n else False if on == n else None
            if value is None or not free:
                continue
            for x in free:
                settled[x] = value
                changed = True
        for cell, on in list(settled.items()):
            if on:
                for x in sight[cell]:
                    if settled.get(x) is True:
                        return Deductions("rules", settled, {}, f"bulbs at {cell} and {x} see each other")
                    if x not in settled:
                        settled[x] = False
                        changed = True
    return Deductions("rules", settled)


register_deducer(
    "lightup",
    "rules",
    rules,
    "numbered walls' bulbs (0: none; as many open neighbours as due: all), no bulb in a placed bulb's sight",
    default=True,
)
