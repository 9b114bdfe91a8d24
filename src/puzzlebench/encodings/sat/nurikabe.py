"""Nurikabe as CNF: one "wall" variable per non-clue cell.

Rules and the blocks that enforce them:

* clue cells (numbers and '?') are unshaded: they get no variable;
* sound precomputations (:class:`~puzzlebench.encodings.islands.IslandPlan`): a cell no island
  can reach is wall; with ``plan=probe`` also the cells failed-literal probing settles
  (``nurikabe_deduce.refine``), and with ``plan=auto`` those cells as unit clauses added to the
  running solver once ``escalate`` checks have taken ``escalate_cpu`` CPU seconds
  (``CnfModel.escalation``), so that only boards whose lazy rounds run long pay for the probe
  (``probe_stop``: to its budget, or cut once a pass shows it would reach few of its cells);
* no 2x2 block is all wall: one clause per block;
* every island holds one clue, a number equal to its size or a '?' (``islands`` option):
  ``distance`` gives each cell one owner among the clues that can reach it, passes ownership
  across unshaded neighbours, ties every owned cell to its clue by reachability levels bounded by
  the clue's bound (the number; ``IslandPlan.bound`` for a '?'), and counts each clue's cells
  with a cardinality encoding (``card``: exactly n for a number, at most the bound for a '?');
  ``lazy`` states only that a non-clue unshaded cell has an unshaded neighbour
  and rejects candidates with faulty islands by cuts (``cuts`` option, ``islands.lazy_rules``);
  ``hybrid`` gives every clue ownership, but levels and a count only to the clues whose
  levels fit a budget (``IslandPlan.levelled``), and leaves the rest to the lazy cuts;
  ``propagator`` runs the rule on partial assignments (``sat/islands.py``);
* the wall is connected (``connectivity`` option): ``lazy`` cuts (``cuts=auto``: one clause per
  cut-off wall part, one per cell of it on a board of a small wall; ``cuts=separator``: one per
  cell of it, naming a short separator instead of its fence), ``propagator`` (the
  IPASIR-UP engine shared with Kuromasu, on the negated wall variables), ``rank``
  (reachability levels), or ``none`` (the rule dropped: a relaxation);
* ``wall_span`` (off by default): the wall is connected, so the rows it meets are consecutive,
  so are its columns, and together they number at most its cells plus one;
* ``wall_runs`` (``auto``): the wall is connected, so its runs along rows and columns number at
  most its cells plus one (``islands.wall_runs``), and a row or column it must meet holds a
  wall cell (``islands.met_lines``): the met lines always, the runs' count when the met lines
  leave it at most a couple of runs to spare (``islands.wall_runs_pay``);
* ``wall_edges`` (off by default): an island of n cells has at most 2n - ceil(2 sqrt n) pairs of
  cells side by side, so the wall's pairs plus its cells' border sides are few
  (``islands.wall_adjacency``; ``island``: also each number's island's pairs, by ownership);
* ``wall_count``: the wall holds the cells the clues' islands leave over (a redundant count,
  by the ``card`` encoding; with '?' clues, between the cells left by '?' islands of their bound
  and of one cell): ``card`` always, ``auto`` when its counter is small (``wall_count_pays``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from pysat.formula import IDPool

from ...model import Cell, Family, Nurikabe
from ..base import EncodingSpec, Option, axes, check_deadline
from ..islands import (
    CUTS,
    DEDUCE_BUDGET,
    HYBRID_LEVELS,
    PLAN_DEEP,
    WALL_RUNS_OPTION,
    IslandPlan,
    lazy_rules,
    lonely_cells,
    met_lines,
    most_adjacencies,
    planned,
    small_wall_parts,
    wall_adjacency,
    wall_blocks,
    wall_count_option,
    wall_count_pays,
    wall_lines,
    wall_runs,
    wall_runs_pay,
    wall_size,
)
from ..nurikabe_deduce import PROBE_STOP, PROBE_STOPS, load_engine
from .common import CARD_CHOICES, Clause, CnfModel
from .connectivity import BoardGraph, ConnectivityPropagator, PropagatorGroup, reach_levels
from .islands import IslandPropagator

CONNECTIVITY: tuple[str, ...] = ("lazy", "propagator", "rank", "none")
ISLANDS: tuple[str, ...] = ("distance", "lazy", "propagator", "hybrid")
#: islands=hybrid: the smallest number given levels (smaller islands have few shapes, and the lazy
#: cuts settle them in a few rounds; levels for them cost more search than they save)
HYBRID_SMALLEST = 16
#: ... and on a small board, every number of at least 1/HYBRID_SHARE of its cells (a big island on a
#: small board has many shapes: the lazy cuts take thousands of rounds where levels settle it)
HYBRID_SHARE = 10


#: plan=auto: the checks (lazy rounds) before the probe.
ESCALATE = 300
#: ... and the CPU seconds those checks must have taken.
ESCALATE_CPU = 1.0


def hybrid_smallest(puzzle: Nurikabe) -> int:
    """islands=hybrid: the smallest number given levels on this board."""
    return max(1, min(HYBRID_SMALLEST, -(-puzzle.rows * puzzle.cols // HYBRID_SHARE)))


def level_terms(puzzle: Nurikabe, options: Mapping[str, Any]) -> tuple[int, int]:
    """islands=hybrid: the smallest number given levels (``levels_from``, 0: :func:`hybrid_smallest`)
    and the levels' budget (``levels``), as :meth:`IslandPlan.levelled` takes them."""
    return options["levels_from"] or hybrid_smallest(puzzle), options["levels"]


