"""The shared puzzle model: geometry, the three families, their solutions and verifiers."""

from .base import Family, Puzzle, Rule, Solution, Violation
from .grid import Cell, Direction, Grid, Segment
from .kuromasu import Kuromasu, KuromasuSolution
from .lightbulbs import LightBulbs, LightBulbsSolution
from .lightup import LightUp, LightUpSolution
from .verify import verify

PUZZLE_TYPES: dict[Family, type[Puzzle]] = {
    Family.LIGHTUP: LightUp,
    Family.KUROMASU: Kuromasu,
    Family.LIGHTBULBS: LightBulbs,
}

__all__ = [
    "Cell", "Direction", "Family", "Grid", "Kuromasu", "KuromasuSolution", "LightBulbs",
    "LightBulbsSolution", "LightUp", "LightUpSolution", "PUZZLE_TYPES", "Puzzle", "Rule",
    "Segment", "Solution", "Violation", "verify",
]
