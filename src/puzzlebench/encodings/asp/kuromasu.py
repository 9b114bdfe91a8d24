"""ASP encodings of Kuromasu: the default (visibility x connectivity options) and seed 000's.

Grounding sizes of seed 000's port on the seed's 11x11 sample (clingo 5.8, ``problem.lp``):
18,099 atoms / 74,356 rules with the connectivity rule, 4,101 / 6,354 without it; the seed's
table (lparse/smodels) reads 23,298 / 79,738 and 8,657 / 10,736. clingo's grounder evaluates
the static parts (``adj``, ``row``/``col``) away, which explains most of the gap; the
connectivity rule's share (x4.4 atoms, x11.7 rules) matches the seed's story (x2.7, x7.4).

The default's number rule is stated in two parts: a ``visibility`` file defines
``see(R,C,DR,DC,K)`` (the clue at (R,C) sees at least K cells in direction (DR,DC)), and a
``sum`` file compares those cells with the number. On the large generated boards clasp's search
is what costs, not grounding, and the sum's form decides it: one ``#count`` aggregate gives
conflict clauses over single cells, while unary partial sums (up + down, left + right, as a
totalizer merges them; Bailleux and Boufkhad, CP 2003) give the learner the intermediate counts
(on the 100x100 boards far fewer conflicts; docs/decisions).

On those boards the connectivity rule's cost is per propagation, not in conflicts: grounded
reachability keeps clasp's unfounded-set check running over 10,000 cells, while SAT states only
the walled-in-cell cuts up front and adds the rest lazily (a handful of rounds per 100x100 board).
``connectivity=lazy`` does the same inside clingo: a propagator that only checks total
assignments and adds the SAT encoding's cuts, with ``cut=cell`` stated in the program.

With both, what SAT still stated and ASP did not was the tie between two numbers that see each
other (SAT's ``card=lines``): their counts along the line are equal, and their counts across it
differ by the difference of the numbers. ``links=counts`` states it over the adder's sums, so a
bound on one number's count reaches the numbers in line with it by propagation (100x100,
``count=2``: about half the conflicts on each of seven boards).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...errors import EncodingError
from ...model import Cell, Family, Kuromasu, Puzzle
from ..base import EncodingSpec, Option, axes
from ..sat.kuromasu import lazy_connectivity
from .program import AspProgram, cell_of_1based
from .propagator import ConnectivityPropagator

if TYPE_CHECKING:
    import clingo

CONNECTIVITY = Option(
    "connectivity",
    "auto",
    ("auto", "reach", "acyclic", "propagator", "lazy", "closure", "none"),
    "how 'all white cells are connected' is enforced: flood fill from a root clue (reach); a "
    "parent tree under clingo's #edge acyclicity (acyclic); a Python connectivity propagator "
    "(propagator); cuts added only when an answer candidate's white cells fall apart, by a "
    "check on total assignments (lazy); seed 000's all-pairs closure (closure); not at all "
    "(none, relaxing); or auto: lazy on boards of 2,000 cells or more, else reach",
    relaxing=("none",),
)
VISIBILITY = Option(
    "visibility",
    "rays",
    ("rays", "connect_cell", "counting"),
    "which cells a number sees (see/5, by direction and distance): directional ray chains "
    "(rays); seed 000's transitive connect_cell from each clue (connect_cell); or the cells with "
    "no black cell in between (counting)",
)
#: ``sum=auto`` picks ``adder`` on boards of this many cells or more, else ``count``: the janko
#: boards (all smaller, solved by propagation) pay for the adder's larger program, while on the
#: large generated boards its sums cut clasp's conflicts several times over. Likewise
#: ``connectivity=auto`` picks ``lazy`` (with ``cut=auto``: ``cell``) from this size on, else
#: ``reach``: the lazy rule costs a little on the small boards and saves much on the large ones,
#: where reachability's unfounded-set check dominates (docs/decisions).
ADDER_CELLS = 2000
SUM = Option(
    "sum",
    "auto",
    ("auto", "adder", "paired", "count"),
    "how the cells a number sees are summed: the four rays as unary numbers, added up along the "
    "column and along the row and the two compared with the number, as a totalizer would (adder); "
    "the same with the longest ray paired with the shortest, as SAT's adder pairs them (paired); "
    "one #count aggregate (count); or auto: adder on boards of 2,000 cells or more, else count",
)
#: ``links=auto`` picks ``counts`` on boards of this many cells or more when the sum is the adder,
#: else ``none``: the ties cut clasp's conflicts more the larger the board, and pay from about
#: 85x85 on; below it they cost more than they save (docs/decisions).
LINK_CELLS = 7000
LINKS = Option(
    "links",
    "auto",
    ("auto", "none", "rays", "counts"),
    "ties two numbers that can see each other (the pairs computed in Python, as link facts): "
    "each sees the other exactly when the other sees it, and their rays beyond each other are "
    "the same cells (rays; SAT's shared stretches); or, when one sees the other, their unary "
    "counts along the line are equal and those across it differ by the difference of the "
    "numbers (counts; SAT's card=lines tie, over the adder's column and row counts, with any "
    "sum); or not (none); auto: counts on boards of 7,000 cells or more with sum=adder, else none",
)
CUT = Option(
    "cut",
    "auto",
    ("auto", "none", "cell"),
    "with a connectivity rule, also state its smallest cuts up front: no white cell walled in by "
    "black neighbours (cell; with reach on the 50x50 generated boards clingo took 1.2x longer "
    "with it, since reach's unfounded sets find these cells anyway), or not (none); auto: cell "
    "with the lazy rule (which otherwise sees a walled-in cell only on a total assignment), else none",
)

#: connectivity value -> program files (after the root file where one is needed)
#: (shared with the other families whose white cells form one region)
CONNECTIVITY_FILES: dict[str, tuple[str, ...]] = {
    "reach": ("white_region.lp", "connect_root.lp", "connect_reach.lp"),
    "acyclic": ("grid_adj.lp", "white_region.lp", "connect_root.lp", "connect_acyclic.lp"),
    "closure": ("grid_adj.lp", "white_region.lp", "connect_closure.lp"),
    "propagator": (),
    "none": (),
}


class LazyConnectivity:
    """Kuromasu's "all white cells form one region" as lazy cuts: a clingo propagator that only
    checks total assignments (every black(R,C) atom decided) and, when their white cells fall
    apart, adds the SAT encoding's cuts (:func:`puzzlebench.encodings.sat.kuromasu.lazy_connectivity`:
    some black cell around a white region other than the largest turns white).

    Nothing is watched and nothing runs during propagation, so its cost is one region check per
    candidate; the search sees the rule only through the cuts and the constraints stated up front
    (``cut=cell``)."""

    def __init__(self, rows: int, cols: int, markable: frozenset[Cell]):
        self.rule = lazy_connectivity(rows, cols, dict.fromkeys(markable, 0))
        self.literals: list[tuple[Cell, int]] = []
        self.rounds = 0
        self.cuts = 0

    def init(self, init: clingo.PropagateInit) -> None:
        for atom in init.symbolic_atoms.by_signature("black", 2):
            r, c = atom.symbol.arguments
            self.literals.append(((r.number, c.number), init.solver_literal(atom.literal)))

    def check(self, control: clingo.PropagateControl) -> None:
        value = control.assignment.is_true
        marked = frozenset(cell for cell, lit in self.literals if value(lit))
        cuts = self.rule(marked)
        if not cuts:
            return
        self.rounds += 1
        self.cuts += len(cuts)
        literal = dict(self.literals)
        for cut in cuts:
            if not control.add_clause([literal[cell] if black else -literal[cell] for cell, black in cut]):
                return
        control.propagate()

    def stats(self) -> dict[str, int]:
        return {"lazy_rounds": self.rounds, "lazy_cuts": self.cuts}


def _kuromasu(puzzle: Puzzle) -> Kuromasu:
    if not isinstance(puzzle, Kuromasu):
        raise TypeError(f"expected a Kuromasu puzzle, got {type(puzzle).__name__}")
    return puzzle


def _root_facts(p: Kuromasu) -> str:
    """The connectivity root: the first clue cell, or a pair of adjacent cells (one is white)."""
    if p.clue_cells:
        r, c = min(p.clue_cells)
        return f"root({r},{c})."
    pair = [(0, 0)] + ([(0, 1)] if p.cols > 1 else [(1, 0)] if p.rows > 1 else [])
    return "".join(f"root({r},{c})." for r, c in pair)


def _link_facts(p: Kuromasu) -> list[str]:
    """link(R,C,DR,DC,D,R2,C2): the nearest numbered cell from (R,C) in direction (DR,DC) is
    (R2,C2), D cells away, and both numbers are large enough to see that far (D < both)."""
    numbers = p.numbers
    out = []
    for (r, c), n in numbers.items():
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            for d in range(1, n):
                r2, c2 = r + dr * d, c + dc * d
                if not (0 <= r2 < p.rows and 0 <= c2 < p.cols):
                    break
                n2 = numbers.get((r2, c2))
                if n2 is not None:
                    if d < n2:
                        out.append(f"link({r},{c},{dr},{dc},{d},{r2},{c2}).")
                    break
    return out


def _part_facts(p: Kuromasu) -> list[str]:
    """part(R,C,P,DR,DC): ray (DR,DC) of the number at (R,C) is merged in part P (1 or 2), the
    longest ray (capped at the number) with the shortest, the other two together."""
    out = []
    for (r, c), n in p.numbers.items():
        reach = {(-1, 0): r, (1, 0): p.rows - 1 - r, (0, -1): c, (0, 1): p.cols - 1 - c}
        rays = sorted(reach, key=lambda d: min(reach[d], n))
        for part, pair in ((1, (rays[0], rays[3])), (2, (rays[1], rays[2]))):
            out += [f"part({r},{c},{part},{dr},{dc})." for dr, dc in pair]
    return out


def build_default(puzzle: Puzzle, options: Mapping[str, Any]) -> AspProgram:
    p = _kuromasu(puzzle)
    big = p.rows * p.cols >= ADDER_CELLS
    connectivity = options["connectivity"]
    if connectivity == "auto":
        connectivity = "lazy" if big else "reach"
    parts = [f"size({p.rows},{p.cols})."]
    parts += [f"num({r},{c},{n})." for (r, c), n in p.numbers.items()]
    clues = p.clue_cells  # a property that builds a new set per call: once, not once per cell
    parts += [f"clue({r},{c})." for r, c in clues]
    if connectivity in ("reach", "acyclic"):
        parts.append(_root_facts(p))
    propagator: ConnectivityPropagator | LazyConnectivity | None = None
    if connectivity == "propagator":
        propagator = ConnectivityPropagator(p.rows, p.cols, clues)
    elif connectivity == "lazy":
        propagator = LazyConnectivity(
            p.rows,
            p.cols,
            frozenset((r, c) for r in range(p.rows) for c in range(p.cols) if (r, c) not in clues),
        )
    total = options["sum"]
    if total == "auto":
        total = "adder" if big else "count"
    links = options["links"]
    if links == "auto":
        links = "counts" if total == "adder" and p.rows * p.cols >= LINK_CELLS else "none"
    files = ["kuromasu.lp", f"kuromasu_{options['visibility']}.lp"]
    if total == "adder" or links == "counts":  # the unary counts along the column and the row
        files.append("kuromasu_lines.lp")
    files += [
        f"kuromasu_sum_{total}.lp",
        *CONNECTIVITY_FILES.get(connectivity, ()),
    ]  # lazy: its propagator alone
    if total == "paired":
        parts += _part_facts(p)
    if links != "none":
        parts += _link_facts(p)
        files.append("kuromasu_links.lp" if links == "rays" else "kuromasu_links_counts.lp")
    cut = options["cut"]
    if cut == "auto":
        cut = "cell" if connectivity == "lazy" else "none"
    if connectivity != "none" and cut == "cell":
        files.append("kuromasu_cut_cell.lp")
    if options["visibility"] == "connect_cell" and "grid_adj.lp" not in files:
        files.insert(1, "grid_adj.lp")
    return AspProgram(
        files=tuple(files),
        facts="".join(parts),
        predicate="black",
        propagator=propagator,
        notes={"connectivity": connectivity, "sum": total, "cut": cut},
    )


SEED_CONNECTIVITY = Option(
    "connectivity",
    "closure",
    ("closure", "none"),
    "closure: seed 000's program as printed; none: without its white_connect rules, the "
    "seed's 'before the connectivity rule' measurement (relaxing)",
    relaxing=("none",),
)


def build_seed000(puzzle: Puzzle, options: Mapping[str, Any]) -> AspProgram:
    """Seed 000's facts: row/col ranges and num(X,Y,N), 1-based (row, column)."""
    p = _kuromasu(puzzle)
    if p.unknown:
        raise EncodingError(
            f"seed000 cannot state '?' clues (the seed's num/3 needs a number); {len(p.unknown)} in this puzzle"
        )
    parts = [f"row(1..{p.rows}).", f"col(1..{p.cols})."]
    parts += [f"num({r + 1},{c + 1},{n})." for (r, c), n in p.numbers.items()]
    files = ("seed000_kuromasu.lp",) + (
        ("seed000_kuromasu_connected.lp",) if options["connectivity"] == "closure" else ()
    )
    return AspProgram(files=files, facts="".join(parts), predicate="black", to_cell=cell_of_1based)


ENCODINGS: list[EncodingSpec] = [
    EncodingSpec(
        family=Family.KUROMASU,
        paradigm="asp",
        name="default",
        build=build_default,
        description="choice of black non-clue cells, no two adjacent; numbers by visibility chains, "
        "summed by an aggregate or as unary numbers (sum option); one white region (connectivity option)",
        options=(CONNECTIVITY, VISIBILITY, SUM, LINKS, CUT),
    ),
    EncodingSpec(
        family=Family.KUROMASU,
        paradigm="asp",
        name="seed000",
        build=build_seed000,
        description="seed 000's Kuromasu.lp ported rule for rule (connect_cell visibility, all-pairs "
        "white_connect connectivity)",
        origin="seed000",
        reference="seed 000: ASP solvers for Light Up and Kuromasu (lparse/smodels), appendix Kuromasu.lp; "
        "its table for the 11x11 sample: 23,298 atoms / 79,738 rules, 8,657 / 10,736 without connectivity",
        options=(SEED_CONNECTIVITY,),
    ),
]

#: The default's options are the ways it states a rule; the rest of its options are fixed settings.
ENCODINGS = [
    axes(spec, "connectivity", "visibility", "sum") if spec.name == "default" else spec for spec in ENCODINGS
]
