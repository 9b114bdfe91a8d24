"""HiGHS behind the backend interface (paradigm ``mip``), through its Python bindings ``highspy``.

The encoding's :class:`~puzzlebench.encodings.mip.common.MipModel` is loaded in bulk (one
``addVars``, one ``changeColsIntegrality``, one ``addRows``). Every question is one ``run()`` of
HiGHS's branch-and-cut on a zero objective: the first feasible point closes the gap, so
"optimal" means "an answer". Clauses over cells (lazy cuts, blocking clauses) become rows
``sum_{pos} x + sum_{neg} (1 - x) >= 1`` over the decision binaries. HiGHS has no incremental
MIP: every ``run()`` starts again (presolve, root node) on the model as it stands.

Enumeration (backend option ``enumeration``):

* ``nogood`` — the harness's loop: each answer is blocked by a no-good row. Fine for a few
  answers; for hundreds the dense rows pile up and every run's root work grows with them (a
  clueless small Kuromasu, with hundreds of answers, takes the better part of a minute).
* ``split`` — the backend enumerates (:meth:`HighsBackend.enumerate`): the subspace an answer
  came from, minus that answer, is split into disjoint subspaces by fixing decision bounds
  (Lawler's partition), so no row piles up (the same board: within a second).
* ``auto`` (default) — a no-good row for the first answer (a uniqueness proof is then one more
  run), splitting after it.

Presolve: HiGHS 1.16's presolve has called feasible models infeasible, so an infeasible verdict
reached with presolve stands only when a run without it confirms it. The runs after the first
answer (a uniqueness proof, the subspaces of an enumeration) mostly end infeasible: by default
they run without presolve from the start (backend option ``proof_presolve``), where the
confirmation would spend the presolved run for nothing (the confirming run alone costs more than
the presolved one). A model may ask for presolve there
(``MipModel.proof_presolve``): Nurikabe's proof goes through lazy rounds, whose runs end on a
candidate, and without presolve each of them solves LPs that presolve would have spared.

How an infeasible verdict reached with presolve is confirmed (backend option ``confirm``, by
default what the model asks for, ``MipModel.confirm``): ``unpresolved`` runs the model again
without presolve, the one confirmation that does not rest on presolve at all; on the bundled
100x100 Kuromasu boards that run never ends (HiGHS's root separation on tens of thousands of
rows), while presolve proves their uniqueness at once, its probing deciding every column.
``reseeded`` runs it again with presolve, another random seed and the lean rules (the false
verdicts seen on janko Nurikabe boards went away with another seed): the verdict then rests on
two presolved runs agreeing, a weaker guarantee, which the record
states (``extra.infeasible_reseeded``); any answer such a run finds is a feasible point all the
same. Nurikabe's model asks for it: its last proof run, presolved, ends infeasible at once, and
without presolve the same run may need a long branch-and-bound on the larger boards.

HiGHS's sub-MIP heuristics (RINS, RENS) run only in the search for the first answer (backend
option ``submip``): a uniqueness proof's runs mostly end infeasible, where they find nothing
and, on the largest boards, take most of the proof's simplex iterations.

A model may carry a guiding objective (``MipModel.guide``: costs that steer the LPs toward likely
answers, Nurikabe's level columns); each run then stops at its first feasible point
(``mip_max_improving_sols=1``), so the question stays one of feasibility. The model says which runs
it steers (backend option ``guide_runs``): Nurikabe's, the search for an answer only. Guided runs go
without presolve's rule for parallel rows and columns, and the reseeded confirmation of a guided
run's infeasible verdict runs without the guide (:meth:`HighsBackend._steer`).

Deadlines: each ``run()`` gets the time left as HiGHS's ``time_limit``, and :meth:`interrupt`
(the harness's watchdog) sets a flag that HiGHS's interrupt callbacks (MIP, simplex and IPM
loops, ``kCallback*Interrupt``) turn into ``user_interrupt``: the run ends with model status
``kInterrupt``. An interrupt is final: later runs answer None at once.

HiGHS runs single-threaded unless ``threads`` says otherwise. Its thread pool is global to the
process and fixed by the first run; a run asking for another size fails (``kError``), so the
backend then resets the global scheduler and runs again (not safe while another HiGHS instance
solves in a thread of the same process; the harness runs one solve per process or in turn).
"""

from __future__ import annotations

import importlib.util
import math
import threading
import time
from collections.abc import Iterator
from typing import Any, ClassVar

from ..encodings.base import CellClause, Option
from ..errors import EncodingError
from ..model import Cell
from .base import Backend