def build_default(puzzle: Nurikabe, options: Mapping[str, Any], plan: IslandPlan | None = None) -> CnfModel:
    """Variables 1..n are the non-clue cells in row-major order ("wall"); auxiliaries follow.
    ``plan``: the island plan to build on (else the one the ``plan`` option names)."""
    plan = planned(puzzle, options["plan"]) if plan is None else plan
    clues = puzzle.clue_cells
    decision = {
        cell: i for i, cell in enumerate((c for c in puzzle.grid.all_cells if c not in clues), start=1)
    }
    cnf = CnfModel(pool=IDPool(start_from=len(decision) + 1), decision=decision)
    wall = decision

    # A cell no island can reach is wall.
    cnf.extend([(wall[cell],) for cell in sorted(plan.wall)])
    # A cell the plan's probing settled unshaded is unshaded.
    cnf.extend([(-wall[cell],) for cell in sorted(plan.white)])

    # Two clues side by side share an island: no answer.
    if plan.clash:
        cnf.add(())

    # No 2x2 block is all wall.
    cnf.extend([tuple(-wall[cell] for cell in block) for block in wall_blocks(puzzle)])

    # Every island holds exactly one clue; a number equals its size.
    islands = options["islands"]
    smallest, limit = level_terms(puzzle, options)
    if islands == "hybrid" and not plan.levelled(puzzle, budget=True, smallest=smallest, limit=limit):
        islands = "lazy"  # no number large enough for levels: the lazy cuts alone
    if islands in ("distance", "hybrid"):
        islands_by_distance(
            cnf, puzzle, plan, options["card"], budget=islands == "hybrid", smallest=smallest, limit=limit
        )
    if islands != "distance":
        # An unshaded non-clue cell has an unshaded neighbour (its island has two cells or more).
        cnf.extend(
            [(wall[cell],) + tuple(-wall[nb] for nb in around) for cell, around in lonely_cells(puzzle, plan)]
        )
    wall_count(cnf, puzzle, plan, [wall[cell] for cell in plan.open], options["wall_count"], options["card"])

    # All wall cells form one orthogonally connected region: a wall part of a few cells, when the
    # wall has more, has a wall cell beside it (stated up front for the parts the option names).
    parts = options["wall_parts"]
    if parts != "none":
        cnf.extend(
            [
                tuple(-wall[c] for c in part) + tuple(wall[f] for f in fence)
                for part, fence in small_wall_parts(puzzle, plan, int(parts))
            ]
        )
    # The wall is connected: the rows it meets are consecutive, so are its columns, and they
    # number at most its cells plus one together (islands.wall_lines).
    if options["wall_span"] == "card":
        _wall_span(cnf, puzzle, plan, options["card"])
    wall_runs_rule(cnf, puzzle, plan, options["wall_runs"], options["card"])
    # The islands' cells side by side are few (an island of n cells has at most 2n - ceil(2 sqrt n)
    # such pairs), so the wall's pairs and border sides are few too (islands.wall_adjacency).
    if options["wall_edges"] in ("card", "island"):
        _wall_edges(cnf, puzzle, options["card"])
    if options["wall_edges"] == "island" and islands in ("distance", "hybrid"):
        _island_edges(cnf, puzzle, plan, options["card"])
    mode = options["connectivity"]
    if mode in ("rank", "propagator"):
        # the region is the wall: "out of it" is the negated wall variable; a cell known to be wall
        # is always in it and roots it
        root = min(plan.wall) if plan.wall else None
        graph = BoardGraph.within(puzzle, decision, {c: -wall[c] for c in plan.open}, root)
        if mode == "rank":
            reach_levels(cnf, graph)
        else:
            cnf.propagator = lambda: (ConnectivityPropagator(graph), [wall[c] for c in plan.open])
    if islands == "propagator":
        # The rest of the island rule on partial assignments, by a propagator (sat/islands.py);
        # CaDiCaL connects one, so a wall propagator joins it in a group.
        wall_engine = cnf.propagator

        def island_engine():
            engine = IslandPropagator(puzzle, plan, wall)
            if wall_engine is None:
                return engine, engine.observed()
            return PropagatorGroup(engine, wall_engine()[0]), engine.observed()

        cnf.propagator = island_engine
    # The rules left to lazy cuts (connectivity=lazy; islands=lazy or hybrid), a known wall cell as
    # the cuts' witness.
    if (
        options["cuts"] == "auto"
    ):  # cell cuts for a small wall's few-cell parts, else region cuts for the wall
        options = {**options, "cuts": "cell" if wall_count_pays(puzzle, plan) else "mixed"}
    cnf.lazy = lazy_rules(puzzle, decision, options, anchor=min(plan.wall) if plan.wall else None)
    if options["plan"] == "auto" and options["escalate"] >= 0:
        cnf.escalation = (
            options["escalate"],
            lambda seconds: probed_units(puzzle, plan, decision, seconds, options["probe_stop"]),
        )
        cnf.escalation_cpu = options["escalate_cpu"]
    cnf.notes.update(connectivity=mode, islands=options["islands"])
    return cnf


