"""The puzzlekit peer: puzzlekit's own CP-SAT models of Akari and Kuromasu, in process.

puzzlekit's public ``solve()`` builds its model and runs CP-SAT once, so this backend finds
**one** answer and proves nothing about uniqueness: asked for ``count > 1`` it still returns at
most one answer and leaves ``exhausted`` False. The one proof it can give is infeasibility
(CP-SAT's INFEASIBLE status), which does set ``exhausted``. CP-SAT runs with one worker unless
``num_workers`` says otherwise; the deadline becomes CP-SAT's time limit (puzzlekit's model
building is not interruptible, as it runs inside the same call).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from typing import Any, ClassVar

from ..encodings.base import Option
from ..encodings.puzzlekit import PUZZLE_TYPES, PuzzlekitArtifact
from ..model import Cell
from .base import Backend

#: The puzzlekit puzzle types our encodings build (encodings/puzzlekit.py).

#: CP-SAT statuses that carry an answer, and the one that proves there is none.
_ANSWERED = ("OPTIMAL", "FEASIBLE")
_PROVED_NONE = "INFEASIBLE"
_NO_LIMIT = 365 * 24 * 3600.0
#: The status words of puzzlekit's iterative MIP solvers (Hitori: SCIP with connectivity cuts),
#: as CP-SAT status names.
_ITERATIVE = {
    "Optimal": "OPTIMAL",
    "Feasible": "FEASIBLE",
    "Infeasible": "INFEASIBLE",
    "Timeout": "UNKNOWN",
    "Not Solved (Max Iterations)": "UNKNOWN",
}


class PuzzlekitBackend(Backend):
    """puzzlekit's solver classes (``puzzlekit.solvers.get_solver_class``) behind the interface."""

    paradigm: ClassVar[str] = "puzzlekit"
    name: ClassVar[str] = "puzzlekit"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("num_workers", 1, description="CP-SAT search workers (1 = single-threaded, comparable)"),
    )

    def __init__(self, options, settings=None):
        super().__init__(options, settings)
        self._artifact: PuzzlekitArtifact | None = None
        self._solver: Any = None  # puzzlekit's PuzzleSolver instance
        self._outcome: dict[str, Any] = {}

    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("puzzlekit") is not None

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if cls.supported():
            return None
        return "puzzlekit is not installed (pip install 'puzzlebench[peers]' or puzzlekit==0.3.4)"

    @classmethod
    def version(cls) -> str:
        import ortools
        import puzzlekit

        ortools_version = ortools.__version__  # type: ignore[attr-defined]  # not in ortools's py.typed
        return f"puzzlekit {puzzlekit.__version__}, ortools {ortools_version}"

    @classmethod
    def load(cls) -> None:
        # puzzlekit imports each puzzle's model (and OR-Tools) on first request
        from puzzlekit.solvers import get_solver_class

        for puzzle_type in PUZZLE_TYPES.values():
            get_solver_class(puzzle_type)

    def build(self, artifact: PuzzlekitArtifact, deadline: float | None) -> None:
        """Instantiate puzzlekit's solver for the grid (it validates the grid here)."""
        from puzzlekit.solvers import get_solver_class

        self._artifact = artifact
        solver_class = get_solver_class(artifact.puzzle_type)
        self._solver = solver_class(num_rows=artifact.rows, num_cols=artifact.cols, grid=artifact.grid)

    def native_enumeration(self) -> bool:
        return True

    def enumerate(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        assert self._artifact is not None and self._solver is not None, "build() first"
        left = self.remaining(deadline)
        options = {
            # no limit: a year (puzzlekit's iterative MIP solvers turn the limit into integer ms)
            "time_limit_sec": _NO_LIMIT if left is None else max(left, 1e-3),
            "num_workers": int(self.options.get("num_workers", 1)),
        }
        result = self._solver.solve(solver_options=options)
        self._outcome = dict(result.solution_data)
        proto = getattr(self._cp_solver, "response_proto", None)  # None: an iterative MIP solver
        status = (
            proto.status.name
            if proto is not None
            else _ITERATIVE.get(str(self._outcome.get("status")), "ERROR")
        )
        if status in _ANSWERED:
            yield self._decode(result.sol_grid.matrix)
        elif status == _PROVED_NONE:
            self.exhausted = True
        elif status == "UNKNOWN":
            self.timed_out = True
        else:
            raise RuntimeError(f"puzzlekit/CP-SAT ended with status {status}")

    def _decode(self, matrix: list[list[str]]) -> frozenset[Cell]:
        """The decision cells puzzlekit's answer grid marks (bulb 'o' / black 'x')."""
        art = self._artifact
        assert art is not None
        return frozenset(cell for cell in art.decision if str(matrix[cell[0]][cell[1]]) == art.marked)

    @property
    def _cp_solver(self):
        return getattr(self._solver, "solver", None)

    def interrupt(self) -> None:
        if self._cp_solver is not None:
            self._cp_solver.stop_search()

    def size(self) -> dict[str, int]:
        out = {}
        if "num_vars" in self._outcome:
            out["variables"] = int(self._outcome["num_vars"])
        if "num_constrs" in self._outcome:
            out["constraints"] = int(self._outcome["num_constrs"])
        return out

    def search(self) -> dict[str, float]:
        solver = self._cp_solver
        if solver is None or not self._outcome:
            return {}
        response = solver.response_proto
        return {
            "choices": float(response.num_branches),
            "conflicts": float(response.num_conflicts),
            "propagations": float(response.num_binary_propagations + response.num_integer_propagations),
            "restarts": float(response.num_restarts),
        }

    def extra(self) -> dict[str, Any]:
        names = {
            "build_time": "puzzlekit_build_time",
            "wall_time": "cpsat_wall_time",
            "cpu_time": "cpsat_user_time",
        }
        out: dict[str, Any] = {
            ours: float(self._outcome[theirs]) for theirs, ours in names.items() if theirs in self._outcome
        }
        if "status" in self._outcome:
            out["puzzlekit_status"] = self._outcome["status"]
        return out
