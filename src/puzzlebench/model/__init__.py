"""The shared puzzle model: geometry, the families (one module each, found through
:mod:`puzzlebench.model.family`), their solutions and verifiers."""

from .base import Family, Puzzle, Rule, Solution, Violation
from .family import FamilySpec, family_spec, family_specs, register_family
from .grid import Cell, Direction, Grid, Segment, Subgrid
from .verify import verify

# The built-in families, in the order they are listed everywhere (registration follows import order).
# isort: off
from .lightup import LightUp, LightUpSolution
from .kuromasu import Kuromasu, KuromasuSolution
from .lightbulbs import LightBulbs, LightBulbsSolution
from .hitori import Hitori, HitoriSolution
from .nurikabe import Nurikabe, NurikabeSolution

# isort: on


def puzzle_types() -> dict[Family, type[Puzzle]]:
    """Family -> puzzle class, for every registered family."""
    return {spec.family: spec.puzzle_type for spec in family_specs()}


__all__ = [
    "Cell",
    "Direction",
    "Family",
    "FamilySpec",
    "Grid",
    "Hitori",
    "HitoriSolution",
    "Kuromasu",
    "KuromasuSolution",
    "LightBulbs",
    "LightBulbsSolution",
    "LightUp",
    "LightUpSolution",
    "Nurikabe",
    "NurikabeSolution",
    "Puzzle",
    "Rule",
    "Segment",
    "Solution",
    "Subgrid",
    "Violation",
    "family_spec",
    "family_specs",
    "puzzle_types",
    "register_family",
    "verify",
]
