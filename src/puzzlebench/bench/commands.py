"""The ``bench``, ``report`` and ``main`` commands (registered into ``puzzlebench``'s CLI)."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import PuzzleError
from ..model import Family
from .spec import Run, SuiteItem, Sweep, load_items, read_toml
from .store import move_aside

# -- the main job's defaults (edit here) ---------------------------------------------------------
#: Suites of the main job and the largest board side it runs from each (None = every size).
#: Suites found under ``puzzles/`` but not listed here run their first ``MAIN_DEFAULT_LIMIT`` puzzles.
#: gen-nurikabe runs its boards up to 10x10 (9 boards; every paradigm proves each in well under a second).
MAIN_SUITES: dict[str, int | None] = {
    "seeds": None,
    "tatham": None,
    "gen-lightup": None,
    "gen-kuromasu": 50,
    "gen-lightbulbs": None,
    "gen-hitori": None,
    "gen-nurikabe": 10,
}
MAIN_DEFAULT_LIMIT: int | None = 10
#: The ablations run on boards up to this side; beyond it their slow variants only time out.
MAIN_ABLATION_MAX_SIDE = 17
MAIN_TIMEOUT = 20.0
MAIN_MEMORY_MB = 2048
MAIN_COUNT = 2  # 2 proves uniqueness
MAIN_REPEAT = 1
#: The headline configurations (every paradigm's default encoding and solver) repeat this many
#: times on the boards of the ablations, so the report can show the median and its spread.
MAIN_HEADLINE_REPEAT = 3
#: Peers run beside the paradigms on the same puzzles, each asked for what it can give
#: (answers), on boards up to a side (None = all): puzzlekit finds one answer and cannot prove
#: uniqueness; MiniZinc/Gecode (seed 001) can, but its all-pairs visibility relation grows with
#: the fourth power of the side and times out from 70x70 on.
MAIN_PEERS: dict[str, tuple[int, int | None]] = {"puzzlekit": (1, None), "minizinc": (2, 50)}
#: Second solvers beside each paradigm's default (where installed), on the default encodings and
#: the boards of the ablations: the same statement read by another program.
MAIN_SOLVERS: dict[str, tuple[str, ...]] = {
    "asp": ("clingo-tweety", "clingo-trendy"),
    "smt": ("cvc5",),
    "sat": ("glucose4", "maplechrono"),
}
#: Ablations: per family, options of each paradigm's default encoding run at every value.
MAIN_ABLATIONS: dict[str, tuple[str, ...]] = {
    "kuromasu": ("connectivity",),
    "hitori": ("connectivity",),
    "nurikabe": ("connectivity", "islands"),
}
#: The ``--smoke`` settings: a taste of everything in seconds.
SMOKE: dict[str, Any] = {"limit": 1, "timeout": 10.0, "count": 2, "repeat": 1}


def _executor(jobs: int | None, scheduler: str | None, dask_local: int | None):
    from .runner import DaskExecutor, SequentialExecutor, ThreadExecutor

    if dask_local is not None and dask_local < 1:
        raise PuzzleError(f"--dask-local needs N >= 1 worker processes, got {dask_local}")
    if scheduler and dask_local is not None:
        raise PuzzleError("give --scheduler or --dask-local, not both")
    if scheduler or dask_local is not None:
        return DaskExecutor(address=scheduler, local=dask_local)
    if jobs and jobs > 1:
        return ThreadExecutor(jobs)
    if jobs is not None and jobs < 1:
        raise PuzzleError(f"-j expects a positive number of runs, got {jobs}")
    return SequentialExecutor()


def execute_sweep(
    runs: Sequence[Run],
    out: str,
    *,
    resume: bool = False,
    jobs: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    quiet: bool = False,
    notes: Sequence[str] = (),
):
    """Run ``runs`` into ``out`` with the chosen executor; returns the sweep's outcome."""
    from .runner import run_sweep

    executor = _executor(jobs, scheduler, dask_local)
    try:
        return run_sweep(runs, out, resume=resume, executor=executor, quiet=quiet, notes=notes)
    finally:
        close = getattr(executor, "close", None)
        if close:
            close()


def _parse_option_lists(pairs: Sequence[str] | None) -> dict[str, list[str]]:
    """``["k=v1,v2", ...]`` -> ``{"k": ["v1", "v2"]}`` (the sweep takes their cartesian product)."""
    out: dict[str, list[str]] = {}
    for pair in pairs or ():
        key, sep, values = pair.partition("=")
        if not sep or not key.strip() or not values.strip():
            raise PuzzleError(f"--option expects key=v1,v2,..., got {pair!r}")
        out.setdefault(key.strip(), []).extend(v.strip() for v in values.split(",") if v.strip())
    return out