_PRESOLVE = ("choose", "on", "off")
_PROOF_PRESOLVE = ("auto", "off", "same")
_PRESOLVE_RULES = ("auto", "all", "lean")
_CONFIRM = ("auto", "unpresolved", "reseeded")
#: presolve_rules=lean: HiGHS's ``presolve_rule_off`` bits for the aggregator (1 << 12) and the
#: two rules after probing, enumeration and dual fixing (1 << 16, 1 << 17): on Nurikabe boards
#: with a few thousand lazy cut rows, presolve then costs a fraction of its time and leaves about
#: as few rows and columns (docs/decisions)
LEAN_RULES_OFF = (1 << 12) | (1 << 16) | (1 << 17)
_ENUMERATION = ("auto", "nogood", "split")
_GUIDE = ("auto", "always", "search", "off")
#: the presolve rule a guided run goes without (parallel rows and columns, 1 << 13; see HighsBackend._steer)
GUIDED_RULES_OFF = 1 << 13
#: Answers ``enumeration=auto`` blocks with no-good rows before it splits: one, so that a
#: uniqueness proof (count=2) costs one more run on the model plus one row, where splitting
#: would search one subspace per decision cell.
NOGOOD_ANSWERS = 1


def _new_highs() -> Any:
    """A HiGHS instance that logs nothing.

    ``highspy.Highs()`` prints HiGHS's banner while it is being constructed (it installs its
    callback dispatcher, a logging call, before any option can be set; ERGO-Code/HiGHS#2749).
    Its base class, the plain binding, is used instead when present: it logs nothing until
    called, and ``output_flag`` is switched off first.
    """
    import highspy

    base = next((cls for cls in highspy.Highs.__mro__ if cls.__name__ == "_Highs"), highspy.Highs)
    highs = base()
    highs.setOptionValue("output_flag", False)
    return highs


def load_model(highs: Any, model: Any) -> None:
    """Load a :class:`~puzzlebench.encodings.mip.common.MipModel` into ``highs`` in bulk: one
    ``addVars``, one ``changeColsIntegrality``, one ``addRows``."""
    import highspy
    import numpy as np

    n = model.num_cols
    if n:
        highs.addVars(
            n, np.asarray(model.col_lower, dtype=np.float64), np.asarray(model.col_upper, dtype=np.float64)
        )
        integer = np.flatnonzero(np.asarray(model.integer, dtype=bool)).astype(np.int32)
        if len(integer):
            kind = np.full(len(integer), int(highspy.HighsVarType.kInteger), dtype=np.uint8)
            highs.changeColsIntegrality(len(integer), integer, kind)
    if model.num_rows:
        highs.addRows(
            model.num_rows,
            np.asarray(model.row_lower, dtype=np.float64),
            np.asarray(model.row_upper, dtype=np.float64),
            model.num_nonzeros,
            np.asarray(model.starts[:-1], dtype=np.int32),
            np.asarray(model.index, dtype=np.int32),
            np.asarray(model.value, dtype=np.float64),
        )


