"""MIP Kuromasu's deductions before solving (``puzzlebench.encodings.mip.kuromasu_probe.Views``)
run by the readable engine and by the compiled one, on the same boards in one process.

For each bundled ``gen-kuromasu`` board of at least ``--min-side`` cells a side, three runs,
interleaved per board: ``python`` with 50 views per number probed whole (the deductions before
the compiled engine), ``compiled`` with 50 (the same fixpoint: the engine's own gain) and
``compiled`` with 200 (the default now). Each records the CPU seconds (``process_time``), the
cells left open and the branches run, and checks every settled cell against the planted answer
and the two engines' fixpoints against each other. The compiled engine is loaded (or compiled)
off the record first. With ``--corpus``, the boards are the janko Kuromasu records instead
(checked against their published answers). It writes ``rows.jsonl`` and ``summary.json``
(machine, versions, settings) into ``--out``.

Usage::

    .venv/bin/python benchmarks/kuromasu_probe.py [--min-side 30] [--corpus] [--out results/kuromasu-probe]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from puzzlebench.bench.metadata import git_commit, machine, timestamp, versions
from puzzlebench.encodings.mip.kuromasu_probe import Views
from puzzlebench.encodings.mip.kuromasu_probe_compiled import warm_up
from puzzlebench.formats import iter_janko
from puzzlebench.suites import load_suite

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpora" / "janko" / "Kuromasu_dataset.json"
RUNS = [("python", 50), ("compiled", 50), ("compiled", 200)]


def boards(min_side: int, corpus: bool) -> list[tuple[str, object, frozenset]]:
    """(id, puzzle, planted black cells): the bundled boards of ``min_side`` or more, or the corpus."""
    if corpus:
        return [(e.id, e.puzzle, frozenset(e.solution.cells)) for e in iter_janko(CORPUS, malformed=[])]
    items = sorted(
        (i for i in load_suite("gen-kuromasu") if min(i.puzzle.shape) >= min_side),
        key=lambda i: (i.puzzle.shape, i.id),
    )
    return [(i.id, i.puzzle, frozenset(i.solution.cells)) for i in items]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min-side", type=int, default=30, help="smallest board side (default 30)")
    ap.add_argument(
        "--corpus", action="store_true", help="the janko Kuromasu records instead of the bundled boards"
    )
    ap.add_argument("--out", type=Path, default=REPO / "results" / "kuromasu-probe")
    args = ap.parse_args(argv)
    items = boards(args.min_side, args.corpus)
    if not items:
        raise SystemExit(f"no bundled gen-kuromasu board is {args.min_side} cells a side or more")
    warm_up()  # numba's cache loaded (or the engine compiled) off the record
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as sink:
        for ident, puzzle, planted in items:
            cells = puzzle.rows * puzzle.cols
            fixpoints = {}
            for engine, whole in RUNS:
                start = time.process_time()
                views = Views(puzzle, probe=True, whole_views=whole, engine=engine)
                seconds = time.process_time() - start
                fixpoints[engine, whole] = views.colour
                row = {
                    "id": ident,
                    "side": puzzle.rows,
                    "engine": engine,
                    "whole_views": whole,
                    "cpu_s": seconds,
                    "open": cells - len(views.colour),
                    "tries": views.tries,
                    "correct": views.contradiction is None
                    and all((cell in planted) == black for cell, black in views.colour.items()),
                    "timestamp": timestamp(),
                }
                rows.append(row)
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                print(
                    f"{ident:22s} {engine:8s} {whole:4d} {seconds:7.2f} s  open {row['open']:5d}  "
                    f"tries {row['tries']:7d}  {'ok' if row['correct'] else 'WRONG'}"
                )
            if fixpoints["python", 50] != fixpoints["compiled", 50]:
                raise SystemExit(f"{ident}: the engines' fixpoints differ")

    def total(engine: str, whole: int, side: int | None = None) -> float:
        return sum(
            r["cpu_s"]
            for r in rows
            if (r["engine"], r["whole_views"]) == (engine, whole) and side in (None, r["side"])
        )

    sides = sorted({r["side"] for r in rows})
    summary = {
        "runs": [
            {
                "engine": e,
                "whole_views": w,
                "cpu_s": total(e, w),
                "open": sum(r["open"] for r in rows if (r["engine"], r["whole_views"]) == (e, w)),
                "per_side_cpu_s": {s: total(e, w, s) for s in sides},
            }
            for e, w in RUNS
        ],
        "compiled_over_python_at_50": total("compiled", 50) / total("python", 50),
        "default_over_before": total("compiled", 200) / total("python", 50),
        "all_correct": all(r["correct"] for r in rows),
        "boards": "janko Kuromasu corpus" if args.corpus else [ident for ident, _, _ in items],
        "machine": machine(),
        "versions": versions(),
        "git_commit": git_commit(),
        "timestamp": timestamp(),
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(
        f"compiled / python (50 views): {summary['compiled_over_python_at_50']:.3f}; "
        f"default now / before: {summary['default_over_before']:.3f}; all correct: {summary['all_correct']}"
    )


if __name__ == "__main__":
    main()
