"""Performance benchmark on the janko corpus: every paradigm's default encoding against puzzlekit.

For each puzzle of the family datasets (``Akari_dataset.json``, ``Kuromasu_dataset.json``,
``Hitori_dataset.json``, ``Nurikabe_dataset.json``; those whose family is registered) this solves, in one process
and one after another on the same puzzle, with every selected paradigm's default encoding at
``count=2`` (an answer and a uniqueness proof) and with puzzlekit at ``count=1`` (it finds one
answer and proves nothing more). Each answer is checked against the independent verifier and
against the published solution. It writes:

* ``rows.jsonl`` — one record per (puzzle, paradigm), flushed as written (results-record keys);
* ``rows.csv`` — the same rows, flat;
* ``summary.json`` / ``summary.csv`` — per family and paradigm: solved, total, CPU, GC time,
  median, worst puzzle, ratio to puzzlekit's total, and whether the targets hold; the records
  that could not be read (``malformed``, by id and reason) and those run without a published
  solution because theirs does not read (``solutions_unread``: their answers are judged by the
  verifier and the proof alone); plus versions and machine.

A run's time starts from the corpus's problem text: reading it into a puzzle (``time_parse``;
puzzlekit reads its grid inside its own solve), then ``Result.timings.total`` of
:func:`puzzlebench.solve`: one ``perf_counter`` clock around building the encoding (Python), loading/grounding it, the search and the
verifier's check of each answer, for puzzlekit as for the four paradigms. The cyclic garbage
collector is isolated between runs unless ``--shared-gc`` is given (see ``GcMeter``).

Targets: the fastest paradigm's total is at most 1/5 of puzzlekit's on Akari, Hitori and Nurikabe
and 1/10 on Kuromasu; every paradigm's default solves every puzzle (answer valid, equal to the
published one, uniqueness proved); no single run exceeds the time limit (10 s; puzzlekit gets
``--peer-timeout``, 20 s, as its own figures on Nurikabe do).

Usage::

    .venv/bin/python benchmarks/janko.py [--corpus ../shared/corpora/janko]
        [--family akari|kuromasu|hitori|nurikabe] [--paradigm sat --paradigm cp ...] [--limit N] [--every N]
        [--timeout 10] [--out results/janko] [--shared-gc]
"""

from __future__ import annotations

import argparse
import csv
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from itertools import islice
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

import puzzlebench as pb
from puzzlebench import registry
from puzzlebench.bench.metadata import git_commit, machine, timestamp, versions
from puzzlebench.bench.spec import make_label
from puzzlebench.errors import EncodingError, SolverUnavailable
from puzzlebench.formats import iter_janko, janko
from puzzlebench.formats.janko import JankoEntry
from puzzlebench.model import Family, family_spec

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "janko"
DEFAULT_OUT = REPO / "results" / "janko"

#: Corpus family name -> (puzzle family, dataset file, required speed-up over puzzlekit), for the
#: families this installation has registered.
FAMILIES: dict[str, tuple[Family, str, float]] = {
    name: (Family(family), dataset, speedup)
    for name, family, dataset, speedup in (
        ("akari", "lightup", "Akari_dataset.json", 5.0),
        ("kuromasu", "kuromasu", "Kuromasu_dataset.json", 10.0),
        ("hitori", "hitori", "Hitori_dataset.json", 5.0),
        ("nurikabe", "nurikabe", "Nurikabe_dataset.json", 5.0),
    )
    if family in Family
}
PEER = "puzzlekit"
#: What each paradigm is asked for: an answer plus a uniqueness proof, except the peer (one answer).
COUNT_PROOF, COUNT_PEER = 2, 1


