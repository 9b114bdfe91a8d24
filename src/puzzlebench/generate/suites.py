"""The generated scaling suites: one spec, one command, files plus a manifest per suite.

``python -m puzzlebench.generate.suites [--out puzzles] [--jobs N]`` (or ``puzzlebench
generate-suites``) rewrites puzzles/gen-lightup, puzzles/gen-kuromasu, puzzles/gen-lightbulbs,
puzzles/gen-hitori and puzzles/gen-nurikabe.
Each puzzle is a native-format file carrying its generator metadata, with its planted answer
in a ``.solution.pzl`` file beside it; manifest.json follows the team's suite schema. Nothing
written depends on the clock or on the number of worker processes, so a rerun with the same
solver versions rewrites the same bytes. A table of per-size figures (generation and proof
seconds, clue counts, difficulty) goes to stdout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model import Family
from . import Generated, generate
from .common import GenerationError

#: Scaling sizes of the issue.
GRID_SIZES = (5, 7, 10, 15, 20, 30, 50, 70, 100)
LIGHTBULBS_SIZES = (4, 5, 6, 8, 10, 12, 15, 20)
#: Hitori up to 30x30 (the janko corpus stops at 25x25; a 50x50 board takes seconds to repair).
HITORI_SIZES = (5, 7, 10, 15, 20, 25, 30)
#: Nurikabe on Hitori's sizes (a 30x30 board takes seconds to tens of seconds to repair).
NURIKABE_SIZES = HITORI_SIZES
PER_SIZE = 3

#: LightBulbs answers enumerated per seed-003 board: fewer are counted exactly, more recorded
#: as "at least" (a limit on answers, not on time, keeps the files reproducible).
COUNT_LIMIT = 10_000

DESCRIPTIONS = {
    "gen-lightup": "Seeded Light Up scaling suite (5x5..100x100, 3 per size), each puzzle proved unique.",
    "gen-kuromasu": "Seeded Kuromasu scaling suite (5x5..100x100, 3 per size), each puzzle proved unique.",
    "gen-lightbulbs": f"Seeded LightBulbs suite (4x4..20x20): 3 boards per size by seed 003's method (answers "
    f"counted exactly up to {COUNT_LIMIT}, else recorded as solutions_at_least) and one "
    f"unique-mode board per size.",
    "gen-hitori": "Seeded Hitori scaling suite (5x5..30x30, 3 per size), each puzzle proved unique.",
    "gen-nurikabe": "Seeded Nurikabe scaling suite (5x5..30x30, 3 per size), each puzzle proved unique.",
}
COMMAND = "python -m puzzlebench.generate.suites --jobs 2"


@dataclass(frozen=True)
class Job:
    """One puzzle of a suite: family, size, seed, generator options."""

    suite: str
    family: Family
    size: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def ident(self) -> str:
        suffix = "-unique" if self.options.get("unique") else ""
        return f"{self.family.value}-{self.size:03d}x{self.size:03d}-s{self.seed}{suffix}"


def suite_jobs() -> list[Job]:
    """Every puzzle of the suites: seeds 1..3 per size with the generators' default options.

    LightBulbs adds one unique-mode board (seed 1) per size to the three seed-003 boards.
    """
    seeds = range(1, PER_SIZE + 1)
    jobs: list[Job] = []
    for family in (Family.LIGHTUP, Family.KUROMASU):
        for size in GRID_SIZES:
            jobs += [Job(f"gen-{family.value}", family, size, seed) for seed in seeds]
    for size in LIGHTBULBS_SIZES:
        jobs += [Job("gen-lightbulbs", Family.LIGHTBULBS, size, seed) for seed in seeds]
        jobs.append(Job("gen-lightbulbs", Family.LIGHTBULBS, size, 1, {"unique": True}))
    for size in HITORI_SIZES:
        jobs += [Job("gen-hitori", Family.HITORI, size, seed) for seed in seeds]
    for size in NURIKABE_SIZES:
        jobs += [Job("gen-nurikabe", Family.NURIKABE, size, seed) for seed in seeds]
    return jobs


def run_job(job: Job, paradigm: str = "auto") -> tuple[Generated, float]:
    """Generate and prove one puzzle; also the seconds it took (reported, never stored)."""
    start = time.perf_counter()
    gen = generate(
        job.family, job.size, job.size, job.seed, paradigm=paradigm, count_limit=COUNT_LIMIT, **job.options
    )
    return gen, time.perf_counter() - start


def manifest_entry(job: Job, gen: Generated) -> dict[str, Any]:
    """The manifest record of one generated puzzle (schema of puzzles/seeds/manifest.json)."""
    entry = {
        "id": job.ident,
        "file": f"{job.ident}.pzl",
        "family": job.family.value,
        "rows": job.size,
        "cols": job.size,
        "origin": "generated",
        "solution": f"{job.ident}.solution.pzl",
        "solutions": gen.solutions,
        "meta": {**dict(gen.puzzle.meta), "content_hash": gen.puzzle.content_hash()},
    }
    return entry


def write_suites(
    out: Path, jobs: Sequence[Job], jobs_n: int = 1, paradigm: str = "auto", progress: bool = True
) -> tuple[dict[str, Path], list[dict[str, Any]]]:
    """Generate ``jobs`` and write one folder + manifest.json per suite under ``out``.

    Returns the manifests written and one row of figures per puzzle (for :func:`summary`).
    A partial run (some jobs of a suite) keeps the suite's other entries; files of puzzles no
    longer in :func:`suite_jobs` are removed.
    """
    from ..formats import dump, dump_solution

    spec = {j.ident: j for j in suite_jobs()}
    entries: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    rows: list[dict[str, Any]] = []
    for suite in sorted({j.suite for j in jobs}):
        folder = out / suite
        manifest_path = folder / "manifest.json"
        if manifest_path.exists():
            for item in json.loads(manifest_path.read_text(encoding="utf-8")).get("puzzles", []):
                if item.get("id") in spec:
                    entries[suite][item["id"]] = item
        for old in folder.glob("*.pzl") if folder.is_dir() else ():
            if old.name.split(".")[0] not in spec:
                old.unlink()
    for job, gen, seconds in _results(jobs, jobs_n, paradigm, progress):
        folder = out / job.suite
        folder.mkdir(parents=True, exist_ok=True)
        puzzle = gen.puzzle.with_meta(name=job.ident)
        gen = Generated(puzzle, gen.solution, gen.solutions, gen.proof, gen.stats)
        (folder / f"{job.ident}.pzl").write_text(_line(dump(puzzle, "native")), encoding="utf-8")
        (folder / f"{job.ident}.solution.pzl").write_text(
            _line(dump_solution(puzzle, gen.solution, "native")), encoding="utf-8"
        )
        entries[job.suite][job.ident] = manifest_entry(job, gen)
        rows.append(_figures(job, gen, seconds))
    written = {}
    order = {ident: i for i, ident in enumerate(spec)}
    for suite, items in sorted(entries.items()):
        listed = sorted(items.values(), key=lambda e: (order.get(e["id"], len(order)), e["id"]))
        manifest = {
            "suite": suite,
            "description": DESCRIPTIONS.get(suite, ""),
            "command": COMMAND,
            "puzzles": listed,
        }
        path = out / suite / "manifest.json"
        path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        written[suite] = path
    return written, rows


def _figures(job: Job, gen: Generated, seconds: float) -> dict[str, Any]:
    meta, difficulty = gen.puzzle.meta, gen.puzzle.meta.get("difficulty") or {}
    clues = meta.get("numbers", meta.get("clues"))
    return {
        "suite": job.suite + ("-unique" if job.options.get("unique") else ""),
        "size": job.size,
        "seconds": seconds,
        "proof_seconds": gen.proof.seconds if gen.proof else float("nan"),
        "clues": clues if clues is not None else float("nan"),
        "solutions": gen.solutions if gen.solutions is not None else f">={meta.get('solutions_at_least')}",
        "unit_propagation": bool(difficulty.get("unit_propagation")),
        "propagation_solves": bool(difficulty.get("propagation_solves")),
        "conflicts": difficulty.get("conflicts", float("nan")),
    }


def summary(rows: Sequence[dict[str, Any]]) -> str:
    """Per suite and size: puzzles, mean generation and proof seconds, clues, difficulty."""
    groups: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["suite"], row["size"])].append(row)
    lines = [
        f"{'suite':<22}{'size':>5}{'n':>3}{'total s':>9}{'proof s':>9}{'clues':>8}"
        f"{'UP':>4}{'prop':>5}{'conflicts':>11}  solutions"
    ]
    for (suite, size), group in sorted(groups.items()):
        mean = lambda key: statistics.fmean(r[key] for r in group)  # noqa: B023  (called within this iteration)
        lines.append(
            f"{suite:<22}{size:>5}{len(group):>3}{mean('seconds'):>9.2f}{mean('proof_seconds'):>9.2f}"
            f"{mean('clues'):>8.0f}{sum(r['unit_propagation'] for r in group):>4}"
            f"{sum(r['propagation_solves'] for r in group):>5}{mean('conflicts'):>11.0f}  "
            + " ".join(str(r["solutions"]) for r in group)
        )
    return "\n".join(lines)


def _line(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _results(
    jobs: Sequence[Job], jobs_n: int, paradigm: str, progress: bool
) -> Iterator[tuple[Job, Generated, float]]:
    from tqdm.auto import tqdm

    bar = tqdm(total=len(jobs), desc="generating", unit="puzzle", disable=not progress)
    # Biggest boards first, so the workers finish together.
    order = sorted(jobs, key=lambda j: -j.size)
    if jobs_n <= 1:
        for job in order:
            bar.set_postfix_str(job.ident)
            yield job, *run_job(job, paradigm)
            bar.update()
    else:
        import multiprocessing

        with ProcessPoolExecutor(jobs_n, mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = [pool.submit(run_job, job, paradigm) for job in order]
            for job, future in zip(order, futures):
                yield job, *future.result()
                bar.update()
    bar.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m puzzlebench.generate.suites", description=__doc__.splitlines()[0]
    )
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except GenerationError as exc:
        parser.exit(2, f"error: {exc}\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="puzzles", help="folder that receives gen-* (default: puzzles)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--paradigm", default="auto", help="proof paradigm (default: fastest available per family)"
    )
    parser.add_argument(
        "--suite", action="append", choices=sorted(DESCRIPTIONS), help="only this suite (repeatable)"
    )
    parser.add_argument("--max-size", type=int, help="only boards up to this size (a quick partial run)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise GenerationError(f"--jobs must be at least 1, got {args.jobs}")
    jobs = [
        j
        for j in suite_jobs()
        if (not args.suite or j.suite in args.suite) and (args.max_size is None or j.size <= args.max_size)
    ]
    start = time.perf_counter()
    written, rows = write_suites(Path(args.out), jobs, args.jobs, args.paradigm, not args.quiet)
    print(summary(rows))
    print(f"{len(rows)} puzzles in {time.perf_counter() - start:.1f} s with {args.jobs} worker(s)")
    for suite, path in written.items():
        print(f"{suite}: {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
