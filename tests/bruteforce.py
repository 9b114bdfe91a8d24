"""Brute-force oracle for tiny puzzles: try every subset of candidate cells against the verifier."""

from __future__ import annotations

import random
from itertools import combinations

from puzzlebench.model import Puzzle, family_spec


def candidates(puzzle: Puzzle) -> list[tuple[int, int]]:
    """Cells that may be marked, as the puzzle's family declares them."""
    return family_spec(puzzle).candidates(puzzle)


#: Answers by ``Puzzle.content_hash()`` (family and board, not name or metadata).
_KNOWN: dict[str, frozenset[frozenset]] = {}


def all_solutions(puzzle: Puzzle, max_cells: int = 16) -> set[frozenset]:
    """Every valid answer, by exhaustive search (refuses boards with too many candidates).

    Answers are remembered per puzzle content, since several tests ask about the same boards
    (two equal puzzles built separately share one search)."""
    key = puzzle.content_hash()
    if key not in _KNOWN:
        _KNOWN[key] = frozenset(_search(puzzle, max_cells))
    return set(_KNOWN[key])


def _search(puzzle: Puzzle, max_cells: int) -> set[frozenset]:
    cand = candidates(puzzle)
    if len(cand) > max_cells:
        raise ValueError(f"{len(cand)} candidate cells is too many for brute force")
    found = set()
    for k in range(len(cand) + 1):
        for subset in combinations(cand, k):
            if not puzzle.verify(subset):
                found.add(frozenset(subset))
    return found


def random_board(family, rng: random.Random, rows: int, cols: int) -> Puzzle:
    """A random small board of ``family``, as the family makes them."""
    return family_spec(family).random_board(rng, rows, cols)


def random_lightup(rng: random.Random, rows: int, cols: int, **kw) -> Puzzle:
    from puzzlebench.model.lightup import random_lightup as make

    return make(rng, rows, cols, **kw)


def random_kuromasu(rng: random.Random, rows: int, cols: int, **kw) -> Puzzle:
    from puzzlebench.model.kuromasu import random_kuromasu as make

    return make(rng, rows, cols, **kw)


def random_lightbulbs(rng: random.Random, rows: int, cols: int) -> Puzzle:
    return random_board("lightbulbs", rng, rows, cols)


def answered_boards(family, seed: int, shapes, count: int = 10, most: int = 50) -> list[Puzzle]:
    """``count`` random boards of ``family`` (shapes drawn from ``shapes``) with 1 to ``most``
    answers each, so that a change of model in the middle of enumeration lands before, between
    and after answers."""
    rng = random.Random(seed)
    boards: list[Puzzle] = []
    while len(boards) < count:
        p = random_board(family, rng, *rng.choice(shapes))
        if 1 <= len(all_solutions(p)) <= most:
            boards.append(p)
    return boards


def assert_enumerates_brute_force(puzzle: Puzzle, paradigm: str, **options):
    """``paradigm`` with ``options`` enumerates (count=0) exactly ``puzzle``'s brute-force answers,
    each once; the result, for its figures."""
    from puzzlebench.solvers import solve

    result = solve(puzzle, paradigm, count=0, timeout=60, **options)
    assert result.exhausted, (puzzle.to_text(), paradigm, options)
    found = [s.cells for s in result.solutions]
    assert len(found) == len(set(found)), (puzzle.to_text(), paradigm, options)
    assert set(found) == all_solutions(puzzle), (puzzle.to_text(), paradigm, options)
    return result


def kuromasu_view(puzzle, black: frozenset, clue: tuple[int, int]) -> tuple[int, ...]:
    """The (up, down, left, right) cells a Kuromasu number sees past itself, walked on the board."""
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c, k = clue[0] + dr, clue[1] + dc, 0
        while 0 <= r < puzzle.rows and 0 <= c < puzzle.cols and (r, c) not in black:
            r, c, k = r + dr, c + dc, k + 1
        out.append(k)
    return tuple(out)


def planted_nurikabe(
    seed: int, count: int, shapes, wall_p: float, most_cells: int, keep=lambda p: True
) -> list:
    """``count`` small Nurikabe boards with an answer planted: a random connected wall (each cell
    wall with probability ``wall_p``) without a 2x2 block, one clue per island at a random cell
    (its size), at most ``most_cells`` cells left to brute-force, kept when ``keep(board)``."""
    from puzzlebench.encodings.regions import white_regions
    from puzzlebench.model import Nurikabe

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rows, cols = rng.choice(shapes)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        wall = frozenset(cell for cell in cells if rng.random() < wall_p)
        if not wall or len(white_regions(rows, cols, frozenset(cells) - wall)) != 1:  # one wall
            continue
        if any({(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} <= wall for r, c in cells):
            continue
        islands = white_regions(rows, cols, wall)
        if not islands or rows * cols - len(islands) > most_cells:
            continue
        p = Nurikabe(rows, cols, numbers={rng.choice(sorted(island)): len(island) for island in islands})
        if keep(p):
            out.append(p)
    return out


#: the small shapes of the escalation tests' planted boards
ESCALATION_SHAPES = [(4, 4), (3, 4), (4, 3), (3, 5), (5, 3), (4, 5), (5, 4)]


def escalation_boards(seed: int, counts: tuple[int, int] = (30, 20), marked: int = 12) -> list:
    """Small Nurikabe boards with a planted answer (some with more answers), ``counts`` of them
    at two wall densities, and the first ``marked`` again with one number turned into a '?';
    only those with an answer are kept."""
    from puzzlebench.model import Nurikabe

    planted = planted_nurikabe(seed, counts[0], ESCALATION_SHAPES, 0.45, 12) + planted_nurikabe(
        seed + 1, counts[1], ESCALATION_SHAPES, 0.55, 11
    )
    rng = random.Random(seed + 2)
    unknown = []
    for p in planted[:marked]:
        cell = rng.choice(sorted(p.numbers))
        unknown.append(
            Nurikabe(
                p.rows,
                p.cols,
                numbers={c: n for c, n in p.numbers.items() if c != cell},
                unknown=frozenset({cell}),
            )
        )
    return [p for p in planted + unknown if all_solutions(p)]


def plan_holds(p, plan, wall) -> bool:
    """A Nurikabe island plan holds for the answer whose wall cells are ``wall``: the plan's wall
    cells are wall, its white cells (if any) unshaded, and every island lies in its clue's reach."""
    from puzzlebench.encodings.regions import white_regions

    if not plan.wall <= wall or getattr(plan, "white", frozenset()) & wall:
        return False
    for island in white_regions(p.rows, p.cols, wall):
        clue = next(c for c in island if c in p.clue_cells)
        if not set(island) <= set(plan.reach[clue]):
            return False
    return True
