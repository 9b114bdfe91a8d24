"""Nurikabe in CP-SAT: one Boolean ("wall", r, c) per non-clue cell.

Rules and the blocks that enforce them:

* clue cells (numbers and '?') are unshaded: they get no variable; a cell no island can reach is wall
  (:class:`~puzzlebench.encodings.islands.IslandPlan`, sound precomputations);
* no 2x2 block is all wall: one clause per block;
* every island holds one clue, a number equal to its size or a '?' (``islands`` option):
  ``distance`` gives each unshaded cell exactly one owner among the clues that can reach it,
  passes ownership across unshaded neighbours, gives each unshaded cell an integer depth (0 on a
  clue) below its clue's bound n (the number; ``IslandPlan.bound`` for a '?') that a neighbour of
  the same island undercuts (distance-bounded reachability), and sums each clue's cells (exactly
  n for a number, at most the bound for a '?'); ``owners`` keeps the owners and the sums but no
  depths, and leaves owned cells cut off from their clue to the lazy cuts; ``lazy`` states only
  that a non-clue unshaded cell has an unshaded neighbour and leaves whole islands to cuts
  (``regions.island_cuts``); ``hybrid`` is ``distance`` with depths only for the clues of bound
  at least :func:`hybrid_smallest` within ``IslandPlan.levelled``'s budget, the other islands
  left to the lazy cuts; ``levels`` states the same owners, levels and sizes as the SAT
  encoding's clauses (its ``islands=hybrid``: Boolean "within t steps" levels and sequential
  counters, one ``bool_or`` each; the numbers from ``levels_from`` on within the ``levels``
  budget); with ``escalate`` (a number of searches, and at least
  ``escalate_per_cell`` per cell of the board), ``lazy`` turns into the ``escalate_to`` variant
  after that many searches or ``escalate_time`` CPU seconds of them, keeping the cuts found
  (the lazy rounds are cheap, the larger model's rounds dearer: a board that needs many lazy
  rounds gets it), with CP-SAT's presolve for the searches after the switch or without it
  (``escalate_presolve``), with what CP-SAT's root propagation and probing fix in that model fixed
  for its searches (``escalate_fixings``, taken anew every ``escalate_refix`` searches), with
  CP-SAT's LP relaxation and SAT inprocessing after the switch or without them
  (``escalate_linearization``, ``escalate_inprocessing``), with other lazy cuts from then on
  (``escalate_cuts``), with the wall's connectivity stated up front from then on or not
  (``escalate_connectivity``), and with the cells failed-literal probing settles
  (:func:`~puzzlebench.encodings.nurikabe_deduce.refine`, run once at the switch within
  ``escalate_probe_budget`` CPU seconds and the time left) or not (``escalate_plan``), the larger
  model built on that plan (each island's reach as probed) or on the searched plan with those
  cells as unit facts (``escalate_reach``), and with the islands' corner contacts stated to form a
  forest or not (``escalate_contacts``: no two corners per pair of islands and no triangle, and
  with ``acyclic`` no cycle at all, by oriented contacts and integer ranks);
* the wall is connected (``connectivity`` option): ``lazy`` cuts on split candidates
  (``regions.connectivity_cuts`` on the marked cells), ``rank`` (levels) or ``flow``
  (single-commodity flow), both shared with Kuromasu and Hitori over the cells that may be wall,
  or ``none`` (a relaxation);
* redundant wall statements (``wall_rules``): the wall's size (the cells the numbers leave over)
  and "a wall cell has a wall neighbour" (:func:`~puzzlebench.encodings.islands.wall_partners`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from ortools.sat.python import cp_model

from ...errors import EncodingError
from ...model import Cell, Family, Nurikabe
from ..base import EncodingSpec, Option, axes
from ..islands import (
    EDGE,
    IslandPlan,
    contact_triangles,
    corner_contacts,
    cuts_option,
    lazy_rules,
    lonely_cells,
    plan_option,
    planned,
    wall_blocks,
    wall_count_option,
    wall_option,
    wall_partners,
    wall_region,
    wall_rules,
    wall_rules_option,
    wall_size,
)
from ..nurikabe_deduce import load_engine, refine
from ..sat import nurikabe as sat_nurikabe
from .common import CpModelArtifact, add_clauses, apply_linearization, linearization_option, new_bools
from .connectivity import connect_by_flow, connect_by_rank

ISLANDS: tuple[str, ...] = ("distance", "lazy", "owners", "hybrid", "levels")
#: islands=hybrid: the smallest bound given depths, as a share of the board's cells (a number of at
#: least rows x cols / HYBRID_SHARE), and at most HYBRID_SMALLEST
HYBRID_SHARE = 10
HYBRID_SMALLEST = 16
#: escalate_plan=probe: the probe's CPU seconds at the switch (the probe settles most of its cells
#: early; a big board spends the whole of a longer budget)
PROBE_BUDGET = 1.0
#: escalate: the lazy rounds' CPU seconds after which the switch comes, however few the searches
ESCALATE_TIME = 3.0
#: islands=levels: the levels' budget and the smallest number given levels (every island: on the
#: probed plan the small numbers' levels are cheap, and the lazy cuts need many rounds for them)
LEVELS = 80000
LEVELS_FROM = 1


def hybrid_smallest(puzzle: Nurikabe) -> int:
    """islands=hybrid: the smallest bound given depths on this board."""
    return max(1, min(HYBRID_SMALLEST, -(-puzzle.rows * puzzle.cols // HYBRID_SHARE)))


def build_default(puzzle: Nurikabe, options: Mapping[str, Any]) -> CpModelArtifact:
    return _build(puzzle, options)[0]


def _build(
    puzzle: Nurikabe, options: Mapping[str, Any], plan: IslandPlan | None = None
) -> tuple[CpModelArtifact, dict[tuple[Cell, Cell], Any]]:
    """The model, and its owner literals ("clue's island holds cell"; none with islands=lazy).
    ``plan``: the island plan to build on (else the one the ``plan`` option names)."""
    islands, connectivity = options["islands"], options["connectivity"]
    # Owners are functions of the colouring; depths, levels and flows are not.
    art = CpModelArtifact(functional=islands == "lazy" and connectivity in ("lazy", "none"))
    apply_linearization(art, options["linearization"])
    model = art.model
    plan = planned(puzzle, options["plan"]) if plan is None else plan
    clues = puzzle.clue_cells
    grid = puzzle.grid
    wall = new_bools(model, "wall", (c for c in grid.all_cells if c not in clues))
    art.decision = wall

    # A cell no island can reach is wall; a cell the plan's probing settled unshaded is unshaded.
    for cell in sorted(plan.wall):
        model.add(wall[cell] == 1)
    for cell in sorted(plan.white):
        model.add(wall[cell] == 0)

    # Two clues side by side share an island: no answer.
    if plan.clash:
        model.add_bool_or([])

    # No 2x2 block is all wall.
    for block in wall_blocks(puzzle):
        model.add_bool_or([~wall[cell] for cell in block])

    # Every island holds exactly one clue; a number equals its size.
    owns: dict[tuple[Cell, Cell], Any] = {}
    smallest, limit = sat_nurikabe.level_terms(puzzle, options)
    if islands == "levels" and not plan.levelled(puzzle, budget=True, smallest=smallest, limit=limit):
        # No number large enough for levels (the SAT encoding keeps no owners then): owners and sizes.
        owns = _owners(model, puzzle, plan, wall)
        _island_sizes(model, puzzle, plan, owns)
    elif islands == "levels":
        # Owners, levels and sizes as the SAT encoding's clauses (its islands=hybrid, which also
        # states the known wall cells, the 2x2 blocks and the lonely cells above and below).
        cnf = sat_nurikabe.build_default(
            puzzle,
            {
                "islands": "hybrid",
                "card": "seqcounter",
                "connectivity": "none",
                "cuts": "region",
                "wall_count": options["wall_count"],
                "wall_span": "none",
                "wall_edges": "none",
                "wall_parts": "none",
                "wall_runs": "auto",
                "plan": "search",
                "levels": options["levels"],
                "levels_from": options["levels_from"],
            },
            plan=plan,
        )
        first = len(model.proto.variables)
        add_clauses(model, wall, cnf)
        # Every island's size as a CP-SAT sum too: the SAT clauses count only the levelled ones.
        owns = _sat_owners(model, plan, wall, cnf, first)
        _island_sizes(model, puzzle, plan, owns)
    elif islands in ("distance", "hybrid"):
        levelled = (
            plan.levelled(puzzle, budget=True, smallest=hybrid_smallest(puzzle))
            if islands == "hybrid"
            else None
        )
        owns = _islands_by_distance(model, puzzle, plan, wall, levelled)
    elif islands == "owners":
        owns = _owners(model, puzzle, plan, wall)
        _island_sizes(model, puzzle, plan, owns)
    if islands != "distance":  # (hybrid, levels: for the islands without depths)
        # An unshaded non-clue cell has an unshaded neighbour (its island has two cells or more).
        for cell, around in lonely_cells(puzzle, plan):
            model.add_bool_or([wall[cell]] + [~wall[nb] for nb in around])

    _wall_rules(model, puzzle, plan, wall, options["wall_rules"])

    # All wall cells form one orthogonally connected region (the rules shared with Kuromasu, with
    # "out of the region" the unshaded cells); lazy islands are checked with the lazy rule.
    if connectivity in ("rank", "flow"):
        region, root = wall_region(puzzle, plan)
        connect = connect_by_rank if connectivity == "rank" else connect_by_flow
        connect(model, region, {cell: ~w for cell, w in wall.items()}, root)
    anchor = min(plan.wall, default=None)
    art.lazy = lazy_rules(puzzle, wall, options, anchor=anchor)
    art.notes.update(connectivity=connectivity, islands=islands)
    switched: list[bool] = []  # (the escalation, once built: the lazy rule's cuts after the switch)
    if (
        islands == "lazy"
        and options["escalate"] > 0
        and options["escalate_cuts"] not in ("same", options["cuts"])
    ):
        before = art.lazy
        after_switch = lazy_rules(puzzle, wall, {**options, "cuts": options["escalate_cuts"]}, anchor=anchor)
        if before is not None and after_switch is not None:
            art.lazy = lambda marked: (after_switch if switched else before)(marked)
    if islands == "lazy" and options["escalate"] > 0:
        # The same rules with the islands stated up front: the resolve loop switches to it.
        # (the plan is given to it below: not searched or probed again)
        stronger = {
            **options,
            "islands": options["escalate_to"],
            "escalate": 0,
            "plan": "search",
            "connectivity": connectivity
            if options["escalate_connectivity"] == "same"
            else options["escalate_connectivity"],
        }

        def escalated() -> CpModelArtifact:
            # Cells the probe settled (up front with plan=probe or deep, and at the switch with
            # escalate_plan=probe, or auto on plan=search, within its budget and the time left) hold
            # in every answer: the switched model is built on that plan (its islands' reach as
            # probed), or on the searched plan with the settled cells as unit facts
            # (escalate_reach=search).
            probed, start = plan, time.process_time()
            when = options["escalate_plan"]
            if when == "probe" or when == "auto" and options["plan"] == "search":
                left = art.escalation_left
                budget = options["escalate_probe_budget"]
                probed = refine(puzzle, plan, start + (budget if left is None else min(budget, left)))
            probe_time = time.process_time() - start
            searched = IslandPlan.of(puzzle)
            if options["escalate_reach"] == "probed":
                bigger, owns = _build(puzzle, stronger, plan=probed)
            else:
                bigger, owns = _build(puzzle, stronger)
                for cell in sorted(probed.wall - searched.wall):
                    bigger.model.add(bigger.decision[cell] == 1)
                for cell in sorted(probed.white):
                    bigger.model.add(bigger.decision[cell] == 0)
            switched.append(True)
            if options["escalate_linearization"] != "same":
                bigger.parameters["linearization_level"] = int(options["escalate_linearization"])
            if not options["escalate_inprocessing"]:
                bigger.parameters["use_sat_inprocessing"] = False
            if not options["escalate_presolve"]:
                bigger.parameters.update(cp_model_presolve=False, symmetry_level=0)
            bigger.carry_fixings = options["escalate_fixings"] != "off"
            if options["escalate_fixings"] == "noprobe":
                bigger.fixed_parameters.update(cp_model_probing_level=0)
            bigger.refix_every = options["escalate_refix"]
            stats = {
                "probe_time": round(probe_time, 3),
                "probe_settled": len(probed.wall - searched.wall) + len(probed.white),
            }
            if options["escalate_contacts"] != "none" and owns:
                # The islands' corner contacts form a forest (the wall's connectivity, island by
                # island), over what the probed islands may still hold.
                stats["contacts"] = _contacts(
                    bigger.model, puzzle, probed, owns, acyclic=options["escalate_contacts"] == "acyclic"
                )
            bigger.notes["escalation_stats"] = stats
            return bigger

        # A board's lazy rounds grow with its cells: a big board switches later.
        after = max(options["escalate"], math.ceil(options["escalate_per_cell"] * puzzle.rows * puzzle.cols))
        art.escalation = (after, escalated)
        if options["escalate_time"] > 0:
            art.escalation_time = options["escalate_time"]
    return art, owns


def _contacts(
    model: cp_model.CpModel, puzzle: Nurikabe, plan: IslandPlan, owns: dict, acyclic: bool = False
) -> int:
    """The contact graph is a forest (see ``islands.EDGE``): a Boolean per corner, diagonal and
    pair of clues whose islands may hold its two cells (``plan``), implied by the two owners; at
    most one per pair of clues; per pair "they touch" and per clue "its island meets the board's
    edge", implied by those; no triangle of them; with ``acyclic`` no cycle at all (each contact
    oriented, at most one into each island, an integer rank rising along them). Returns the
    number of contact Booleans."""

    def held(clue: Cell, cell: Cell) -> list:  # what "clue's island holds cell" takes: none for the clue
        return [] if cell == clue else [owns[(clue, cell)]]

    places, rim = corner_contacts(puzzle, plan, owns)
    corners: dict[tuple[Cell, Cell], list] = {}
    for a, p, b, q in places:
        # the islands of a and b touch at this corner
        contact = model.new_bool_var("")
        model.add_bool_or([~lit for lit in held(a, p) + held(b, q)] + [contact])
        corners.setdefault((min(a, b), max(a, b)), []).append(contact)
    edges = {}
    for pair, contacts in corners.items():
        # Two corners of the same two islands close a cycle.
        model.add_at_most_one(contacts)
        edges[pair] = model.new_bool_var("")
        for contact in contacts:
            model.add_implication(contact, edges[pair])
    for a, cell in rim:
        if (EDGE, a) not in edges:
            edges[(EDGE, a)] = model.new_bool_var("")
        model.add_bool_or([~lit for lit in held(a, cell)] + [edges[(EDGE, a)]])
    # Three islands (or two and the edge) touching pairwise close a cycle.
    for triangle in contact_triangles(list(edges)):
        model.add_bool_or([~edges[e] for e in triangle])
    if acyclic:
        # No cycle of any length: a forest rooted at the board's edge (rank 0) and elsewhere,
        # each contact oriented from parent to child, each island the child of at most one.
        nodes = sorted({node for pair in edges for node in pair})
        rank = {node: model.new_int_var(0, len(nodes) - 1, "") for node in nodes}
        if EDGE in rank:
            model.add(rank[EDGE] == 0)
        parents: dict[Cell, list] = {node: [] for node in nodes}
        for (a, b), touch in edges.items():
            down, up = model.new_bool_var(""), model.new_bool_var("")
            model.add(down + up == touch)
            model.add(rank[b] > rank[a]).only_enforce_if(down)
            model.add(rank[a] > rank[b]).only_enforce_if(up)
            parents[b].append(down)
            parents[a].append(up)
        for into in parents.values():
            model.add_at_most_one(into)
    return len(places)


def _wall_rules(model: cp_model.CpModel, puzzle: Nurikabe, plan: IslandPlan, wall: dict, which: str) -> None:
    """The redundant wall statements ``wall_rules`` asks for (sound in every answer)."""
    which = wall_rules(puzzle, plan, which)
    if which in ("count", "both"):
        # The wall holds the cells the clues' islands leave over.
        fewest, most = wall_size(puzzle, plan)
        if wall:
            model.add_linear_constraint(sum(wall.values()), fewest, most)
        elif not fewest <= 0 <= most:
            model.add_bool_or([])
    if which in ("partners", "both"):
        # A wall cell has a wall neighbour (the wall is connected and has two cells or more).
        for cell, around in wall_partners(puzzle, plan):
            model.add_bool_or([~wall[cell]] + [wall[nb] for nb in around])


def _owners(
    model: cp_model.CpModel, puzzle: Nurikabe, plan: IslandPlan, wall: dict
) -> dict[tuple[Cell, Cell], Any]:
    """Literal "clue's island holds cell" per clue and cell it may reach: an unshaded cell has
    exactly one owner, a wall cell none, and an owned cell passes its owner to its unshaded
    neighbours."""
    owns: dict[tuple[Cell, Cell], Any] = {}
    for cell in plan.open:
        owners = plan.owners[cell]
        if len(owners) == 1:
            owns[(owners[0], cell)] = ~wall[cell]  # one possible owner: owned iff unshaded
            continue
        lits = [model.new_bool_var("") for _ in owners]
        owns.update(zip(((clue, cell) for clue in owners), lits))
        # An unshaded cell has exactly one owner; a wall cell none.
        model.add(sum(lits) + wall[cell] == 1)

    # An owned cell passes its owner to its unshaded neighbours; a neighbour the island cannot
    # hold is wall.
    for clue, step, nb, inside in plan.steps(puzzle):
        guard = [] if step is None else [~owns[(clue, step)]]
        model.add_bool_or(guard + ([wall[nb], owns[(clue, nb)]] if inside else [wall[nb]]))
    return owns


def _sat_owners(model: cp_model.CpModel, plan: IslandPlan, wall: dict, cnf: Any, first: int) -> dict:
    """The CP-SAT literal of the SAT encoding's "clue's island holds cell" per clue and cell it
    may reach: ``add_clauses`` gave the SAT auxiliaries (numbered after the cells) fresh Booleans
    in their order, from proto index ``first`` on."""
    cells = len(cnf.decision)
    if sorted(cnf.decision.values()) != list(range(1, cells + 1)):
        raise EncodingError("the SAT Nurikabe encoding numbers its cells first")
    owns = {}
    for clue, dist in plan.reach.items():
        for cell in dist:
            if cell == clue:
                continue
            if len(plan.owners[cell]) == 1:
                owns[(clue, cell)] = ~wall[cell]  # one possible owner: owned iff unshaded
            else:
                v = cnf.pool.obj2id[("owns", clue, *cell)]
                owns[(clue, cell)] = model.get_bool_var_from_proto_index(first + v - cells - 1)
    return owns


def _island_sizes(model: cp_model.CpModel, puzzle: Nurikabe, plan: IslandPlan, owns: dict) -> None:
    # The island has n cells, the number's own included (a '?' island: at most its bound).
    for clue, dist in plan.reach.items():
        n = plan.bound[clue]
        size = sum(owns[(clue, cell)] for cell in dist if cell != clue)
        model.add(size == n - 1 if clue in puzzle.numbers else size <= n - 1)


def _islands_by_distance(
    model: cp_model.CpModel, puzzle: Nurikabe, plan: IslandPlan, wall: dict, levelled: set[Cell] | None = None
) -> dict[tuple[Cell, Cell], Any]:
    """Owners and sizes for every clue; depths for the clues of ``levelled`` (None: all)."""
    grid = puzzle.grid
    owns = _owners(model, puzzle, plan, wall)
    if levelled is None:
        levelled = set(plan.reach)
    top = max((plan.bound[clue] for clue in levelled), default=1) - 1
    depth = {cell: model.new_int_var(1, top, "") for cell in plan.open if top >= 1}
    for clue, dist in plan.reach.items():
        n = plan.bound[clue]  # the number, or a '?' island's bound
        if clue not in levelled:
            continue  # its island is left to the lazy cuts
        for cell, d in dist.items():
            mine = owns.get((clue, cell))  # None: the clue itself
            if mine is None or clue in grid.neighbours4(cell):
                continue  # the number itself, or a cell beside it (supported by it)
            # an owned cell lies fewer than n steps away: its depth is below n, and some
            # neighbour of the island (the clue, depth 0, or a shallower cell) undercuts it
            model.add(depth[cell] >= d).only_enforce_if(mine)
            model.add(depth[cell] <= n - 1).only_enforce_if(mine)
            support = []
            for nb in grid.neighbours4(cell):
                if nb in dist:
                    s = model.new_bool_var("")
                    model.add_implication(s, owns[(clue, nb)])
                    model.add(depth[nb] < depth[cell]).only_enforce_if(s)
                    support.append(s)
            model.add_bool_or(support).only_enforce_if(mine)
    _island_sizes(model, puzzle, plan, owns)
    return owns


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.NURIKABE,
        paradigm="cp",
        name="default",
        build=build_default,
        load=load_engine,
        description="wall Booleans, 2x2 clauses; islands by owners and depths, or lazy cuts; wall "
        "connectivity by lazy cuts, levels or flow",
        options=(
            plan_option("search"),
            wall_option("rank", "flow"),
            # lazy by default: a round of cuts is cheap and most boards need few, so lazy islands prove more
            # boards in less time than owners, distance or hybrid (docs/decisions)
            Option(
                "islands",
                "lazy",
                ISLANDS,
                "how islands get one number and its size: distance (owners and bounded depths), owners "
                "(owners and sizes, islands cut off from their number by lazy cuts), hybrid (owners and "
                "sizes for all, depths for the big numbers within a budget) or lazy (cuts)",
            ),
            # the switch comes early: a board that needs many lazy rounds gains the larger model's
            # propagation, one that needs few never reaches it, and the tail of boards whose lazy rounds stall
            # is cut short (docs/decisions)
            Option(
                "escalate",
                20,
                description="islands=lazy: after this many searches, switch to the "
                "escalate_to variant of the islands, keeping the cuts found so far (0: never)",
            ),
            # levels (without presolve, see escalate_presolve): the SAT encoding's owners, levels and sizes
            # prove more of the hardest boards than hybrid; a per-cell floor on the switch (escalate_per_cell)
            # stays off, since it delays the switch on mid-sized boards that need it (docs/decisions)
            Option(
                "escalate_to",
                "levels",
                ("hybrid", "distance", "owners", "levels"),
                "the islands variant islands=lazy escalates to (see escalate)",
            ),
            # probing at the switch settles cells the searched plan leaves open, which proves more of the
            # hardest boards; boards that never switch never probe, and auto does not probe again where the
            # deep plan has probed up front (docs/decisions)
            Option(
                "escalate_plan",
                "auto",
                ("auto", "search", "probe"),
                "islands=lazy with escalate: the switched model's settled cells from the island plan's "
                "searches, or also those failed-literal probing settles (probe: run once, at the switch; "
                "auto: probe where the plan option probed nothing up front, plan=search)",
            ),
            # the probed plan's reach leaves fewer owners and levels than unit facts on the searched plan; a
            # short probe budget suffices, as the probe settles most of its cells early (docs/decisions)
            Option(
                "escalate_reach",
                "probed",
                ("probed", "search"),
                "islands=lazy with escalate: the switched model built on the probed island plan (each "
                "island's reach as probed: fewer owners and levels), or on the searched plan with the "
                "probed cells as unit facts (search)",
            ),
            Option(
                "escalate_probe_budget",
                PROBE_BUDGET,
                description="islands=lazy with escalate_plan=probe: "
                "the probe's CPU seconds at the switch (at most the time left)",
            ),
            # a time bound next to the count: a large board whose lazy rounds are each slow switches before it
            # reaches the count; the boards that switch by count sooner are unchanged (docs/decisions)
            Option(
                "escalate_time",
                ESCALATE_TIME,
                description="islands=lazy with escalate: switch also once the lazy "
                "rounds have taken this many CPU seconds (0: by their number only)",
            ),
            Option(
                "escalate_per_cell",
                0.0,
                description="islands=lazy with escalate: switch no earlier than "
                "after this many searches per cell of the board",
            ),
            # the wall's connectivity stays as it was: rank or flow stated at the switch slow the first search
            # after it on the largest boards (docs/decisions)
            Option(
                "escalate_connectivity",
                "same",
                ("same", "rank", "flow"),
                "islands=lazy with escalate: the connectivity variant after the switch (same: unchanged)",
            ),
            # root fixings in the switched model make each later search cheaper, and finding them once costs
            # less than CP-SAT's probing before every search (docs/decisions)
            Option(
                "escalate_fixings",
                "noprobe",
                ("off", "probe", "noprobe"),
                "islands=lazy with escalate: after the switch, fix in the model what CP-SAT's root "
                "propagation and probing fix (probe, noprobe: then without probing per search), or not (off)",
            ),
            # after the switch, no SAT inprocessing and linearization 0: the searches are many and short, and
            # the work CP-SAT spends on each in inprocessing (most of the cost) and in the LP relaxation is
            # not repaid (docs/decisions)
            Option(
                "escalate_inprocessing",
                False,
                description="islands=lazy with escalate: CP-SAT's use_sat_inprocessing after the switch",
            ),
            Option(
                "escalate_linearization",
                "0",
                ("same", "0", "1", "2"),
                "islands=lazy with escalate: CP-SAT's linearization_level after the switch (same: as linearization)",
            ),
            Option(
                "escalate_refix",
                0,
                description="islands=lazy with escalate_fixings: after the switch, "
                "a fresh root run every this many searches, fixing what the cuts since imply (0: never)",
            ),
            Option(
                "escalate_cuts",
                "same",
                ("same", "cell", "region", "mixed", "auto", "separator"),
                "islands=lazy with escalate: the lazy cuts after the switch (same: as cuts)",
            ),
            # a cycle of corner contacts among islands (and the board's edge) would cut the wall in two, so
            # stating that they form a forest (acyclic: no cycle at all) prunes the searches after the switch
            # (docs/decisions)
            Option(
                "escalate_contacts",
                "acyclic",
                ("acyclic", "forest", "none"),
                "islands=lazy with escalate: after the switch, the islands' corner contacts as Booleans "
                "whose graph (clues and the board's edge) has no two corners per pair and no triangle "
                "(forest), and no cycle at all by oriented contacts and ranks (acyclic), or not (none)",
            ),
            Option(
                "escalate_presolve",
                False,
                description="islands=lazy with escalate: CP-SAT's presolve and "
                "symmetry detection for the searches after the switch",
            ),
            # region cuts: fewer rounds than one-cell cuts; the separator's cuts grow too many per search on
            # the larger boards (docs/decisions)
            cuts_option("region", mixed=True),
            wall_rules_option("none"),
            # wall_count below: auto rather than none, the wall's size being a redundant statement that proves
            # more of the boards that switch (docs/decisions)
            Option(
                "levels",
                LEVELS,
                description="islands=levels (and escalate_to=levels): the budget of "
                "levels, as the SAT encoding's option",
            ),
            Option(
                "levels_from",
                LEVELS_FROM,
                description="islands=levels (and escalate_to=levels): the "
                "smallest number given levels, as the SAT encoding's option (0: its default)",
            ),
            wall_count_option(
                "card",
                "auto",
                "islands=levels (and escalate_to=levels), as the SAT encoding's counter clauses: ",
            ),
            # linearization 1, CP-SAT's default: level 0 gains nothing on these boards (docs/decisions)
            linearization_option(1),
        ),
    ),
]

#: The default's options are the ways it states a rule; the rest of its options are fixed settings (the
#: switched model is built on the deduction stage's plan: no probe of its own).
ENCODINGS = [
    axes(spec, "connectivity", "islands", escalate_plan="search") if spec.name == "default" else spec
    for spec in ENCODINGS
]