def probed_units(
    puzzle: Nurikabe, plan: IslandPlan, wall: Mapping[Cell, int], seconds: float, stop: str | None = None
) -> list[Clause]:
    """The cells failed-literal probing settles beyond ``plan`` (``nurikabe_deduce.refine``, within
    ``DEDUCE_BUDGET`` CPU seconds and ``seconds``, ``stop`` as there), as unit clauses over the
    wall literals: each holds in every answer."""
    from ..nurikabe_deduce import refine

    probed = refine(puzzle, plan, time.process_time() + min(DEDUCE_BUDGET, seconds), stop=stop)
    # A cell the probe settled as wall is wall; one it settled unshaded is unshaded.
    units: list[Clause] = [(wall[cell],) for cell in sorted(probed.wall - plan.wall)]
    return units + [(-wall[cell],) for cell in sorted(probed.white - plan.white)]


def _wall_span(cnf: CnfModel, puzzle: Nurikabe, plan: IslandPlan, card: str) -> None:
    """("meets", axis, k): the wall has a cell in row (axis 0) or column (axis 1) k; the lines
    met are consecutive and number at most the bound of :func:`~..islands.wall_lines`."""
    wall = cnf.decision
    rows, cols, most = wall_lines(puzzle, plan)
    met = []
    for axis, lines in enumerate((rows, cols)):
        meets = []
        for k, line in enumerate(lines):
            m = cnf.var("meets", axis, k)
            cnf.add((-m, *[wall[c] for c in line]))
            cnf.extend([(-wall[c], m) for c in line])
            meets.append(m)
        # ("before", axis, k): a line before k is met; ("after", axis, k): a line after k is
        # (implied by the lines; free otherwise); a line between two met lines is met
        for k in range(1, len(lines) - 1):
            before, after = cnf.var("before", axis, k), cnf.var("after", axis, k)
            cnf.add((-meets[k - 1], before))
            cnf.add((-meets[k + 1], after))
            if k > 1:
                cnf.add((-cnf.var("before", axis, k - 1), before))
            if k < len(lines) - 2:
                cnf.add((-cnf.var("after", axis, k + 1), after))
            cnf.add((-before, -after, meets[k]))
        met += meets
    if most < len(met):
        cnf.atmost(met, most, card)


