"""The generated scaling suites: one spec, one command, files plus a manifest per suite.

``python -m puzzlebench.generate.suites [--out puzzles] [--jobs N]`` (or ``puzzlebench
generate-suites``) rewrites puzzles/gen-lightup, puzzles/gen-kuromasu and puzzles/gen-lightbulbs.
Each puzzle is a native-format file carrying its generator metadata, with its planted answer
in a ``.solution.pzl`` file beside it; manifest.json follows the team's suite schema.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from ..model import Family
from . import Generated, generate

#: Scaling sizes of the issue.
GRID_SIZES = (5, 7, 10, 15, 20, 30, 50, 70, 100)
LIGHTBULBS_SIZES = (4, 6, 8, 10, 12, 15, 20)


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
    """Every puzzle of the three suites (3 per size, 2 at 70x70 and 100x100)."""
    jobs: list[Job] = []
    for family in (Family.LIGHTUP, Family.KUROMASU):
        for size in GRID_SIZES:
            # Removal questions grow with the board: above 50x50 the repaired clue set is kept.
            opts = {"minimize": size <= 50}
            for seed in range(1, (2 if size >= 70 else 3) + 1):
                jobs.append(Job(f"gen-{family.value}", family, size, seed, opts))
    for size in LIGHTBULBS_SIZES:
        for seed in (1, 2, 3):
            jobs.append(Job("gen-lightbulbs", Family.LIGHTBULBS, size, seed))
        jobs.append(Job("gen-lightbulbs", Family.LIGHTBULBS, size, 1, {"unique": True}))
    return jobs


DESCRIPTIONS = {
    "gen-lightup": "Seeded Light Up scaling suite (5x5..100x100), each puzzle proved unique.",
    "gen-kuromasu": "Seeded Kuromasu scaling suite (5x5..100x100), each puzzle proved unique.",
    "gen-lightbulbs": "Seeded LightBulbs suite (4x4..20x20): seed 003's method (answers counted when "
                      "enumeration finishes in time) and one unique-mode board per size.",
}

#: Seconds allowed to enumerate every answer of a seed-003 LightBulbs board.
COUNT_TIMEOUT = 5.0


def run_job(job: Job, paradigm: str = "auto") -> Generated:
    return generate(job.family, job.size, job.size, job.seed, paradigm=paradigm,
                    count_timeout=COUNT_TIMEOUT, **job.options)


def write_suites(out: Path, jobs: Sequence[Job], jobs_n: int = 1, paradigm: str = "auto", progress: bool = True) -> dict[str, Path]:
    """Generate ``jobs`` and write one directory + manifest.json per suite under ``out``."""
    from ..formats import dump, dump_solution

    entries: dict[str, list[dict[str, Any]]] = {}
    for job, gen in _results(jobs, jobs_n, paradigm, progress):
        folder = out / job.suite
        folder.mkdir(parents=True, exist_ok=True)
        puzzle = gen.puzzle.with_meta(name=job.ident)
        (folder / f"{job.ident}.pzl").write_text(_line(dump(puzzle, "native")), encoding="utf-8")
        (folder / f"{job.ident}.solution.pzl").write_text(
            _line(dump_solution(puzzle, gen.solution, "native")), encoding="utf-8")
        entries.setdefault(job.suite, []).append({
            "id": job.ident,
            "file": f"{job.ident}.pzl",
            "family": job.family.value,
            "rows": job.size,
            "cols": job.size,
            "origin": "generated",
            "solution": f"{job.ident}.solution.pzl",
            "solutions": gen.solutions,
            "meta": {**dict(puzzle.meta), "content_hash": puzzle.content_hash()},
        })
    written = {}
    for suite, items in entries.items():
        manifest = {"suite": suite, "description": DESCRIPTIONS.get(suite, ""),
                    "command": "python -m puzzlebench.generate.suites", "puzzles": items}
        path = out / suite / "manifest.json"
        path.write_text(json.dumps(manifest, indent=1, sort_keys=False) + "\n", encoding="utf-8")
        written[suite] = path
    return written


def _line(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _results(jobs: Sequence[Job], jobs_n: int, paradigm: str, progress: bool) -> Iterator[tuple[Job, Generated]]:
    from tqdm.auto import tqdm

    bar = tqdm(total=len(jobs), desc="generating", unit="puzzle", disable=not progress)
    # Biggest boards first, so two workers finish together.
    order = sorted(jobs, key=lambda j: -j.size)
    if jobs_n <= 1:
        for job in order:
            bar.set_postfix_str(job.ident)
            yield job, run_job(job, paradigm)
            bar.update()
    else:
        import multiprocessing

        with ProcessPoolExecutor(jobs_n, mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = [pool.submit(run_job, job, paradigm) for job in order]
            for job, future in zip(order, futures):
                yield job, future.result()
                bar.update()
    bar.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m puzzlebench.generate.suites", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="puzzles", help="folder that receives gen-* (default: puzzles)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--paradigm", default="auto", help="proof paradigm (default: fastest available per family)")
    parser.add_argument("--suite", action="append", choices=sorted(DESCRIPTIONS), help="only this suite (repeatable)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    jobs = [j for j in suite_jobs() if not args.suite or j.suite in args.suite]
    if args.jobs < 1:
        from .common import GenerationError

        raise GenerationError(f"--jobs must be at least 1, got {args.jobs}")
    for suite, path in write_suites(Path(args.out), jobs, args.jobs, args.paradigm, not args.quiet).items():
        print(f"{suite}: {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
