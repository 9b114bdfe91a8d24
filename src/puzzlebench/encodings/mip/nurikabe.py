"""Nurikabe as a mixed-integer feasibility model (HiGHS): one binary per non-clue cell (1 = wall).

Rules and the rows that enforce them:

* clue cells (numbers and '?') are unshaded: they get no column; a cell no island can reach is wall
  (:class:`~puzzlebench.encodings.islands.IslandPlan`, sound precomputations);
* no 2x2 block is all wall: the block's columns sum to at most 3;
* every island holds one clue, a number equal to its size or a '?' (``islands`` option):
  ``flow`` gives each unshaded cell one owner among the clues that can reach it (fewer than its
  bound n steps away: the number, ``IslandPlan.bound`` for a '?'), passes ownership across
  unshaded neighbours, and ties owned cells to their clue by a single-commodity flow per island
  (the clue sends one unit to each other cell it owns, over arcs between owned cells); each
  number owns as many cells as it says, a '?' at most its bound. ``owners`` keeps the owners and
  their counts but no flow, and leaves owned cells cut off from their clue to the lazy cuts
  (HiGHS solves again per round of cuts: the counts leave far fewer rounds than ``lazy``).
  ``hybrid`` adds to ``owners`` levels of steps from the clue for the islands within the
  ``levels`` budget that may hold at most ``levels_spread`` times their cells (an owned cell at
  level k > 1 has a neighbour at level k - 1), so those islands need no cuts.
  ``lazy`` states only that a non-clue unshaded cell has an unshaded neighbour and leaves whole
  islands to cuts
  (``regions.island_cuts``);
* the wall is connected (``connectivity`` option): ``lazy`` cuts on split candidates, ``flow``
  (single-commodity flow, shared with Kuromasu and Hitori over the cells that may be wall), or
  ``none`` (a relaxation);
* the lazy cuts (``cuts``): ``separator`` (with ``owners`` and ``hybrid``) cuts an island cut off
  from its number with rows over the owner columns of every number that may reach it, and a
  cut-off wall part with the fence cells a wall path must cross (stronger rows than ``cell``'s
  clauses, so fewer rounds; ``wall_cut=part`` states a cut-off wall part as one row instead of
  a clause per cell); ``cell`` and ``region`` are the clauses of
  :func:`~puzzlebench.encodings.islands.lazy_rules`;
* the islands' corner contacts form a forest (``contacts=forest``, with ``owners`` or ``hybrid``
  and lazy connectivity; why: :data:`~puzzlebench.encodings.islands.EDGE`): a contact column per
  block, diagonal and pair of clues that may own its two cells; each pair's contacts sum to at
  most one; a clue's "touches the edge" column; the three edges of each triangle sum to at most
  two; a candidate whose islands close a cycle gets that cycle's row; ``contacts=acyclic`` (the
  default) also directs each edge by binaries, at most one into each island, and ranks the
  islands by Miller-Tucker-Zemlin rows, so that no cycle is left to the lazy rows: with every
  island levelled the model is exact but for an island that encloses wall;
* redundant wall rows (``wall_rules``): the wall's size (the cells the numbers leave over) and
  "a wall cell has a wall neighbour" (:func:`~puzzlebench.encodings.islands.wall_partners`).

The search for an answer is steered (``guide=levels``): each level column costs its level, so
that HiGHS's LPs lean toward compact islands and its root heuristics find an answer where the zero
objective left them a choice among countless vertices (on the larger boards an answer at the root,
where the zero objective needs branch-and-bound; docs/decisions). The objective only steers: each
run stops at its first feasible point (``MipModel.guide``), and the proof's runs go without it.

The island plan (``plan`` option): ``probe`` builds on the plan with the cells failed-literal
probing settles (``nurikabe_deduce.refine``, within ``DEDUCE_BUDGET``): on most janko boards that
settles the board or most of it, so the model is smaller and HiGHS needs few lazy rounds; ``deep``
(default) probes at depth 2 too, within the same budget, until ``DEEP_STALL`` CPU seconds settle
no cell (depth 2 settles cells depth 1 leaves open: fewer lazy rounds, and boards proven that
``probe`` misses; ``benchmarks/nurikabe_plans.py``, docs/decisions). ``search`` leaves the probe
out; ``auto`` builds on the searched plan and, once
``escalate`` runs have taken ``escalate_cpu`` CPU seconds, probes once and fixes what it settles
(wall binaries, and owner columns the probed islands cannot hold) by column bounds for the later
runs (``MipModel.escalation``): HiGHS has no incremental MIP, each lazy round is a new run anyway.

HiGHS presolves the model again for every round of cuts; most of a round's time on a big board is
that presolve, so the model asks the backend for HiGHS's lean presolve rules (backend option
``presolve_rules=auto``; see :data:`~puzzlebench.solvers.highs_backend.LEAN_RULES_OFF`). The
uniqueness proof is lazy rounds too: the model asks for presolve there (``proof_presolve=auto``),
and, without '?', every answer has as many wall cells, so the backend blocks the answer by "one of
its wall cells turns unshaded" (or "one of its unshaded cells turns wall") alone (``block=auto``).
An infeasible verdict under presolve stands only when a run without presolve confirms it
(``confirm=auto`` is ``unpresolved``): HiGHS's presolve, guided or lean, has called feasible boards
infeasible, and a second presolved run with another seed has agreed with it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ...model import Cell, Family, Nurikabe
from ..base import EncodingSpec, LazyRule, Option, axes, check_deadline
from ..islands import (
    DEDUCE_BUDGET,
    EDGE,
    PLAN_DEEP,
    WALL_RUNS_OPTION,
    IslandPlan,
    cell_cuts,
    contact_cycles,
    contact_triangles,
    corner_contacts,
    cut_off_wall_parts,
    entry_cells,
    lazy_rules,
    lonely_cells,
    met_lines,
    owner_separators,
    planned,
    wall_blocks,
    wall_option,
    wall_partners,
    wall_region,
    wall_rules,
    wall_rules_option,
    wall_runs,
    wall_runs_pay,
    wall_size,
)
from ..nurikabe_deduce import load_engine
from ..regions import white_regions
from .common import Cut, Linear, MipModel, Var, total
from .connectivity import connect_by_flow

ISLANDS: tuple[str, ...] = ("flow", "lazy", "owners", "hybrid")
#: plan=auto: the runs, and the CPU seconds they have taken, before the probe
ESCALATE = 5
ESCALATE_CPU = 1.0
#: islands=hybrid: the levels (bound x cells within reach, summed over the levelled clues) stated
LEVELS = 100000
#: ... for the islands that may hold at most this many times their number's cells (a loosely held
#: ... for the islands that may hold at most this many times their number's cells (a loosely held
#: island's levels are mostly slack, and on the largest boards they swell the root LP beyond use)
LEVELS_SPREAD = 10.0


def build_default(puzzle: Nurikabe, options: Mapping[str, Any]) -> MipModel:
    # Every lazy round presolves the model and its cut rows again: HiGHS's lean presolve rules.
    # Without '?' every answer's wall is the cells the numbers leave over: as many in each. The
    # uniqueness proof goes through lazy rounds too: presolve there as well (confirmed when infeasible).
    # An infeasible verdict under presolve is confirmed by a run without presolve.
    # The guide steers the search for an answer only: the proof's runs have the zero objective.
    model = MipModel(
        presolve_rules="lean",
        fixed_marks=not puzzle.unknown,
        proof_presolve="same",
        confirm="unpresolved",
        guide_runs="search",
    )
    grid = puzzle.grid
    clues = puzzle.clue_cells
    plan = planned(puzzle, options["plan"])
    wall = model.binaries(c for c in grid.all_cells if c not in clues)
    model.decision = {cell: var.index for cell, var in wall.items()}

    # A cell no island can reach is wall; a cell the probe settled unshaded is unshaded.
    for cell in sorted(plan.wall):
        model.add_eq(wall[cell], 1)
    for cell in sorted(plan.white):
        model.add_eq(wall[cell], 0)

    # Two clues side by side share an island: no answer.
    if plan.clash:
        model.add_eq(0, 1, why=f"the clues at {plan.clash[0]} and {plan.clash[1]} touch")

    # No 2x2 block is all wall.
    for block in wall_blocks(puzzle):
        model.add_le(total(wall[cell] for cell in block), 3)

    # Every island holds exactly one clue; a number equals its size.
    islands = options["islands"]
    owns: dict = {}
    if islands == "flow":
        _islands_by_flow(model, puzzle, plan, wall)
    elif islands in ("owners", "hybrid"):
        owns = _owners(model, puzzle, plan, wall)
        _island_sizes(model, puzzle, plan, owns)
        if islands == "hybrid":
            _island_levels(
                model,
                puzzle,
                plan,
                owns,
                int(options.get("levels", LEVELS)),
                float(options.get("levels_spread", LEVELS_SPREAD)),
                options.get("guide", "none"),
                _from_core(puzzle, plan, options.get("levels_root", "auto")),
            )
    if islands != "flow":
        # An unshaded non-clue cell has an unshaded neighbour (its island has two cells or more).
        for cell, around in lonely_cells(puzzle, plan):
            model.add_ge(wall[cell] + total(1 - wall[nb] for nb in around), 1)

    _wall_rules(model, puzzle, plan, wall, options["wall_rules"])
    _wall_runs(model, puzzle, plan, wall, options["wall_runs"])

    # All wall cells form one orthogonally connected region (the flow shared with Kuromasu, with
    # "out of the region" the unshaded cells); lazy islands are checked with the lazy rule.
    if options["connectivity"] == "flow":
        region, root = wall_region(puzzle, plan)
        connect_by_flow(model, region, {cell: 1 - w for cell, w in wall.items()}, root)
    if options["plan"] == "auto" and options["escalate"] >= 0:
        model.escalation = (
            options["escalate"],
            options["escalate_cpu"],
            lambda seconds: probed_fixings(puzzle, plan, wall, owns, seconds),
        )
    anchor = min(plan.wall, default=None)
    if options["cuts"] == "separator" and islands in ("owners", "hybrid"):
        connect = options["connectivity"] == "lazy"
        # The islands' corner contacts form a forest (the wall's connectivity, island by island).
        contacts = (
            _contacts(model, puzzle, plan, owns, acyclic=options["contacts"] == "acyclic")
            if connect and options["contacts"] != "none"
            else None
        )
        model.lazy = _separator_rule(
            puzzle, plan, wall, owns, connect, anchor, options.get("wall_cut", "part") == "part", contacts
        )
    else:
        model.lazy = lazy_rules(
            puzzle,
            wall,
            {**options, "cuts": "cell" if options["cuts"] == "separator" else options["cuts"]},
            anchor=anchor,
        )
    return model


def probed_fixings(
    puzzle: Nurikabe, plan: IslandPlan, wall: dict, owns: dict, seconds: float
) -> list[tuple[int, float]]:
    """What failed-literal probing settles beyond ``plan`` (``nurikabe_deduce.refine``, within
    ``DEDUCE_BUDGET`` CPU seconds and ``seconds``), as column fixings that hold in every answer: a
    settled cell's wall binary, and an owner column 0 where the probed plan's island cannot hold
    the cell (it is wall, or the island's cells no longer reach it)."""
    from ..nurikabe_deduce import refine

    probed = refine(puzzle, plan, time.process_time() + min(DEDUCE_BUDGET, seconds))
    if probed is plan:
        return []
    # A cell the probe settled as wall is wall; one it settled unshaded is unshaded.
    fixings = [(wall[cell].index, 1.0) for cell in sorted(probed.wall - plan.wall)]
    fixings += [(wall[cell].index, 0.0) for cell in sorted(probed.white - plan.white)]
    # A clue whose probed island cannot reach a cell does not own it.
    for (clue, cell), col in sorted(owns.items()):
        if isinstance(col, Var) and clue not in probed.owners.get(cell, ()):
            fixings.append((col.index, 0.0))
    return fixings


def _separator_rule(
    puzzle: Nurikabe,
    plan: IslandPlan,
    wall: dict,
    owns: dict,
    connect: bool,
    anchor: Cell | None,
    per_part: bool = False,
    contacts: dict[tuple[Cell, Cell], Linear] | None = None,
) -> LazyRule:
    """``cuts=separator``: the lazy rule of ``islands=owners`` (and ``hybrid``) with vertex
    separator cuts, stated for every faulty region of a candidate:

    * a wall part W (not the largest) walled off by unshaded cells F (``connect``): a wall path
      from a cell w of W to a wall cell x beyond leaves W through F and enters the rest of the
      board through the cells S of F (not clues) that touch the non-clue cells reachable from x
      without crossing W or F, so per w "a cell of S turns wall, or w or x turns unshaded"
      (``per_part``: one row for W instead, k * (wall cells of S) >= (wall cells of W) + k * x - k
      with k = |W|, which the clauses imply and which, on 0/1 values, excludes the same points);
    * an island C without a clue, or with a number and fewer cells: the rows of
      :func:`~puzzlebench.encodings.islands.owner_separators` over the owner columns ("c owns v only
      if c owns a cell of S"; summed over the clues these imply the cell cuts; "the number owns a
      cell of C's fence").

    With ``contacts`` (:func:`_contacts`), a cycle of the candidate's islands joined at corners
    gets its row too (:func:`~puzzlebench.encodings.islands.contact_cycles`). A candidate with
    none of these faults gets the cell cuts (:func:`cell_cuts`), so that it is accepted exactly
    when it keeps every rule."""
    rows, cols, numbers, unknown = puzzle.rows, puzzle.cols, dict(puzzle.numbers), puzzle.unknown
    clues = puzzle.clue_cells

    def own(clue: Cell, cell: Cell) -> Linear | int:
        return 1 if cell == clue else owns.get((clue, cell), 0)

    def rule(marked: frozenset[Cell]) -> list:
        cuts: list = []
        regions = white_regions(rows, cols, marked)
        if contacts is not None:
            # a cycle of the candidate's islands joined at corners: at most its length less one
            for cycle in contact_cycles(puzzle, marked, regions):
                if all(e in contacts for e in cycle):
                    cuts.append(Cut(total(contacts[e] for e in cycle), upper=float(len(cycle) - 1)))
        if connect:
            for part, inside, fence, largest in cut_off_wall_parts(rows, cols, marked):
                x = anchor if anchor is not None and anchor not in inside else largest[0]
                # a wall path never crosses a clue
                sep = entry_cells(puzzle, x, wall, inside | set(fence), [f for f in fence if f not in clues])
                if per_part:
                    # one row for the part: with x wall, k wall cells of W need a wall cell of S
                    k = len(part)
                    cuts.append(
                        Cut(
                            k * total(wall[f] for f in sep) - total(wall[w] for w in part) - k * wall[x],
                            lower=-float(k),
                        )
                    )
                    continue
                base = [(f, True) for f in sep]
                cuts += [base + [(w, False), (x, False)] for w in part]
        for clue, cells, enter in owner_separators(puzzle, plan, regions):
            held = total(own(clue, s) for s in enter)
            if cells:  # the clue owns a cell of C only through a cell of S
                cuts += [Cut(own(clue, v) - held, upper=0.0) for v in cells]
            else:  # the number's island leaves C
                cuts.append(Cut(held, lower=1.0))
        return cuts or cell_cuts(rows, cols, numbers, marked, anchor, connect, True, unknown)

    return rule


def _contacts(
    model: MipModel, puzzle: Nurikabe, plan: IslandPlan, owns: dict, acyclic: bool = False
) -> dict[tuple[Cell, Cell], Linear]:
    """The contact graph's edges (``contacts=forest``, see ``islands.EDGE``): per pair of clues
    that may touch at a corner, the sum of their contact columns (at most one), and per clue whose
    island may reach the board's edge, "it touches the edge"; each triangle of edges sums to at
    most two; with ``acyclic`` no cycle at all: a binary per direction of each edge, one of them
    set where the edge is, at most one into each island, and a rank column per island rising by
    at least one along each set direction (Miller-Tucker-Zemlin rows, the board's edge rank 0)."""

    def own(clue: Cell, cell: Cell) -> Linear | int:
        return 1 if cell == clue else owns[(clue, cell)]

    corners, rim = corner_contacts(puzzle, plan, owns)
    edges: dict[tuple[Cell, Cell], Linear] = {}
    for a, p, b, q in corners:
        # the islands of a and b touch at this corner
        contact = model.continuous(0, 1)
        model.add_ge(contact - own(a, p) - own(b, q), -1)
        pair = (min(a, b), max(a, b))
        edges[pair] = edges[pair] + contact if pair in edges else total([contact])
    # Two corners of the same two islands close a cycle.
    for contacts in edges.values():
        if len(contacts.terms) > 1:
            model.add_le(contacts, 1)
    for a, cell in rim:
        if (EDGE, a) not in edges:
            edges[(EDGE, a)] = total([model.continuous(0, 1)])
        model.add_ge(edges[(EDGE, a)] - own(a, cell), 0)
    # Three islands (or two and the edge) touching pairwise close a cycle.
    for triangle in contact_triangles(list(edges)):
        model.add_le(total(edges[e] for e in triangle), 2)
    if acyclic:
        # No cycle of any length: a forest rooted at the board's edge and elsewhere, each edge
        # directed from parent to child, each island the child of at most one.
        nodes = sorted({node for pair in edges for node in pair})
        most = len(nodes) - 1
        rank = {node: model.continuous(0, 0 if node == EDGE else most) for node in nodes}
        parents: dict[Cell, list[Var]] = {node: [] for node in nodes}
        for (a, b), touch in edges.items():
            down, up = model.binary(), model.binary()
            model.add_ge(down + up - touch, 0)
            model.add_le(down + up, 1)
            # rank[b] >= rank[a] + 1 where a is b's parent (and no bound otherwise)
            model.add_ge(rank[b] - rank[a] - (most + 1) * down, -most)
            model.add_ge(rank[a] - rank[b] - (most + 1) * up, -most)
            parents[b].append(down)
            parents[a].append(up)
        for into in parents.values():
            if len(into) > 1:
                model.add_le(total(into), 1)
    return edges


def _wall_rules(model: MipModel, puzzle: Nurikabe, plan: IslandPlan, wall: dict, which: str) -> None:
    """The redundant wall rows ``wall_rules`` asks for (sound in every answer)."""
    which = wall_rules(puzzle, plan, which)
    if which in ("count", "both"):
        # The wall holds the cells the clues' islands leave over.
        fewest, most = wall_size(puzzle, plan)
        model.add(
            total(wall.values()), fewest, most, why="the clues' islands need more cells than the board has"
        )
    if which in ("partners", "both"):
        # A wall cell has a wall neighbour (the wall is connected and has two cells or more).
        for cell, around in wall_partners(puzzle, plan):
            model.add_le(wall[cell] - total(wall[nb] for nb in around), 0)


def _wall_runs(model: MipModel, puzzle: Nurikabe, plan: IslandPlan, wall: dict, which: str) -> None:
    """The wall is connected: its runs along rows and columns number at most its cells plus one,
    and a line it must meet holds a wall cell (islands.wall_runs, islands.met_lines), as the
    ``wall_runs`` option asks (``auto``: both where the met lines make the count tight, else
    neither)."""
    if which == "auto":  # the met lines' rows alone cost HiGHS more than they prune (docs/decisions)
        which = "card" if wall_runs_pay(puzzle, plan) else "none"
    if which == "none":
        return
    for cells in met_lines(puzzle, plan):
        model.add_ge(total(wall[c] for c in cells), 1)
    if which != "card":
        return
    # A run starts at a wall cell whose predecessor in its stretch is not wall: start >= w - w_prev
    # (a binary: continuous starts leave HiGHS a weaker relaxation to branch on).
    groups, most, per_line = wall_runs(puzzle, plan)
    starts = []
    for k, stretches in enumerate(groups):
        line = []
        for run in stretches:
            for j, cell in enumerate(run):
                start = model.binary()
                model.add_ge(start - wall[cell] + (wall[run[j - 1]] if j else 0), 0)
                line.append(start)
        if per_line[k] < len(line):
            model.add_le(total(line), per_line[k])
        starts += line
    if most < len(starts):
        model.add_le(total(starts), most)


def _owners(
    model: MipModel, puzzle: Nurikabe, plan: IslandPlan, wall: dict
) -> dict[tuple[Cell, Cell], Linear]:
    """ "clue's island holds cell" per clue and cell it may reach: an unshaded cell has exactly one
    owner, a wall cell none, and an owned cell passes its owner to its unshaded neighbours."""
    owns: dict[tuple[Cell, Cell], Linear] = {}
    for cell in plan.open:
        owners = plan.owners[cell]
        if len(owners) == 1:
            owns[(owners[0], cell)] = 1 - wall[cell]  # one possible owner: owned iff unshaded
            continue
        cols = [model.binary() for _ in owners]
        owns.update(zip(((clue, cell) for clue in owners), cols))
        model.cells_of.update((col.index, cell) for col in cols)
        # An unshaded cell has exactly one owner; a wall cell none.
        model.add_eq(total(cols) + wall[cell], 1)

    # An owned cell passes its owner to its unshaded neighbours; a neighbour the island cannot
    # hold is wall.
    for clue, step, nb, inside in plan.steps(puzzle):
        mine = 1 if step is None else owns[(clue, step)]
        model.add_le(mine - owns[(clue, nb)] - wall[nb] if inside else mine - wall[nb], 0)
    return owns


def _island_sizes(model: MipModel, puzzle: Nurikabe, plan: IslandPlan, owns: dict) -> None:
    # The island has n cells, the number's own included (a '?' island: at most its bound).
    for clue, dist in plan.reach.items():
        n = plan.bound[clue]
        size = total(owns[(clue, cell)] for cell in dist if cell != clue)
        if clue in puzzle.numbers:
            model.add_eq(size, n - 1, why=f"the island of {n} at {clue} cannot have {n} cells")
        elif n - 1 < len(dist) - 1:
            model.add_le(size, n - 1)


def _from_core(puzzle: Nurikabe, plan: IslandPlan, root: str) -> bool:
    """``levels_root``: whether levels count from each island's core (``auto``: where the plan
    settled at least half the board's cells, so that the cores are large)."""
    if root == "auto":
        return 2 * (len(plan.wall) + len(plan.white) + len(puzzle.clue_cells)) >= puzzle.rows * puzzle.cols
    return root == "core"


def _island_levels(
    model: MipModel,
    puzzle: Nurikabe,
    plan: IslandPlan,
    owns: dict,
    budget: int,
    spread: float = 0,
    guide: str = "none",
    from_core: bool = False,
) -> None:
    """Levels for the clues ``IslandPlan.levelled`` picks within ``budget`` (bound 3 or more, and
    with ``spread`` an island that may hold at most that many times its bound's cells):
    a cell the clue owns other than the clue sits at one level k, its steps from the clue inside
    the island (at least its distance in ``reach``, at most the bound less one), and a cell at
    level k > 1 has a neighbour at level k - 1 owned by the same clue. In an answer the steps
    inside the island are such levels; conversely the levels lead every owned cell back to the
    clue, so that island is connected. With ``from_core`` the steps count from the island's core
    instead (``IslandPlan.core``: the clue and the cells joined to it that the island holds in
    every answer; at most the bound less the core's cells), joined to the clue all the same.
    ``guide=levels`` gives each level column its level as cost (``MipModel.guide``): the LPs lean
    toward compact islands, each cell at its fewest steps from the number."""
    grid = puzzle.grid
    # the clues of bound 3 or more (smaller islands touch their clue), smallest first
    for clue in sorted(plan.levelled(puzzle, budget=True, smallest=3, limit=budget, spread=spread)):
        check_deadline()
        n, steps = plan.bound[clue], plan.core(puzzle, clue) if from_core else plan.reach[clue]
        top = n - sum(1 for d in steps.values() if d == 0)  # the most steps past the core (or the clue)
        level: dict[tuple[Cell, int], Linear] = {}
        for cell, d in steps.items():
            if d == 0:
                continue
            cols = {k: model.binary() for k in range(d, top + 1)}
            if guide == "levels":  # compact islands first: each level column costs its level
                model.guide.update((col.index, float(k)) for k, col in cols.items())
            level.update(((cell, k), col) for k, col in cols.items())
            # An owned cell sits at one level; a cell the clue does not own at none.
            model.add_eq(total(cols.values()) - owns[(clue, cell)], 0)
        # A cell at level k > 1 has a neighbour at level k - 1 (level 1: it touches the clue, or the core).
        for (cell, k), col in level.items():
            if k > 1:
                below = [level[(nb, k - 1)] for nb in grid.neighbours4(cell) if (nb, k - 1) in level]
                model.add_le(col - total(below), 0)


def _islands_by_flow(model: MipModel, puzzle: Nurikabe, plan: IslandPlan, wall: dict) -> None:
    grid = puzzle.grid
    owns = _owners(model, puzzle, plan, wall)
    _island_sizes(model, puzzle, plan, owns)
    for clue, dist in plan.reach.items():
        check_deadline()
        n = plan.bound[clue]  # the number, or a '?' island's bound
        mine = lambda cell: 1 if cell == clue else owns[(clue, cell)]  # noqa: B023  (called within this iteration)
        if n <= 2:
            continue  # every owned cell touches the clue
        # The clue sends one unit to each cell it owns, over arcs between owned cells.
        net = {cell: Linear() for cell in dist}  # inflow - outflow
        for cell in dist:
            for nb in grid.neighbours4(cell):
                if nb in dist and nb != clue:
                    f = model.continuous(0, n - 1)
                    model.add_le(f - (n - 1) * mine(nb), 0)
                    if cell != clue:
                        model.add_le(f - (n - 1) * mine(cell), 0)
                    net[nb].iadd(f)
                    net[cell].iadd(f, -1.0)
        for cell in dist:
            if cell != clue:
                model.add_eq(net[cell] - mine(cell), 0)


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.NURIKABE,
        paradigm="mip",
        name="default",
        build=build_default,
        load=load_engine,
        description="wall binaries, 2x2 rows; islands by owners within reach and a flow per island, or "
        "lazy cuts; wall connectivity by lazy cuts or flow",
        options=(
            wall_option("flow"),
            # hybrid by default: owners within reach leave far fewer lazy rounds than lazy islands, a flow per
            # island makes every model large, and levels for the islands within a budget spare those islands
            # their cuts (docs/decisions)
            Option(
                "islands",
                "hybrid",
                ISLANDS,
                "how islands get one number and its size: flow (owners within reach, a flow per island), "
                "owners (owners within reach and sizes, islands cut off from their number by lazy cuts), "
                "hybrid (owners, and levels of steps from the number for the islands within a budget) "
                "or lazy (cuts)",
            ),
            # a generous budget: levels make an island exact without cuts, and levels_spread keeps them off
            # the loosely held islands whose levels are mostly slack (docs/decisions)
            Option(
                "levels",
                LEVELS,
                description="islands=hybrid: the budget of levels (an island's bound x the "
                "cells it may hold, summed over the islands given levels, smallest first)",
            ),
            # levels: compact islands first lets HiGHS's root heuristics find an answer where the zero
            # objective leaves a choice among countless vertices; the proof's runs go without it, as there it
            # only costs (docs/decisions)
            Option(
                "guide",
                "levels",
                ("none", "levels"),
                "islands=hybrid: an objective that steers HiGHS's LPs in "
                "the search for an answer (each run still stops at its first feasible point; the proof's runs "
                "have none): none, or levels (each level column costs its level: compact islands first)",
            ),
            # core counts fewer level columns where the plan settled much of the board; elsewhere the clue's
            # steps are as good (docs/decisions)
            Option(
                "levels_root",
                "auto",
                ("auto", "clue", "core"),
                "islands=hybrid: levels count the steps from "
                "the number (clue) or from the island's core (core: the number and the cells joined to it that the "
                "island holds in every answer, from the plan; fewer level columns where the probe settled much), "
                "or auto (core where the plan settled half the board or more)",
            ),
            Option(
                "levels_spread",
                LEVELS_SPREAD,
                description="islands=hybrid: levels only for the islands "
                "that may hold at most this many times their number's cells (0: any)",
            ),
            # separator: its rows over the owner columns are stronger than the one-cell clauses, so fewer
            # rounds and more boards proven (docs/decisions)
            Option(
                "cuts",
                "separator",
                ("cell", "region", "separator"),
                "lazy cuts per faulty region: region (one clause naming the region and its fence), cell "
                "(one clause per cell of a cut-off wall part or numberless island, a fence alone for an "
                "island walled in too small), separator (with islands=owners or hybrid: cell's cuts over "
                "the fence cells a path must cross, and for an island rows over the owner columns of "
                "every number that may reach it; otherwise cell)",
            ),
            # part: one row per cut-off wall part instead of a clause per cell, far fewer rows for HiGHS to
            # presolve again every round (docs/decisions)
            Option(
                "wall_cut",
                "part",
                ("cell", "part"),
                "cuts=separator with connectivity=lazy: a cut-off wall part gets one clause per cell (cell) or "
                "one row for the whole part (part: as many wall cells of the part as the row counts need a "
                "wall cell among the fence cells a path must cross; far fewer rows for HiGHS to presolve "
                "again every round)",
            ),
            # a cycle of corner contacts among islands (and the board's edge) would cut the wall in two:
            # stating the contacts a forest, and acyclic by ranks, leaves fewer lazy rounds (docs/decisions)
            Option(
                "contacts",
                "acyclic",
                ("acyclic", "forest", "none"),
                "cuts=separator with islands=owners or hybrid and connectivity=lazy: the islands' corner "
                "contacts as columns whose graph (clues and the board's edge) is a forest, by rows for "
                "pairs and triangles and lazy rows for longer cycles (forest), also by directed edges "
                "and ranks (acyclic: no cycle in the model), or not (none)",
            ),
            # auto: the wall's size and partners where the wall is small (wall_count_pays), where those rows
            # are tight; on a large wall they are slack and only add to each round's presolve. On the deep
            # plan the wall counts as small on most boards, its undecided cells being few (docs/decisions)
            wall_rules_option("auto"),
            WALL_RUNS_OPTION,
            # the plan is the deduction stage's (docs/decisions/2026-12-05-deduction-stage.md)
            Option(
                "plan",
                "search",
                ("search", "probe", "deep", "auto"),
                "the island plan to build on: the deduction stage's (search, the default; the searched "
                "plan under deduce=none), or probed by the encoding itself, failed-literal probing of "
                "the island, wall-connectivity, 2x2 and crossing rules (probe, within a CPU budget), "
                + PLAN_DEEP
                + ", or by the searches "
                "with the probe's cells and the probed islands' owners fixed by column bounds once escalate runs have "
                "taken escalate_cpu CPU seconds (auto: each lazy round is a new HiGHS run anyway)",
            ),
            Option(
                "escalate",
                ESCALATE,
                description="plan=auto: after this many runs, probe once and fix what it "
                "settles for the later runs (0: before the first run)",
            ),
            Option(
                "escalate_cpu",
                ESCALATE_CPU,
                description="plan=auto: the CPU seconds the runs must also have "
                "taken before the probe (boards proven in a few quick runs never pay for it)",
            ),
        ),
    ),
]

#: The default's options are the ways it states a rule; the rest of its options are fixed settings.
ENCODINGS = [axes(spec, "connectivity", "islands") if spec.name == "default" else spec for spec in ENCODINGS]
