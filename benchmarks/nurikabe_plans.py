"""Nurikabe's island plans (the deduction stage: ``none``, the searched plan; ``probe``; ``deep``)
in each paradigm, on the janko corpus: each (paradigm, plan) pair on every puzzle, the pairs
interleaved per puzzle in one process.

Each run asks for two answers (an answer and a uniqueness proof) within ``--timeout`` seconds, the
paradigm's default encoding after the deduction ``--plan`` names; a run counts as proven when it returns the
published answer alone and has explored the search space. It writes ``rows.jsonl`` (one line per
run) and ``summary.json`` (machine, versions, commit, settings; per pair: proven, total wall
seconds, worst puzzle) into ``--out``.

Usage::

    .venv/bin/python benchmarks/nurikabe_plans.py [--paradigm sat --paradigm cp ...]
        [--plan none --plan probe --plan deep] [--every 10] [--timeout 10] [--out results/nurikabe-plans]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tqdm import tqdm

import puzzlebench as pb
from puzzlebench.bench.metadata import git_commit, machine, timestamp, versions
from puzzlebench.encodings.nurikabe_deduce import load_engine
from puzzlebench.formats import iter_janko

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpora" / "janko" / "Nurikabe_dataset.json"
PARADIGMS = ["sat", "asp", "smt", "cp", "mip"]
PLANS = ["probe", "deep"]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--paradigm", action="append", choices=PARADIGMS, help="paradigms (default: all five)")
    ap.add_argument(
        "--plan",
        action="append",
        choices=["none", "probe", "deep"],
        help="the deduction stage's plans (default: probe and deep)",
    )
    ap.add_argument("--every", type=int, default=1, help="every Nth record (default 1: all)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per run (default 10)")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--out", type=Path, default=REPO / "results" / "nurikabe-plans")
    args = ap.parse_args(argv)
    paradigms, plans = args.paradigm or PARADIGMS, args.plan or PLANS
    pairs = [(paradigm, plan) for paradigm in paradigms for plan in plans]
    entries = list(iter_janko(args.corpus, malformed=[]))[:: args.every]
    load_engine()  # numba's cache read before any clock, as the encodings' load does
    first = entries[0].puzzle
    for paradigm, plan in pairs:  # every library loaded before the clock
        pb.solve(first, paradigm, count=1, timeout=args.timeout, deduce=plan)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with open(args.out / "rows.jsonl", "w") as out:
        for e in tqdm(entries, desc="puzzles", unit="puzzle"):
            for paradigm, plan in pairs:
                start = time.perf_counter()
                r = pb.solve(e.puzzle, paradigm, count=2, timeout=args.timeout, strict=False, deduce=plan)
                wall = time.perf_counter() - start
                row = {
                    "id": e.id,
                    "paradigm": paradigm,
                    "plan": plan,
                    "status": r.status.value,
                    "exhausted": r.exhausted,
                    "count": r.count,
                    "wall_s": round(wall, 4),
                    "published": bool(r.solutions) and r.solutions[0].cells == e.solution.cells,
                }
                row["proven"] = (
                    row["status"] == "sat" and row["exhausted"] and row["count"] == 1 and row["published"]
                )
                rows.append(row)
                out.write(json.dumps(row) + "\n")
                out.flush()
    per_pair = {}
    for paradigm, plan in pairs:
        mine = [r for r in rows if r["paradigm"] == paradigm and r["plan"] == plan]
        worst = max(mine, key=lambda r: r["wall_s"])
        per_pair[f"{paradigm}/{plan}"] = {
            "proven": sum(r["proven"] for r in mine),
            "puzzles": len(mine),
            "total_s": round(sum(r["wall_s"] for r in mine), 3),
            "worst_id": worst["id"],
            "worst_s": worst["wall_s"],
            "wrong": sum(r["status"] == "sat" and not r["published"] for r in mine),
        }
    summary = {
        "kind": "nurikabe-plans",
        "timestamp": timestamp(),
        "commit": git_commit(),
        "machine": machine(),
        "versions": versions(),
        "settings": {
            "timeout_s": args.timeout,
            "count": 2,
            "every": args.every,
            "paradigms": paradigms,
            "plans": plans,
        },
        "pairs": per_pair,
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(per_pair, indent=1))


if __name__ == "__main__":
    main()
