"""ASP encoding of Nurikabe: wall choice, 2x2 constraint, islands and wall connectivity as options.

The Python side writes the puzzle's facts and the sound precomputation of
:class:`~puzzlebench.encodings.islands.IslandPlan` (which island may hold which cell, how far
from its number, which cells no island reaches); the rules are in ``nurikabe*.lp``. The clingo
backend enumerates natively, so the rules the SAT encoding leaves to lazy cuts run here inside
the search, in a propagator (:class:`LazyCuts`) that checks total assignments. When its checks
run long (plan=auto), it runs failed-literal probing once and adds the settled cells as unit
clauses inside the same solve call, so the cuts and clasp's learnt clauses stay.

On the large "art" boards (long thin islands of 20-50 cells, too many for the level budget)
grounded recursion for the unlevelled islands leaves clingo without a first answer, with or
without the wall's connectivity rule; with those islands and the wall left to the SAT
encoding's cuts, as SAT's default does, it proves them (islands=auto, connectivity=auto).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...errors import EncodingError
from ...model import Cell, Family, Nurikabe, Puzzle
from ..base import EncodingSpec, LazyRule, Option, axes
from ..islands import (
    CUTS,
    DEDUCE_BUDGET,
    PLAN_DEEP,
    WALL_RUNS_OPTION,
    IslandPlan,
    lazy_rules,
    met_lines,
    planned,
    wall_count_option,
    wall_count_pays,
    wall_runs,
    wall_runs_pay,
    wall_size,
)
from ..nurikabe_deduce import load_engine
from ..sat.nurikabe import hybrid_smallest
from .program import AspProgram
from .propagator import ConnectivityPropagator

if TYPE_CHECKING:
    import clingo

CONNECTIVITY = Option(
    "connectivity",
    "auto",
    ("auto", "reach", "acyclic", "closure", "propagator", "lazy", "none"),
    "how 'the wall is connected' is enforced, by the programs shared with Kuromasu and Hitori: "
    "flood fill from a root wall cell (reach); a parent tree under clingo's #edge acyclicity "
    "(acyclic); seed 000's all-pairs closure (closure); the connectivity propagator, on the "
    "unshaded atoms (propagator); cuts added when an answer candidate's wall falls apart, by a "
    "check on total assignments (lazy, the SAT encoding's cuts); not at all (none, relaxing); or "
    "auto: lazy when the islands are (islands=lazy), else reach",
    relaxing=("none",),
)
# Defaults: reach for connectivity and hybrid for the islands, the fastest pair on the smaller boards; hybrid
# is distance whenever the levels fit the budget (all but the largest boards), and bounds grounding beyond it.
# islands=auto and connectivity=auto are lazy on the boards where the level budget leaves a number without
# levels (the large "art" boards among them, where recursion for those islands leaves clingo without a first
# answer), else hybrid and reach. With the cuts checked on total assignments only (LazyCuts), lazy also on
# every board of LAZY_CELLS or more, where grounding the levels costs more than the rounds of cuts; the
# largest boards may still be found faster by islands=distance (docs/decisions).

#: islands=auto: the fewest cells of a board where the islands and the wall are left to lazy cuts (14x24 and
#: larger: the boards where grounding the levels costs more than the cuts; docs/decisions)
LAZY_CELLS = 330
ISLANDS = Option(
    "islands",
    "auto",
    ("auto", "reach", "distance", "hybrid", "lazy"),
    "how every island gets one number and its size: owners spread over unshaded neighbours and "
    "tied to their number by recursion (reach), by levels bounded by the number (distance), by "
    "levels for the numbers whose levels fit a budget and recursion for the others (hybrid), or "
    "by levels and a count for the large numbers within the budget (the SAT encoding's hybrid "
    "set) and lazy cuts on total assignments for the other islands (lazy); or auto: lazy on "
    "boards of 330 cells or more and when hybrid's budget leaves a number without levels, else hybrid",
)

WALL_COUNT = wall_count_option("count", "auto")
WALL_PARTS = Option(
    "wall_parts",
    "none",
    ("none", "1", "2"),
    "wall parts of up to this many cells stated to have a wall cell beside them (the wall is "
    "connected and larger): none, 1 (a wall cell has a wall neighbour), 2 (and so has a pair)",
)

PREFER = Option(
    "prefer",
    "none",
    ("none", "wall", "far"),
    "clingo domain heuristic (#heuristic with --heuristic=Domain): none (clasp's own), wall (every "
    "open cell tried as wall first), far (wall first on the cells that only the far half of an "
    "island's reach can hold: every island that may hold the cell is at least half its bound away)",
)

#: plan=auto: the candidates the lazy cuts check before the probe (a board proven within that many checks does
#: not pay for a probe whose settled cells it does not need; docs/decisions)
ESCALATE = 600
#: ... and the CPU seconds of search those checks must also have taken (a board that checks its candidates
#: quickly needs no probe)
ESCALATE_CPU = 1.0
#: probe by default: the compiled probe is cheap enough to run up front, and settles cells the search would
#: otherwise learn by many rounds of cuts (docs/decisions)
PLAN = Option(
    "plan",
    "search",
    ("search", "probe", "deep", "auto"),
    "the island plan to build on: the deduction stage's (search, the default; the searched plan "
    "under deduce=none), or probed by the encoding itself, failed-literal probing of the island, "
    "wall-connectivity, 2x2 and crossing rules (probe, within DEDUCE_BUDGET CPU seconds), "
    + PLAN_DEEP
    + ", or by the searches with the probe's "
    "cells added to the running search as unit clauses once the lazy cuts' checks run long (auto: "
    "escalate checks and escalate_cpu seconds)",
)
ESCALATE_OPTION = Option(
    "escalate",
    ESCALATE,
    description="plan=auto: the lazy cuts' checks (candidates) before the probe; the "
    "probe then runs once and its cells join the running search as unit clauses, keeping the cuts "
    "and what clasp learnt (0: at the first check past escalate_cpu); with the lazy cuts only "
    "(islands or connectivity lazy)",
)
ESCALATE_CPU_OPTION = Option(
    "escalate_cpu",
    ESCALATE_CPU,
    description="plan=auto: the CPU seconds of the search (from its start) "
    "before the probe (boards whose lazy rounds end sooner never pay for it)",
)

_ISLAND_FILES: dict[str, tuple[str, ...]] = {
    "reach": ("nurikabe_owners.lp", "nurikabe_reach.lp"),
    "distance": ("nurikabe_owners.lp", "nurikabe_distance.lp"),
    "hybrid": ("nurikabe_owners.lp", "nurikabe_distance.lp", "nurikabe_reach.lp"),
    "lazy": ("nurikabe_owners.lp", "nurikabe_distance.lp"),
}


#: LazyCuts: the cuts added before the following ones are locked against clasp's deletion of learnt clauses (a
#: deleted cut lets its fault come back, which costs rounds on the boards with the most cuts; locking every
#: cut moves the search on boards of a few thousand cuts, either way)
LOCK_AFTER = 10000


class LazyCuts:
    """The rules left to lazy cuts (:func:`~puzzlebench.encodings.islands.lazy_rules`: the wall's
    connectivity, the islands without levels) as a clingo propagator: when a total assignment's
    wall (its true ``wall(R,C)`` atoms) breaks a rule, the SAT encoding's cuts, clauses over wall
    atoms that every answer satisfies, are added.

    clingo stops taking clauses at the first conflicting one, and every cut conflicts with the
    candidate that raised it: the others wait, watched on two literals each, and are all added
    as soon as the search, back from the conflict, sets one of those literals false again (at the
    latest on the next candidate), so a candidate gets all its cuts, as in the SAT encoding's
    loop. Otherwise clingo calls the propagator on total assignments only: the search between two
    candidates (hundreds of decisions on a large board) runs without Python. Past ``LOCK_AFTER``
    cuts, the cuts are locked against clasp's deletion of learnt clauses (a deleted cut lets its
    fault come back).

    With an :class:`Escalation` (plan=auto), once ``escalation.checks`` candidates and
    ``escalation.cpu`` CPU seconds of search have passed, the probe runs once, within the seconds
    left before the run's ``deadline`` (the backend sets it), and each cell it settles joins the
    search as a locked unit clause, waiting like a cut when it conflicts with the candidate."""

    def __init__(self, rule: LazyRule, escalation: Escalation | None = None):
        self.rule = rule
        self.escalation = escalation
        self.deadline: float | None = None  # the run's deadline on the harness clock, set by the backend
        self.checks = 0  # the candidates checked
        self.started = 0.0  # the process's CPU time at the search's start
        self.figures: dict[str, Any] = {}
        self.open: list[tuple[Cell, int]] = []  # the wall atoms not fixed by the facts
        self.fixed: list[Cell] = []  # the cells whose wall atom is a fact
        self.lit_of: dict[tuple[Cell, bool], int] = {}  # a cut's (cell, wall) as a solver literal
        self.waiting: list[tuple[list[int], bool]] = []  # clauses to add, True: locked (a settled cell)
        self.watched: set[int] = set()
        self.rounds = 0
        self.cuts = 0

    def init(self, init: clingo.PropagateInit) -> None:
        import clingo

        for atom in init.symbolic_atoms.by_signature("wall", 2):
            r, c = atom.symbol.arguments
            cell, lit = (r.number, c.number), init.solver_literal(atom.literal)
            self.lit_of[cell, True], self.lit_of[cell, False] = lit, -lit
            if init.assignment.is_fixed(lit):
                self.fixed += [cell] if init.assignment.is_true(lit) else []
            else:
                # kept through clasp's SAT preprocessing (some configurations eliminate variables)
                init.freeze_literal(lit)
                self.open.append((cell, lit))
        init.check_mode = clingo.PropagatorCheckMode.Total
        self.started = time.process_time()

    def check(self, control: clingo.PropagateControl) -> None:
        if self.waiting and not self._add_waiting(control):
            return
        escalation = self.escalation
        if (
            escalation is not None
            and "escalated_at" not in self.figures
            and self.checks >= escalation.checks
            and time.process_time() - self.started >= escalation.cpu
        ):
            if not self._escalate(control):
                return
        value = control.assignment.value
        marked = list(self.fixed)
        for cell, lit in self.open:
            v = value(lit)
            if v:
                marked.append(cell)
            elif v is None:
                # clasp's "total" assignment may leave eliminated or projected-away variables
                # open (crafty, trendy); the wall atoms are frozen, so this guards the premise
                return
        self.checks += 1  # a candidate: every wall atom assigned
        cuts = self.rule(frozenset(marked))
        if not cuts:
            return
        self.rounds += 1
        self.cuts += len(cuts)
        lit_of = self.lit_of
        for cut in cuts:
            # a clue cell has no wall atom: it is unshaded in every answer, so "it turns wall"
            # drops out of a cut (and "it is unshaded" would satisfy one)
            clause = [lit_of.get(x, 0) for x in cut]
            if 0 in clause:
                if any(x not in lit_of and not x[1] for x in cut):
                    continue
                clause = [lit for lit in clause if lit]
            self.waiting.append((clause, False))
        self._add_waiting(control)

    def _escalate(self, control: clingo.PropagateControl) -> bool:
        """Run the escalation's probe once (within the seconds left before the deadline) and add
        its settled cells as unit clauses; False when one conflicts with the assignment."""
        left = float("inf") if self.deadline is None else max(0.0, self.deadline - time.perf_counter())
        start = time.process_time()
        assert self.escalation is not None  # propagate escalates only with one
        settled = self.escalation.settled(left)
        units = [[self.lit_of[cell, wall]] for cell, wall in settled if (cell, wall) in self.lit_of]
        self.figures.update(
            escalated_at=self.checks,
            escalation_clauses=len(units),
            escalation_cpu=round(time.process_time() - start, 3),
        )
        # a settled cell holds in every answer: its unit clause is never deleted
        self.waiting += [(unit, True) for unit in units]
        return self._add_waiting(control)

    def propagate(self, control: clingo.PropagateControl, changes: list[int]) -> None:
        # a watched literal of a waiting cut turned false: add the waiting cuts now
        self._add_waiting(control)

    def _add_waiting(self, control: clingo.PropagateControl) -> bool:
        """Add the waiting cuts; False when one conflicts (clingo takes no more clauses now) and
        the others stay watched (the negations of their first two literals)."""
        while self.waiting:
            clause, settled = self.waiting.pop()
            if not control.add_clause(clause, lock=settled or self.cuts > LOCK_AFTER):
                watched = self.watched
                for clause, _ in self.waiting:
                    for lit in clause[:2]:
                        if -lit not in watched:
                            watched.add(-lit)
                            control.add_watch(-lit)
                return False
        if self.watched:
            for lit in self.watched:
                control.remove_watch(lit)
            self.watched.clear()
        return control.propagate()

    def stats(self) -> dict[str, int]:
        return {
            "lazy_checks": self.checks,
            "lazy_rounds": self.rounds,
            "lazy_cuts": self.cuts,
            **self.figures,
        }


class Escalation:
    """plan=auto: after ``checks`` checks and ``cpu`` CPU seconds of search, ``settled(seconds)``
    gives the cells the probe settles, as (cell, wall) pairs, within that many seconds."""

    def __init__(self, checks: int, cpu: float, settled: Callable[[float], list[tuple[Cell, bool]]]):
        self.checks, self.cpu, self.settled = checks, cpu, settled


def probed_cells(p: Nurikabe, plan: IslandPlan, seconds: float) -> list[tuple[Cell, bool]]:
    """The cells failed-literal probing settles beyond ``plan`` (``nurikabe_deduce.refine``,
    within ``DEDUCE_BUDGET`` CPU seconds and ``seconds``): each holds in every answer."""
    from ..nurikabe_deduce import refine

    probed = refine(p, plan, time.process_time() + min(DEDUCE_BUDGET, seconds))
    # a cell the probe settled as wall is wall; one it settled unshaded is unshaded
    return [(cell, True) for cell in sorted(probed.wall - plan.wall)] + [
        (cell, False) for cell in sorted(probed.white - plan.white)
    ]


def build_default(puzzle: Puzzle, options: Mapping[str, Any]) -> AspProgram:
    if not isinstance(puzzle, Nurikabe):
        raise TypeError(f"expected a Nurikabe puzzle, got {type(puzzle).__name__}")
    p, plan = puzzle, planned(puzzle, options["plan"])
    parts = [f"size({p.rows},{p.cols})."]
    parts += [f"num({r},{c},{n})." for (r, c), n in p.numbers.items()]
    parts += [f"clue({r},{c})." for r, c in sorted(p.clue_cells)]
    islands = options["islands"]
    if islands == "auto":  # lazy cuts for the islands (and the wall) on large boards, or when some
        # number is left without levels
        lazy = p.rows * p.cols >= LAZY_CELLS or len(plan.levelled(p, budget=True)) < len(plan.reach)
        islands = "lazy" if lazy else "hybrid"
    if islands == "lazy":  # levels for the large numbers within the budget only, as SAT's hybrid
        levelled = plan.levelled(p, budget=True, smallest=hybrid_smallest(p))
    else:
        levelled = plan.levelled(p, budget=islands == "hybrid") if islands != "reach" else set()
    for i, (clue, dist) in enumerate(plan.reach.items()):
        parts.append(f"island({i},{clue[0]},{clue[1]},{plan.bound[clue]}).")
        if clue in p.numbers:  # a number's island has exactly its bound's cells
            parts.append(f"exact({i}).")
        if clue in levelled:  # this number's island is tied to it by levels, not by recursion
            parts.append(f"levelled({i}).")
        elif islands == "lazy":  # its size is left to the lazy cuts
            parts.append(f"uncounted({i}).")
        parts += [f"can({i},{r},{c},{d})." for (r, c), d in dist.items() if (r, c) != clue]
    parts += [f"walled({r},{c})." for r, c in sorted(plan.wall)]
    # a cell the probe settled unshaded (plan=probe) is unshaded
    parts += [f":- wall({r},{c})." for r, c in sorted(plan.white)]
    files = ["nurikabe.lp", *_ISLAND_FILES[islands]]
    if islands == "lazy":  # stated up front: what the lazy cuts would find one cell at a time
        files.append("nurikabe_lonely.lp")
    count = options["wall_count"]
    if count == "count" or count == "auto" and wall_count_pays(p, plan):
        parts.append("wall_size({},{}).".format(*wall_size(p, plan)))
        files.append("nurikabe_wall_count.lp")
    runs = _wall_runs_facts(p, plan, options["wall_runs"])
    if runs:
        parts += runs
        files.append("nurikabe_wall_runs.lp")
    # a wall part of up to K cells has a wall cell beside it, K below every answer's wall size
    most = (
        0 if options["wall_parts"] == "none" else min(int(options["wall_parts"]), wall_size(p, plan)[0] - 1)
    )
    if most >= 1:
        parts.append(f"wall_parts({most}).")
        files.append("nurikabe_wall_parts.lp")
    # a decision preference only (every answer is still found): wall first on the open cells, or
    # on those every island that may hold them reaches at half its bound or further
    prefer = options["prefer"]
    args: tuple[str, ...] = ()
    if prefer != "none":
        far = [
            cell
            for cell in plan.open
            if prefer == "wall"
            or all(2 * plan.reach[clue][cell] >= plan.bound[clue] for clue in plan.owners[cell])
        ]
        parts += [f"hwall({r},{c})." for r, c in far]
        files.append("nurikabe_heuristic.lp")
        args = ("--heuristic=Domain",)
    connectivity = options["connectivity"]
    if connectivity == "auto":
        connectivity = "lazy" if islands == "lazy" else "reach"
    propagator: ConnectivityPropagator | LazyCuts | None = None
    if connectivity in ("reach", "acyclic", "closure"):
        files += ["nurikabe_region.lp", f"connect_{connectivity}.lp"]
    if connectivity in ("reach", "acyclic"):
        if plan.wall:  # a cell known to be wall roots the flood fill or the parent tree
            parts.append("top({},{}).".format(*min(plan.wall)))
        else:
            files.append("nurikabe_top.lp")
    elif connectivity == "propagator":
        # the region is the wall: a cell leaves it when unshaded; known wall cells never do
        propagator = ConnectivityPropagator(p.rows, p.cols, plan.wall, predicate="unshaded")
    # the rules left to lazy cuts: the wall's connectivity (lazy), the islands without levels (lazy)
    if connectivity == "lazy" or islands == "lazy":
        cuts = options["cuts"]
        if cuts == "auto":  # cell cuts for a small wall's few-cell parts, else region cuts for the wall
            cuts = "cell" if wall_count_pays(p, plan) else "mixed"
        told = {
            "connectivity": connectivity,
            "islands": "lazy" if islands == "lazy" else "distance",
            "cuts": cuts,
        }
        rule = lazy_rules(
            p,
            [cell for cell in p.grid.all_cells if cell not in p.clue_cells],
            told,
            anchor=min(plan.wall) if plan.wall else None,
        )
        if rule is not None:
            if propagator is not None:
                raise EncodingError("connectivity=propagator runs alone: pick islands other than lazy")
            escalation = None
            if options["plan"] == "auto":  # the probe once the lazy rounds run long
                escalation = Escalation(
                    options["escalate"],
                    options["escalate_cpu"],
                    lambda seconds: probed_cells(p, plan, seconds),
                )
            propagator = LazyCuts(rule, escalation)
    return AspProgram(
        files=tuple(files),
        facts="".join(parts),
        predicate="wall",
        propagator=propagator,
        args=args,
        # clasp's "trendy" preset: less CPU than clingo's default on the slowest boards, and alike
        # on the rest (docs/decisions)
        configuration="trendy",
        notes={"islands": islands, "connectivity": connectivity},
    )


def _wall_runs_facts(p: Nurikabe, plan: IslandPlan, which: str) -> list[str]:
    """The facts of ``nurikabe_wall_runs.lp`` the ``wall_runs`` option asks for: the met lines
    (met, card), and the lines' stretches with the runs' bounds (card; auto: card where the met
    lines make it tight, else none)."""
    if which == "auto":  # the met lines alone cost more grounding than they prune (docs/decisions)
        which = "card" if wall_runs_pay(p, plan) else "none"
    if which == "none":
        return []
    out = [f"met({k},{r},{c})." for k, cells in enumerate(met_lines(p, plan)) for r, c in cells]
    if which == "card":
        groups, most, per_line = wall_runs(p, plan)
        out.append(f"runs_most({most}).")
        for k, stretches in enumerate(groups):
            out.append(f"line_runs_most({k},{per_line[k]}).")
            for run in stretches:
                out.append("first({},{},{}).".format(k, *run[0]))
                out += ["next({},{},{},{},{}).".format(k, *a, *b) for a, b in zip(run, run[1:])]
    return out


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.NURIKABE,
        paradigm="asp",
        name="default",
        build=build_default,
        load=load_engine,
        description="choice of wall cells, no 2x2 wall; islands by owners (islands option); one wall "
        "(connectivity option); the wall's size (wall_count option)",
        options=(
            CONNECTIVITY,
            ISLANDS,
            WALL_COUNT,
            WALL_PARTS,
            PREFER,
            CUTS,
            WALL_RUNS_OPTION,
            PLAN,
            ESCALATE_OPTION,
            ESCALATE_CPU_OPTION,
        ),
    ),
]

#: The default's options are the ways it states a rule; the rest of its options are fixed settings.
ENCODINGS = [axes(spec, "connectivity", "islands") if spec.name == "default" else spec for spec in ENCODINGS]
