"""What every CP-SAT encoding shares: the artefact handed to the backend and a few helpers.

A CP-SAT encoding builds an ``ortools.sat.python.cp_model.CpModel`` whose decision Booleans are
keyed by cell. The backend enumerates by blocking those Booleans only; an encoding whose every
other variable is a function of the decisions may say so (``functional=True``) and the backend
may then enumerate inside one search with a solution callback instead of re-solving.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ortools.sat.python import cp_model

from ...model import Cell
from ..base import Artifact, Option

if TYPE_CHECKING:
    from ..sat.common import CnfModel

#: A clause: a list of literals, at least one true.
Clause = list[cp_model.IntVar]


@dataclass
class CpModelArtifact(Artifact):
    """A CP-SAT model plus what the backend needs to search it.

    ``decision`` maps each markable cell to its Boolean ("bulb", "black" or "lit").
    ``parameters`` are CP-SAT ``SatParameters`` fields the encoding asks for (e.g. a fixed search).
    ``functional`` says every variable is determined by the decision Booleans, so that a
    solution callback's answers are exactly the distinct decision assignments.
    ``lazy`` (optional, see :class:`~puzzlebench.encodings.base.Artifact`): rules too large to
    state up front (e.g. connectivity cuts), checked on candidates by the harness.
    ``escalation`` (optional): ``(searches, build)``, a larger model of the same rules over the same
    decision cells that the resolve loop switches to after that many searches, keeping every
    clause (cut or blocking clause) added so far; it must accept exactly the answers this model
    and the lazy rule accept. ``escalation_left``: the seconds left to the run's deadline when the
    loop switches (None: no deadline), set by the backend just before it calls ``build`` (a build
    that does work of its own keeps within it).
    ``carry_fixings``: in the resolve loop, before the first search, one CP-SAT run stopped after
    its root propagation and probing fixes in the model the variables it fixed: the model only
    grows (cuts, blocking clauses), so what it implied stays implied, and later searches need
    not re-derive them (CP-SAT keeps nothing between searches); ``fixed_parameters`` then apply
    (e.g. no more probing). ``refix_every`` (0: never): after that many searches since the last
    root run, another one, on the model with the clauses added since, fixes what they imply.
    ``escalation_time`` (optional): the loop also switches once it has taken this many CPU
    seconds since its first search (searches and lazy cuts), whatever their number.
    """

    model: cp_model.CpModel = field(default_factory=cp_model.CpModel)
    parameters: dict[str, Any] = field(default_factory=dict)
    functional: bool = False
    escalation: tuple[int, Callable[[], CpModelArtifact]] | None = None
    escalation_left: float | None = None
    carry_fixings: bool = False
    fixed_parameters: dict[str, Any] = field(default_factory=dict)
    refix_every: int = 0
    escalation_time: float | None = None

    def fix(self, settled: Mapping[Cell, bool]) -> int:
        stated = super().fix(settled)
        if self.escalation is not None:  # the model switched to states the same cells
            searches, build = self.escalation

            def fixed_build() -> CpModelArtifact:
                artifact = build()
                artifact.fix(settled)
                return artifact

            self.escalation = (searches, fixed_build)
        return stated

    def fix_cell(self, handle: Any, on: bool) -> None:
        self.model.add_bool_or([handle if on else ~handle])

    def fix_false(self) -> None:
        self.model.add_bool_or([])


def new_bools(model: cp_model.CpModel, prefix: str, cells: Iterable[Cell]) -> dict[Cell, cp_model.IntVar]:
    """One named Boolean per cell: ``prefix[r,c]``."""
    return {cell: model.new_bool_var(f"{prefix}[{cell[0]},{cell[1]}]") for cell in cells}


# -- search strategies (seed 003 compared CLP(FD) labeling options; CP-SAT's counterparts) ------

#: Strategy name -> (variable selection, value selection), or None for CP-SAT's own search.
SEARCH_STRATEGIES: dict[str, tuple[Any, Any] | None] = {
    "auto": None,
    "leftmost": (cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE),  # SICStus labeling default: leftmost, up
    "leftmost-down": (cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE),  # leftmost, down
    "ff": (cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE),  # first-fail
    "min": (cp_model.CHOOSE_LOWEST_MIN, cp_model.SELECT_MIN_VALUE),
    "max": (cp_model.CHOOSE_HIGHEST_MAX, cp_model.SELECT_MAX_VALUE),
}

SEARCH_OPTION = Option(
    "search",
    "auto",
    tuple(SEARCH_STRATEGIES),
    "branching: CP-SAT's own (auto), or a fixed decision strategy over the cells in row-major order "
    "(leftmost = CHOOSE_FIRST/SELECT_MIN_VALUE, leftmost-down = .../SELECT_MAX_VALUE, "
    "ff = CHOOSE_MIN_DOMAIN_SIZE, min = CHOOSE_LOWEST_MIN, max = CHOOSE_HIGHEST_MAX/SELECT_MAX_VALUE)",
)


def apply_search(artifact: CpModelArtifact, name: str, order: Sequence[cp_model.IntVar]) -> None:
    """Post the named decision strategy over ``order`` and make CP-SAT follow it (FIXED_SEARCH)."""
    strategy = SEARCH_STRATEGIES[name]
    if strategy is None:
        return
    variable_choice, value_choice = strategy
    artifact.model.add_decision_strategy(list(order), variable_choice, value_choice)
    artifact.parameters["search_branching"] = cp_model.FIXED_SEARCH


# -- CP-SAT's LP relaxation (linearization_level), chosen per encoding by measurement ----------


def linearization_option(default: int | str, measured: str = "") -> Option:
    """The ``linearization`` option: CP-SAT's ``linearization_level`` for this encoding's models
    (``auto`` among the choices when it is the default: the encoding resolves it)."""
    return Option(
        "linearization",
        default,
        (("auto",) if default == "auto" else ()) + (0, 1, 2),
        "CP-SAT linearization_level: 0 (no LP relaxation: propagation and clause learning only), 1 "
        "(CP-SAT's own default: linear constraints kept in an LP, with cuts), 2 (more of the model "
        "linearized)" + (f"; {measured}" if measured else ""),
    )


def apply_linearization(artifact: CpModelArtifact, level: int) -> None:
    """Ask CP-SAT for ``level`` (only when it differs from CP-SAT's own default, 1)."""
    if level != 1:
        artifact.parameters["linearization_level"] = level


def inprocessing_option(default: bool, measured: str = "") -> Option:
    """The ``inprocessing`` option: CP-SAT's ``use_sat_inprocessing`` for this encoding's models."""
    return Option(
        "inprocessing",
        default,
        description="CP-SAT use_sat_inprocessing: simplify the clause database between restarts (vivification, "
        "subsumption, bounded variable elimination)" + (f"; {measured}" if measured else ""),
    )


def apply_inprocessing(artifact: CpModelArtifact, on: bool) -> None:
    """Ask CP-SAT for inprocessing or none (only when it differs from CP-SAT's own default, on)."""
    if not on:
        artifact.parameters["use_sat_inprocessing"] = False


def add_clauses(model: cp_model.CpModel, black: Mapping[Cell, cp_model.IntVar], cnf: CnfModel) -> None:
    """Every clause of ``cnf`` as a ``bool_or`` constraint: its decision variables are
    ``black``'s Booleans (same cells), each auxiliary variable gets a fresh Boolean.

    Written into the model's proto directly (CP-SAT literals: a variable's index, or -index-1
    for its negation): a 100x100 board has about 320,000 clauses, and ``AddBoolOr`` per clause
    took twice as long."""
    proto = model.proto
    index = [-1] * (cnf.pool.top + 1)  # SAT variable -> CP-SAT variable index
    for cell, v in cnf.decision.items():
        index[v] = black[cell].index
    variables = proto.variables
    for v in range(1, len(index)):
        if index[v] < 0:
            index[v] = len(variables)
            variables.add().domain.extend((0, 1))
    neg = [-i - 1 for i in index]
    constraints = proto.constraints
    for clause in cnf.clauses:
        constraints.add().bool_or.literals.extend([index[v] if v > 0 else neg[-v] for v in clause])
