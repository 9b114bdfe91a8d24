"""Every solver of every paradigm on the janko corpus: do they agree, and what does each cost?

For each puzzle of the janko datasets (Akari, Kuromasu, Hitori, Nurikabe) this solves, in one process
and one after another on the same puzzle, with every (solver, complete encoding) pair of the
registry (plugins included: ``--plugin MODULE``) at ``count=2``: an answer and a uniqueness proof.
Each answer is checked by the independent verifier and against the published solution, and the
pairs are compared with each other puzzle by puzzle. It writes, in ``--out``:

* ``rows.jsonl`` — one record per (puzzle, solver, encoding), ``Result.to_record`` plus the
  puzzle's id and ``published`` (the answer equals the published one), flushed as written and
  resumed by key (an encoding or solver version that changed is run again);
* ``summary.json`` / ``summary.csv`` — per family, paradigm, solver and encoding: puzzles,
  solved and proven unique, equal to the published answer, total / median / worst seconds, and
  the total relative to the paradigm's default solver in the same run; plus the puzzles on
  which two pairs prove different things (no answer, different unique answers, several
  answers), versions and machine. The exit status is 1 when any pair disagrees.

Seed 000's Kuromasu port grounds an all-pairs closure (quadratic in the cells): it runs on
boards up to ``--slow-max-cells`` (default 144, 248 of the 560 puzzles) only; the summary says so.

Each solver first solves one puzzle off the record (its imports and set-up are not billed to
the first puzzle). Timings are ``Result.timings.total``: one ``perf_counter`` clock around building the encoding,
loading it, the search and the verifier, for every solver alike. Solvers run in process; a
``--timeout`` is the harness's deadline (the watchdog interrupts the solver; cvc5 and Lingeling
honour it between their calls only).

Usage::

    .venv/bin/python benchmarks/solvers.py [--corpus ../shared/corpora/janko]
        [--family akari|kuromasu|hitori|nurikabe] [--paradigm sat ...] [--solver glucose4 ...] [--encodings default|all]
        [--limit N] [--timeout 20] [--out results/solvers]
"""

from __future__ import annotations

import argparse
import csv
import gc
import hashlib
import json
import statistics
import sys
from collections import defaultdict
from itertools import islice
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

import puzzlebench as pb
from puzzlebench import plugins, registry
from puzzlebench.bench.metadata import git_commit, machine, timestamp, versions
from puzzlebench.formats import iter_janko
from puzzlebench.model import Family

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "janko"
DEFAULT_OUT = REPO / "results" / "solvers"
FAMILIES: dict[str, tuple[Family, str]] = {
    "akari": (Family.LIGHTUP, "Akari_dataset.json"),
    "kuromasu": (Family.KUROMASU, "Kuromasu_dataset.json"),
    "hitori": (Family.HITORI, "Hitori_dataset.json"),
    "nurikabe": (Family.NURIKABE, "Nurikabe_dataset.json"),
}
COUNT = 2  # an answer and a uniqueness proof
#: Encodings whose ground size is quadratic in the cells (seed 000's all-pairs white_connect
#: closure: 151,488 rules at 400 cells): run on boards up to ``--slow-max-cells`` only.
SLOW: frozenset[tuple[Family, str]] = frozenset({(Family.KUROMASU, "seed000")})


def pairs(
    family: Family, paradigms: list[str], solvers: list[str] | None, encodings: str
) -> list[tuple[str, str, str]]:
    """Every installed (paradigm, solver, encoding) of the comparison; encodings at their defaults."""
    out = []
    for paradigm in paradigms:
        for solver in registry.solvers(paradigm):
            if solvers and solver.name not in solvers or not solver.supported():
                continue
            for spec in registry.encodings(family, paradigm):
                if not spec.is_complete(spec.resolve({})) or (
                    encodings == "default" and spec.name != "default"
                ):
                    continue
                out.append((paradigm, solver.name, spec.name))
    return out


def run_key(puzzle_id: str, paradigm: str, solver: str, encoding: str, family: Family, timeout: float) -> str:
    """What defines a measurement: puzzle, configuration, the encoding's content, solver version, limit."""
    spec = registry.get(family, paradigm, encoding)
    ident = [
        puzzle_id,
        paradigm,
        solver,
        registry.solver(paradigm, solver).version(),
        encoding,
        spec.content_hash(),
        COUNT,
        timeout,
    ]
    return hashlib.sha256(json.dumps(ident).encode()).hexdigest()[:20]


