"""Board geometry the lazy connectivity rules share: the white regions of a candidate answer.

Encodings use it to find a split candidate's regions and cut them off; the verifier in
``puzzlebench.model.verify`` keeps its own flood fill, so that it shares no code with them.
"""

from __future__ import annotations

from ..model import Cell


def white_regions(rows: int, cols: int, marked: frozenset[Cell]) -> list[list[Cell]]:
    """Orthogonally connected regions of unmarked (white) cells, in row-major order of first cell."""
    seen: set[Cell] = set()
    regions = []
    for start in ((r, c) for r in range(rows) for c in range(cols)):
        if start in marked or start in seen:
            continue
        seen.add(start)
        region, stack = [start], [start]
        while stack:
            r, c = stack.pop()
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nb[0] < rows and 0 <= nb[1] < cols and nb not in marked and nb not in seen:
                    seen.add(nb)
                    region.append(nb)
                    stack.append(nb)
        regions.append(region)
    return regions