def wall_runs_rule(cnf: CnfModel, puzzle: Nurikabe, plan: IslandPlan, which: str, card: str) -> None:
    """The wall is connected: its runs along rows and columns number at most its cells plus one,
    and a line it must meet holds one run at least (islands.wall_runs, islands.met_lines), as the
    ``wall_runs`` option ``which`` asks, over the wall literals ``cnf.decision``."""
    if which == "auto":  # the count where the met lines make it tight and its counter is small
        which = "card" if wall_runs_pay(puzzle, plan) else "met"
    if which in ("met", "card"):
        wall = cnf.decision
        cnf.extend([tuple(wall[c] for c in cells) for cells in met_lines(puzzle, plan)])
    if which == "card":
        _wall_runs(cnf, puzzle, plan, card)


def _wall_runs(cnf: CnfModel, puzzle: Nurikabe, plan: IslandPlan, card: str) -> None:
    """("starts", cell): a wall run along a row (axis 0) or column (axis 1) starts at the cell
    (it is wall, the cell before it is not, or is a clue or beyond the border); at most the most
    runs of :func:`~..islands.wall_runs` in all, and per line at most its own most."""
    wall = cnf.decision
    groups, most, per_line = wall_runs(puzzle, plan)
    starts = []
    for k, stretches in enumerate(groups):
        axis = int(k >= puzzle.rows)
        line = []
        for run in stretches:
            for j, cell in enumerate(run):
                v = cnf.var("starts", axis, *cell)
                cnf.add((-wall[cell], v) if j == 0 else (-wall[cell], wall[run[j - 1]], v))
                line.append(v)
        if per_line[k] < len(line):
            cnf.atmost(line, per_line[k], card)
        starts += line
    if most < len(starts):
        cnf.atmost(starts, most, card)


def _wall_edges(cnf: CnfModel, puzzle: Nurikabe, card: str) -> None:
    """("both", cell, nb): cell and its right or lower neighbour nb are both wall; ("side", cell,
    k): a wall cell's k-th border side (a corner has two). At most the most pairs plus sides of
    :func:`~..islands.wall_adjacency`. (Its fewest pairs, the connected wall's, are left to the
    wall rule: as an "at least" counter over every pair, about 30,000 variables on a 10x10
    board, CaDiCaL spent its time in it and did not answer its interrupt.)"""
    bounds = wall_adjacency(puzzle)
    if bounds is None:
        return
    most = bounds[1]
    wall = cnf.decision
    pairs, sides = [], []
    for (r, c), w in wall.items():
        for nb in ((r, c + 1), (r + 1, c)):
            if nb in wall:
                v = cnf.var("both", r, c, *nb)
                cnf.add((-w, -wall[nb], v))
                pairs.append(v)
        for k in range((r in (0, puzzle.rows - 1)) + (c in (0, puzzle.cols - 1))):
            v = cnf.var("side", r, c, k)
            cnf.add((-w, v))
            sides.append(v)
    if most < len(pairs) + len(sides):
        cnf.atmost(pairs + sides, most, card)


def _island_edges(cnf: CnfModel, puzzle: Nurikabe, plan: IslandPlan, card: str) -> None:
    """("pair", clue, cell, nb): the number's island holds both cells; at most
    :func:`~..islands.most_adjacencies` (n) such pairs per number n."""

    def owns(clue: Cell, cell: Cell) -> int | None:
        if cell == clue:
            return None
        if len(plan.owners[cell]) == 1:
            return -cnf.decision[cell]
        return cnf.var("owns", clue, *cell)

    for clue, n in puzzle.numbers.items():
        dist = plan.reach[clue]
        lits: list[int] = []
        for r, c in dist:
            for nb in ((r, c + 1), (r + 1, c)):
                if nb not in dist:
                    continue
                x, y = owns(clue, (r, c)), owns(clue, nb)
                if x is None or y is None:
                    other = y if x is None else x
                    assert other is not None  # two cells, the clue one of them at most
                    lits.append(other)
                    continue
                v = cnf.var("pair", clue, r, c, *nb)
                cnf.add((-x, -y, v))
                lits.append(v)
        if most_adjacencies(n) < len(lits):
            cnf.atmost(lits, most_adjacencies(n), card)