def measure(args: argparse.Namespace) -> Path:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows_path = out / "rows.jsonl"
    done: set[str] = set()
    if rows_path.exists():
        for line in rows_path.read_text(encoding="utf-8").splitlines():
            try:
                done.add(json.loads(line)["key"])
            except (ValueError, KeyError, TypeError):
                continue  # a torn last line of an interrupted run: that run is measured again
    paradigms = args.paradigm or registry.available()
    warmed: set[tuple[str, str, str]] = set()
    with rows_path.open("a", encoding="utf-8") as sink:
        for name in args.family or list(FAMILIES):
            family, dataset = FAMILIES[name]
            malformed: list[tuple[str, str]] = []
            entries = list(islice(iter_janko(Path(args.corpus) / dataset, family, malformed), args.limit))
            for pid, why in malformed:  # a record that cannot be read is named, not run
                print(f"{name}: skipped malformed record {pid}: {why}", file=sys.stderr)
            todo = pairs(family, paradigms, args.solver, args.encodings)
            for entry in tqdm(entries, desc=f"{name}: {len(todo)} pairs", disable=args.quiet):
                for paradigm, solver, encoding in todo:
                    if (
                        family,
                        encoding,
                    ) in SLOW and entry.puzzle.rows * entry.puzzle.cols > args.slow_max_cells:
                        continue
                    key = run_key(entry.id, paradigm, solver, encoding, family, args.timeout)
                    if key in done:
                        continue
                    if (family.value, paradigm, solver) not in warmed:
                        # off the record: the first solve of a solver pays its imports and set-up
                        warmed.add((family.value, paradigm, solver))
                        pb.solve(
                            entry.puzzle,
                            paradigm,
                            encoding,
                            count=1,
                            timeout=args.timeout,
                            solver=solver,
                            strict=False,
                        )
                    result = pb.solve(
                        entry.puzzle,
                        paradigm,
                        encoding,
                        count=COUNT,
                        timeout=args.timeout,
                        solver=solver,
                        strict=False,
                    )
                    record = {
                        "key": key,
                        "corpus": name,
                        "puzzle_id": entry.id,
                        "rows": entry.puzzle.rows,
                        "cols": entry.puzzle.cols,
                        "timeout": args.timeout,
                        **result.to_record(),
                    }
                    published = getattr(entry, "solution", None)
                    record["published"] = (
                        None
                        if published is None or result.solution is None
                        else result.solution.cells == published.cells
                    )
                    sink.write(json.dumps(record, default=str) + "\n")
                    sink.flush()
                gc.collect()  # this puzzle's cyclic garbage, off the next puzzle's clock
    return rows_path


def outcome(record: dict[str, Any]) -> str | None:
    """What a run proved about its puzzle, comparable across solvers: ``"none"`` (no answer
    exists), ``"unique:<hash>"``, ``"several"`` (two answers found), or None (nothing proven:
    a timeout, an error, or an answer the verifier rejects)."""
    if record["status"] == "unsat" and record.get("exhausted", True):
        return "none"
    if record["status"] != "sat" or record.get("verdict") not in ("valid", None):
        return None
    if record["count"] >= 2:
        return "several"
    return f"unique:{record['solution_hash']}" if record["exhausted"] else None


