"""The ASP backend: clingo grounds an :class:`AspProgram` and enumerates its answer sets.

One ``Control`` per puzzle. Rules and facts are added as one text and grounded once (grounding
cannot be interrupted from inside: the deadline is checked before and after it, and the
benchmark runner enforces the hard limit). Answers are enumerated natively, with clasp's
projective enumeration on the shown atoms (``--project=show``; every program shows only its
decision predicate), so auxiliary atoms never multiply the count; the harness's watchdog
interrupts the search at the deadline. clasp's preset configurations are registered as solvers
of their own (``clingo-crafty``, ...), which set the ``configuration`` option.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from ..encodings.base import Option
from ..errors import EncodingError
from ..model import Cell
from .base import Backend

if TYPE_CHECKING:
    import clingo

    from ..encodings.asp import AspProgram

CONFIGURATIONS = ("auto", "frumpy", "jumpy", "tweety", "trendy", "crafty", "many", "handy")
HEURISTICS = ("auto", "Berkmin", "Vmtf", "Vsids", "Domain", "Unit", "None")


class ClingoBackend(Backend):
    """clingo (Potassco) through its Python API, single-threaded."""

    paradigm: ClassVar[str] = "asp"
    name: ClassVar[str] = "clingo"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "configuration",
            "auto",
            CONFIGURATIONS,
            "clasp's preset configuration (--configuration; auto: the encoding's preferred preset "
            "if it names one, else clasp's own choice)",
        ),
        Option(
            "heuristic",
            "auto",
            HEURISTICS,
            "clasp's decision heuristic (--heuristic; auto keeps the preset's)",
        ),
        Option("seed", 0, description="clasp's random seed (--seed)"),
    )

    def __init__(self, options, settings=None):
        super().__init__(options, settings)
        self._ctl: clingo.Control | None = None
        self._artifact: AspProgram | None = None
        self._stats: dict[str, Any] = {}
        self._times: dict[str, float] = {}
        self._search: Generator[frozenset[Cell], None, None] | None = None
        self._config = ""

    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("clingo") is not None

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return None if cls.supported() else "clingo is not installed (pip install clingo)"

    @classmethod
    def version(cls) -> str:
        import clingo

        return clingo.__version__

    def _configuration(self) -> str:
        asked, fixed = self.options.get("configuration", "auto"), self.settings.get("configuration")
        if fixed and asked not in ("auto", fixed):
            raise EncodingError(
                f"solver clingo-{fixed} runs --configuration={fixed}; got configuration={asked}"
            )
        return fixed or asked

    @classmethod
    def solver_version(cls, settings) -> str:
        config = settings.get("configuration")
        return cls.version() + (f" --configuration={config}" if config else "")

    @classmethod
    def load(cls) -> None:
        import clingo  # noqa: F401  (the import is the point: not billed to the first solve)

    def _arguments(self, artifact: AspProgram) -> list[str]:
        config = self._configuration()
        if config == "auto" and artifact.configuration:  # the encoding's preference, unless one was asked
            config = artifact.configuration
        self._config = config
        args = ["--project=show", "--parallel-mode=1", f"--configuration={config}"]
        heuristic = self.options.get("heuristic", "auto")
        if heuristic != "auto":
            args.append(f"--heuristic={heuristic}")
        seed = int(self.options.get("seed", 0))
        if seed:
            args.append(f"--seed={seed}")
        # the encoding's own needs (e.g. --heuristic=Domain for #heuristic directives) come last
        return args + list(artifact.args)

    def build(self, artifact: AspProgram, deadline: float | None) -> None:
        """Add the program and facts, register the propagator, ground."""
        import clingo

        self._artifact = artifact
        if deadline is not None and time.perf_counter() >= deadline:
            self.timed_out = True
            return
        ctl = clingo.Control(self._arguments(artifact), logger=_quiet)
        self._ctl = ctl
        ctl.add("base", [], artifact.program())
        if artifact.propagator is not None:
            if hasattr(artifact.propagator, "deadline"):  # a propagator that bounds its own work by it
                artifact.propagator.deadline = deadline
            ctl.register_propagator(artifact.propagator)
        t0 = time.perf_counter()
        ctl.ground([("base", [])])
        self._times["ground"] = time.perf_counter() - t0
        if deadline is not None and time.perf_counter() >= deadline:
            self.timed_out = True

    def native_enumeration(self) -> bool:
        return True

    def enumerate(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        # kept so that statistics can first close a search the caller stopped early
        self._search = self._enumerate(limit, deadline)
        return self._search

    def _enumerate(self, limit: int, deadline: float | None) -> Generator[frozenset[Cell], None, None]:
        ctl, art = self._ctl, self._artifact
        assert ctl is not None and art is not None, "build() first"
        ctl.configuration.solve.models = str(limit)  # type: ignore[union-attr]  # clingo's stub: str | Configuration | None
        predicate, arity, to_cell = art.predicate, art.arity, art.to_cell

        def cells(model: clingo.Model) -> frozenset[Cell]:
            # Model objects die after the model callback: copy the cells out now
            return frozenset(to_cell(s) for s in model.symbols(shown=True) if s.match(predicate, arity))

        t0 = time.perf_counter()
        seen: set[frozenset[Cell]] = set()
        try:
            with ctl.solve(yield_=True) as handle:
                for model in handle:
                    answer = cells(model)
                    if answer in seen:  # projection is on the shown atoms: more than the answer is shown
                        raise EncodingError(
                            f"the program reports the same {predicate}/{arity} answer twice: it must #show "
                            f"{predicate}/{arity} only (the harness projects on the shown atoms)"
                        )
                    seen.add(answer)
                    yield answer
                result = handle.get()
            # stopped by the watchdog or by interrupt(): the search space was not explored
            self.timed_out = bool(result.interrupted)
            self.exhausted = bool(result.exhausted) and not result.interrupted
        finally:
            self._times["solve_calls"] = time.perf_counter() - t0

    def _statistics(self) -> dict[str, Any]:
        """clingo's statistics of the last solve call, read once (after the harness's clock stops)."""
        if self._search is not None:
            self._search.close()  # ends the solve call (its handle) if the caller stopped early
            self._search = None
        if not self._stats and self._ctl is not None:
            self._stats = self._ctl.statistics
        return self._stats

    def interrupt(self) -> None:
        if self._ctl is not None:
            self._ctl.interrupt()

    def size(self) -> dict[str, int]:
        lp = self._statistics().get("problem", {}).get("lp", {})
        return {key: int(lp[key]) for key in ("atoms", "rules", "bodies") if key in lp}

    def search(self) -> dict[str, float]:
        solvers = self._statistics().get("solving", {}).get("solvers", {})
        return {key: float(solvers[key]) for key in ("choices", "conflicts", "restarts") if key in solvers}

    def extra(self) -> dict[str, Any]:
        stats = self._statistics()
        out: dict[str, Any] = {f"time_{key}": value for key, value in self._times.items()}
        if self._config:
            out["clasp_configuration"] = self._config  # the preset the search ran
        lp = stats.get("problem", {}).get("lp", {})
        out.update(
            {key: int(lp[key]) for key in ("atoms_aux", "eqs", "rules_choice", "rules_acyc") if key in lp}
        )
        summary = stats.get("summary", {})
        out.update({f"clasp_{key}": value for key, value in summary.get("times", {}).items()})
        if "models" in summary:
            out["models_enumerated"] = int(summary["models"]["enumerated"])
        propagator = self._artifact.propagator if self._artifact else None
        if propagator is not None and hasattr(propagator, "stats"):
            out.update(propagator.stats())  # its own counters, as the SAT backend reports its engine's
        return out

    def close(self) -> None:
        if self._search is not None:
            self._search.close()
            self._search = None
        self._ctl = None


def _quiet(code: clingo.MessageCode, message: str) -> None:
    """Drop clingo's informational warnings (e.g. atoms that never occur in a head)."""