#: What the summary's figures mean (written into summary.json).
DEFINITIONS = {
    "total_s": "sum over the puzzles of reading the problem text (time_parse; puzzlekit reads its grid "
    "inside its own solve) and Result.timings.total: one perf_counter clock around building "
    "the encoding in Python, loading or grounding it, the search (count=2: an answer and the "
    "proof there is no other; puzzlekit: count=1) and the verifier's check of each answer",
    "cpu_s": "sum of Result.timings.cpu (process_time, all threads) over the same span",
    "gc_s": "time spent in the cyclic garbage collector inside those spans",
    "gc_after_s": "time of the collection run after each solve, off the clock (isolated GC only)",
    "median_s / worst_s": "per-puzzle Result.timings.total",
    "vs_puzzlekit": "total_s over the puzzles puzzlekit ran (on_peer_puzzles_s; all of them unless "
    "--peer-every) / puzzlekit's total_s in the same run",
}


class GcMeter:
    """Time spent in the cyclic garbage collector, attributed to the run in progress.

    A collection is billed to whichever solve triggers it, and a full collection walks every
    object the process holds and frees the cyclic garbage of earlier runs of other paradigms, so
    its cost says more about the benchmark process than about the paradigm. It is recorded per
    run (``gc_s``, ``gc_full`` inside the clock, ``gc_after_s`` for the collection that follows
    each run when the collector is isolated).
    """

    def __init__(self) -> None:
        self._start = 0.0
        self.seconds = 0.0
        self.full = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._start
            self.full += info.get("generation") == 2

    def measure(self, run: Callable[[], dict[str, Any]], isolate: bool = True) -> dict[str, Any]:
        """``run()``'s record with the collector time inside it and, isolated, the collection after it."""
        self.take()
        record = run()
        record["gc_s"], record["gc_full"] = self.take()
        if isolate:
            # Collect this run's cyclic garbage now, off the clock and recorded, so that it is
            # not billed to whichever later run triggers a collection.
            gc.collect()
            record["gc_after_s"] = self.take()[0]
        return record

    def take(self) -> tuple[float, int]:
        """Seconds and full collections since the last call."""
        out = (self.seconds, self.full)
        self.seconds, self.full = 0.0, 0
        return out


def shown_path(path: Path) -> str:
    """``path`` as recorded in results: relative to the repository's parent folder when inside it."""
    try:
        return str(Path("..") / path.resolve().relative_to(REPO.parent))
    except ValueError:
        return path.name


def corpus(
    path: Path,
    family: str,
    limit: int | None,
    malformed: list[tuple[str, str]] | None = None,
    every: int = 1,
    ids: set[str] | None = None,
) -> list[JankoEntry]:
    """The first ``limit`` readable puzzles of one family's dataset, with their published
    solutions, taking every ``every``-th readable one (the 1st, ``every`` + 1-th, ...), or only
    those whose id is in ``ids``; records that cannot be read go to ``malformed`` as (id, reason)."""
    dataset = path / FAMILIES[family][1] if path.is_dir() else path
    if not dataset.exists():
        raise SystemExit(
            f"janko dataset not found: {dataset} (pass --corpus DIR holding {FAMILIES[family][1]})"
        )
    entries: Iterable[JankoEntry] = iter_janko(dataset, FAMILIES[family][0], malformed)
    if ids is not None:
        entries = (entry for entry in entries if entry.id in ids)
    sample = islice(entries, 0, None, every)
    return list(islice(sample, limit))


def puzzle_ids(values: list[str] | None) -> set[str] | None:
    """The ids given to ``--ids``: each value is a comma-separated list of ids, or ``@FILE``
    naming a file with one id per line."""
    if not values:
        return None
    ids: set[str] = set()
    for value in values:
        if value.startswith("@"):
            path = Path(value[1:])
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                raise SystemExit(f"--ids {value}: cannot read {path}: {exc.strerror}") from None
            ids.update(line.strip() for line in text.splitlines() if line.strip())
        else:
            ids.update(part.strip() for part in value.split(",") if part.strip())
    return ids


def default_paradigms() -> list[str]:
    """The installed paradigms of the comparison, plus puzzlekit when installed."""
    return registry.available(registry.PARADIGMS) + registry.available((PEER,))


def has_default(family: str, paradigm: str) -> bool:
    """Whether ``paradigm`` has a default encoding for the corpus family."""
    try:
        registry.get(FAMILIES[family][0], paradigm)
    except EncodingError:
        return False
    return True


