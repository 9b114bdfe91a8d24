"""What a connectivity rule costs: every connectivity variant of every paradigm on a janko corpus.

Seed 000 saw its clingo program slow down about five-fold once "all white cells are connected"
was added, and could not say why. This benchmark runs each paradigm's Kuromasu encoding with
every value of its ``connectivity`` option (plus seed 000's own program with and without its
all-pairs closure) on the 560 Kuromasu puzzles of the janko corpus, asking for ``count=2``
(an answer and a uniqueness proof), and reports per variant: how many puzzles it solved
correctly, total / median / worst time, the mean encoding size and search effort, and two
ratios on the same puzzles: against the same encoding with the rule switched off (``none``,
the cost of the rule) and against the paradigm's default (which variant to choose).

Every variant runs on the bare puzzle (``deduce="none"``): a relaxation gets no deductions, since
the family's deductions use every rule, so the rule's cost is measured with none on either side.

``none`` is a relaxation: its answers may break connectivity or a second answer may appear, so
it is never counted as solved; its row reports how often the rule was not needed at all
(``unique_without_rule``: a single answer that the verifier accepts).

``--family hitori`` (or ``nurikabe``, whose wall is the connected region) asks the same
question of another family's corpus, with that family's encodings and their ``connectivity``
values; its results go to ``results/connectivity-<family>``.

Runs share one process and the clock of :func:`puzzlebench.solve`, as in ``janko.py`` (the
garbage collector isolated the same way). The all-pairs closure grows with the square of the
cells, so variants listed in ``MAX_CELLS`` are run only on boards up to that many cells; the
others are reported as skipped.

Usage::

    .venv/bin/python benchmarks/connectivity.py [--corpus ../shared/corpora/janko]
        [--family kuromasu|hitori|nurikabe] [--paradigm asp --paradigm sat ...] [--limit N] [--every N] [--timeout 10] [--out results/connectivity]

Writes ``rows.jsonl`` (one record per run), ``runs.csv`` (its columns for the growth plots),
``summary.csv`` and ``summary.json`` in ``--out``.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))

import janko  # noqa: E402  (the corpus, warm-up, GC isolation and judging of janko.py)

from puzzlebench import registry  # noqa: E402
from puzzlebench.bench.metadata import git_commit, machine, timestamp, versions  # noqa: E402
from puzzlebench.stats import fit_power_law  # noqa: E402

#: Families whose encodings have a ``connectivity`` option and whose corpus janko.py reads.
FAMILIES = ("kuromasu", "hitori", "nurikabe")
RELAXED = "none"
#: Variants run only on boards of at most this many cells (the closure's n^2 rules).
MAX_CELLS = {("asp", "default", "closure"): 400, ("asp", "seed000", "closure"): 400}
#: The main size figure of each paradigm's encoding.
SIZE_KEY = {
    "asp": "size_rules",
    "sat": "size_clauses",
    "smt": "size_assertions",
    "cp": "size_constraints",
    "mip": "size_constraints",
}
#: The per-run columns kept in ``runs.csv`` (small enough to commit; rows.jsonl has everything).
RUN_COLUMNS = (
    "variant",
    "puzzle_id",
    "cells",
    "status",
    "correct",
    "time_total",
    "time_build",
    "time_solve",
    "size",
    "search_choices",
)


@dataclass(frozen=True)
class Variant:
    paradigm: str
    encoding: str
    connectivity: str
    default: bool = field(default=False, compare=False)

    @property
    def name(self) -> str:
        return f"{self.paradigm}/{self.encoding}/{self.connectivity}"

    def runs_on(self, cells: int) -> bool:
        return cells <= MAX_CELLS.get((self.paradigm, self.encoding, self.connectivity), cells)


def default_out(family: str) -> Path:
    """results/connectivity for Kuromasu (seed 000's family), results/connectivity-<family> else."""
    return janko.REPO / "results" / ("connectivity" if family == "kuromasu" else f"connectivity-{family}")


def variants(paradigms: list[str], family: str = "kuromasu") -> list[Variant]:
    """Every (encoding, connectivity value) of each paradigm's encodings of ``family``, from the registry."""
    out: list[Variant] = []
    for paradigm in paradigms:
        for spec in registry.encodings(janko.FAMILIES[family][0], paradigm):
            option = next((o for o in spec.options if o.name == "connectivity"), None)
            if option is None:
                continue
            for value in option.choices:
                out.append(
                    Variant(
                        paradigm, spec.name, value, default=spec.name == "default" and value == option.default
                    )
                )
    return out


def summarise(records: list[dict[str, Any]], chosen: list[Variant]) -> list[dict[str, Any]]:
    """One row per variant: solved, times, size, search, ratios to ``none`` and to the default."""
    by_variant: dict[str, dict[str, dict[str, Any]]] = {v.name: {} for v in chosen}
    for r in records:
        by_variant[r["variant"]][r["puzzle_id"]] = r

    def total_on(name: str, ids: set[str]) -> float | None:
        runs = by_variant.get(name, {})
        if not ids or not ids <= runs.keys():
            return None
        return sum(runs[i]["time_total"] or 0.0 for i in ids)

    defaults = {v.paradigm: v.name for v in chosen if v.default}
    rows = []
    for v in chosen:
        runs = by_variant[v.name]
        ran = [r for r in runs.values() if not r.get("skipped")]
        times = [r["time_total"] for r in ran if r.get("time_total") is not None]
        ids = {r["puzzle_id"] for r in ran}
        worst = max(ran, key=lambda r: r.get("time_total") or 0.0) if ran else None
        size_key = SIZE_KEY.get(v.paradigm, "")
        sizes = [r[size_key] for r in ran if r.get(size_key) is not None]
        choices = [r["search_choices"] for r in ran if r.get("search_choices") is not None]
        own_total = total_on(v.name, ids)
        relaxed = total_on(f"{v.paradigm}/{v.encoding}/{RELAXED}", ids)
        default = total_on(defaults.get(v.paradigm, ""), ids)
        # Growth with the board over the runs that finished (timeouts would flatten the curve).
        done = [r for r in ran if r["status"] in ("sat", "unsat") and r.get("time_total")]
        time_fit = fit_power_law([r["cells"] for r in done], [r["time_total"] for r in done])
        size_fit = fit_power_law(
            [r["cells"] for r in done if r.get(size_key)], [r[size_key] for r in done if r.get(size_key)]
        )
        rows.append(
            {
                "paradigm": v.paradigm,
                "encoding": v.encoding,
                "connectivity": v.connectivity,
                "default": v.default,
                "relaxed": v.connectivity == RELAXED,
                "puzzles": len(runs),
                "skipped": len(runs) - len(ran),
                "solved": sum(r["correct"] for r in ran) if v.connectivity != RELAXED else None,
                "unique_without_rule": (
                    sum(r["status"] == "sat" and r["verdict"] == "valid" and r["count"] == 1 for r in ran)
                    if v.connectivity == RELAXED
                    else None
                ),
                "timeouts": sum(r["status"] == "timeout" for r in ran),
                "errors": sum(r["status"] not in ("sat", "unsat", "timeout") for r in ran),
                "total_s": sum(times),
                "median_ms": 1000 * statistics.median(times) if times else None,
                "worst_id": worst["puzzle_id"] if worst else None,
                "worst_s": worst.get("time_total") if worst else None,
                "size": size_key.removeprefix("size_"),
                "mean_size": statistics.fmean(sizes) if sizes else None,
                "mean_choices": statistics.fmean(choices) if choices else None,
                "vs_none": own_total / relaxed if own_total is not None and relaxed else None,
                "vs_default": own_total / default if own_total is not None and default else None,
                **_fit_columns("time", time_fit),
                **_fit_columns("size", size_fit),
            }
        )
    return rows


def _fit_columns(what: str, fit) -> dict[str, Any]:
    """``<what>_k`` with its 95% interval, the cells it spans, or why there is no fit."""

    def num(x: float) -> float | None:
        return None if x != x else round(x, 3)  # NaN -> None

    return {
        f"{what}_k": num(fit.k),
        f"{what}_k_low": num(fit.k_low),
        f"{what}_k_high": num(fit.k_high),
        f"{what}_fit_cells": f"{fit.cells_min:g}-{fit.cells_max:g}" if fit.sizes else None,
        f"{what}_fit_note": fit.reason or None,
    }


def write_runs(path: Path, records: list[dict[str, Any]]) -> None:
    """The per-run columns the notebook's growth plots need, one row per run that was not skipped."""
    import csv

    with path.open("w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(RUN_COLUMNS)
        for r in records:
            if r.get("skipped"):
                continue
            size = r.get(SIZE_KEY.get(r["variant"].split("/")[0], ""))
            out.writerow(
                [
                    r["variant"],
                    r["puzzle_id"],
                    r["cells"],
                    r["status"],
                    r.get("correct"),
                    r.get("time_total"),
                    r.get("time_build"),
                    r.get("time_solve"),
                    size,
                    r.get("search_choices"),
                ]
            )


def table(rows: list[dict[str, Any]]) -> str:
    def fmt(value: Any, spec: str) -> str:
        return "-" if value is None else format(value, spec)

    head = (
        f"{'variant':30} {'solved':>9} {'skip':>5} {'t/o':>4} {'total s':>9} {'median ms':>10} "
        f"{'worst s':>8} {'mean size':>14} {'choices':>9} {'vs none':>8} {'vs dflt':>8}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        name = f"{r['paradigm']}/{r['encoding']}/{r['connectivity']}" + ("*" if r["default"] else "")
        solved = (
            f"{r['solved']}/{r['puzzles'] - r['skipped']}"
            if r["solved"] is not None
            else f"({r['unique_without_rule']} u)"
        )
        size = f"{fmt(r['mean_size'], '.0f')} {r['size'][:7]}"
        lines.append(
            f"{name:30} {solved:>9} {r['skipped']:>5} {r['timeouts']:>4} {r['total_s']:>9.2f} "
            f"{fmt(r['median_ms'], '.1f'):>10} {fmt(r['worst_s'], '.2f'):>8} {size:>14} "
            f"{fmt(r['mean_choices'], '.0f'):>9} {fmt(r['vs_none'], '.2f'):>8} {fmt(r['vs_default'], '.2f'):>8}"
        )
    lines.append(
        "* the paradigm's default; (N u): puzzles the relaxation solved uniquely and validly; "
        "ratios are totals on the same puzzles"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--corpus", type=Path, default=janko.DEFAULT_CORPUS, help="directory holding the janko datasets"
    )
    ap.add_argument(
        "--family",
        choices=[f for f in FAMILIES if f in janko.FAMILIES],
        default="kuromasu",
        help="corpus family (default kuromasu, seed 000's)",
    )
    ap.add_argument(
        "--paradigm",
        action="append",
        choices=registry.PARADIGMS,
        help="paradigm to run (repeatable; default: every installed one)",
    )
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles of the corpus")
    ap.add_argument(
        "--every",
        type=int,
        default=1,
        help="every Nth puzzle of those (a sample across the corpus's board sizes; default 1: all)",
    )
    ap.add_argument("--timeout", type=float, default=10.0, help="per-run time limit in seconds (default 10)")
    ap.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output directory (default results/connectivity, results/connectivity-<family> for others)",
    )
    args = ap.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        ap.error("--limit must be at least 1")
    if args.every < 1:
        ap.error("--every must be at least 1")
    paradigms = args.paradigm or registry.available(registry.PARADIGMS)
    for paradigm in paradigms:
        cls = registry.backend(paradigm)
        if not cls.supported():
            ap.error(f"paradigm {paradigm}: {cls.unavailable_reason()}")
    family = args.family
    chosen = variants(paradigms, family)
    args.out = args.out or default_out(family)
    suite = f"janko-{family}"

    args.out.mkdir(parents=True, exist_ok=True)
    context = {"git_commit": git_commit(), "machine": machine()}
    janko.warm_up(paradigms, [family])
    malformed: list[tuple[str, str]] = []
    entries = janko.corpus(args.corpus, family, args.limit, malformed)[:: args.every]
    gc.collect()
    gc.freeze()
    meter = janko.GcMeter()
    gc.callbacks.append(meter)

    lines: list[str] = []
    started = time.perf_counter()
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as sink:
        for entry in tqdm(entries, desc=family, unit="puzzle"):
            cells = entry.puzzle.rows * entry.puzzle.cols
            # Every variant on the same puzzle in turn, so drifting machine load hits all alike.
            for v in chosen:
                if not v.runs_on(cells):
                    record = {"variant": v.name, "puzzle_id": entry.id, "skipped": True, "cells": cells}
                else:
                    record = meter.measure(
                        lambda: janko.run_one(
                            entry,
                            suite,
                            v.paradigm,
                            args.timeout,
                            context,
                            encoding=v.encoding,
                            options={"connectivity": v.connectivity, "deduce": "none"},
                        )
                    )
                    record.update(variant=v.name, puzzle_id=entry.id, cells=cells)
                lines.append(json.dumps(record, default=str))
                sink.write(lines[-1] + "\n")
                sink.flush()
    elapsed = time.perf_counter() - started
    gc.callbacks.remove(meter)
    records = [json.loads(line) for line in lines]

    summary = summarise(records, chosen)
    janko.write_csv(args.out / "summary.csv", summary)
    write_runs(args.out / "runs.csv", records)
    document = {
        "corpus": janko.shown_path(args.corpus),
        "family": family,
        "puzzles": len(entries),
        "malformed": [{"id": i, "reason": why} for i, why in malformed],
        "every": args.every,
        "count_asked": janko.COUNT_PROOF,
        "timeout": args.timeout,
        "max_cells": {"/".join(k): v for k, v in MAX_CELLS.items()},
        "elapsed_s": elapsed,
        "definitions": {
            "total_s": janko.DEFINITIONS["total_s"],
            "solved": "sat, accepted by the verifier, equal to the published answer (where it reads) and proved unique",
            "unique_without_rule": "relaxation only: one answer, accepted by the verifier (the rule was not needed)",
            "vs_none": "total_s / the same encoding's total with connectivity=none, on the same puzzles",
            "vs_default": "total_s / the paradigm's default variant's total, on the same puzzles",
            "mean_size": "mean of the paradigm's main size figure (asp rules, sat clauses, smt assertions, "
            "cp and mip constraints) as reported after solving (lazy cuts included)",
            "time_k": "exponent k of total time ~ a * cells**k fitted to the per-size medians of the runs that "
            "finished (sat or unsat), with its 95% interval (time_k_low, time_k_high) over the cells "
            "in time_fit_cells; time_fit_note says why there is none (stats.fit_power_law)",
            "size_k": "the same fit for the main size figure",
        },
        "summary": summary,
        "versions": {**versions(), **{p: registry.backend(p).version() for p in paradigms}},
        "git_commit": context["git_commit"],
        "machine": context["machine"],
        "timestamp": timestamp(),
    }
    (args.out / "summary.json").write_text(
        json.dumps(document, indent=2, default=str) + "\n", encoding="utf-8"
    )
    print(table(summary))
    print(f"wrote {args.out}/rows.jsonl, runs.csv, summary.json, summary.csv ({elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