def islands_by_distance(
    cnf: CnfModel,
    puzzle: Nurikabe,
    plan: IslandPlan,
    card: str,
    budget: bool,
    smallest: int | None = None,
    limit: int | None = None,
) -> None:
    """Ownership ("owns", clue, cell), levels ("near", clue, cell, t) and sizes; with ``budget``,
    levels and size only for the numbers :meth:`IslandPlan.levelled` picks from ``smallest`` on
    (:func:`hybrid_smallest` unless given) within ``limit`` (the other islands are left to the
    lazy cuts)."""
    wall = cnf.decision

    def owns(clue: Cell, cell: Cell) -> int | None:
        """The literal "the island of clue holds cell" (None: the clue itself, always)."""
        if cell == clue:
            return None
        if len(plan.owners[cell]) == 1:
            return -wall[cell]  # one possible owner: owned iff unshaded
        return cnf.var("owns", clue, *cell)

    def owned(clue: Cell, cell: Cell) -> int:
        """``owns`` of a cell other than the clue."""
        lit = owns(clue, cell)
        assert lit is not None, (clue, cell)
        return lit

    # An unshaded cell has exactly one owner; an owned cell is unshaded.
    for cell in plan.open:
        lits = [owned(clue, cell) for clue in plan.owners[cell]]
        if len(lits) > 1:
            cnf.add((wall[cell], *lits))
            cnf.extend([(-x, -wall[cell]) for x in lits])
            cnf.atmost(lits, 1, "auto")

    # An owned cell passes its owner to its unshaded neighbours; a neighbour the island cannot
    # hold is wall.
    for clue, step, nb, inside in plan.steps(puzzle):
        guard: tuple[int, ...] = () if step is None else (-owned(clue, step),)
        cnf.add(guard + ((wall[nb], owned(clue, nb)) if inside else (wall[nb],)))

    levelled = plan.levelled(puzzle, budget, hybrid_smallest(puzzle) if smallest is None else smallest, limit)
    for clue, dist in plan.reach.items():
        check_deadline()
        n = plan.bound[clue]  # the number, or a '?' island's bound
        if clue not in levelled:
            continue

        # Every owned cell is fewer than n steps from the clue along owned cells.
        def near(cell: Cell, t: int) -> int | bool:
            if cell == clue:  # noqa: B023  (called within this iteration)
                return True
            if t < dist[cell]:  # noqa: B023  (called within this iteration)
                return False
            return cnf.var("near", clue, *cell, t)  # noqa: B023  (called within this iteration)

        for cell, d in dist.items():
            if cell == clue:
                continue
            mine = owned(clue, cell)
            for t in range(d, n):
                lvl = near(cell, t)
                cnf.add((-lvl, mine))
                support = [near(cell, t - 1)] + [
                    near(nb, t - 1) for nb in puzzle.grid.neighbours4(cell) if nb in dist
                ]
                if not any(x is True for x in support):
                    cnf.add((-lvl, *[x for x in support if x is not False]))
            cnf.add((-mine, near(cell, n - 1)))

        # The island has n cells, the number's own included (a '?' island: at most its bound).
        members = [owned(clue, cell) for cell in dist if cell != clue]
        if clue in puzzle.numbers:
            cnf.equals(members, n - 1, card)
        elif n - 1 < len(members):
            cnf.atmost(members, n - 1, card)


