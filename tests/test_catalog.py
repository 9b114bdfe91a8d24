"""The encoding catalog: every complete encoding, at every value of every option, agrees.

Each configuration is one registered encoding with one option moved off its default (the
ablation axes one at a time). On the bundled seed samples and on janko puzzles of every size
class, a complete configuration must prove the published answer unique (``count=2``) and return
exactly its cells; relaxed values (``connectivity=none``) are left out, since they may accept
more. LightBulbs has no corpus: there, every complete configuration must count the same answers
as every other, and as brute force, on small boards (``count=0``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import puzzlebench as pb
from bruteforce import all_solutions, random_lightbulbs
from puzzlebench import registry
from puzzlebench.encodings.base import EncodingSpec
from puzzlebench.errors import EncodingError
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family, family_spec
from puzzlebench.suites import load_suite

PARADIGMS = registry.available()

#: Janko size classes by number of cells; the first puzzle of each class is taken.
SIZE_CLASSES = {"small": (0, 100), "medium": (101, 300), "large": (301, 1000)}

#: Configurations whose cost grows too fast for the larger classes, with the measured reason;
#: they run on the small class and the bundled samples only.
SMALL_ONLY = {
    # all-pairs closures ground O(cells^2) atoms (seed 000: 74k rules at 11x11)
    ("kuromasu", "asp", "default", "connectivity", "closure"),
    ("kuromasu", "asp", "seed000", None, None),
    ("lightup", "asp", "default", "lighting", "closure"),
    ("lightup", "asp", "seed000", None, None),
    # flow and rank need search over integer labels: seconds per 14x14 puzzle
    ("kuromasu", "cp", "default", "connectivity", "flow"),
    ("kuromasu", "cp", "default", "connectivity", "rank"),
    ("kuromasu", "sat", "default", "connectivity", "rank"),
    ("kuromasu", "smt", "default", "connectivity", "rank"),
    ("kuromasu", "asp", "default", "visibility", "connect_cell"),
    ("kuromasu", "smt", "default", "visibility", "distance"),
    # binomial cardinality writes C(n, k+1) clauses per clue: gigabytes on a 14x14 clue of 10
    ("kuromasu", "sat", "default", "card", "binomial"),
}


def configurations(family: Family) -> Iterator[tuple[EncodingSpec, dict[str, Any]]]:
    """Every complete encoding of the family: its defaults, then each other option value alone."""
    for paradigm in PARADIGMS:
        for spec in registry.encodings(family, paradigm):
            yield spec, {}
            for opt in spec.options:
                for value in opt.choices or ():
                    if value != opt.default and value not in opt.relaxing:
                        yield spec, {opt.name: value}


def _config_id(spec: EncodingSpec, options: dict[str, Any]) -> str:
    moved = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{spec.paradigm}/{spec.name}" + (f"[{moved}]" if moved else "")


def _solver(spec: EncodingSpec, options: dict[str, Any]) -> str | None:
    """The solver a configuration runs on: its paradigm's default, except that native cardinality
    constraints (``card=native``, ``amo=native``) need a solver that takes them."""
    if spec.paradigm == "sat" and "native" in options.values():
        return "minicard"
    return None


def _small_only(spec: EncodingSpec, options: dict[str, Any]) -> bool:
    fam, par, name = spec.key
    if (fam, par, name, None, None) in SMALL_ONLY:
        return True
    return any((fam, par, name, k, v) in SMALL_ONLY for k, v in options.items())


def _janko_samples(janko_dir, family: Family) -> list[tuple[str, Any, Any]]:
    path = janko_dir / ("Akari_dataset.json" if family is Family.LIGHTUP else "Kuromasu_dataset.json")
    picked: dict[str, tuple[str, Any, Any]] = {}
    for entry in iter_janko(path):
        cells = entry.puzzle.rows * entry.puzzle.cols
        for name, (lo, hi) in SIZE_CLASSES.items():
            if lo <= cells <= hi and name not in picked:
                picked[name] = (name, entry.puzzle, entry.solution)
        if len(picked) == len(SIZE_CLASSES):
            break
    return [picked[name] for name in SIZE_CLASSES if name in picked]


def _bundled(family: Family) -> list[tuple[str, Any, Any]]:
    suite = load_suite("seeds", family=family.value)
    return [("bundled", e.puzzle, e.solution) for e in suite if e.solution is not None]


@pytest.mark.parametrize("family", [Family.LIGHTUP, Family.KUROMASU], ids=str)
def test_every_complete_configuration_proves_the_bundled_published_answers(family: Family) -> None:
    # The bundled seed samples ship with the package: this half runs with or without the corpus.
    cases = _bundled(family)
    assert cases, f"no bundled {family} puzzle with a published answer"
    _prove_published_answers(family, cases)


@pytest.mark.parametrize("family", [Family.LIGHTUP, Family.KUROMASU], ids=str)
def test_every_complete_configuration_proves_the_janko_published_answers(family: Family, janko_dir) -> None:
    cases = _janko_samples(janko_dir, family)
    assert {"small", "medium", "large"} <= {name for name, _, _ in cases}
    _prove_published_answers(family, cases)


def _prove_published_answers(family: Family, cases: list[tuple[str, Any, Any]]) -> None:
    """Every complete configuration proves each published answer unique and returns its cells."""
    failures = []
    ran = 0
    for spec, options in configurations(family):
        if not spec.is_complete(spec.resolve(options)):
            continue
        for size_class, puzzle, published in cases:
            if size_class not in ("small", "bundled") and _small_only(spec, options):
                continue
            if spec.origin == "seed000" and puzzle.rows * puzzle.cols > 121:
                continue  # seed 000's closures are meant for its own 11x11 sample
            one = spec.paradigm == "puzzlekit"  # finds one answer, cannot prove uniqueness
            try:
                result = pb.solve(
                    puzzle,
                    spec.paradigm,
                    spec.name,
                    count=1 if one else 2,
                    timeout=60,
                    solver=_solver(spec, options),
                    **options,
                )
            except EncodingError as exc:
                if "cannot express" in str(exc):
                    continue  # an at-most-one-only cardinality encoding asked for a larger bound
                raise
            ran += 1
            got = [s.cells for s in result.solutions]
            if (
                result.status is not pb.Status.SAT
                or got[:1] != [published.cells]
                or (not one and not result.unique)
            ):
                failures.append(
                    f"{_config_id(spec, options)} on {puzzle.name} ({size_class}): "
                    f"{result.status.value}, {len(got)} answer(s), matches published: "
                    f"{bool(got) and got[0] == published.cells}"
                )
    assert ran > 0
    assert not failures, "\n".join(failures)


@pytest.mark.slow
def test_lightbulbs_configurations_count_alike() -> None:
    rng = random.Random(3)
    boards = [random_lightbulbs(rng, r, c) for r, c in ((3, 3), (3, 4), (4, 4), (4, 4))]
    # Brute force reaches every one of these (at most 16 cells): the counts are held to it as well.
    truth = [len(all_solutions(board, max_cells=16)) for board in boards]
    counts: dict[str, list[int]] = {}
    for spec, options in configurations(Family.LIGHTBULBS):
        if not spec.is_complete(spec.resolve(options)):
            continue
        row = []
        for board in boards:
            try:
                result = pb.solve(
                    board,
                    spec.paradigm,
                    spec.name,
                    count=0,
                    timeout=60,
                    solver=_solver(spec, options),
                    **options,
                )
            except EncodingError as exc:
                if "cannot express" in str(exc):
                    break  # an at-most-one-only cardinality encoding asked for a larger bound
                raise
            assert result.exhausted, f"{_config_id(spec, options)} on {board.name}: {result.status.value}"
            row.append(result.count)
        else:
            counts[_config_id(spec, options)] = row
    assert len(counts) >= 2
    reference = next(iter(counts.values()))
    assert all(row == reference for row in counts.values()), counts
    wrong = {config: row for config, row in counts.items() if row != truth}
    assert not wrong, f"brute force counts {truth}; differing configurations: {wrong}"


def relaxed_configurations() -> Iterator[tuple[EncodingSpec, dict[str, Any]]]:
    """Every encoding with one option at a relaxing value (a rule switched off)."""
    for family in Family:
        for paradigm in PARADIGMS:
            for spec in registry.encodings(family, paradigm):
                for opt in spec.options:
                    for value in opt.relaxing:
                        yield spec, {opt.name: value}


@pytest.mark.parametrize(
    "spec,options",
    list(relaxed_configurations()),
    ids=lambda x: x.name if isinstance(x, EncodingSpec) else str(x),
)
def test_relaxed_configuration_never_loses_a_true_answer(spec, options):
    from bruteforce import all_solutions, random_kuromasu, random_lightup

    rng = random.Random(7)
    make = {
        Family.KUROMASU: random_kuromasu,
        Family.LIGHTUP: random_lightup,
        Family.LIGHTBULBS: lambda r, h, w: random_lightbulbs(r, h, w),
    }.get(spec.family, family_spec(spec.family).random_board)  # other families: their own boards
    for _ in range(12):
        puzzle = make(rng, rng.randint(1, 3), rng.randint(2, 4))
        truth = all_solutions(puzzle)
        result = pb.solve(puzzle, spec.paradigm, spec.name, count=0, timeout=60, strict=False, **options)
        assert result.exhausted and result.complete is False, (puzzle, result.status)
        found = {s.cells for s in result.solutions}
        # every true answer is still an answer of the relaxation; extra ones break the dropped rule
        assert truth <= found, puzzle
        assert all(puzzle.verify(s) for s in result.solutions if s.cells not in truth)


def test_the_command_lines_description_names_every_registered_family() -> None:
    from puzzlebench.cli import build_parser
    from puzzlebench.model import family_specs

    description = " ".join(build_parser().description.split())
    titles = [spec.title for spec in family_specs()]
    assert len(titles) >= 5 and all(title in description for title in titles), description
