"""The performance frontier: the biggest bundled Kuromasu boards in every paradigm, and the
generator making one.

Two measurements, in one process, on one ``perf_counter`` clock:

* ``solve``: every installed paradigm's default encoding (and, with ``--all-options``, every
  value of its ``connectivity`` option) on the bundled ``gen-kuromasu`` boards of the largest
  size (100x100 unless ``--side`` says otherwise) at ``count=2``: the answer and its uniqueness
  proof, checked by the verifier and against the planted answer. Boards are interleaved with
  paradigms (board 1 in every paradigm, then board 2, ...), each paradigm warmed up off the
  record on a small board first. Timings split into build (encoding, grounding, loading) and
  solve (search, proof), with the search counters each backend reports.
* ``generate``: ``puzzlebench.generate.generate("kuromasu", side, side, seed)`` without the
  separate proof (its removal loop's oracle proves uniqueness itself), timed whole, once per
  ``--generate-seed``.

It writes ``rows.jsonl`` (one record per run, results-record keys plus ``kind``) and
``summary.json`` (per kind, paradigm and option: runs, solved, median and worst seconds,
versions, machine and settings) into ``--out``.

Usage::

    .venv/bin/python benchmarks/frontier.py [--side 100] [--paradigm sat ...] [--all-options]
        [--timeout 60] [--generate-seed 1 ...] [--no-generate] [--out results/frontier]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

import puzzlebench as pb
from puzzlebench import registry
from puzzlebench.bench.metadata import git_commit, machine, timestamp, versions
from puzzlebench.model import Family, family_spec
from puzzlebench.suites import load_suite

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "results" / "frontier"
FAMILY = Family("kuromasu")


def boards(side: int) -> list[Any]:
    """The bundled gen-kuromasu boards of ``side`` x ``side``, with their planted answers."""
    items = [item for item in load_suite("gen-kuromasu") if item.puzzle.shape == (side, side)]
    if not items:
        raise SystemExit(f"no bundled gen-kuromasu board is {side}x{side}")
    return sorted(items, key=lambda item: item.id)


def configurations(paradigms: list[str], all_options: bool) -> list[tuple[str, dict[str, Any]]]:
    """(paradigm, options): each default encoding, and with ``all_options`` each of its
    connectivity values that keeps the rule."""
    out: list[tuple[str, dict[str, Any]]] = []
    for paradigm in paradigms:
        spec = registry.get(FAMILY, paradigm)
        out.append((paradigm, {}))
        option = next((o for o in spec.options if o.name == "connectivity"), None)
        if all_options and option is not None:
            out += [
                (paradigm, {"connectivity": v})
                for v in option.choices
                if v != option.default and v not in option.relaxing
            ]
    return out


def solve_one(item: Any, paradigm: str, options: dict[str, Any], timeout: float) -> dict[str, Any]:
    result = pb.solve(item.puzzle, paradigm, count=2, timeout=timeout, strict=False, **options)
    record = result.to_record()
    record.update(
        kind="solve",
        puzzle_id=item.id,
        options=options,
        timestamp=timestamp(),
        correct=bool(result.unique and item.solution is not None and result.solutions[0] == item.solution),
    )
    return record


def generate_one(side: int, seed: int) -> dict[str, Any]:
    from puzzlebench.generate import generate

    started = time.perf_counter()
    gen = generate(FAMILY, side, side, seed=seed, paradigm="none")
    seconds = time.perf_counter() - started
    return {
        "kind": "generate",
        "paradigm": "generator",
        "options": {},
        "puzzle_id": f"{side}x{side}-s{seed}",
        "time_total": seconds,
        "correct": True,
        "stats": gen.stats,
        "timestamp": timestamp(),
        "status": "sat",
    }


def summarise(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(
            (r["kind"], r["paradigm"], json.dumps(r.get("options") or {}, sort_keys=True)), []
        ).append(r)
    rows = []
    for (kind, paradigm, options), runs in groups.items():
        times = [r["time_total"] for r in runs]
        rows.append(
            {
                "kind": kind,
                "paradigm": paradigm,
                "options": json.loads(options),
                "runs": len(runs),
                "solved": sum(r["correct"] for r in runs),
                "median_s": statistics.median(times),
                "worst_s": max(times),
                "build_median_s": statistics.median(r.get("time_build") or 0.0 for r in runs),
                "statuses": sorted({r["status"] for r in runs}),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--side", type=int, default=100, help="board side (a bundled gen-kuromasu size)")
    parser.add_argument("--paradigm", action="append", help="paradigms (default: every installed one)")
    parser.add_argument(
        "--all-options", action="store_true", help="every connectivity value that keeps the rule"
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run (default 60)")
    parser.add_argument("--generate-seed", type=int, action="append", help="generator seeds (default: 1)")
    parser.add_argument("--no-generate", action="store_true", help="leave the generator out")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)

    paradigms = args.paradigm or [
        p
        for p in registry.available(registry.PARADIGMS)
        if FAMILY in {s.family for s in registry.encodings(paradigm=p)}
    ]
    items = boards(args.side)
    configs = configurations(paradigms, args.all_options)
    args.out.mkdir(parents=True, exist_ok=True)
    tiny = family_spec(FAMILY).random_board(random.Random(0), 4, 4)
    for paradigm, options in configs:  # imports and first-call set-up off the record
        pb.solve(tiny, paradigm, count=1, timeout=10, strict=False, **options)

    records: list[dict[str, Any]] = []
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as sink:

        def keep(record: dict[str, Any]) -> None:
            records.append(record)
            sink.write(json.dumps(record, default=str) + "\n")
            sink.flush()

        runs = [(item, p, o) for item in items for p, o in configs]
        for item, paradigm, options in tqdm(runs, desc=f"{args.side}x{args.side} Kuromasu", unit="run"):
            keep(solve_one(item, paradigm, options, args.timeout))
        if not args.no_generate:
            for seed in tqdm(args.generate_seed or [1], desc="generating", unit="puzzle"):
                keep(generate_one(args.side, seed))

    summary = summarise(records)
    doc = {
        "summary": summary,
        "side": args.side,
        "timeout": args.timeout,
        "count": 2,
        "versions": versions(),
        "machine": machine(),
        "git_commit": git_commit(),
        "timestamp": timestamp(),
    }
    (args.out / "summary.json").write_text(json.dumps(doc, indent=1, default=str) + "\n", encoding="utf-8")
    for row in summary:
        opts = ",".join(f"{k}={v}" for k, v in row["options"].items())
        print(
            f"{row['kind']:8s} {row['paradigm']:9s} {opts:24s} {row['solved']}/{row['runs']} "
            f"median {row['median_s']:7.2f} s  worst {row['worst_s']:7.2f} s  {','.join(row['statuses'])}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