SPECS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.NURIKABE,
        paradigm="sat",
        name="default",
        build=build_default,
        load=load_engine,
        description="wall variables, 2x2 clauses, islands by distance-bounded ownership or lazy cuts, "
        "wall connectivity by lazy cuts, a propagator or reachability levels",
        reference="IPASIR-UP: Fazekas et al., SAT 2023 (propagator); reachability levels as in SAT "
        "encodings of connectivity (Bayless et al., AAAI 2015)",
        options=(
            Option(
                "connectivity",
                "lazy",
                CONNECTIVITY,
                "how 'the wall is connected' is enforced: lazy cuts, an external propagator, "
                "reachability levels, or none",
                relaxing=("none",),
            ),
            # hybrid by default: levels make the islands within the budget exact without cuts, and lazy cuts
            # for the rest cost less than levels for every number (distance) on most boards. On the largest
            # boards, whose big islands lie beyond the budget, every candidate leaves those islands too small
            # and some of their pieces clueless, so the lazy rounds pile up where distance proves the board; a
            # budget large enough to level them slows the other boards with large unlevelled numbers more than
            # it gains (docs/decisions).
            Option(
                "islands",
                "hybrid",
                ISLANDS,
                "how islands get one number and its size: distance-bounded ownership (distance), "
                "lazy cuts (lazy), ownership with distance levels for the numbers within a budget "
                "and lazy cuts for the rest (hybrid), or a propagator on partial assignments",
            ),
            Option(
                "levels",
                HYBRID_LEVELS,
                description="islands=hybrid: the budget of levels (a number's "
                "bound x the cells its island may hold, summed over the numbers given levels, cheapest first)",
            ),
            Option(
                "levels_from",
                0,
                description="islands=hybrid: the smallest number given levels (0: 16, or "
                "a tenth of the cells on a board of fewer than 160)",
            ),
            Option("card", "seqcounter", CARD_CHOICES, "cardinality encoding of each island's size"),
            # cuts=auto and wall_count=auto (with levels for numbers of a tenth of a small board) prove more
            # of the hardest boards than cuts=cell and wall_count=none, and cost less on the rest
            # (docs/decisions)
            CUTS,
            wall_count_option("card", "auto"),
            Option(
                "wall_span",
                "none",
                ("none", "card"),
                "the wall's span stated up front (it is connected): the rows it meets are "
                "consecutive, so are its columns, and they number at most its cells plus one "
                "(card: a cardinality constraint over one 'meets' variable per line), or none",
            ),
            WALL_RUNS_OPTION,
            Option(
                "wall_edges",
                "none",
                ("none", "card", "island"),
                "the wall's side-adjacent pairs and border sides stated up front: at most what "
                "the islands' most compact shapes leave (card: a cardinality constraint over one "
                "variable per pair and side; island: also at most 2n - ceil(2 sqrt n) pairs in "
                "each number n's island, over its ownership; with islands=lazy as card), or none",
            ),
            # the plan is the deduction stage's; the encoding's own probe and its schedule are fixed settings
            Option(
                "plan",
                "search",
                ("search", "probe", "deep", "auto"),
                "the island plan to build on: the deduction stage's (search, the default; the searched "
                "plan under deduce=none), or probed by the encoding itself, failed-literal probing of "
                "the island, wall-connectivity, 2x2 and crossing rules (probe, within DEDUCE_BUDGET CPU "
                "seconds), " + PLAN_DEEP + ", or by the "
                "searches with the probe's cells added as unit clauses after escalate checks (auto)",
            ),
            Option(
                "escalate",
                ESCALATE,
                description="plan=auto: after this many checks, probe once and add "
                "the settled cells to the running solver as unit clauses, keeping its cuts and what "
                "it learnt (0: before the first check)",
            ),
            Option(
                "escalate_cpu",
                ESCALATE_CPU,
                description="plan=auto: the CPU seconds the checks must also "
                "have taken before the probe (boards of many quick rounds never pay for it)",
            ),
            # pass: a probe whose passes would reach few of its cells within the budget stops early
            Option(
                "probe_stop",
                PROBE_STOP,
                PROBE_STOPS,
                "plan=auto: the probe stops at its CPU budget (budget), or also once a tenth of a "
                "second of a pass shows the pass would take over four times the time left (pass: "
                "boards of 2,000 cells and more pay about 0.1-0.3 s instead of the whole budget)",
            ),
            Option(
                "wall_parts",
                "none",
                ("none", "1", "2", "3"),
                "wall parts of up to this many cells stated up front to have a wall cell beside "
                "them (the wall is connected and larger), before any lazy round: none, 1, 2, 3",
            ),
        ),
    ),
]


def wall_count(
    cnf: CnfModel, puzzle: Nurikabe, plan: IslandPlan, lits: list[int], which: str, card: str
) -> None:
    """The islands hold sum(numbers) cells between them, so the wall holds all the others (a '?'
    island holds one cell to its bound): the count of the open cells' wall literals ``lits``, when
    ``which`` (the ``wall_count`` option) asks for it; the known wall cells are stated apart."""
    if not (which == "card" or which == "auto" and wall_count_pays(puzzle, plan)):
        return
    fewest, most = (n - len(plan.wall) for n in wall_size(puzzle, plan))
    if most < 0 or fewest > len(lits):
        cnf.add(())  # the clues leave the wall no possible size: no answer
    elif fewest == most:
        cnf.equals(lits, most, card)
    else:
        if most < len(lits):
            cnf.atmost(lits, most, card)
        if fewest > 0:
            cnf.atleast(lits, fewest, card)


#: The default's options are the ways it states a rule; the rest of its options are fixed settings.
SPECS = [axes(spec, "connectivity", "islands", "card") if spec.name == "default" else spec for spec in SPECS]
