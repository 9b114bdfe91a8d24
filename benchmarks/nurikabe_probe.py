"""Nurikabe's failed-literal probe (``puzzlebench.encodings.nurikabe_deduce.probe``) in its
variants, on the same boards in one process: the readable engine with the island rule read with
its reasons (``full``) and without (``lean``), and the compiled engine (``compiled``,
``encodings/nurikabe_probe_compiled.py``).

Each board is probed at depth 1 from the plan's cells to the end of its passes
(``stop="budget"``, ``--budget`` CPU seconds at most), once per variant, the variants
interleaved per board. For each it records the CPU seconds (``process_time``, the probe's own
clock) and the cells settled, and checks that the variants that end settle the same cells, each
as in the published answer. ``--variant full`` alone also runs on code older than the lean
reading (a before/after comparison, one process per side). It writes ``rows.jsonl`` and
``summary.json`` (machine, versions, settings; each variant's CPU time over the first's) into
``--out``.

Usage::

    .venv/bin/python benchmarks/nurikabe_probe.py [--id 683_14x24 ... | --every 1]
        [--variant full|lean|compiled] [--budget 60] [--out results/nurikabe-probe]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from puzzlebench.bench.metadata import git_commit, machine, timestamp, versions
from puzzlebench.encodings import nurikabe_deduce
from puzzlebench.encodings.islands import IslandGraph, IslandPlan, island_reasoning
from puzzlebench.encodings.regions import BLACK, UNKNOWN, WHITE
from puzzlebench.formats import iter_janko

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpora" / "janko" / "Nurikabe_dataset.json"
#: boards whose probe decides the hard cases (a 14x24, two 20x36, a 20x20 and a 15x15)
IDS = ["683_14x24", "94_20x36", "459_20x36", "688_20x20", "940_15x15"]
READINGS = {
    "full": lambda g, state, reasons=True: island_reasoning(g, state),
    "lean": lambda g, state, reasons=False: island_reasoning(g, state, reasons=False),
}
VARIANTS = [*READINGS, "compiled"]


def starting_point(puzzle):
    """The probe's board and starting assignment (built here on code older than ``initial``)."""
    plan = IslandPlan.of(puzzle)
    if hasattr(nurikabe_deduce, "initial"):
        return nurikabe_deduce.initial(puzzle, plan)
    board = nurikabe_deduce.Board(puzzle, IslandGraph.of(puzzle, plan))
    state = [UNKNOWN] * (puzzle.rows * puzzle.cols)
    for cells, colour in ((puzzle.clue_cells, WHITE), (plan.wall, BLACK)):
        for r, c in cells:
            state[r * puzzle.cols + c] = colour
    return board, state


def probe_once(puzzle, variant: str, budget: float) -> tuple[float, list[int], bool]:
    options = {}
    if variant in READINGS:
        nurikabe_deduce.island_reasoning = READINGS[variant]
        if hasattr(nurikabe_deduce, "PROBE_ENGINES"):
            options["engine"] = "python"
    else:
        options["engine"] = "compiled"
        nurikabe_deduce.load_engine()  # numba's cache read before the clock, as a solve does
    board, state = starting_point(puzzle)
    start = time.process_time()
    ok = nurikabe_deduce.probe(board, state, start + budget, stop="budget", **options)
    return time.process_time() - start, state, ok


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--id", action="append", help=f"corpus record ids (default: {' '.join(IDS)})")
    ap.add_argument("--every", type=int, help="every Nth record of the corpus instead (1: all)")
    ap.add_argument(
        "--variant",
        action="append",
        choices=VARIANTS,
        help="the variants to time, the first the baseline (default: lean, compiled)",
    )
    ap.add_argument("--budget", type=float, default=60.0, help="CPU seconds per probe (default 60)")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--out", type=Path, default=REPO / "results" / "nurikabe-probe")
    args = ap.parse_args(argv)
    variants = args.variant or ["lean", "compiled"]
    if args.every:
        ids = [e.id for e in iter_janko(args.corpus, malformed=[])][:: args.every]
    else:
        ids = args.id or IDS
    entries = {e.id: e for e in iter_janko(args.corpus, malformed=[]) if e.id in ids}
    missing = [i for i in ids if i not in entries]
    if missing:
        raise SystemExit(f"not in the corpus: {', '.join(missing)}")
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for rid in ids:
        e = entries[rid]
        cols = e.puzzle.cols
        board_rows = []
        for variant in variants:
            cpu, state, ok = probe_once(e.puzzle, variant, args.budget)
            settled = sum(s != UNKNOWN for s in state)
            wrong = sum(
                (s == BLACK) != ((i // cols, i % cols) in e.solution.cells)
                for i, s in enumerate(state)
                if s != UNKNOWN
            )
            board_rows.append(
                (
                    {
                        "id": rid,
                        "variant": variant,
                        "cpu_s": round(cpu, 3),
                        "settled": settled,
                        "cells": len(state),
                        "finished": cpu < args.budget,
                        "ok": ok,
                        "wrong": wrong,
                    },
                    state,
                )
            )
            print(
                f"{rid:>12} {variant}: {cpu:7.2f} CPU s, {settled}/{len(state)} cells settled"
                f"{'' if cpu < args.budget else ' (budget reached)'}",
                flush=True,
            )
        ended = [state for row, state in board_rows if row["finished"]]
        same = all(state == ended[0] for state in ended) if len(ended) > 1 else None
        for row, _ in board_rows:
            row["same_cells"] = same
            rows.append(row)
    first = variants[0]
    ratios = {}
    for variant in variants[1:]:
        pairs = [
            (a, b)
            for a in rows
            if a["variant"] == first and a["finished"]
            for b in rows
            if b["variant"] == variant and b["id"] == a["id"] and b["finished"]
        ]
        r = [b["cpu_s"] / a["cpu_s"] for a, b in pairs if a["cpu_s"] > 0]
        ratios[f"{variant}_over_{first}_cpu"] = {
            "median": round(statistics.median(r), 4) if r else None,
            "min": round(min(r), 4) if r else None,
            "max": round(max(r), 4) if r else None,
            "boards": len(r),
        }
    summary = {
        "kind": "nurikabe-probe",
        "timestamp": timestamp(),
        "commit": git_commit(),
        "machine": machine(),
        "versions": versions(),
        "settings": {
            "budget_cpu_s": args.budget,
            "depth": 1,
            "stop": "budget",
            "variants": variants,
            "every": args.every,
        },
        "cpu_s": {v: round(sum(r["cpu_s"] for r in rows if r["variant"] == v), 3) for v in variants},
        **ratios,
        "all_same_cells": all(r["same_cells"] is not False for r in rows),
        "wrong_cells": sum(r["wrong"] for r in rows),
    }
    (args.out / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(
        json.dumps({k: v for k, v in summary.items() if k == "cpu_s" or k.endswith("_cpu")}),
        "same cells:",
        summary["all_same_cells"],
        "wrong cells:",
        summary["wrong_cells"],
    )


if __name__ == "__main__":
    main()
