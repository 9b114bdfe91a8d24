"""What the ASP encodings hand to the clingo backend: program files, facts and decision atoms.

The rules live in ``.lp`` files shipped as package data beside this module; the Python side
only writes a puzzle's facts as one string, so the backend adds both and grounds them once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ...errors import EncodingError
from ...model import Cell
from ..base import Artifact

if TYPE_CHECKING:
    import clingo


def cell_of(symbol: clingo.Symbol) -> Cell:
    """The 0-based cell of a decision atom ``p(R,C)`` written with 0-based coordinates."""
    row, col = symbol.arguments
    return (row.number, col.number)


def cell_of_1based(symbol: clingo.Symbol) -> Cell:
    """The 0-based cell of a decision atom ``p(X,Y)`` written 1-based (seed 000's coordinates)."""
    row, col = symbol.arguments
    return (row.number - 1, col.number - 1)


@dataclass
class AspProgram(Artifact):
    """An ASP encoding of one puzzle.

    ``files`` are ``.lp`` resources of this package (the rules), ``text`` more rules (a
    researcher's own file, read by :mod:`puzzlebench.encodings.files`); ``facts`` the puzzle as ground
    facts; answers are read from the atoms ``predicate/arity`` (the only ``#show``-n atoms),
    which ``to_cell`` maps back to 0-based cells. Enumeration projects on those atoms, so
    auxiliary atoms never multiply the count. ``args`` are extra clingo command-line options
    the encoding needs (e.g. ``--heuristic=Domain``); ``propagator`` an optional
    ``clingo.Propagator`` registered before grounding; ``configuration`` the clasp preset the
    encoding runs best on, used when the solver's ``configuration`` option is ``auto``.

    ``decision`` (from :class:`Artifact`) stays empty: the decision handle of cell ``(r, c)`` is
    the atom ``predicate(r, c)`` itself.
    """

    files: tuple[str, ...] = ()
    text: str = ""
    facts: str = ""
    predicate: str = ""
    arity: int = 2
    to_cell: Callable[[clingo.Symbol], Cell] = cell_of
    args: tuple[str, ...] = ()
    propagator: Any = None
    configuration: str = ""

    def fix(self, settled: Mapping[Cell, bool]) -> int:
        """The settled cells as integrity constraints on the answer atoms (``:- not p(R,C).`` for a
        marked cell, ``:- p(R,C).`` for an unmarked one), in the atoms' own coordinates."""
        shift = 1 if self.to_cell is cell_of_1based else 0
        lines = [
            f":- {'not ' if on else ''}{self.predicate}({r + shift},{c + shift})."
            for (r, c), on in sorted(settled.items())
        ]
        self.text = "\n".join([self.text, "% the deduction stage's settled cells", *lines])
        return len(lines)

    def program(self) -> str:
        """The rules of all files followed by the facts, as one text."""
        return "\n".join([*(load(name) for name in self.files), self.text, self.facts])


@cache
def load(name: str) -> str:
    """The text of one ``.lp`` file of this package."""
    try:
        return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EncodingError(f"ASP program file {name!r} is missing from the package") from None
