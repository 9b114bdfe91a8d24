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
    # a bulb sees the other open cells of its row segment and its column segment
    segments = p.grid.segments(p.is_open)
    segments_of: dict[Cell, list[int]] = {}
    for i, segment in enumerate(segments):
        for cell in segment.cells:
            segments_of.setdefault(cell, []).append(i)
    around = {wall: [x for x in p.grid.neighbours4(wall) if p.is_open(x)] for wall in p.numbers}
    walls_of: dict[Cell, list[Cell]] = {}
    for wall, cells in around.items():
        for x in cells:
            walls_of.setdefault(x, []).append(wall)
    due = list(p.numbers)  # the numbers to look at again
    while due:
        wall = due.pop()
        n = p.numbers[wall]
        on = sum(1 for x in around[wall] if settled.get(x) is True)
        free = [x for x in around[wall] if x not in settled]
        if on > n or on + len(free) < n:
            return Deductions("rules", settled, {}, f"the {n} at {wall} cannot get its bulbs")
        # all its free neighbours are bulbs (as many as still due) or none is (all placed)
        value = True if on + len(free) == n else False if on == n else None
        if value is None:
            continue
        changed: list[Cell] = []
        for x in free:
            settled[x] = value
            changed.append(x)
            if value:  # no other bulb in a bulb's sight
                for y in (y for i in segments_of[x] for y in segments[i].cells if y != x):
                    if settled.get(y) is True:
                        return Deductions("rules", settled, {}, f"bulbs at {x} and {y} see each other")
                    if y not in settled:
                        settled[y] = False
                        changed.append(y)
        due.extend(w for x in changed for w in walls_of.get(x, ()))
    return Deductions("rules", settled)


register_deducer(
    "lightup",
    "rules",
    rules,
    "numbered walls' bulbs (0: none; as many open neighbours as due: all), no bulb in a placed bulb's sight",
    default=True,
)
