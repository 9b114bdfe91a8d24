"""A solver adapter of the demo plugin: python-sat behind puzzlebench's Backend interface.

The harness owns the clock, the enumeration loop, blocking clauses and lazy cuts; a backend
only answers one question at a time (check), reads the model on the decision cells (marked)
and adds clauses over cell literals (add_clause).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, ClassVar

from puzzlebench.solvers.base import Backend


class DemoBackend(Backend):
    paradigm: ClassVar[str] = "sat"
    name: ClassVar[str] = "demo-pysat"

    def __init__(self, options, settings=None):
        super().__init__(options, settings)
        self._solver = None
        self._artifact = None
        self._true: set[int] = set()
        self._lock = threading.Lock()

    @classmethod
    def supported(cls) -> bool:
        try:
            import pysat.solvers  # noqa: F401  (whether it imports is the answer)
        except ImportError:
            return False
        return True

    @classmethod
    def version(cls) -> str:
        import pysat

        from . import __version__

        return f"pb-demo-plugin {__version__} (python-sat {pysat.__version__})"

    @classmethod
    def solver_version(cls, settings: Mapping[str, Any]) -> str:
        import pysat

        return f"{settings.get('solver', 'minisat22')} (python-sat {pysat.__version__})"

    def build(self, artifact: Any, deadline: float | None) -> None:
        from pysat.solvers import Solver

        self._artifact = artifact  # a CnfModel: clauses over artifact.pool, decision {cell: var}
        self._solver = Solver(name=self.settings.get("solver", "minisat22"), bootstrap_with=artifact.clauses)

    def check(self, deadline: float | None) -> bool | None:
        outcome = self._solver.solve_limited(expect_interrupt=True)
        if outcome is None:  # interrupted by the harness's watchdog
            self._solver.clear_interrupt()
        elif outcome:
            self._true = {lit for lit in self._solver.get_model() if lit > 0}
        return outcome

    def marked(self):
        return frozenset(cell for cell, var in self._artifact.decision.items() if var in self._true)

    def add_clause(self, clause) -> None:
        var = self._artifact.decision
        self._solver.add_clause([var[cell] if positive else -var[cell] for cell, positive in clause])

    def interrupt(self) -> None:
        with self._lock:
            if self._solver is not None:
                self._solver.interrupt()

    def size(self) -> dict[str, int]:
        art = self._artifact
        return {"variables": art.pool.top, "clauses": len(art.clauses)} if art is not None else {}

    def close(self) -> None:
        with self._lock:
            if self._solver is not None:
                self._solver.delete()
                self._solver = None
