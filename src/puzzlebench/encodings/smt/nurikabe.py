"""Nurikabe for SMT solvers (z3 terms; cvc5 reads the same assertions): one Boolean per non-clue cell.

Rules and the blocks that enforce them:

* clue cells (numbers and '?') are unshaded: they get no variable; a cell no island can reach is wall
  (:class:`~puzzlebench.encodings.islands.IslandPlan`, sound precomputations);
* no 2x2 block is all wall: one clause per block;
* every island holds one clue, a number equal to its size or a '?' (``islands`` option):
  ``distance`` gives each unshaded cell exactly one owner among the clues that can reach it,
  passes ownership across unshaded neighbours, gives owned cells an integer depth below their
  clue's bound (the number; ``IslandPlan.bound`` for a '?') that a neighbour of the same island
  undercuts (distance-bounded reachability), and counts each clue's cells (``card``: exactly n
  for a number, at most the bound for a '?'); ``lazy`` states only that a non-clue unshaded cell
  has an unshaded neighbour and leaves whole islands to cuts (``regions.island_cuts``);
  ``levels`` and ``hybrid`` state the rule Booleanly by the SAT encoding's own clause generator
  (``sat/nurikabe.py``: owners, reachability levels ("near", clue, cell, t) bounded by the
  number, sizes by a sequential counter), handed to z3 as one SMT-LIB text so that z3's SAT core
  (QF_FD) learns over the same literals as the SAT paradigm; ``levels`` levels every clue (the
  SAT encoding's ``distance``), ``hybrid`` only the numbers within its budget
  (``IslandPlan.levelled``) and leaves the other islands to the lazy cuts; ``lazy`` escalates
  (``escalate``: after that many checks) by adding the owners, levels and sizes of ``levels`` or
  ``hybrid`` (:func:`auto_islands`: levels where the hybrid levels most of what levels would,
  hybrid on the others) to the running solver, with the cells failed-literal probing settles
  (``escalate_probe``, :func:`~puzzlebench.encodings.nurikabe_deduce.refine`) as unit facts and the
  levels over the probed plan's islands; ``auto`` (the default) is levels on boards below
  ``AUTO_LEVELS_CELLS`` cells, lazy with the escalation on the others (the escalation's target from
  the start where one number holds ``AUTO_START_SHARE`` of the board);
* the wall is connected (``connectivity`` option): ``lazy`` cuts on split candidates (``cuts``:
  region, cell, mixed, or auto as in the SAT encoding), ``rank`` (levels, shared with Kuromasu and
  Hitori over the cells that may be wall), ``none`` (a relaxation), or ``auto`` (the default:
  rank with ``islands=distance`` on boards without '?' clues, else lazy; see :func:`wall_rule`);
* ``wall_count``: the wall holds the cells the islands leave over (a redundant count, as the SAT
  encoding states it): ``card`` always, ``auto`` when its counter is small (``wall_count_pays``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import z3
from pysat.formula import IDPool

from ...model import Cell, Family, Nurikabe
from ..base import EncodingSpec, Option, axes
from ..islands import (
    DEDUCE_BUDGET,
    WALL_RUNS_OPTION,
    IslandPlan,
    cuts_option,
    lazy_rules,
    lonely_cells,
    plan_option,
    planned,
    wall_blocks,
    wall_count_option,
    wall_count_pays,
    wall_option,
    wall_region,
)
from ..nurikabe_deduce import load_engine, refine
from ..sat.common import CnfModel
from ..sat.nurikabe import hybrid_smallest, wall_runs_rule
from ..sat.nurikabe import islands_by_distance as sat_islands
from ..sat.nurikabe import wall_count as sat_wall_count
from .common import SmtModel, add_clauses, card_option, clauses_term
from .connectivity import connect_by_rank

ISLANDS: tuple[str, ...] = ("auto", "distance", "lazy", "hybrid", "levels")
#: ``islands=auto``: levels on boards of fewer cells, lazy escalating from here on (and what lazy escalates
#: to: levels below, see auto_islands). Levels for every number are cheap on small boards; on big boards their
#: build and search grow past what the lazy rounds cost (docs/decisions)
AUTO_LEVELS_CELLS = 150
#: ... and on larger boards whose levels for every clue (bound x cells, summed) are at most this many, of
#: which the hybrid's budget holds at least AUTO_LEVELS_SHARE: there levelling the rest costs little and
#: spares the hybrid's lazy island cuts (docs/decisions)
AUTO_LEVELS_MOST = 20_000
AUTO_LEVELS_SHARE = 0.45
#: ... but the stronger statement (auto_islands) from the start on a board whose largest number is at least
#: this share of its cells (a small wall: the lazy checks find little to cut, and escalating late only delays
#: the model that proves it)
AUTO_START_SHARE = 0.5
#: islands=lazy: checks before the escalation to levels or hybrid (later escalations only add lazy rounds on
#: the boards that need the larger model; docs/decisions)
ESCALATE = 300
#: islands=levels/hybrid and wall_count: the SAT encoding's cardinality encoding of a size
SAT_CARD = "seqcounter"
#: The wall option the islands module describes (lazy cuts, rank levels, none), which ``auto`` picks from.
WALL = wall_option("rank", default="rank")


def build_default(puzzle: Nurikabe, options: Mapping[str, Any]) -> SmtModel:
    model = SmtModel()
    grid = puzzle.grid
    clues = puzzle.clue_cells
    plan = planned(puzzle, options["plan"])
    wall = {cell: model.bool("wall", *cell) for cell in grid.all_cells if cell not in clues}
    model.decision = wall
    # "cell is unshaded", made once per cell (constant True for a clue cell).
    open_ = {cell: model.neg(wall[cell]) if cell in wall else model.true for cell in grid.all_cells}

    # A cell no island can reach is wall; a cell the plan's probing settled unshaded is unshaded.
    model.add(*[wall[cell] for cell in sorted(plan.wall)])
    model.add(*[open_[cell] for cell in sorted(plan.white)])

    # Two clues side by side share an island: no answer.
    if plan.clash:
        model.add(model.false)

    # No 2x2 block is all wall.
    model.add(*[model.any([open_[cell] for cell in block]) for block in wall_blocks(puzzle)])

    # Every island holds exactly one clue; a number equals its size.
    islands = options["islands"]
    if islands == "auto":
        islands = "levels" if puzzle.grid.size < AUTO_LEVELS_CELLS else "lazy"
        if (
            islands == "lazy"
            and max(puzzle.numbers.values(), default=0) >= AUTO_START_SHARE * puzzle.grid.size
        ):
            # One island holds most of the board: the lazy rounds would wander over its shapes
            # while the few small islands are cheap to level, so the stronger statement from the start.
            islands = auto_islands(puzzle, plan)
    if islands == "hybrid" and not plan.levelled(puzzle, budget=True, smallest=hybrid_smallest(puzzle)):
        islands = "lazy"  # no number large enough for levels: the lazy cuts alone
    # islands=lazy escalates to the levels or the hybrid after many rounds
    stronger = auto_islands(puzzle, plan) if islands == "lazy" and options["escalate"] > 0 else None
    if stronger == "hybrid" and not plan.levelled(puzzle, budget=True, smallest=hybrid_smallest(puzzle)):
        stronger = None  # the hybrid would add nothing to the lazy cuts
    if islands == "distance":
        _islands_by_distance(model, puzzle, plan, wall, open_, options["card"])
        model.logic = "QF_LIA"  # depths are compared as integers
    if islands in ("lazy", "hybrid"):
        # An unshaded non-clue cell has an unshaded neighbour (its island has two cells or more).
        model.add(
            *[
                model.any([wall[cell]] + [open_[nb] for nb in around])
                for cell, around in lonely_cells(puzzle, plan)
            ]
        )
    # Clauses in the SAT paradigm's form over the wall Booleans (variables 1..n), handed to z3 as
    # one SMT-LIB text.
    ids = {cell: i for i, cell in enumerate(wall, start=1)}
    cnf = CnfModel(pool=IDPool(start_from=len(ids) + 1), decision=ids)
    if islands in ("hybrid", "levels"):
        # Owners, levels and sizes of the islands as the SAT encoding states them (its
        # islands=hybrid: levels within a budget; levels: its islands=distance, every clue):
        # z3's SAT core learns over the same literals as the SAT paradigm.
        sat_islands(cnf, puzzle, plan, SAT_CARD, budget=islands == "hybrid")
    sat_wall_count(cnf, puzzle, plan, [ids[cell] for cell in plan.open], options["wall_count"], SAT_CARD)
    # The wall is connected: its runs along rows and columns are few, and the lines it must meet
    # hold one each (the SAT encoding's rule, islands.wall_runs).
    wall_runs_rule(cnf, puzzle, plan, options["wall_runs"], SAT_CARD)
    named = {i: wall[cell] for cell, i in ids.items()}
    add_clauses(model, cnf.clauses, named)
    if stronger is not None:

        def escalated(left: float | None = None) -> list[z3.BoolRef]:
            # The owners, levels and sizes of islands=levels or hybrid, over the same wall Booleans
            # (the lazy island cuts stay: they hold in every answer).
            at = plan
            settled: list[z3.BoolRef] = []
            if options["escalate_probe"] == "on":
                # Cells failed-literal probing settles hold in every answer: unit facts, and the
                # levels follow the probed plan's smaller islands. The probe gets its CPU budget,
                # never more than the seconds the run has left.
                budget = DEDUCE_BUDGET if left is None else min(DEDUCE_BUDGET, left)
                at = refine(puzzle, plan, time.process_time() + budget)
                settled = [wall[cell] for cell in sorted(at.wall - plan.wall)]
                settled += [model.neg(wall[cell]) for cell in sorted(at.white)]
                model.notes["escalate_settled"] = len(settled)
            more = CnfModel(pool=IDPool(start_from=len(ids) + 1), decision=ids)
            sat_islands(more, puzzle, at, SAT_CARD, budget=stronger == "hybrid")
            return settled + ([clauses_term(model, more.clauses, named)] if more.clauses else [])

        model.escalation = (options["escalate"], escalated)

    # All wall cells form one orthogonally connected region (Kuromasu's rank rule, with "out of
    # the region" the unshaded cells); lazy islands are checked with the lazy rule.
    connectivity = wall_rule(puzzle, options["connectivity"], islands)
    if connectivity == "rank":
        region, root = wall_region(puzzle, plan)
        connect_by_rank(model, region, {cell: open_[cell] for cell in wall}, wall, root)
        model.logic = "QF_LIA"  # ranks are compared as integers
    cuts = options["cuts"]
    if cuts == "auto":  # cell cuts for a small wall's few-cell parts, else region cuts for the wall
        cuts = "cell" if wall_count_pays(puzzle, plan) else "mixed"
    model.lazy = lazy_rules(
        puzzle,
        wall,
        {"connectivity": connectivity, "islands": islands, "cuts": cuts},
        anchor=min(plan.wall, default=None),
    )
    model.notes.update(connectivity=connectivity, islands=islands, escalate_to=stronger)
    return model


def auto_islands(puzzle: Nurikabe, plan: IslandPlan) -> str:
    """What ``islands=lazy`` escalates to: ``levels`` on a board below ``AUTO_LEVELS_CELLS``
    cells, and on a larger board whose levels for every clue are few (at most ``AUTO_LEVELS_MOST``)
    and mostly levels the hybrid gives anyway (its budget holds at least ``AUTO_LEVELS_SHARE`` of
    them); else ``hybrid``.

    A clue's levels are its bound times the cells its island may hold (``IslandPlan.levelled``'s
    measure). When the hybrid's budget already takes most of them, levelling the few small islands
    left costs little, and it spares the lazy island cuts that the hybrid needs for them (tens of
    rounds on the larger boards, each taking z3 as long as a search)."""
    if puzzle.grid.size < AUTO_LEVELS_CELLS:
        return "levels"
    cost = {clue: plan.bound[clue] * len(dist) for clue, dist in plan.reach.items()}
    every = sum(cost.values())
    hybrid = sum(cost[clue] for clue in plan.levelled(puzzle, budget=True, smallest=hybrid_smallest(puzzle)))
    if 0 < hybrid and every <= AUTO_LEVELS_MOST and hybrid >= AUTO_LEVELS_SHARE * every:
        return "levels"
    return "hybrid"


def wall_rule(puzzle: Nurikabe, connectivity: str, islands: str = "distance") -> str:
    """``connectivity=auto``: ranks with ``islands=distance`` on a board without '?' clues, else
    lazy cuts.

    A '?' island's only bound is the cells the numbers leave over, so its owners and depths reach
    most of the board; the ranks of the wall on top of them leave z3 without the uniqueness proof,
    where a few lazy rounds settle it. With the depths' integers on boards without '?' ranks are
    cheaper than lazy cuts (docs/decisions). The Boolean islands (``levels``, ``hybrid``,
    ``lazy``) keep z3 in its SAT core (QF_FD) with the lazy cuts; integer ranks would move every
    clause to the arithmetic core."""
    if connectivity != "auto":
        return connectivity
    return "rank" if islands == "distance" and not puzzle.unknown else "lazy"


def _islands_by_distance(
    model: SmtModel, puzzle: Nurikabe, plan: IslandPlan, wall: dict, open_: dict, card: str
) -> None:
    grid = puzzle.grid
    owns: dict[tuple[Cell, Cell], z3.BoolRef] = {}
    for cell in plan.open:
        owners = plan.owners[cell]
        if len(owners) == 1:
            owns[(owners[0], cell)] = open_[cell]  # one possible owner: owned iff unshaded
            continue
        lits = [model.bool("owns", *clue, *cell) for clue in owners]
        owns.update(zip(((clue, cell) for clue in owners), lits))
        # An unshaded cell has exactly one owner; a wall cell none.
        model.add(model.count(lits + [wall[cell]], "==", 1, card))

    # An owned cell passes its owner to its unshaded neighbours; a neighbour the island cannot
    # hold is wall.
    for clue, step, nb, inside in plan.steps(puzzle):
        guard = [] if step is None else [model.neg(owns[(clue, step)])]
        model.add(model.any(guard + ([wall[nb], owns[(clue, nb)]] if inside else [wall[nb]])))

    for clue, dist in plan.reach.items():
        n = plan.bound[clue]  # the number, or a '?' island's bound
        for cell, d in dist.items():
            mine = owns.get((clue, cell))  # None: the clue itself
            if mine is None or clue in grid.neighbours4(cell):
                continue  # the number itself, or a cell beside it (supported by it)
            # an owned cell lies fewer than n steps away, and a shallower neighbour of the island
            # leads towards the clue
            depth = model.int("depth", *clue, *cell, lo=d, hi=n - 1)
            support = [
                model.all(
                    [
                        owns[(clue, nb)],
                        model.rel(model.int("depth", *clue, *nb, lo=dist[nb], hi=n - 1), "<", depth),
                    ]
                )
                for nb in grid.neighbours4(cell)
                if nb in dist and nb != clue
            ]
            model.add(model.implies(mine, model.any(support)))
        # The island has n cells, the number's own included (a '?' island: at most its bound).
        mine = [owns[(clue, cell)] for cell in dist if cell != clue]
        model.add(model.count(mine, "==" if clue in puzzle.numbers else "<=", n - 1, card))


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.NURIKABE,
        paradigm="smt",
        name="default",
        build=build_default,
        load=load_engine,
        description="wall Booleans, 2x2 clauses; islands by the SAT encoding's owners and Boolean levels "
        "(SMT-LIB text), owners and integer depths, or lazy cuts; "
        "wall connectivity by lazy region cuts or levels",
        reference="lazy cuts as in counterexample-guided (CEGAR) connectivity",
        options=(
            plan_option("search"),
            # auto: ranks where they prove more of the corpus than the lazy cuts (docs/decisions)
            Option(
                "connectivity",
                "auto",
                ("auto", *(WALL.choices or ())),
                WALL.description
                + "; auto = rank with islands=distance on boards without '?' clues, else lazy",
                relaxing=WALL.relaxing,
            ),
            # auto: levels on small boards, where they are cheapest; lazy escalating on larger ones, which
            # proves most of the boards that distance or the levels/hybrid choice left unproved
            # (docs/decisions)
            Option(
                "islands",
                "auto",
                ISLANDS,
                "how islands get one number and its size: distance (owners and bounded integer depths), "
                "lazy (cuts), levels (the SAT encoding's owners, Boolean levels and counts for every clue, "
                "as SMT-LIB text), hybrid (those levels within the SAT encoding's budget, cuts for the rest), "
                "or auto (levels on boards under AUTO_LEVELS_CELLS cells, else lazy escalating to levels or "
                "hybrid, see escalate; those from the start where one number holds half the board)",
            ),
            Option(
                "escalate",
                ESCALATE,
                description="islands=lazy (and auto's lazy): after this many checks, "
                "add the owners, levels and sizes of islands=levels or hybrid (as auto_islands picks) to the "
                "solver, keeping the cuts and what it learnt (0: never)",
            ),
            # on: the probe at the escalation settles cells that prove more of the hard boards; boards proven
            # quickly after the escalation pay for it, and boards that never escalate pay nothing
            # (docs/decisions)
            Option(
                "escalate_probe",
                "on",
                ("on", "off"),
                "islands=lazy with escalate: at the escalation, probe the board (failed literals, "
                "within DEDUCE_BUDGET CPU seconds and the time left) and add the cells it settles as "
                "unit facts, with the levels over the probed plan's islands (off: the plan as searched)",
            ),
            card_option("cells of an island and owners of a cell (islands=distance)"),
            cuts_option("auto", mixed=True),
            wall_count_option("card", "auto"),
            WALL_RUNS_OPTION,
        ),
    ),
]

#: The default's options are the ways it states a rule; the rest of its options are fixed settings (the
#: escalation states its levels over the deduction stage's plan: no probe of its own).
SPECS = [
    axes(spec, "connectivity", "islands", "card", escalate_probe="off") if spec.name == "default" else spec
    for spec in SPECS
]