def warm_up(paradigms: Iterable[str], families: Iterable[str]) -> None:
    """Load every backend library once on a small puzzle of each family, so that import time is
    not billed to puzzle 1."""
    import random

    tiny = [family_spec(FAMILIES[f][0]).random_board(random.Random(0), 3, 3) for f in families]
    for paradigm in paradigms:
        for puzzle in tiny:
            try:
                pb.solve(puzzle, paradigm, count=1, timeout=10, strict=False)
            except (EncodingError, SolverUnavailable):
                pass


def run_one(
    entry: JankoEntry,
    suite: str,
    paradigm: str,
    timeout: float,
    context: dict[str, Any],
    encoding: str = "default",
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Solve one puzzle with one encoding of a paradigm (its default unless told) and judge the answer."""
    puzzle = entry.puzzle
    options = dict(options or {})
    count = COUNT_PEER if paradigm == PEER else COUNT_PROOF
    label = make_label(paradigm, encoding, options)
    record: dict[str, Any] = {
        "config": config_name(paradigm, options.get("deduce")),
        "key": f"{suite}/{entry.id}/{label}",
        "puzzle_id": entry.id,
        "puzzle_hash": puzzle.content_hash(),
        "suite": suite,
        "family": puzzle.family.value,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "paradigm": paradigm,
        "encoding": encoding,
        "options": options,
        "label": label,
        "repeat": 0,
        "expected_count": 1,
        "asked_count": count,
        "timeout": timeout,
        **context,
        "timestamp": timestamp(),
    }
    parse_s = 0.0
    if paradigm != PEER and entry.problem:
        # A user starts from the corpus text: reading it is on our clock, as puzzlekit's own
        # reading of its grid is on its.
        started = time.perf_counter()
        puzzle = janko.read(entry.problem, puzzle.family)
        parse_s = time.perf_counter() - started
    try:
        result = pb.solve(puzzle, paradigm, encoding, count=count, timeout=timeout, strict=False, **options)
    except (EncodingError, SolverUnavailable) as exc:
        record.update(
            status="error", verdict="none", count=0, exhausted=False, error=str(exc), time_total=None
        )
        record["matches_published"] = False
        record["correct"] = False
        return record
    record.update(result.to_record())
    record["time_parse"] = parse_s
    record["time_total"] = result.timings.total + parse_s
    record["time_wall"] = record["time_total"]  # in-process: the harness's wall clock
    # The published answer must be among the answers (where the record has one that reads: None
    # otherwise), and (when asked) proved the only one.
    record["matches_published"] = None if entry.solution is None else entry.solution in result.solutions
    proved_unique = result.unique is True
    record["correct"] = bool(
        result.status is pb.Status.SAT
        and record["verdict"] == "valid"
        and record["matches_published"] is not False
        and (proved_unique if count >= 2 else True)
    )
    return record


def config_name(paradigm: str, deduce: str | None) -> str:
    """A configuration's name: the paradigm, with the deduction stage it was asked for."""
    return paradigm if deduce is None else f"{paradigm}[deduce={deduce}]"


def configs(paradigms: list[str], deduces: list[str] | None) -> list[tuple[str, dict[str, Any]]]:
    """Each paradigm once per deduction setting asked for (the peer once, on the bare puzzle)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for paradigm in paradigms:
        for deduce in [None] if paradigm == PEER or not deduces else deduces:
            out.append((paradigm, {} if deduce is None else {"deduce": deduce}))
    return out


def summarise(
    records: list[dict[str, Any]], families: list[str], paradigms: list[str], timeout: float
) -> list[dict[str, Any]]:
    """Per family and configuration (a paradigm, with a deduction setting when one was asked
    for): solved, total, median, worst; ratio to the peer; targets."""
    rows: list[dict[str, Any]] = []
    for family in families:
        fam = FAMILIES[family][0].value
        speedup = FAMILIES[family][2]
        mine = [r for r in records if r["family"] == fam]
        puzzles = len({r["puzzle_id"] for r in mine})
        totals: dict[str, float] = {}
        for config in dict.fromkeys(r.get("config", r["paradigm"]) for r in records):
            runs = [r for r in mine if r.get("config", r["paradigm"]) == config]
            if not runs or runs[0]["paradigm"] not in paradigms:
                continue
            paradigm = runs[0]["paradigm"]
            times = [r["time_total"] for r in runs if r.get("time_total") is not None]
            cpu = [r["time_cpu"] for r in runs if r.get("time_cpu") is not None]
            gc_s = sum(r.get("gc_s", 0.0) for r in runs)
            gc_after_s = sum(r.get("gc_after_s", 0.0) for r in runs)
            worst = max(runs, key=lambda r: r.get("time_total") or 0.0)
            totals[config] = sum(times)
            rows.append(
                {
                    "family": family,
                    "paradigm": paradigm,
                    "config": config,
                    "deduce": runs[0].get("deduce"),
                    "count_asked": COUNT_PEER if paradigm == PEER else COUNT_PROOF,
                    "puzzles": puzzles,
                    "solved": sum(r["correct"] for r in runs),
                    "timeouts": sum(r["status"] == "timeout" for r in runs),
                    "errors": sum(r["status"] in ("error", "wrong", "crash", "memout") for r in runs),
                    "total_s": totals[config],
                    "cpu_s": sum(cpu),
                    "gc_s": gc_s,
                    "gc_after_s": gc_after_s,
                    "median_s": statistics.median(times) if times else None,
                    "worst_id": worst["puzzle_id"],
                    "worst_s": worst.get("time_total"),
                }
            )
        peer_total = totals.get(PEER)
        # ratios compare totals over the puzzles the peer ran (all of them unless --peer-every)
        peer_ids = {r["puzzle_id"] for r in mine if r["paradigm"] == PEER}
        on_peer = (
            {
                p: sum(
                    r["time_total"] or 0.0
                    for r in mine
                    if r.get("config", r["paradigm"]) == p and r["puzzle_id"] in peer_ids
                )
                for p in totals
            }
            if peer_ids
            else dict(totals)
        )
        paradigm_of = {row["config"]: row["paradigm"] for row in rows if row["family"] == family}
        contenders = {c: t for c, t in on_peer.items() if paradigm_of.get(c) in registry.PARADIGMS}
        fastest = min(contenders, key=contenders.__getitem__) if contenders else None
        for row in rows:
            if row["family"] != family:
                continue
            row["on_peer_puzzles_s"] = on_peer[row["config"]]
            row["peer_puzzles"] = len(peer_ids)
            row["vs_puzzlekit"] = on_peer[row["config"]] / peer_total if peer_total else None
            row["fastest"] = row["config"] == fastest
            if row["paradigm"] in registry.PARADIGMS:
                row["solves_all"] = row["solved"] == puzzles
                row["within_limit"] = (row["worst_s"] or 0.0) <= timeout
            if row["fastest"] and peer_total:
                row["target_ratio"] = 1.0 / speedup
                row["target_met"] = contenders[fastest] <= peer_total / speedup
    return rows


def targets(
    summary: list[dict[str, Any]], families: list[str], skipped: dict[str, list[str]]
) -> dict[str, Any]:
    """The issue's targets per family, each True/False (None when puzzlekit or contenders are missing).

    A selected paradigm of the comparison without a default encoding for the family fails
    "every default solves every puzzle".
    """
    out: dict[str, Any] = {}
    for family in families:
        rows = [r for r in summary if r["family"] == family]
        fastest = next((r for r in rows if r.get("fastest")), None)
        contenders = [r for r in rows if "solves_all" in r]
        missing = [p for p in skipped.get(family, []) if p in registry.PARADIGMS]
        out[family] = {
            "fastest": fastest.get("config", fastest["paradigm"]) if fastest else None,
            "speedup_target": f"<= 1/{FAMILIES[family][2]:g} of puzzlekit's total",
            "speedup_met": fastest.get("target_met") if fastest else None,
            "every_default_solves_every_puzzle": (
                all(r["solves_all"] for r in contenders) and not missing if contenders or missing else None
            ),
            "without_default_encoding": missing,
            "none_over_limit": all(r["within_limit"] for r in contenders) if contenders else None,
        }
    return out


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    """Rows as CSV (dict and list cells as JSON), columns in first-seen order."""
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: json.dumps(v) if isinstance(v, (dict, list)) else v for k, v in row.items()})


def table(summary: list[dict[str, Any]]) -> str:
    """The summary as a fixed-width text table."""
    head = (
        f"{'family':9} {'configuration':24} {'solved':>9} {'total s':>9} {'cpu s':>8} {'gc s':>6} {'median ms':>10} "
        f"{'worst':>22} {'vs pk':>7}"
    )
    lines = [head, "-" * len(head)]
    for r in summary:
        ratio = f"{r['vs_puzzlekit']:.3f}" if r.get("vs_puzzlekit") is not None else "-"
        median = f"{1000 * r['median_s']:.1f}" if r["median_s"] is not None else "-"
        worst = f"{r['worst_id']} {r['worst_s']:.3f}s" if r["worst_s"] is not None else "-"
        mark = "*" if r.get("fastest") else " "
        lines.append(
            f"{r['family']:9} {r.get('config', r['paradigm']) + mark:24} {r['solved']:>4}/{r['puzzles']:<4} {r['total_s']:>9.2f} "
            f"{r['cpu_s']:>8.2f} {r['gc_s']:>6.2f} "
            f"{median:>10} {worst:>22} {ratio:>7}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--corpus", type=Path, default=DEFAULT_CORPUS, help="directory holding the janko datasets"
    )
    ap.add_argument(
        "--family",
        choices=sorted(FAMILIES),
        action="append",
        help="corpus family (repeatable; default: every registered one)",
    )
    ap.add_argument(
        "--paradigm",
        action="append",
        help="paradigm to run (repeatable; default: every installed paradigm plus puzzlekit)",
    )
    ap.add_argument("--limit", type=int, default=None, help="first N puzzles of each family")
    ap.add_argument(
        "--every",
        type=int,
        default=1,
        help="every Nth readable puzzle of each family only (1st, N+1th, ...; default 1: all), "
        "for every paradigm; --limit then counts the sampled puzzles",
    )
    ap.add_argument(
        "--ids",
        action="append",
        metavar="ID[,ID...]|@FILE",
        help="only the puzzles with these ids (repeatable; @FILE: one id per line)",
    )
    ap.add_argument("--timeout", type=float, default=10.0, help="per-run time limit in seconds (default 10)")
    ap.add_argument("--peer-timeout", type=float, default=20.0, help="puzzlekit's per-run limit (default 20)")
    ap.add_argument(
        "--peer-every",
        type=int,
        default=1,
        help="run puzzlekit on every Nth puzzle only (1st, N+1th, ...; default 1: all); its "
        "ratios then compare totals over those puzzles alone",
    )
    ap.add_argument(
        "--deduce",
        action="append",
        metavar="NAME",
        help="run every paradigm with this deduction stage (repeatable: each puzzle runs every "
        "setting in turn; auto is the family's default, none the bare puzzle; default: auto "
        "alone, named as the paradigm)",
    )
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default results/janko)")
    ap.add_argument(
        "--shared-gc",
        dest="isolate_gc",
        action="store_false",
        help="leave the cyclic garbage collector alone: no freeze of the corpus and "
        "libraries, no collection between runs (see README)",
    )
    args = ap.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        ap.error("--limit must be at least 1")
    if args.every < 1:
        ap.error("--every must be at least 1")

    families = args.family or sorted(FAMILIES)
    paradigms = args.paradigm or default_paradigms()
    for paradigm in paradigms:
        cls = registry.backend(paradigm)
        if not cls.supported():
            ap.error(f"paradigm {paradigm}: {cls.unavailable_reason()}")
    if not paradigms:
        ap.error("no paradigm is installed")

    args.out.mkdir(parents=True, exist_ok=True)
    context = {"git_commit": git_commit(), "machine": machine()}
    warm_up(paradigms, families)
    malformed: dict[str, list[tuple[str, str]]] = {family: [] for family in families}
    ids = puzzle_ids(args.ids)
    entries_by_family = {
        family: corpus(args.corpus, family, args.limit, malformed[family], args.every, ids)
        for family in families
    }
    if ids is not None:
        found = {entry.id for entries in entries_by_family.values() for entry in entries}
        for pid in sorted(ids - found):
            print(f"--ids: no readable puzzle {pid} in {', '.join(families)}", file=sys.stderr)
    for family, bad in malformed.items():
        for pid, reason in bad:
            print(f"{family}: record {pid} not read: {reason}", file=sys.stderr)
    unpublished = {
        family: [(e.id, e.solution_error) for e in entries if e.solution_error]
        for family, entries in entries_by_family.items()
    }
    for family, bad in unpublished.items():
        for pid, reason in bad:
            print(f"{family}: record {pid} run without its published solution: {reason}", file=sys.stderr)
    if args.isolate_gc:
        # The corpus and the libraries loaded so far are the same for every paradigm: move them
        # out of the collector's reach so a full collection costs what the runs allocate.
        gc.collect()
        gc.freeze()
    meter = GcMeter()
    gc.callbacks.append(meter)

    # Rows are kept as their JSON text until the end: strings are not tracked by the collector,
    # so the rows gathered so far do not make each later full collection longer.
    lines: list[str] = []
    skipped: dict[str, list[str]] = {}
    started = time.perf_counter()
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as sink:
        for family in families:
            active = [p for p in paradigms if has_default(family, p)]
            skipped[family] = [p for p in paradigms if p not in active]
            for p in skipped[family]:
                print(
                    f"{family}: skipping {p} (no default encoding for {FAMILIES[family][0].value})",
                    file=sys.stderr,
                )
            for n, entry in enumerate(tqdm(entries_by_family[family], desc=family, unit="puzzle")):
                # Interleave paradigms on each puzzle so drifting machine load hits all alike.
                for paradigm, options in configs(active, args.deduce):
                    if paradigm == PEER and n % args.peer_every:
                        continue
                    timeout = args.peer_timeout if paradigm == PEER else args.timeout
                    record = meter.measure(
                        lambda: run_one(
                            entry, f"janko-{family}", paradigm, timeout, context, options=options
                        ),
                        args.isolate_gc,
                    )
                    lines.append(json.dumps(record, default=str))
                    sink.write(lines[-1] + "\n")
                    sink.flush()
    elapsed = time.perf_counter() - started
    gc.callbacks.remove(meter)
    records = [json.loads(line) for line in lines]

    summary = summarise(records, families, paradigms, args.timeout)
    write_csv(args.out / "rows.csv", records)
    write_csv(args.out / "summary.csv", summary)
    backend_versions = {p: registry.backend(p).version() for p in paradigms}
    document = {
        "corpus": shown_path(args.corpus),
        "families": families,
        "paradigms": paradigms,
        "skipped_no_default_encoding": skipped,
        "malformed": {
            family: [{"id": pid, "reason": reason} for pid, reason in bad]
            for family, bad in malformed.items()
        },
        "solutions_unread": {
            family: [{"id": pid, "reason": reason} for pid, reason in bad]
            for family, bad in unpublished.items()
        },
        "limit": args.limit,
        "every": args.every,
        "timeout": args.timeout,
        "peer_timeout": args.peer_timeout,
        "peer_every": args.peer_every,
        "isolate_gc": args.isolate_gc,
        "definitions": DEFINITIONS,
        "elapsed_s": elapsed,
        "summary": summary,
        "targets": targets(summary, families, skipped),
        "versions": {**versions(), **backend_versions},
        "git_commit": context["git_commit"],
        "machine": context["machine"],
        "timestamp": timestamp(),
    }
    (args.out / "summary.json").write_text(
        json.dumps(document, indent=2, default=str) + "\n", encoding="utf-8"
    )
    print(table(summary))
    print(json.dumps(document["targets"], indent=2))
    print(f"wrote {args.out}/rows.jsonl, rows.csv, summary.json, summary.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