class HighsBackend(Backend):
    """HiGHS (``highspy``) solving a :class:`MipModel`."""

    paradigm: ClassVar[str] = "mip"
    name: ClassVar[str] = "highs"
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "threads",
            1,
            description="HiGHS threads (1 = single-threaded, comparable across paradigms; "
            "0 = HiGHS's choice)",
        ),
        Option("seed", 0, description="HiGHS random_seed"),
        Option("presolve", "choose", _PRESOLVE, "HiGHS presolve: choose (HiGHS decides), on, off"),
        # auto: a model whose proof runs end on lazy-round candidates (Nurikabe) asks for presolve
        # there, which spares each run LPs; otherwise off, the confirmation costing a second run
        # (docs/decisions)
        Option(
            "proof_presolve",
            "auto",
            _PROOF_PRESOLVE,
            "presolve in the runs after the first answer (a uniqueness proof, the subspaces of an enumeration): "
            "off (run without presolve from the start: an infeasible verdict under presolve is confirmed by a "
            "run without it anyway, so the presolved run is spent twice), same (the presolve option, with that "
            "confirmation: the proof's runs that end on a candidate of the lazy rounds stay cheap) or auto "
            "(what the encoding asks for, MipModel.proof_presolve; off unless it says)",
        ),
        Option(
            "confirm",
            "auto",
            _CONFIRM,
            "how an infeasible verdict reached with presolve is confirmed: unpresolved (a run without presolve: "
            "does not rest on presolve, but can take far longer than the presolved run), reseeded (a second "
            "presolved run with another random seed and the lean rules; recorded as extra.infeasible_reseeded) "
            "or auto (what the encoding asks for, MipModel.confirm; unpresolved unless it says)",
        ),
        Option(
            "presolve_rules",
            "auto",
            _PRESOLVE_RULES,
            "the rules HiGHS's presolve may use: all, lean (no aggregator, enumeration or dual fixing: a model "
            "whose lazy cut rows pile up is presolved again every round, and on big boards these rules cost two "
            "thirds of it) or auto (what the encoding asks for, MipModel.presolve_rules; all unless it says)",
        ),
        # off by default: the jump helps some boards and slows others, more in all (docs/decisions)
        Option(
            "probe",
            "off",
            ("off", "jump"),
            "before each presolved run of the search for a first answer: off, or jump (a run without presolve "
            "stopped before any simplex iteration, so that only HiGHS's feasibility jump looks for a point; "
            "presolve then runs only when it finds none: with many lazy rounds, presolving the rows that "
            "pile up costs more than the jump)",
        ),
        # auto: a shorter blocking row where every answer has as many wall cells, a tighter cut that
        # proves as many boards or more (docs/decisions)
        Option(
            "block",
            "auto",
            ("auto", "full"),
            "the row that blocks an answer: full (the no-good over every decision cell) or auto (where the "
            "model says every answer marks as many cells, MipModel.fixed_marks: one of the answer's marked "
            "cells turns unmarked, or one of its unmarked cells marked, whichever side is smaller; on 0/1 "
            "points of the model it excludes the same, and where the rows imply the count its LP relaxation is "
            "twice as tight: the uniqueness proof's LPs are what a proof costs without presolve)",
        ),
        Option(
            "start",
            "off",
            ("off", "repair", "always"),
            "the run after a lazy round: off (HiGHS starts from nothing), always (a partial MIP start: the "
            "previous candidate's values on the decision cells that the round's cut rows do not name nor touch, "
            "which HiGHS tries to complete by a sub-MIP on the cells left free; a start only steers the search, "
            "every answer is still a feasible point of the model and passes the lazy rule), or repair (that "
            "start only after a run that needed simplex iterations, where HiGHS's heuristics found no point "
            "at the root without them: the sub-MIP costs more than such a run otherwise)",
        ),
        Option(
            "submip",
            "search",
            ("always", "search", "never"),
            "HiGHS's sub-MIP heuristics (RINS and RENS): always, never, or search (only in the runs before the "
            "first answer: the runs of a uniqueness proof mostly end infeasible, where a heuristic finds nothing "
            "and the sub-MIPs can take most of the run)",
        ),
        Option(
            "guide_runs",
            "auto",
            _GUIDE,
            "the model's guiding objective (MipModel.guide: costs that steer HiGHS's LPs toward likely answers; "
            "each run still stops at its first feasible point, any answer as good as another): always (in every "
            "run), search (in the runs before the first answer only), off (the zero objective throughout) or "
            "auto (what the encoding asks for, MipModel.guide_runs)",
        ),
        Option(
            "enumeration",
            "auto",
            _ENUMERATION,
            "how answers are excluded: nogood (the harness's loop: one no-good row per answer, so rows "
            "pile up and every run restarts on a larger model), split (the backend enumerates: the rest "
            "of the subspace an answer came from is split into disjoint subspaces fixed by column bounds, "
            "no rows added), auto (a no-good row for the first answer, so that uniqueness costs one more "
            "run, then split)",
        ),
    )

    def __init__(self, options, settings=None):
        super().__init__(options, settings)
        self._highs: Any = None
        self._cells: list[Cell] = []
        self._column: dict[Cell, int] = {}
        self._columns: Any = None  # numpy index array of the decision columns, in _cells order
        self._lower: Any = None  # the decision columns' bounds as built (restored when unfixed)
        self._upper: Any = None
        self._lazy: Any = None
        self._fixed_marks = False  # MipModel.fixed_marks: every answer marks as many decision cells
        self._proof_presolve = "off"  # the proof_presolve option, auto resolved by the model
        self._confirm = "unpresolved"  # the confirm option, auto resolved by the model
        #: Why the model has no answer without asking HiGHS (a false constant row, an empty clause).
        self._contradiction: str | None = None
        self._stop = threading.Event()
        #: True once an answer is found (by the backend's enumeration) or blocked (by the harness's
        #: loop): the later runs mostly prove emptiness
        self._proving = False
        self._size: dict[str, int] = {}
        self._search: dict[str, float] = {"nodes": 0, "lp_iterations": 0}
        self._extra: dict[str, Any] = {"runs": 0, "rows_added": 0, "highs_time": 0.0}
        #: start=repair: the last candidate (None after a block or a new subspace) and the columns
        #: the rows added since name
        self._candidate: frozenset[Cell] | None = None
        self._touched: set[int] = set()
        self._cells_of: dict[int, Cell] = {}  # MipModel.cells_of
        self._searched = False  # the last run took simplex iterations
        #: MipModel.escalation, the runs made so far and the CPU clock at the first
        self._escalation: Any = None
        self._subspace: Any = None  # the enumeration's fixings of the decision columns searched now
        self._checks = 0
        self._first_check = 0.0
        self._guide_runs = "off"  # the guide_runs option, auto resolved by the model ("off" without a guide)
        self._guide: Any = None  # MipModel.guide as (columns, costs) arrays
        self._resteer = False  # the guide's costs are to be restored before the next run

    # -- availability -------------------------------------------------------------------------
    @classmethod
    def supported(cls) -> bool:
        return importlib.util.find_spec("highspy") is not None

    @classmethod
    def unavailable_reason(cls) -> str | None:
        return None if cls.supported() else "highspy is not installed (pip install highspy)"

    @classmethod
    def version(cls) -> str:
        import highspy

        try:
            return (
                f"{highspy.HIGHS_VERSION_MAJOR}.{highspy.HIGHS_VERSION_MINOR}.{highspy.HIGHS_VERSION_PATCH}"
            )
        except AttributeError:  # older bindings: the package's version
            from importlib.metadata import version

            return version("highspy")

    @classmethod
    def load(cls) -> None:
        import highspy  # noqa: F401  (the import is the point: not billed to the first solve)

    # -- the work -----------------------------------------------------------------------------
    def build(self, artifact: Any, deadline: float | None) -> None:
        """Load the model in bulk and configure HiGHS (silent, threads, seed, presolve)."""
        import numpy as np

        from ..encodings.mip.common import MipModel

        if not isinstance(artifact, MipModel):
            raise EncodingError(f"the mip backend needs a MipModel, got {type(artifact).__name__}")
        threads = int(self.options.get("threads", 1))
        if threads < 0:
            raise EncodingError(f"threads must be >= 1 (or 0 to let HiGHS choose), got {threads}")
        self._cells = list(artifact.decision)
        self._column = dict(artifact.decision)
        col_lower = np.asarray(artifact.col_lower, dtype=np.float64)
        col_upper = np.asarray(artifact.col_upper, dtype=np.float64)
        self._columns = np.fromiter(
            (artifact.decision[c] for c in self._cells), dtype=np.int32, count=len(self._cells)
        )
        self._lower, self._upper = col_lower[self._columns], col_upper[self._columns]
        self._lazy = artifact.lazy
        self._fixed_marks = artifact.fixed_marks
        self._cells_of = dict(artifact.cells_of)
        self._escalation = artifact.escalation
        self._proof_presolve = str(self.options.get("proof_presolve", "auto"))
        if self._proof_presolve == "auto":
            self._proof_presolve = artifact.proof_presolve
        self._confirm = str(self.options.get("confirm", "auto"))
        if self._confirm == "auto":
            self._confirm = artifact.confirm
        self._contradiction = artifact.contradiction
        self._size = {
            "variables": artifact.num_cols,
            "integers": sum(artifact.integer),
            "constraints": artifact.num_rows,
            "nonzeros": artifact.num_nonzeros,
        }

        highs = _new_highs()
        highs.setOptionValue("threads", threads)
        highs.setOptionValue("random_seed", int(self.options.get("seed", 0)))
        highs.setOptionValue("presolve", str(self.options.get("presolve", "choose")))
        rules = str(self.options.get("presolve_rules", "auto"))
        if rules == "auto":
            rules = artifact.presolve_rules
        if rules == "lean":
            highs.setOptionValue("presolve_rule_off", LEAN_RULES_OFF)
        load_model(highs, artifact)
        self._highs = highs
        self._guide_runs = str(self.options.get("guide_runs", "auto"))
        if self._guide_runs == "auto":
            self._guide_runs = artifact.guide_runs
        if not artifact.guide:
            self._guide_runs = "off"
        if self._guide_runs != "off":
            self._guide = (
                np.fromiter(artifact.guide, dtype=np.int32, count=len(artifact.guide)),
                np.fromiter(artifact.guide.values(), dtype=np.float64, count=len(artifact.guide)),
            )
            self._steer(True)
            # a feasibility question all the same: the first feasible point ends the run
            highs.setOptionValue("mip_max_improving_sols", 1)
        self._install_interrupt(highs)
        self._extra["threads"] = threads
        if self.remaining(deadline) == 0.0:
            self.timed_out = True

    def _install_interrupt(self, highs: Any) -> None:
        """Route :meth:`interrupt` to HiGHS: its interrupt callbacks poll the stop flag."""
        from highspy import cb

        stop = self._stop  # the closure holds the flag, not the backend (no reference cycle)

        def on_callback(kind: Any, message: str, data_out: Any, data_in: Any, user_data: Any) -> None:
            if data_in is not None and stop.is_set():
                data_in.user_interrupt = True

        highs.setCallback(on_callback, None)
        for kind in ("kCallbackMipInterrupt", "kCallbackSimplexInterrupt", "kCallbackIpmInterrupt"):
            highs.startCallback(getattr(cb.HighsCallbackType, kind))

    def check(self, deadline: float | None) -> bool | None:
        """One ``run()`` on the model as it stands (rows added, decision bounds fixed): True (a
        feasible point), False (infeasible; also at once after a false constant row or an empty
        clause), None (time limit, interrupt)."""
        import highspy

        assert self._highs is not None, "build() first"
        if self._contradiction is not None:
            return False
        left = self.remaining(deadline)
        if left == 0.0 or self._stop.is_set():
            self.timed_out = True
            return None
        self._checks += 1
        if self._checks == 1:
            self._first_check = time.process_time()
        escalation = self._escalation
        if (
            escalation is not None
            and self._checks > escalation[0]
            and "escalated_at" not in self._extra
            and time.process_time() - self._first_check >= escalation[1]
        ):
            self._escalate(escalation[2], deadline)
            left = self.remaining(deadline)
            if left == 0.0 or self._stop.is_set():
                self.timed_out = True
                return None
        highs = self._highs
        presolve = str(self.options.get("presolve", "choose"))
        if self._proving and self._proof_presolve == "off":
            presolve = "off"
        if presolve != "off" and not self._proving and self.options.get("probe", "off") == "jump":
            if self._jump(left):
                return True
            left = self.remaining(deadline)
            if left == 0.0 or self._stop.is_set():
                self.timed_out = True
                return None
        highs.setOptionValue("presolve", presolve)
        highs.setOptionValue("time_limit", math.inf if left is None else left)
        submip = self.options.get("submip", "search")
        heuristics = submip == "always" or submip == "search" and not self._proving
        highs.setOptionValue("mip_heuristic_run_rins", heuristics)
        highs.setOptionValue("mip_heuristic_run_rens", heuristics)
        self._repaired_start()
        if self._proving and self._guide_runs == "search":
            self._guide_runs = "off"
            self._steer(False)
        elif self._resteer and self._guide_runs != "off":
            self._steer(True)
        self._resteer = False
        status = highs.run()
        if (
            status == highspy.HighsStatus.kError
            and highs.getModelStatus() == highspy.HighsModelStatus.kNotset
        ):
            # The process's thread pool was started with another size: restart it, run again.
            highs.resetGlobalScheduler(True)
            status = highs.run()
        ms = highspy.HighsModelStatus
        if presolve != "off":
            # HiGHS 1.16's presolve ends some models in "Solve error" (seen on a janko Hitori
            # board once its deduced cells are fixed) and calls some feasible ones infeasible
            # (seen on janko Nurikabe boards after their island cuts; feasible with presolve off
            # or another seed). The
            # same model is run once more without presolve (or, confirm=reseeded, with another
            # seed and the lean rules), and an infeasible answer stands only when that run
            # confirms it.
            first = highs.getModelStatus()
            if first in (ms.kInfeasible, ms.kUnboundedOrInfeasible) and self._confirm == "reseeded":
                status = self._reseeded(deadline)
                first = highs.getModelStatus()
                if first in (ms.kInfeasible, ms.kUnboundedOrInfeasible):
                    first = None  # two presolved runs agree: the verdict stands
            if first == ms.kSolveError or first in (ms.kInfeasible, ms.kUnboundedOrInfeasible):
                highs.setOptionValue("presolve", "off")
                left = self.remaining(deadline)
                highs.setOptionValue("time_limit", math.inf if left is None else max(left, 0.0))
                status = highs.run()
                self._count("presolve_off_reruns" if first == ms.kSolveError else "infeasible_confirmations")
        self._record(highs)
        outcome = highs.getModelStatus()
        if outcome in (ms.kOptimal, ms.kModelEmpty):  # zero objective: feasible is optimal
            return True
        feasible = int(highspy.SolutionStatus.kSolutionStatusFeasible)
        if outcome == ms.kSolutionLimit and highs.getInfo().primal_solution_status == feasible:
            return True  # guided: the run stopped at its first feasible point
        if outcome in (ms.kInfeasible, ms.kUnboundedOrInfeasible):  # every column is bounded
            return False
        if outcome in (ms.kTimeLimit, ms.kInterrupt) or self._stop.is_set():
            self.timed_out = True
            return None
        if outcome in (ms.kSolutionLimit, ms.kIterationLimit, ms.kMemoryLimit, ms.kUnknown):
            return None
        raise RuntimeError(
            f"HiGHS run returned {status.name}, model status {highs.modelStatusToString(outcome)}"
        )

    def _steer(self, on: bool) -> None:
        """The guide's costs (``on``) or the zero objective, each with its presolve rules: with the
        guide, HiGHS 1.16's presolve called a feasible janko Nurikabe board infeasible, over two
        seeds (its rule for parallel rows and columns, which compares costs, after probing);
        without that rule it did not."""
        import numpy as np

        cols, costs = self._guide
        self._highs.changeColsCost(len(cols), cols, costs if on else np.zeros(len(cols)))
        rules = self._rules_off()
        self._highs.setOptionValue(
            "presolve_rule_off", rules | GUIDED_RULES_OFF if on else rules & ~GUIDED_RULES_OFF
        )

    def _rules_off(self) -> int:
        """HiGHS's ``presolve_rule_off`` as it stands."""
        rules = self._highs.getOptionValue("presolve_rule_off")
        return int(
            rules[1] if isinstance(rules, tuple) else rules
        )  # the plain binding answers (status, value)

    def _reseeded(self, deadline: float | None) -> Any:
        """``confirm=reseeded``: the same model run again with presolve, another random seed and
        the lean presolve rules, and without the guide's costs (a guided verdict is confirmed on
        the feasibility question itself); the seed and rules are restored after it, the costs
        before the next run."""
        highs = self._highs
        seed = int(self.options.get("seed", 0))
        rules = self._rules_off()
        if self._guide_runs != "off":
            self._steer(False)
            self._resteer = True  # before the next run: changing the costs now would unset this run's status
        highs.setOptionValue("random_seed", seed + 1)
        highs.setOptionValue("presolve_rule_off", rules & ~GUIDED_RULES_OFF | LEAN_RULES_OFF)
        left = self.remaining(deadline)
        highs.setOptionValue("time_limit", math.inf if left is None else max(left, 0.0))
        try:
            status = highs.run()
        finally:
            highs.setOptionValue("random_seed", seed)
            highs.setOptionValue("presolve_rule_off", rules)
        self._count("infeasible_reseeded")
        return status

    def _escalate(self, more: Any, deadline: float | None) -> None:
        """Fix the escalation's columns by their bounds, given the seconds left as its CPU
        allowance (CPU time runs no faster than the clock). The cut rows and blocking rows added so
        far stay; the decision columns' bounds as built take the fixings, so that the enumeration's
        subspaces and the blocking rows keep them."""
        import numpy as np

        left = self.remaining(deadline)
        start = time.process_time()
        fixings = more(math.inf if left is None else left)
        at = {col: k for k, col in enumerate(self._columns.tolist())}
        now = []
        for col, v in fixings:
            k = at.get(col)
            if k is not None:
                self._lower[k] = self._upper[k] = v
                if self._subspace is not None and self._subspace[k] >= 0:
                    continue  # the subspace searched fixes it already: keep that (it may be the other value)
            now.append((col, v))
        if now:
            index = np.array([col for col, _ in now], dtype=np.int32)
            value = np.array([v for _, v in now], dtype=np.float64)
            self._highs.changeColsBounds(len(now), index, value, value)
        self._extra.update(
            escalated_at=self._checks - 1,
            escalation_fixings=len(fixings),
            escalation_cpu=round(time.process_time() - start, 3),
        )

    def _repaired_start(self) -> None:
        """``start=repair``: after a lazy round, hand HiGHS the previous candidate on the decision
        cells away from the round's cut rows (neither named by them nor next to one named) as a
        partial start. A start is a hint: HiGHS checks it, and completes it by a sub-MIP over the
        free columns or drops it, so the run's verdict is unchanged."""
        import numpy as np

        candidate, touched = self._candidate, self._touched
        self._touched = set()
        start = self.options.get("start", "off")
        if start == "off" or candidate is None or not touched or (start == "repair" and not self._searched):
            return
        named = {cell for cell in self._cells if self._column[cell] in touched}
        named.update(cell for col, cell in self._cells_of.items() if col in touched)
        near = named | {(r + dr, c + dc) for r, c in named for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        keep = [cell for cell in self._cells if cell not in near]
        if not keep:
            return
        index = np.fromiter((self._column[cell] for cell in keep), dtype=np.int32, count=len(keep))
        value = np.fromiter((cell in candidate for cell in keep), dtype=np.float64, count=len(keep))
        self._highs.setSolution(len(keep), index, value)
        self._count("starts")

    def _jump(self, left: float | None) -> bool:
        """The ``probe=jump`` run: no presolve, no simplex iteration; True when it found a point."""
        import highspy

        highs = self._highs
        limit = highs.getOptionValue("simplex_iteration_limit")
        limit = limit[1] if isinstance(limit, tuple) else limit  # the plain binding answers (status, value)
        highs.setOptionValue("presolve", "off")
        highs.setOptionValue("simplex_iteration_limit", 0)
        highs.setOptionValue("time_limit", math.inf if left is None else left)
        try:
            highs.run()
        finally:
            highs.setOptionValue("simplex_iteration_limit", limit)
        self._record(highs)
        found = highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
        self._count("probe_hits" if found else "probe_misses")
        return found

    def marked(self) -> frozenset[Cell]:
        """The decision cells whose binary is 1 in the current solution (value > 0.5)."""
        import numpy as np

        values = np.asarray(self._highs.getSolution().col_value, dtype=np.float64)
        if not len(self._cells):
            return frozenset()
        on = values[self._columns] > 0.5
        self._candidate = frozenset(cell for cell, flag in zip(self._cells, on.tolist()) if flag)
        return self._candidate

    def add_clause(self, clause: CellClause) -> None:
        """The row sum_{pos} x + sum_{neg} (1 - x) >= 1, i.e. >= 1 - (number of negative literals).

        A cell without a decision binary is never marked: its positive literal is dropped, its
        negative literal satisfies the clause. A lazy rule's :class:`Cut` is added as its row."""
        import highspy
        import numpy as np

        from ..encodings.mip.common import Cut

        if isinstance(clause, Cut):
            self._add_cut(clause)
            return

        coef: dict[int, float] = {}
        lower = 1.0
        for cell, positive in clause:
            col = self._column.get(cell)
            if col is None:
                if positive:
                    continue
                return  # "cell is unmarked" always holds
            coef[col] = coef.get(col, 0.0) + (1.0 if positive else -1.0)
            if not positive:
                lower -= 1.0
        entries = [(col, value) for col, value in coef.items() if value]
        if not entries:  # x and not x cancel, or nothing left: true when lower <= 0
            if lower > 0 and self._contradiction is None:
                self._contradiction = "an empty clause was added"
            return
        index = np.array([col for col, _ in entries], dtype=np.int32)
        value = np.array([v for _, v in entries], dtype=np.float64)
        self._highs.addRow(lower, highspy.kHighsInf, len(entries), index, value)
        self._touched.update(coef)
        self._count("rows_added")

    def block(self, cells: frozenset[Cell], decision) -> None:
        """Block the answer ``cells``: the full no-good, or (``block=auto`` on a model whose answers
        all mark as many cells) "a cell of one side of the answer changes", over the smaller side.
        Another answer with as many marked cells that differs from this one turns a marked cell
        unmarked and an unmarked one marked, so either side alone excludes exactly this answer
        among answers. Cells the model fixes by their bounds never change and are left out."""
        self._candidate = None  # the answer is no start for the runs that look past it
        self._proving = True
        if not self._fixed_marks or self.options.get("block", "auto") != "auto":
            super().block(cells, decision)
            return
        free = [cell for cell in decision if self._column.get(cell) is not None]
        fixed = {
            cell for cell, lo, up in zip(self._cells, self._lower.tolist(), self._upper.tolist()) if lo == up
        }
        on = [cell for cell in free if cell in cells and cell not in fixed]
        off = [cell for cell in free if cell not in cells and cell not in fixed]
        if len(on) <= len(off):
            self.add_clause([(cell, False) for cell in on])  # a marked cell turns unmarked
        else:
            self.add_clause([(cell, True) for cell in off])  # an unmarked cell turns marked

    def _add_cut(self, cut: Any) -> None:
        """The row ``lower <= expr <= upper`` (the expression's constant moved to the bounds)."""
        import numpy as np

        entries = [(col, coef) for col, coef in cut.expr.terms.items() if coef]
        lower, upper = cut.lower - cut.expr.constant, cut.upper - cut.expr.constant
        if not entries:  # a constant row: true, or no answer
            if not lower <= 0.0 <= upper and self._contradiction is None:
                self._contradiction = "a constant cut does not hold"
            return
        index = np.array([col for col, _ in entries], dtype=np.int32)
        value = np.array([coef for _, coef in entries], dtype=np.float64)
        self._highs.addRow(lower, upper, len(entries), index, value)
        self._touched.update(col for col, _ in entries)
        self._count("rows_added")

    # -- enumeration by splitting ---------------------------------------------------------------
    def native_enumeration(self) -> bool:
        return self.options.get("enumeration", "auto") != "nogood"

    def enumerate(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        """Every answer (up to ``limit``; 0 = all), each exactly once, in a tree of subspaces.

        A subspace fixes some decision binaries (column bounds). Searched, it is empty (dropped)
        or yields an answer S; then what is left of it is split into disjoint subspaces, one per
        free binary x_j (in order): x_j differs from S while the free binaries before it agree
        with S. Their union is the subspace without S (the partition of Lawler, "A procedure for
        computing the K best solutions to discrete optimization problems", Management Science
        18(7), 1972), so each answer appears once, and no row is added: every run is on the
        model as built, made smaller by the fixings. The first ``NOGOOD_ANSWERS`` answers
        (``enumeration=auto``) are blocked by no-good rows instead, which prove a puzzle unique
        in one run. The artefact's lazy rule applies as in the harness: a candidate it rejects
        gets its cuts (global rows) and the same subspace is searched again.
        """
        import numpy as np

        #: Subspaces to search: (fixed, answer, free, j): ``fixed`` holds -1 (free) or the fixed
        #: value per decision binary; the subspace is ``fixed``, then ``answer`` on free[:j] and
        #: 1 - answer on free[j] (j = -1: ``fixed`` alone). Siblings share their arrays. A binary
        #: the encoding fixed by its bounds is never free: splitting on it would undo the fixing.
        as_built = np.where(self._lower == self._upper, self._lower, -1).astype(np.int8)
        pending: list[tuple[Any, Any, Any, int]] = [(as_built, None, None, -1)]
        try:
            yield from self._search_subspaces(pending, limit, deadline)
        finally:  # leave the model as built (the consumer may stop early, or close first)
            if self._highs is not None:
                self._fix(as_built, None, None, -1)

    def _search_subspaces(
        self, pending: list, limit: int, deadline: float | None
    ) -> Iterator[frozenset[Cell]]:
        """Search the pending subspaces depth first, splitting each around the answer it yields."""
        import numpy as np

        lazy = self._lazy
        nogoods = NOGOOD_ANSWERS if self.options.get("enumeration", "auto") == "auto" else 0
        n = len(self._cells)
        found = 0
        while pending:
            fixed = self._fix(*pending.pop())
            while True:
                outcome = self.check(deadline)
                if outcome is None:
                    return  # timed out or interrupted
                if not outcome:
                    break  # this subspace holds no further answer
                cells = self.marked()
                cuts = lazy(cells) if lazy is not None else []
                if cuts:  # the candidate breaks a rule the model does not state: cut it off, again
                    self._count("lazy_rounds")
                    self._count("lazy_cuts", len(cuts))
                    for clause in cuts:
                        self.add_clause(clause)
                    continue
                found += 1
                self._proving = True
                yield cells
                if limit and found >= limit:
                    return
                if found <= nogoods:  # block this answer with a row; search the same subspace again
                    self.block(cells, self._cells)
                    self._count("blocking_clauses")
                    continue
                # Split the rest of this subspace around the answer (pushed so that the subspace
                # agreeing longest with the answer is searched first).
                answer = np.fromiter((cell in cells for cell in self._cells), dtype=np.int8, count=n)
                free = np.flatnonzero(fixed < 0)
                pending.extend((fixed, answer, free, j) for j in range(len(free)))
                self._count("subspaces", len(free))
                break
        self.exhausted = True

    def _fix(self, fixed: Any, answer: Any, free: Any, j: int) -> Any:
        """Set the decision binaries' bounds to the subspace's fixings; return its ``fixed`` array."""
        import numpy as np

        self._candidate = None  # another subspace: the last candidate may lie outside it
        if j >= 0:
            fixed = fixed.copy()
            fixed[free[:j]] = answer[free[:j]]
            fixed[free[j]] = 1 - answer[free[j]]
        if len(fixed):
            lower = np.where(fixed >= 0, fixed, self._lower).astype(np.float64)
            upper = np.where(fixed >= 0, fixed, self._upper).astype(np.float64)
            self._highs.changeColsBounds(len(fixed), self._columns, lower, upper)
        self._subspace = fixed
        return fixed

    def interrupt(self) -> None:
        self._stop.set()

    # -- statistics ---------------------------------------------------------------------------
    def _count(self, key: str, k: int = 1) -> None:
        self._extra[key] = self._extra.get(key, 0) + k

    def _record(self, highs: Any) -> None:
        info = highs.getInfo()
        self._search["nodes"] += max(0, info.mip_node_count)
        self._search["lp_iterations"] += max(0, info.simplex_iteration_count)
        self._searched = info.simplex_iteration_count > 0
        self._count("runs")
        self._extra["highs_time"] = highs.getRunTime()  # HiGHS's run clock, cumulative over runs
        self._extra["model_status"] = highs.modelStatusToString(highs.getModelStatus())

    def size(self) -> dict[str, int]:
        return dict(self._size)

    def search(self) -> dict[str, float]:
        return dict(self._search)

    def extra(self) -> dict[str, Any]:
        return dict(self._extra)

    def close(self) -> None:
        if self._highs is not None:
            try:
                self._highs.setCallback(None, None)
            finally:
                self._highs = None