def sweep_from_args(args: argparse.Namespace) -> tuple[Sweep, dict[str, Any]]:
    """The sweep of ``puzzlebench bench``: the TOML file's keys, overridden by flags given."""
    conf: dict[str, Any] = read_toml(args.sweep_file) if args.sweep_file else {}
    given = {
        "suites": args.suite,
        "paradigms": args.paradigm,
        "solvers": args.solver,
        "encodings": args.encoding,
        "families": args.family,
        "options": _parse_option_lists(args.option) or None,
        "count": args.count,
        "repeat": args.repeat,
        "timeout": args.timeout,
        "memory": args.memory,
        "limit": args.limit,
        "out": args.out,
        "jobs": args.jobs,
        "scheduler": args.scheduler,
        "dask_local": args.dask_local,
        "resume": args.resume or None,
        "quiet": args.quiet or None,
    }
    conf.update({k: v for k, v in given.items() if v is not None})
    if not conf.get("suites"):
        raise PuzzleError("no suites: give --suite NAME|PATH or a sweep file with suites = [...]")
    run_keys: dict[str, Any] = {
        k: conf.pop(k) for k in ("jobs", "scheduler", "dask_local", "resume", "quiet") if k in conf
    }
    if "memory" in conf:
        conf["memory_mb"] = conf.pop("memory")
    for key in ("suites", "paradigms", "solvers", "encodings", "families"):
        if key in conf and isinstance(conf[key], str):
            conf[key] = [conf[key]]
    return Sweep(**conf), run_keys


def _cmd_bench(args: argparse.Namespace) -> int:
    sweep, run_keys = sweep_from_args(args)
    notes: list[str] = []
    runs = sweep.expand(notes)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    if not runs:
        raise PuzzleError("the sweep has no runs (no puzzles, or no registered configuration)")
    outcome = execute_sweep(runs, sweep.out, notes=notes, **run_keys)
    print(
        f"{outcome.stored} run(s) stored, {outcome.skipped} already present, {outcome.failures} failure(s) "
        f"-> {outcome.path}",
        file=sys.stderr,
    )
    return 0


def _json_safe(value: Any) -> Any:
    """``value`` with every NaN or infinite number as None, so that the JSON printed is valid
    (JSON has no NaN; a spread of a single run, for one, is NaN in the table)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(item) for item in value]
    return value


def _cmd_report(args: argparse.Namespace) -> int:
    from ..results import load
    from .report import disagreements, format_report

    df = load(args.results)
    if args.json:
        from .report import solved_table, vbs_table

        print(
            json.dumps(
                _json_safe(
                    {
                        "solved": solved_table(df).to_dict("records"),
                        "vbs": vbs_table(df).to_dict("records"),
                        "disagreements": disagreements(df),
                    }
                ),
                default=str,
                indent=1,
                allow_nan=False,
            )
        )
    else:
        print(format_report(df))
    return 0


# -- the main job ------------------------------------------------------------------------------------
def bundled_suites(root: Path | None = None) -> list[Path]:
    """Every suite folder with a manifest under ``puzzles/`` (the working directory's, else the checkout's)."""
    candidates = [root] if root else [Path("puzzles"), Path(__file__).resolve().parents[3] / "puzzles"]
    for folder in candidates:
        if folder.is_dir():
            return sorted(p.parent for p in folder.glob("*/manifest.json"))
    return []


def main_runs(smoke: bool = False, notes: list[str] | None = None, root: Path | None = None) -> list[Run]:
    """The main job's runs: every bundled suite x every paradigm's default encoding, plus ablations."""
    from .. import registry

    notes = notes if notes is not None else []
    settings: dict[str, Any] = dict(
        timeout=MAIN_TIMEOUT, count=MAIN_COUNT, repeat=MAIN_REPEAT, memory_mb=MAIN_MEMORY_MB
    )
    if smoke:
        settings.update({k: v for k, v in SMOKE.items() if k != "limit"})
    items: list[SuiteItem] = []
    for folder in bundled_suites(root):
        loaded = load_items(str(folder))
        if smoke:
            loaded = loaded[: SMOKE["limit"]]
        elif folder.name in MAIN_SUITES:
            side = MAIN_SUITES[folder.name]
            loaded = [i for i in loaded if side is None or max(i.puzzle.rows, i.puzzle.cols) <= side]
        elif MAIN_DEFAULT_LIMIT is not None:
            loaded = loaded[:MAIN_DEFAULT_LIMIT]
        items.extend(loaded)
    if not items:
        raise PuzzleError("no bundled suites found (puzzles/<suite>/manifest.json)")
    paradigms = registry.available()
    runs = Sweep(items=items, paradigms=paradigms, **settings).expand(notes)
    small = [i for i in items if max(i.puzzle.rows, i.puzzle.cols) <= MAIN_ABLATION_MAX_SIDE]
    for family, names in MAIN_ABLATIONS.items():
        for paradigm in paradigms:
            for spec in registry.encodings(family, paradigm):
                if spec.name != "default":
                    continue
                for opt in spec.options:
                    if opt.name in names and opt.choices:
                        runs += Sweep(
                            items=small,
                            paradigms=[paradigm],
                            families=[family],
                            options={opt.name: list(opt.choices)},
                            **settings,
                        ).expand(notes)
    headline = {**settings, "repeat": MAIN_HEADLINE_REPEAT} if not smoke else settings
    runs += Sweep(items=small, paradigms=paradigms, **headline).expand(notes)
    # The paradigms on the bare puzzles beside the same paradigms with the family's deductions.
    runs += Sweep(items=small, paradigms=paradigms, options={"deduce": ["none"]}, **headline).expand(notes)
    for paradigm in paradigms:
        others = [
            name for name in MAIN_SOLVERS.get(paradigm, ()) if registry.solver(paradigm, name).supported()
        ]
        if others:
            runs += Sweep(items=small, paradigms=[paradigm], solvers=others, **settings).expand(notes)
    for peer in registry.available(tuple(MAIN_PEERS)):
        count, side = MAIN_PEERS[peer]
        mine = [i for i in items if side is None or max(i.puzzle.rows, i.puzzle.cols) <= side]
        runs += Sweep(items=mine, paradigms=[peer], **{**settings, "count": count}).expand(notes)
    unique = {r.key: r for r in runs}  # the ablation's default value is the default run
    return list(unique.values())


def machine_folder(base: str | Path) -> Path:
    """Where the main job keeps this machine's results: ``<base>/<host>-<machine id>``."""
    from .metadata import machine

    info = machine()
    host = "".join(ch if ch.isalnum() else "-" for ch in str(info.get("host") or "machine"))[:30] or "machine"
    return Path(base) / f"{host}-{info['id']}"


