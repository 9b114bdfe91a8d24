"""Nurikabe's probe at depth 2 on the janko corpus: what it settles beyond depth 1, how fast, and
what ``plan=deep`` (the CP-SAT and MIP default) keeps of it.

For each board: the probed plan of ``plan=probe`` (``IslandPlan.of(deduce=True)``, depth 1 within
``DEDUCE_BUDGET``); where it leaves cells open, depth 2 from there on the compiled engine to the
end of its passes or ``--budget`` CPU seconds, with the CPU time between two cells it settles (the
gaps the stall rule ``DEEP_STALL`` is set against); and the plan ``plan=deep`` builds on
(``IslandPlan.of(deduce=True, depth=2)``: depth 2 with the stall and the slow-pass rule, within
``DEDUCE_BUDGET``). Every settled cell is checked against the published answer. It writes
``rows.jsonl`` and ``summary.json`` (machine, versions, settings, totals) into ``--out``.

Usage::

    .venv/bin/python benchmarks/nurikabe_deep.py [--every 1] [--id 940_15x15 ...] [--budget 5]
        [--out results/nurikabe-deep]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from puzzlebench.bench.metadata import git_commit, machine, timestamp, versions
from puzzlebench.encodings import islands, nurikabe_deduce
from puzzlebench.encodings import nurikabe_probe_compiled as jit
from puzzlebench.encodings.islands import IslandPlan
from puzzlebench.encodings.regions import UNKNOWN, WHITE
from puzzlebench.formats import iter_janko

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpora" / "janko" / "Nurikabe_dataset.json"


def settled(puzzle, plan: IslandPlan) -> int:
    """The open cells of the board (non-clue) the plan decides."""
    return len(plan.wall) + len(plan.white)


def wrong(entry, plan: IslandPlan) -> int:
    """The plan's decided cells that disagree with the published answer."""
    cells = entry.solution.cells
    return len(plan.wall - cells) + len(plan.white & cells)


def depth_two(puzzle, plan: IslandPlan, budget: float) -> tuple[float, int, list[float], bool]:
    """Depth 2 from ``plan`` on the compiled engine, to the end of its passes or ``budget`` CPU
    seconds: its CPU time, the cells left open, the gaps between two settled cells, and whether
    the board has an answer as far as the probe knows."""
    board, state = nurikabe_deduce.initial(puzzle, plan)
    for r, c in plan.white:
        state[r * puzzle.cols + c] = WHITE
    g, ws = board.arrays(jit), jit.workspace(len(state), len(board.g.clues))
    s = np.array(state, np.int8)
    start = last = time.process_time()
    gaps: list[float] = []
    ok, i, moved_in_pass = bool(jit.probe_whole(g, ws, s)), 0, False
    while ok and time.process_time() - start < budget:
        outcome, i, moved, _ = jit.probe2_slice(g, ws, s, i, 1)
        if outcome == jit.CONFLICT:
            ok = False
        elif moved:  # closed at depth 1 again, the pass goes on (as nurikabe_deduce.probe's)
            ok, moved_in_pass = bool(jit.probe_whole(g, ws, s)), True
            now = time.process_time()
            gaps.append(now - last)
            last = now
        elif outcome == jit.PASS_DONE:
            if not moved_in_pass:
                break
            i, moved_in_pass = 0, False
    return time.process_time() - start, int(np.count_nonzero(s == UNKNOWN)), gaps, ok


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--id", action="append", help="corpus record ids (default: every --every-th record)")
    ap.add_argument("--every", type=int, default=1, help="every Nth record (default 1: all)")
    ap.add_argument(
        "--budget", type=float, default=5.0, help="CPU seconds of the unstopped depth 2 per board (default 5)"
    )
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--out", type=Path, default=REPO / "results" / "nurikabe-deep")
    args = ap.parse_args(argv)
    nurikabe_deduce.load_engine()  # numba's cache read before any clock
    entries = list(iter_janko(args.corpus, malformed=[]))
    if args.id:
        missing = sorted(set(args.id) - {e.id for e in entries})
        if missing:
            raise SystemExit(f"not in the corpus: {', '.join(missing)}")
        entries = [e for e in entries if e.id in args.id]
    else:
        entries = entries[:: args.every]
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for e in tqdm(entries, desc="boards", unit="board"):
        p = e.puzzle
        cells = p.rows * p.cols - len(p.clue_cells)
        t = time.process_time()
        one = IslandPlan.of(p, deduce=True)
        one_s = time.process_time() - t
        row = {
            "id": e.id,
            "cells": cells,
            "probe_settled": settled(p, one),
            "probe_cpu_s": round(one_s, 4),
            "wrong": wrong(e, one),
        }
        if row["probe_settled"] < cells:
            two_s, left, gaps, ok = depth_two(p, one, args.budget)
            t = time.process_time()
            deep = IslandPlan.of(p, deduce=True, depth=2)
            deep_s = time.process_time() - t
            row.update(
                depth2_cpu_s=round(two_s, 4),
                depth2_left=left,
                depth2_gaps=[round(x, 4) for x in gaps],
                depth2_ok=ok,
                deep_settled=settled(p, deep),
                deep_cpu_s=round(deep_s, 4),
                wrong=row["wrong"] + wrong(e, deep),
            )
        rows.append(row)
    open_boards = [r for r in rows if "depth2_cpu_s" in r]
    whole = [r for r in open_boards if r["depth2_left"] == 0]
    summary = {
        "kind": "nurikabe-deep",
        "timestamp": timestamp(),
        "commit": git_commit(),
        "machine": machine(),
        "versions": versions(),
        "settings": {
            "budget_cpu_s": args.budget,
            "deduce_budget_cpu_s": islands.DEDUCE_BUDGET,
            "deep_stall_cpu_s": islands.DEEP_STALL,
            "stall_pass_share": nurikabe_deduce.STALL_PASS_SHARE,
            "deep_pass_cpu_s": nurikabe_deduce.DEEP_PASS,
            "deep_sample": nurikabe_deduce.DEEP_SAMPLE,
            "every": args.every,
            "ids": args.id,
        },
        "boards": len(rows),
        "left_open_by_probe": len(open_boards),
        "depth2_settles_whole": len(whole),
        "depth2_cpu_s": round(sum(r["depth2_cpu_s"] for r in open_boards), 3),
        "depth2_largest_gap_where_whole_s": round(
            max((max(r["depth2_gaps"], default=0.0) for r in whole), default=0.0), 3
        ),
        "deep_settles_whole": sum(r["deep_settled"] == r["cells"] for r in open_boards),
        "deep_cpu_s": round(sum(r["deep_cpu_s"] for r in open_boards), 3),
        "probe_cpu_s": round(sum(r["probe_cpu_s"] for r in rows), 3),
        "wrong_cells": sum(r["wrong"] for r in rows),
    }
    (args.out / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k not in ("machine", "versions")}, indent=1))


if __name__ == "__main__":
    main()