def summarise(rows_path: Path, out: Path) -> dict[str, Any]:
    rows = [json.loads(line) for line in rows_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    groups: dict[tuple, list[dict]] = defaultdict(list)
    answers: dict[tuple[str, str], dict[tuple, str | None]] = defaultdict(dict)
    for r in rows:
        cfg = (r["corpus"], r["paradigm"], r["solver"], r["encoding"])
        groups[cfg].append(r)
        answers[(r["corpus"], r["puzzle_id"])][cfg[1:]] = outcome(r)
    table = []
    for (corpus, paradigm, solver, encoding), group in sorted(groups.items()):
        times = [g["time_total"] for g in group if g.get("time_total") is not None]
        table.append(
            {
                "corpus": corpus,
                "paradigm": paradigm,
                "solver": solver,
                "encoding": encoding,
                "solver_version": group[0].get("solver_version"),
                "puzzles": len(group),
                "proven_unique": sum(
                    g["status"] == "sat" and g["count"] == 1 and g["exhausted"] for g in group
                ),
                "proven_none": sum(outcome(g) == "none" for g in group),
                "valid": sum(g["verdict"] == "valid" for g in group),
                "published": sum(bool(g.get("published")) for g in group),
                "failures": sum(g["status"] not in ("sat", "unsat") for g in group),
                "total_s": sum(times),
                "median_s": statistics.median(times) if times else None,
                "worst_s": max(times, default=None),
            }
        )
    # Each paradigm's default solver (default encoding) is the reference for its other solvers.
    reference = {
        (t["corpus"], t["paradigm"], t["encoding"]): t["total_s"]
        for t in table
        if t["solver"] == registry.paradigm(t["paradigm"]).default_solver
    }
    for t in table:
        ref = reference.get((t["corpus"], t["paradigm"], t["encoding"]))
        t["vs_default_solver"] = t["total_s"] / ref if ref else None
    disagreements = []
    for (corpus, pid), by_cfg in sorted(answers.items()):
        proven = {h for h in by_cfg.values() if h is not None}
        if len(proven) > 1:
            disagreements.append(
                {"corpus": corpus, "puzzle_id": pid, "answers": {"/".join(k): v for k, v in by_cfg.items()}}
            )
    summary = {
        "table": table,
        "disagreements": disagreements,
        "puzzles": {
            c: len({r["puzzle_id"] for r in rows if r["corpus"] == c})
            for c in FAMILIES
            if any(r["corpus"] == c for r in rows)
        },
        "runs": len(rows),
        "versions": versions(),
        "machine": machine(),
        "git_commit": git_commit(),
        "timestamp": timestamp(),
        "count": COUNT,
        "timeouts": sorted({r["timeout"] for r in rows}),
        "slow_encodings": sorted(f"{f.value}/{e}" for f, e in SLOW),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1, default=str), encoding="utf-8")
    with (out / "summary.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(table[0]) if table else ["corpus"])
        writer.writeheader()
        writer.writerows(table)
    return summary


def format_summary(summary: dict[str, Any]) -> str:
    lines = [
        f"{summary['runs']} runs; puzzles: " + ", ".join(f"{k} {v}" for k, v in summary["puzzles"].items())
    ]
    lines.append(
        f"{'corpus':<9}{'paradigm':<9}{'solver':<15}{'encoding':<9}{'unique':>8}{'published':>10}"
        f"{'fail':>5}{'total s':>9}{'worst s':>9}{'vs default':>11}"
    )
    for t in summary["table"]:
        ratio = f"{t['vs_default_solver']:.2f}" if t["vs_default_solver"] is not None else "-"
        lines.append(
            f"{t['corpus']:<9}{t['paradigm']:<9}{t['solver']:<15}{t['encoding']:<9}"
            f"{t['proven_unique']:>4}/{t['puzzles']:<3}{t['published']:>10}{t['failures']:>5}"
            f"{t['total_s']:>9.2f}{(t['worst_s'] or 0):>9.2f}{ratio:>11}"
        )
    lines.append(
        f"puzzles on which two (solver, encoding) pairs prove different things (no answer, "
        f"a different unique answer, several answers): {len(summary['disagreements'])}"
    )
    wrong = defaultdict(list)
    for d in summary["disagreements"]:
        for cfg, what in d["answers"].items():
            if what == "none":
                wrong[cfg].append(d["puzzle_id"])
    for cfg, ids in sorted(wrong.items()):
        lines.append(
            f"  {cfg} says 'no answer' on {len(ids)} puzzles others solve: {', '.join(ids[:5])}"
            + (", ..." if len(ids) > 5 else "")
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=str(DEFAULT_CORPUS))
    ap.add_argument("--family", action="append", choices=list(FAMILIES))
    ap.add_argument("--paradigm", action="append")
    ap.add_argument("--solver", action="append", help="only these solvers (default: every installed one)")
    ap.add_argument(
        "--encodings",
        choices=("default", "all"),
        default="all",
        help="every complete named encoding (all) or the defaults only",
    )
    ap.add_argument("--plugin", action="append", default=[])
    ap.add_argument("--limit", type=int)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument(
        "--slow-max-cells",
        type=int,
        default=144,
        help="largest board (cells) for the quadratic encodings in SLOW (default 144)",
    )
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--summary-only", action="store_true", help="summarise rows.jsonl without running")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    for name in args.plugin:
        plugins.load(name)
    rows = Path(args.out) / "rows.jsonl" if args.summary_only else measure(args)
    summary = summarise(rows, Path(args.out))
    summary["slow_max_cells"] = args.slow_max_cells
    (Path(args.out) / "summary.json").write_text(json.dumps(summary, indent=1, default=str), encoding="utf-8")
    print(format_summary(summary))
    return 1 if summary["disagreements"] else 0


if __name__ == "__main__":
    sys.exit(main())