def _index_machines(base: Path, mine: Path) -> list[str]:
    """Record this machine's folder in ``<base>/machines.json`` (its own entry only) and list the
    other machines' results kept beside it."""
    from . import metadata

    index_path = base / "machines.json"
    try:
        index = json.loads(index_path.read_text(encoding="utf-8"))
        if not isinstance(index, dict):
            index = {}
    except (OSError, ValueError):
        index = {}
    index[mine.name] = {
        "machine": metadata.machine(),
        "git_commit": metadata.git_commit(),
        "timestamp": metadata.timestamp(),
    }
    index_path.write_text(json.dumps(index, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return [
        f"{base / name}: results of another machine ({entry.get('machine', {}).get('cpu', '?')}, "
        f"{entry.get('timestamp', '?')}), kept as they are"
        for name, entry in sorted(index.items())
        if name != mine.name and isinstance(entry, dict)
    ]


def _cmd_main(args: argparse.Namespace) -> int:
    from .. import results
    from . import metadata
    from .report import format_report, solved_table

    base = Path(args.out)
    out = machine_folder(base)
    out.mkdir(parents=True, exist_ok=True)
    jsonl = out / "main.jsonl"
    aside = None
    if args.fresh:  # Rule: --fresh keeps the old records (moved aside) and never moves a file being written
        aside = move_aside(jsonl)
    notes: list[str] = [
        f"measuring on this machine ({metadata.machine()['cpu']}, {metadata.machine()['cores']} "
        f"cores, id {metadata.machine()['id']}) into {out}"
    ]
    notes += _index_machines(base, out)
    if aside is not None:
        notes.append(f"the previous results moved aside to {aside}")
    runs = main_runs(args.smoke, notes, Path(args.puzzles) if args.puzzles else None)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    started = time.perf_counter()
    outcome = execute_sweep(
        runs,
        str(jsonl),
        resume=True,
        jobs=args.jobs,
        scheduler=args.scheduler,
        dask_local=args.dask_local,
        quiet=args.quiet,
        notes=notes,
    )
    df = results.load(jsonl)
    results.to_csv(solved_table(df), out / "summary.csv")
    results.to_csv(df, out / "runs.csv")
    (out / "machine.json").write_text(
        json.dumps(
            {
                "machine": metadata.machine(),
                "versions": metadata.versions(),
                "git_commit": metadata.git_commit(),
                "python": metadata.python_version(),
                "timestamp": metadata.timestamp(),
                "settings": {
                    "smoke": args.smoke,
                    "timeout": runs[0].timeout if runs else None,
                    "count": MAIN_COUNT,
                    "memory_mb": MAIN_MEMORY_MB,
                    "runs": len(runs),
                    "jobs": args.jobs or 1,
                    "stored": outcome.stored,
                    "elapsed_s": round(time.perf_counter() - started, 1),
                },
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    save_standard_plots: Callable[[Any, str | Path], list[Path]] | None
    try:
        from ..plots import save_standard_plots
    except ImportError:
        save_standard_plots = None
    if save_standard_plots is not None and not df.empty:
        try:
            save_standard_plots(df, out)
        except Exception as exc:  # the records and report stand without the figures
            print(f"warning: plots not written: {type(exc).__name__}: {exc}", file=sys.stderr)
    report = format_report(df)
    (out / "report.txt").write_text(report + "\n", encoding="utf-8")
    print(report)
    print(f"\n{outcome.stored} run(s) stored, {outcome.skipped} already present -> {out}", file=sys.stderr)
    if args.notebooks if args.notebooks is not None else not args.smoke:
        _execute_notebooks(out / "notebooks")
    return 0


def _execute_notebooks(out: Path) -> None:
    """Executed HTML copies of the notebooks (their small default parameters) beside the results."""
    from ..notebooks import execute_all, notebooks

    if not notebooks():
        print("note: no notebooks found; skipping their HTML copies", file=sys.stderr)
        return
    print(f"executing the notebooks into {out} ...", file=sys.stderr)
    for name, info in execute_all(out).items():
        state = f"failed: {info['error']}" if info.get("error") else "ok"
        print(f"  {name}: {state} ({info['seconds']:.0f} s)", file=sys.stderr)


def _executor_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("-j", "--jobs", type=int, default=None, help="runs at once (default 1: cleanest timings)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask scheduler (tcp://host:8786)")
    p.add_argument(
        "--dask-local", type=int, metavar="N", help="run on a local Dask cluster of N worker processes"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``bench``, ``report`` and ``main`` to the ``puzzlebench`` command line."""
    p = subparsers.add_parser(
        "bench",
        help="run a benchmark sweep (isolated, resumable runs)",
        description="Run suites x paradigms x encodings x options, one child process per run.",
    )
    p.add_argument("sweep_file", nargs="?", help="TOML sweep definition (flags given override its keys)")
    p.add_argument(
        "--suite",
        action="append",
        metavar="NAME|PATH",
        help="bundled suite, folder, manifest or corpus file (repeatable)",
    )
    p.add_argument("--paradigm", action="append", help="paradigm (repeatable; default: all installed)")
    p.add_argument(
        "--solver",
        action="append",
        metavar="NAME",
        help="solver (repeatable; each applies to its own paradigm; 'all' = every installed one; "
        "default: each paradigm's own)",
    )
    p.add_argument(
        "--encoding", action="append", help="encoding name or file (.lp, .mzn) (repeatable; default: default)"
    )
    p.add_argument(
        "--family", action="append", choices=[str(f) for f in Family], help="restrict to these families"
    )
    p.add_argument(
        "--option",
        action="append",
        metavar="KEY=V1,V2",
        help="option values; the sweep takes the cartesian product",
    )
    p.add_argument("--count", type=int, help="answers wanted per run (2 proves uniqueness, 0 all; default 2)")
    p.add_argument("--repeat", type=int, help="repetitions of each run (default 1)")
    p.add_argument("--timeout", type=float, help="seconds per run, enforced by the parent (default 60)")
    p.add_argument("--memory", type=int, metavar="MB", help="memory limit per run (default 2048)")
    p.add_argument("--limit", type=int, metavar="N", help="first N puzzles of each suite")
    p.add_argument("--out", help="JSON-lines results file (default results/sweep.jsonl)")
    p.add_argument(
        "--resume", action="store_true", help="continue an existing results file, skipping stored runs"
    )
    _executor_flags(p)
    p.set_defaults(func=_cmd_bench)

    p = subparsers.add_parser("report", help="summarise benchmark results")
    p.add_argument("results", nargs="+", help="JSON-lines files or folders of them")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_report)

    p = subparsers.add_parser("main", help="the main job: the default sweep over the bundled suites")
    p.add_argument("--out", default="results", help="output folder (default results)")
    p.add_argument("--smoke", action="store_true", help="tiny settings, for tests")
    p.add_argument("--fresh", action="store_true", help="start over instead of resuming main.jsonl")
    p.add_argument("--puzzles", metavar="DIR", help="folder of bundled suites (default ./puzzles)")
    p.add_argument(
        "--notebooks",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also write executed HTML copies of the notebooks to OUT/notebooks (default: yes, not with --smoke)",
    )
    _executor_flags(p)
    p.set_defaults(func=_cmd_main)
