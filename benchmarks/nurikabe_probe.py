"""Nurikabe's failed-literal probe (``puzzlebench.encodings.nurikabe_deduce.probe``) with the
island rule read with and without its reasons, on the same boards in one process.

Each board is probed at depth 1 from the plan's cells to the end of its passes
(``stop="budget"``, ``--budget`` CPU seconds at most), once per reading, the two readings
interleaved per board. For each it records the CPU seconds (``process_time``, the probe's own
clock) and the cells settled, and checks that both readings settle the same cells, each as in
the published answer. ``--reading full`` alone also runs on code older than the lean reading
(a before/after comparison, one process per side). It writes ``rows.jsonl`` and
``summary.json`` (machine, versions, settings) into ``--out``.

Usage::

    .venv/bin/python benchmarks/nurikabe_probe.py [--id 683_14x24 ...] [--reading full|lean]
        [--budget 60] [--out results/nurikabe-probe]
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


def probe_once(puzzle, reading: str, budget: float) -> tuple[float, list[int], bool]:
    nurikabe_deduce.island_reasoning = READINGS[reading]
    board, state = starting_point(puzzle)
    start = time.process_time()
    ok = nurikabe_deduce.probe(board, state, start + budget, stop="budget")
    return time.process_time() - start, state, ok


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--id", action="append", help=f"corpus record ids (default: {' '.join(IDS)})")
    ap.add_argument("--reading", action="append", choices=list(READINGS),
                    help="the island rule's readings to time (default: both)")
    ap.add_argument("--budget", type=float, default=60.0, help="CPU seconds per probe (default 60)")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--out", type=Path, default=REPO / "results" / "nurikabe-probe")
    args = ap.parse_args(argv)
    ids = args.id or IDS
    readings = args.reading or list(READINGS)
    entries = {e.id: e for e in iter_janko(args.corpus, malformed=[]) if e.id in ids}
    missing = [i for i in ids if i not in entries]
    if missing:
        raise SystemExit(f"not in the corpus: {', '.join(missing)}")
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for rid in ids:
        e = entries[rid]
        cols = e.puzzle.cols
        states = {}
        for reading in readings:
            cpu, state, ok = probe_once(e.puzzle, reading, args.budget)
            states[reading] = state
            settled = sum(s != UNKNOWN for s in state)
            wrong = sum((s == BLACK) != ((i // cols, i % cols) in e.solution.cells)
                        for i, s in enumerate(state) if s != UNKNOWN)
            rows.append({"id": rid, "reading": reading, "cpu_s": round(cpu, 3), "settled": settled,
                         "cells": len(state), "finished": cpu < args.budget, "ok": ok, "wrong": wrong})
            print(f"{rid:>12} {reading}: {cpu:7.2f} CPU s, {settled}/{len(state)} cells settled"
                  f"{'' if cpu < args.budget else ' (budget reached)'}", flush=True)
        if len(readings) == 2:
            a, b = rows[-2:]
            a["same_cells"] = b["same_cells"] = states["full"] == states["lean"] if a["finished"] and b["finished"] else None
    pairs = list(zip(rows[::2], rows[1::2])) if len(readings) == 2 else []
    ratios = [b["cpu_s"] / a["cpu_s"] for a, b in pairs if a["finished"] and b["finished"]]
    summary = {"kind": "nurikabe-probe", "timestamp": timestamp(), "commit": git_commit(), "machine": machine(),
               "versions": versions(), "settings": {"budget_cpu_s": args.budget, "depth": 1, "stop": "budget", "readings": readings},
               "lean_over_full_cpu": {"median": round(statistics.median(ratios), 3) if ratios else None,
                                      "min": round(min(ratios), 3) if ratios else None,
                                      "max": round(max(ratios), 3) if ratios else None, "boards": len(ratios)},
               "all_same_cells": all(r.get("same_cells") is not False for r in rows),
               "wrong_cells": sum(r["wrong"] for r in rows)}
    (args.out / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary["lean_over_full_cpu"]), "same cells:", summary["all_same_cells"],
          "wrong cells:", summary["wrong_cells"])


if __name__ == "__main__":
    main()
