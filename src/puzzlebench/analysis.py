"""The notebooks' helpers: which puzzles, which configurations, runs as a DataFrame, small tables.

The numbered notebooks under ``notebooks/`` stay thin; what they compute lives here.

>>> from puzzlebench import analysis
>>> items = analysis.generated_items("kuromasu", sizes=(5, 7))          # bundled gen-* suite or fresh
>>> df = analysis.run(items, analysis.connectivity_configs("kuromasu"), count=2, timeout=5)
>>> analysis.par2_table(df)

Runs become one row each with the columns of the benchmark records (:mod:`puzzlebench.results`),
so :mod:`puzzlebench.plots` draws them whether they ran in this process (``run``, the default:
quick, for notebooks on small parameters) or in isolated child processes through the benchmark
runner (``run(..., isolated=True)``: hard time limits, one process per run).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import registry
from .bench.spec import Run, SuiteItem, items_from
from .crosscheck import Config, CrossCheck, crosscheck
from .errors import EncodingError, PuzzleError
from .model import Family, Puzzle

__all__ = [
    "PUZZLEKIT_JANKO_TOTAL_S",
    "SEED000",
    "Config",
    "closure_delta",
    "closure_table",
    "connectivity_configs",
    "crosscheck_runs",
    "disagreements",
    "exponents",
    "frame",
    "generated_items",
    "janko_dir",
    "janko_items",
    "option_configs",
    "par2_table",
    "repo_root",
    "run",
    "save",
    "seed000_ablation",
    "show",
    "solutions_vs_size",
    "stats_table",
    "strategy_bars",
    "strategy_configs",
    "strategy_table",
    "time_distribution",
    "time_share",
]

#: Seed 000's table (lparse/smodels, 2008 hardware) for its 11x11 Kuromasu sample.
SEED000: dict[str, dict[str, float]] = {
    "with": {"time_s": 5.443, "atoms": 23_298, "rules": 79_738, "truth_assignments": 526_852},
    "without": {"time_s": 0.935, "atoms": 8_657, "rules": 10_736, "truth_assignments": 38_998},
}

#: The peer puzzlekit 0.3.4 on the whole janko corpus (CP-SAT, one worker, one answer, no
#: uniqueness proof), total seconds per family, as published with the corpus (2-core machine).
PUZZLEKIT_JANKO_TOTAL_S: dict[str, float] = {"lightup": 13.8, "kuromasu": 52.3}


# -- where things are ---------------------------------------------------------------------------
def repo_root() -> Path:
    """The checkout holding this package (``src/puzzlebench`` lives two levels below it)."""
    return Path(__file__).resolve().parents[2]


def janko_dir(path: str | os.PathLike | None = None) -> Path | None:
    """The janko corpus folder: ``path`` if given, else ``$PUZZLEBENCH_SHARED/corpora/janko``,
    else ``../shared/corpora/janko`` beside the checkout; None when none of them holds it.

    A ``path`` that is given but holds no corpus is an error (a typo should not silently fall
    back to the bundled puzzles).
    """

    def holds(folder: Path) -> bool:
        return (folder / "Akari_dataset.json").exists() or (folder / "Kuromasu_dataset.json").exists()

    if path:
        folder = Path(path).expanduser()
        if not holds(folder):
            raise PuzzleError(
                f"no janko corpus at {folder} (expected Akari_dataset.json / Kuromasu_dataset.json)"
            )
        return folder
    candidates = []
    if os.environ.get("PUZZLEBENCH_SHARED"):
        candidates.append(Path(os.environ["PUZZLEBENCH_SHARED"]) / "corpora" / "janko")
    candidates.append(repo_root().parent / "shared" / "corpora" / "janko")
    return next((c for c in candidates if holds(c)), None)


def janko_items(
    folder: Path | None, per_family: int | None = 5, seed: int = 0, max_cells: int | None = None
) -> list:
    """Suite entries (with published answers) per family from the corpus, or bundled ones.

    ``per_family`` puzzles are drawn at random (fixed ``seed``) from each corpus file, among those
    with at most ``max_cells`` cells; ``None`` takes them all. Without a corpus the first
    ``per_family`` Light Up and Kuromasu puzzles with answers of each bundled suite (the seed
    samples, and the generated suites when present) stand in.
    """
    from .suites import list_suites, load_suite

    entries: list = []
    if folder is not None:
        for name in ("Akari_dataset.json", "Kuromasu_dataset.json"):
            if not (folder / name).exists():
                continue
            suite = load_suite(folder / name)
            pool = [e for e in suite if max_cells is None or e.puzzle.rows * e.puzzle.cols <= max_cells]
            if per_family is not None and per_family < len(pool):
                import random

                pool = sorted(random.Random(seed).sample(pool, per_family), key=pool.index)
            entries.extend(pool)
        return entries
    for name in ["seeds"] + [s for s in list_suites() if s in ("gen-lightup", "gen-kuromasu")]:
        pool = [
            e
            for e in load_suite(name)
            if e.solution is not None
            and (e.family or "") != "lightbulbs"
            and (max_cells is None or e.puzzle.rows * e.puzzle.cols <= max_cells)
        ]
        entries.extend(pool if per_family is None else pool[:per_family])
    return entries


def generated_items(
    family: str | Family,
    sizes: Sequence[int],
    per_size: int = 1,
    seed: int = 1,
    unique: bool | None = None,
    progress: bool = False,
) -> list[SuiteItem]:
    """Square puzzles of the given sizes: from the bundled ``gen-<family>`` suite where it has
    that size, generated on the fly (seeds ``seed``, ``seed+1``, ...) where it does not.

    ``unique`` (LightBulbs only): True keeps unique-mode boards, False seed 003's method (many
    answers), None either.
    """
    from .generate import generate
    from .suites import list_suites, load_suite

    fam = Family(family)
    name = f"gen-{fam.value}"
    bundled: dict[int, list] = {}
    if name in list_suites():
        for entry in load_suite(name):
            is_unique = entry.id.endswith("-unique")
            if fam is Family.LIGHTBULBS and unique is not None and is_unique != unique:
                continue
            rows = entry.meta.get("rows") or entry.puzzle.rows
            bundled.setdefault(int(rows), []).append(entry)
    items: list[SuiteItem] = []
    todo = [(n, k) for n in sizes for k in range(per_size)]
    bar = _progress(todo, f"{fam.value} puzzles", disable=not progress)
    for n, k in bar:
        have = bundled.get(n, [])
        if k < len(have):
            items.extend(items_from([have[k]], name))
            continue
        options: dict[str, Any] = {}
        if fam is Family.LIGHTBULBS and unique:
            options["unique"] = True
        # seed 003's boards get their answers counted by the notebooks themselves
        gen = generate(
            fam, n, n, seed=seed + k, paradigm="none" if fam is Family.LIGHTBULBS else "auto", **options
        )
        ident = f"{fam.value}-{n:03d}x{n:03d}-s{seed + k}" + ("-unique" if options else "")
        items.append(
            SuiteItem(
                gen.puzzle.with_meta(name=ident),
                ident,
                f"{name} (fresh)",
                gen.solutions if isinstance(gen.solutions, int) else None,
            )
        )
    return items


# -- configurations -----------------------------------------------------------------------------
def option_configs(
    family: str | Family,
    option: str,
    paradigms: Sequence[str] | None = None,
    encoding: str = "default",
    values: Mapping[str, Sequence[Any]] | None = None,
    deduce: str | None = None,
) -> list[Config]:
    """One configuration per value of ``option`` (an encoding or backend option) per paradigm.

    Values come from the registry (the option's choices) unless ``values[paradigm]`` names them.
    Paradigms without the encoding or the option are left out. ``option="solver"`` varies the
    solver instead (every installed one of the paradigm, or those named). ``deduce``, when given,
    is every configuration's deduction stage (``"none"``: the bare puzzle).
    """
    extra = {} if deduce is None else {"deduce": deduce}
    out: list[Config] = []
    for paradigm in paradigms or registry.available():
        try:
            spec = registry.get(family, paradigm, encoding)
        except EncodingError:
            continue
        if option == "solver":
            names = (values or {}).get(paradigm) or [
                s.name for s in registry.solvers(paradigm) if s.supported()
            ]
            out.extend(Config(paradigm, encoding, dict(extra), name) for name in names)
            continue
        known = {o.name: o for o in (*spec.options, *registry.backend(paradigm).OPTIONS)}
        if option not in known:
            continue
        chosen = (values or {}).get(paradigm) or known[option].choices or (known[option].default,)
        out.extend(Config(paradigm, encoding, {option: v, **extra}) for v in chosen)
    return out


def connectivity_configs(
    family: str | Family = "kuromasu", paradigms: Sequence[str] | None = None
) -> list[Config]:
    """Every connectivity variant of every paradigm's default encoding (the relaxing ``none`` too),
    on the bare puzzle: a relaxation gets no deductions (they use every rule), so the rule's cost
    is measured with none on either side."""
    return option_configs(family, "connectivity", paradigms, deduce="none")


#: Per paradigm, the option that changes how the solver searches (LightBulbs strategy study).
STRATEGY_OPTIONS: dict[str, str] = {"asp": "heuristic", "smt": "logic", "sat": "solver", "cp": "search"}


def strategy_configs(
    family: str | Family,
    encoding: str = "default",
    values: Mapping[str, Sequence[Any]] | None = None,
    options: Mapping[str, str] | None = None,
) -> list[Config]:
    """The search-strategy axis of each paradigm (``STRATEGY_OPTIONS``, overridable), one config per value."""
    out: list[Config] = []
    for paradigm, option in (options or STRATEGY_OPTIONS).items():
        if paradigm in registry.available():
            out.extend(option_configs(family, option, [paradigm], encoding, values))
    return out


# -- running ------------------------------------------------------------------------------------
def _progress(iterable, desc: str, disable: bool = False, total: int | None = None):
    """A progress bar; in a notebook it also leaves one line of text when done, since a saved
    notebook or its HTML copy cannot redraw the bar's widget."""
    from tqdm.auto import tqdm

    items = list(iterable)
    start = time.perf_counter()
    yield from tqdm(items, desc=desc, disable=disable, total=total or len(items), leave=False)
    if not disable and "ipykernel" in sys.modules:
        print(f"{desc}: {len(items)} done in {time.perf_counter() - start:.1f} s")


def _items(puzzles: Iterable[Any]) -> list[SuiteItem]:
    return items_from(list(puzzles), "notebook")


def _registered(item: SuiteItem, cfg: Config) -> bool:
    try:
        registry.get(item.puzzle.family, cfg.paradigm, cfg.encoding)
        return True
    except EncodingError:
        return False


def frame(records: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Run records as a DataFrame with ``solved``, ``par2`` and ``cells`` (= rows x cols) added."""
    from .results import COLUMNS, is_solved

    df = pd.DataFrame.from_records(list(records))
    if df.empty:
        return df
    for col in COLUMNS:  # failed runs lack measurements; the columns are still there
        if col not in df.columns:
            df[col] = None
    df["solved"] = [is_solved(r) for r in df.to_dict("records")]
    timeout = pd.to_numeric(df["timeout"], errors="coerce")
    df["par2"] = pd.to_numeric(df["time_total"], errors="coerce").where(df["solved"], 2 * timeout)
    df["cells"] = df["rows"] * df["cols"]
    df["instance"] = df["family"].astype(str) + "/" + df["puzzle_id"].astype(str)
    return df


def record(run_: Run, result: Any) -> dict[str, Any]:
    """One run's record, as the benchmark worker writes it (without the machine metadata)."""
    return {**run_.fields(), **result.to_record()}


def run(
    puzzles: Iterable[Any],
    configs: Sequence[Config],
    count: int = 2,
    timeout: float = 10.0,
    repeat: int = 1,
    progress: bool = True,
    isolated: bool = False,
    out: str | os.PathLike | None = None,
    memory_mb: int | None = 2048,
    desc: str = "runs",
    warmup: bool = True,
) -> pd.DataFrame:
    """Solve every puzzle with every configuration registered for its family; one row per run.

    In-process by default (``puzzlebench.solve``, its soft timeout); with ``warmup`` each
    (family, paradigm, solver, encoding) first solves its smallest puzzle once, off the record,
    so that importing and initialising a solver is not billed to the first (smallest) board. ``isolated=True`` uses the
    benchmark runner instead: one child process per run, hard wall-clock and memory limits,
    records appended to ``out`` (a JSON-lines file, resumed if it exists; a temporary one if None).
    """
    items = _items(puzzles)
    runs = [
        Run(
            item,
            c.paradigm,
            c.encoding,
            dict(c.options),
            count,
            rep,
            float(timeout),
            memory_mb,
            solver=c.solver or "",
        )
        for item in items
        for c in configs
        if _registered(item, c)
        for rep in range(repeat)
    ]
    if isolated:
        return _run_isolated(runs, out, progress)
    from .solvers import solve

    if warmup:
        _warm_up(runs, solve)
    records = []
    for r in _progress(runs, desc, disable=not progress):
        try:
            result = solve(
                r.puzzle,
                r.paradigm,
                r.encoding,
                count=r.count,
                timeout=r.timeout,
                solver=r.solver or None,
                strict=False,
                **r.options,
            )
        except (
            EncodingError
        ) as exc:  # e.g. a board this encoding cannot state: a recorded error, not an abort
            records.append({**r.fields(), "status": "error", "error": str(exc)})
            continue
        records.append(record(r, result))
    return frame(records)


def _warm_up(runs: list[Run], solve: Any) -> None:
    smallest: dict[tuple, Run] = {}
    for r in runs:
        key = (r.puzzle.family, r.paradigm, r.solver, r.encoding)
        if (
            key not in smallest
            or r.puzzle.rows * r.puzzle.cols < smallest[key].puzzle.rows * smallest[key].puzzle.cols
        ):
            smallest[key] = r
    for r in smallest.values():
        try:
            solve(
                r.puzzle,
                r.paradigm,
                r.encoding,
                count=1,
                timeout=r.timeout,
                solver=r.solver or None,
                strict=False,
                **r.options,
            )
        except Exception:  # the timed run records whatever goes wrong
            pass


def _run_isolated(runs: list[Run], out: str | os.PathLike | None, progress: bool) -> pd.DataFrame:
    from . import results
    from .bench import run_sweep

    keys = {r.key for r in runs}
    with tempfile.TemporaryDirectory(prefix="puzzlebench-nb-") as tmp:
        path = Path(out) if out is not None else Path(tmp) / "runs.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        run_sweep(runs, str(path), resume=True, quiet=not progress)
        df = results.load(path)
    df = df[df["key"].isin(keys)].reset_index(drop=True)
    if not df.empty:
        df["cells"] = df["rows"] * df["cols"]
        df["instance"] = df["family"].astype(str) + "/" + df["puzzle_id"].astype(str)
    return df


def crosscheck_runs(
    entries: Iterable[Any],
    count: int = 2,
    timeout: float | None = 30.0,
    paradigms: Sequence[str] | None = None,
    progress: bool = True,
) -> tuple[pd.DataFrame, list[CrossCheck]]:
    """Cross-check each suite entry in every paradigm: (one row per run, the reports).

    Rows carry the puzzle's ``verdict`` (agree / disagree / inconclusive) and ``published``:
    whether the run's first answer equals the entry's published solution (None without one).
    """
    records, reports = [], []
    for entry in _progress(list(entries), "cross-check", disable=not progress):
        item = items_from([entry], getattr(entry, "suite", "corpus"))[0]
        report = crosscheck(item.puzzle, paradigms=paradigms, count=count, timeout=timeout, source=item.id)
        reports.append(report)
        expected = getattr(entry, "solution", None)
        for outcome in report.outcomes:
            cfg = outcome.config
            run_ = Run(
                item,
                cfg.paradigm,
                cfg.encoding,
                dict(cfg.options),
                count,
                0,
                float(timeout or 0) or 1e9,
                solver=cfg.solver or "",
            )
            if outcome.result is None:
                rec = {**run_.fields(), "status": "error", "error": outcome.error}
            else:
                rec = record(run_, outcome.result)
            first = outcome.result.solution if outcome.result is not None else None
            rec["published"] = None if expected is None or first is None else first.cells == expected.cells
            rec["verdict_puzzle"] = report.verdict.value
            records.append(rec)
    return frame(records), reports


# -- tables -------------------------------------------------------------------------------------
def stats_table(results: Mapping[str, Any], published: Any = None) -> pd.DataFrame:
    """One row per labelled :class:`~puzzlebench.Result`: outcome, verifier, timings, sizes, search."""
    rows = []
    for label, r in results.items():
        row: dict[str, Any] = {
            "run": label,
            "status": r.status.value,
            "answers": r.count,
            "unique": r.unique,
            "verified": r.verified if r.solutions else None,
        }
        if published is not None:
            row["= published"] = (r.solution.cells == published.cells) if r.solution is not None else None
        t = r.timings
        row.update({"build_ms": t.build * 1e3, "solve_ms": t.solve * 1e3, "total_ms": t.total * 1e3})
        row.update({f"size_{k}": v for k, v in r.size.items()})
        row.update(
            {f"search_{k}": v for k, v in r.search.items() if k in ("choices", "conflicts", "propagations")}
        )
        row["backend"] = f"{r.backend} {r.backend_version}"
        rows.append(row)
    return pd.DataFrame(rows).set_index("run")


def disagreements(reports: Sequence[CrossCheck], runs: pd.DataFrame | None = None) -> pd.DataFrame:
    """Puzzles whose paradigms disagree or did not all answer, and runs that miss the published answer."""
    rows = [
        {
            "puzzle": f"{r.puzzle.family.value}/{r.source or r.puzzle.name}",
            "verdict": r.verdict.value,
            "what": d,
        }
        for r in reports
        if r.verdict.value != "agree"
        for d in (r.differences or ("(no detail)",))
    ]
    if runs is not None and "published" in runs:
        miss = runs[runs["published"].eq(False) & runs["complete"].fillna(False).astype(bool)]
        rows += [
            {"puzzle": m.instance, "verdict": "published answer differs", "what": m.label}
            for m in miss.itertuples()
        ]
    return pd.DataFrame(rows, columns=["puzzle", "verdict", "what"])


def par2_table(df: pd.DataFrame, by: str | Sequence[str] = "label") -> pd.DataFrame:
    """Per configuration: runs, solved, PAR-2 score (sum and mean, s) and median solved time."""
    keys = [by] if isinstance(by, str) else list(by)
    columns = ["runs", "solved", "par2_sum_s", "par2_mean_s", "median_solved_s"]
    if df.empty or any(k not in df.columns for k in keys):  # no runs (yet): an empty table, same shape
        index = (
            pd.Index([], name=keys[0])
            if len(keys) == 1
            else pd.MultiIndex.from_arrays([[] for _ in keys], names=keys)
        )
        return pd.DataFrame(
            {c: pd.Series(dtype=int if c in ("runs", "solved") else float) for c in columns}, index=index
        )
    solved = df["solved"].eq(True)
    g = df.assign(solved=solved).groupby(keys)
    table = pd.DataFrame(
        {
            "runs": g.size(),
            "solved": g["solved"].sum().astype(int),
            "par2_sum_s": g["par2"].sum(),
            "par2_mean_s": g["par2"].mean(),
            "median_solved_s": df.loc[solved].groupby(keys)["time_total"].median(),
        }
    )
    return table.sort_values(["solved", "par2_sum_s"], ascending=[False, True])


def time_share(df: pd.DataFrame, by: str | Sequence[str] = "paradigm") -> pd.DataFrame:
    """Where each configuration's time goes: the deduction stage, build (encode + ground/load)
    and solve, summed over runs, with each stage's share."""
    stages = [col for col in ("time_deduce", "time_build", "time_solve") if col in df.columns]
    g = df.groupby(by if isinstance(by, str) else list(by))[stages].sum()
    total = g.sum(axis=1).replace(0, np.nan)
    for col in stages:
        g[col.removeprefix("time_") + "_share"] = g[col] / total
    return g


def exponents(df: pd.DataFrame, value: str, by: str = "label", x: str = "cells") -> pd.DataFrame:
    """Fitted power law ``value ~ a * x**k`` per series (:func:`puzzlebench.stats.fit_power_law`:
    per-size medians, a 95% interval on ``k``, no fit where the sizes or the noise do not allow
    one, ``reason`` says why)."""
    from .stats import fit_power_law

    rows = []
    for label, part in df[df[value].notna()].groupby(by):
        fit = fit_power_law(part[x].to_numpy(float), part[value].to_numpy(float))
        rows.append(
            {
                by: label,
                "k": fit.k,
                "k_low": fit.k_low,
                "k_high": fit.k_high,
                "a": fit.a,
                "points": len(part),
                "sizes": fit.sizes,
                f"{x}_min": fit.cells_min,
                f"{x}_max": fit.cells_max,
                "fit": fit.text(),
            }
        )
    columns = ["k", "k_low", "k_high", "a", "points", "sizes", f"{x}_min", f"{x}_max", "fit"]
    return pd.DataFrame(rows).set_index(by) if rows else pd.DataFrame(columns=columns)


# -- seed 000's connectivity question -----------------------------------------------------------
def connectivity_corpus(path: str | os.PathLike | None = None) -> pd.DataFrame | None:
    """The janko-corpus table of ``benchmarks/connectivity.py`` (``results/connectivity/summary.csv``
    of the checkout unless ``path`` says otherwise), one row per connectivity variant; None when
    the benchmark has not been run."""
    source = Path(path) if path else repo_root() / "results" / "connectivity" / "summary.csv"
    if not source.exists():
        return None
    table = pd.read_csv(source)
    table.insert(0, "variant", table["paradigm"] + "/" + table["encoding"] + "/" + table["connectivity"])
    keep = [
        "variant",
        "puzzles",
        "skipped",
        "solved",
        "unique_without_rule",
        "timeouts",
        "total_s",
        "median_ms",
        "worst_s",
        "size",
        "mean_size",
        "mean_choices",
        "vs_none",
        "vs_default",
    ]
    return table[[c for c in keep if c in table]].set_index("variant")


def connectivity_families(root: str | os.PathLike | None = None) -> pd.DataFrame | None:
    """Seed 000's question across families: each connectivity variant's total time over the same
    encoding without the rule (``vs_none``), one column per family whose corpus
    ``benchmarks/connectivity.py`` has been run on (``results/connectivity*/summary.json`` under
    ``root``, the checkout's ``results`` by default), the puzzles and the day of the run behind each
    column in its name (the columns may come from different runs and machines: compare ratios,
    not times); None when there is none. The relaxation's rows are left out."""
    columns = {}
    for doc in _connectivity_summaries(root):
        rows = {
            f"{r['paradigm']}/{r['encoding']}/{r['connectivity']}"
            + (" (default)" if r["default"] else ""): r.get("vs_none")
            for r in doc["summary"]
            if not r["relaxed"]
        }
        columns[f"{doc['family']} ({doc['puzzles']}, {str(doc.get('timestamp', '?'))[:10]})"] = pd.Series(
            rows, dtype=float
        )
    if not columns:
        return None
    return pd.DataFrame(columns).sort_index()


def _connectivity_summaries(root: str | os.PathLike | None) -> list[dict]:
    base = Path(root) if root else repo_root() / "results"
    return [
        dict(json.loads(path.read_text(encoding="utf-8")), folder=path.parent)
        for path in sorted(base.glob("connectivity*/summary.json"))
    ]


def connectivity_growth(root: str | os.PathLike | None = None) -> pd.DataFrame | None:
    """How each connectivity variant grows with the board, per family: the exponents ``k`` of
    time ~ cells^k and size ~ cells^k with their 95% intervals, fitted by
    ``benchmarks/connectivity.py`` (:func:`puzzlebench.stats.fit_power_law` over the per-size
    medians of the runs that finished), and the cells the fit spans; ``note`` says why a fit is
    missing. None when no committed summary carries the fits."""
    rows = []
    for doc in _connectivity_summaries(root):
        for r in doc["summary"]:
            if "time_k" not in r:
                continue
            rows.append(
                {
                    "family": doc["family"],
                    "variant": f"{r['paradigm']}/{r['encoding']}/{r['connectivity']}"
                    + (" (default)" if r["default"] else ""),
                    "time k": r["time_k"],
                    "time 95% CI": _interval(r["time_k_low"], r["time_k_high"]),
                    "size k": r["size_k"],
                    "size 95% CI": _interval(r["size_k_low"], r["size_k_high"]),
                    "cells": r["time_fit_cells"] or r["size_fit_cells"],
                    "note": "; ".join(n for n in (r["time_fit_note"], r["size_fit_note"]) if n) or "",
                }
            )
    return pd.DataFrame(rows).set_index(["family", "variant"]) if rows else None


def _interval(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f"[{low:.2f}, {high:.2f}]"


def connectivity_runs(root: str | os.PathLike | None = None) -> pd.DataFrame | None:
    """Every run of every committed connectivity study (``runs.csv`` beside each summary), with
    its family: what the growth plots draw. None when there is none."""
    frames = [
        pd.read_csv(doc["folder"] / "runs.csv").assign(family=doc["family"])
        for doc in _connectivity_summaries(root)
        if (doc["folder"] / "runs.csv").exists()
    ]
    return pd.concat(frames, ignore_index=True) if frames else None


def closure_delta(rows: int, cols: int) -> dict[str, int]:
    """What seed 000's all-pairs ``white_connect`` rules ground to on an R x C grid, counted by hand.

    With n = R*C cells and A = 2*(R*(C-1) + C*(R-1)) ordered adjacent pairs: n^2 candidate atoms
    ``white_connect(X,Y,R,S)``; rules: n base rules (each cell reaches itself), n*A recursive
    rules (every source x every ordered adjacent pair) and n^2 integrity constraints (every pair
    of cells must be connected when both are white).
    """
    n = rows * cols
    adjacent = 2 * (rows * (cols - 1) + cols * (rows - 1))
    return {"cells": n, "adjacent_pairs": adjacent, "atoms": n * n, "rules": n + n * adjacent + n * n}


def closure_table(df: pd.DataFrame) -> pd.DataFrame:
    """Seed 000's program with and without its closure, per puzzle: measured growth beside
    :func:`closure_delta`'s count (runs of encoding ``seed000``, connectivity closure and none)."""
    if df.empty or not {"size_atoms", "size_rules"} <= set(df.columns):
        return pd.DataFrame()
    seed = df[(df["encoding"] == "seed000") & df["size_atoms"].notna()]
    conn = seed["options"].map(lambda o: (o or {}).get("connectivity", "closure"))
    rows = []
    for (inst, r, c), part in seed.assign(_conn=conn).groupby(["instance", "rows", "cols"]):
        by = part.groupby("_conn")[["size_atoms", "size_rules"]].first()
        if not {"closure", "none"} <= set(by.index):
            continue
        pred = closure_delta(int(r), int(c))
        d_atoms = by.loc["closure", "size_atoms"] - by.loc["none", "size_atoms"]
        d_rules = by.loc["closure", "size_rules"] - by.loc["none", "size_rules"]
        rows.append(
            {
                "instance": inst,
                "grid": f"{r}x{c}",
                "cells": pred["cells"],
                "atoms without": int(by.loc["none", "size_atoms"]),
                "atoms with": int(by.loc["closure", "size_atoms"]),
                "added atoms": int(d_atoms),
                "cells^2": pred["atoms"],
                "added atoms / cells^2": d_atoms / pred["atoms"],
                "rules without": int(by.loc["none", "size_rules"]),
                "rules with": int(by.loc["closure", "size_rules"]),
                "added rules": int(d_rules),
                "predicted added rules": pred["rules"],
                "rules exact": int(d_rules) == pred["rules"],
                "rules with / without": by.loc["closure", "size_rules"] / by.loc["none", "size_rules"],
                "closure share of rules": d_rules / by.loc["closure", "size_rules"],
            }
        )
    return pd.DataFrame(rows).set_index("instance").sort_values("cells") if rows else pd.DataFrame()


def seed000_ablation(puzzle: Puzzle, repeat: int = 3, count: int = 1, timeout: float = 60.0) -> pd.DataFrame:
    """Seed 000's program with and without its connectivity rule: measured beside the seed's table.

    Time is the median of ``repeat`` runs (total: grounding + search). The relaxed program may
    return answers whose white cells are not connected; ``verified`` says whether they pass.
    """
    from .solvers import solve

    rows = []
    for key, conn in (("with", "closure"), ("without", "none")):
        results = [
            solve(
                puzzle,
                "asp",
                "seed000",
                count=count,
                timeout=timeout,
                strict=False,
                connectivity=conn,
                deduce="none",
            )
            for _ in range(max(1, repeat))
        ]
        r = results[0]
        rows.append(
            {
                "connectivity rule": key,
                "atoms": r.size.get("atoms"),
                "rules": r.size.get("rules"),
                "choices": r.search.get("choices"),
                "conflicts": r.search.get("conflicts"),
                "time_s": statistics.median(x.timings.total for x in results),
                "ground_s": statistics.median(x.timings.build for x in results),
                "answers": r.count,
                "verified": r.verified,
                "seed atoms": SEED000[key]["atoms"],
                "seed rules": SEED000[key]["rules"],
                "seed truth assignments": SEED000[key]["truth_assignments"],
                "seed time_s": SEED000[key]["time_s"],
            }
        )
    table = pd.DataFrame(rows).set_index("connectivity rule")
    ratio = table.loc["with"].apply(pd.to_numeric, errors="coerce") / table.loc["without"].apply(
        pd.to_numeric, errors="coerce"
    )
    table.loc["ratio with/without"] = ratio
    return table


# -- small figures the plot library does not have -----------------------------------------------
def time_distribution(
    df: pd.DataFrame, by: str = "label", time: str = "time_total", title: str | None = None
):
    """Box plot of run times per configuration (log scale, seconds); solved runs only."""
    import matplotlib.pyplot as plt

    # (a boolean mask on an empty object column would select columns, not rows: hence .loc)
    data = df.loc[df["solved"].eq(True)] if "solved" in df else df
    if data.empty or by not in data or time not in data:  # no (solved) runs: an empty figure that says so
        fig, ax = plt.subplots(figsize=(5, 4.2))
        ax.text(0.5, 0.5, "no solved runs", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        ax.set_title(title or "Time distribution per configuration")
        return fig
    labels = sorted(data[by].dropna().unique(), key=str)
    fig, ax = plt.subplots(figsize=(max(5, 1.1 * len(labels) + 2), 4.2))
    series = [data.loc[data[by] == lab, time].dropna().to_numpy(float) for lab in labels]
    ax.boxplot(series, showfliers=True)
    ax.set_xticks(
        range(1, len(labels) + 1), [str(x) for x in labels], rotation=30, ha="right", fontsize="small"
    )
    ax.set_yscale("log")
    ax.set_ylabel(f"{time.replace('time_', '')} time per puzzle (s)")
    ax.set_title(title or "Time distribution per configuration")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    return fig


def solutions_vs_size(df: pd.DataFrame, by: str = "puzzle_id"):
    """Number of answers (exhaustive enumerations only) against board side, log y."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    done = df[df["exhausted"].fillna(False).astype(bool) & df["status"].isin(["sat", "unsat"])]
    per = done.groupby([by, "rows"])["count"].max().reset_index()
    fig, ax = plt.subplots(figsize=(6, 4.2))
    ax.scatter(per["rows"], per["count"].clip(lower=0.8), alpha=0.7, label="one board")
    med = per.groupby("rows")["count"].median()
    ax.plot(med.index, med.clip(lower=0.8).to_numpy(), "k-", marker="o", label="median per size")
    ax.set_yscale("log")
    plain = FuncFormatter(lambda v, _: f"{v:g}")
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain)
    ax.set_xticks(sorted(int(x) for x in per["rows"].unique()))
    ax.set_xlabel("board side n (n x n cells)")
    ax.set_ylabel("answers (count, all enumerated)")
    ax.set_title("Number of answers vs board size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def save(fig, name: str, folder: str | os.PathLike | None):
    """Write ``fig`` as ``folder/name.png`` when a folder is given; return the figure."""
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        fig.savefig(Path(folder) / f"{name}.png", dpi=120)
    return fig


def show(fig, name: str, folder: str | os.PathLike | None = None) -> None:
    """Save (see :func:`save`), display once in the notebook, and close ``fig``."""
    import matplotlib.pyplot as plt

    save(fig, name, folder)
    try:
        from IPython.display import display

        display(fig)
    finally:
        plt.close(fig)


# -- search strategies --------------------------------------------------------------------------
def strategy_table(df: pd.DataFrame) -> pd.DataFrame:
    """Median time and search effort per strategy (the one option each run set, or the solver
    when it set none), and each strategy's time relative to the fastest of the same paradigm and
    encoding (1.0 = fastest)."""

    def first(options: Any, solver: Any) -> tuple[str, str]:
        items = sorted((options or {}).items()) if isinstance(options, Mapping) else []
        if items:
            return (str(items[0][0]), str(items[0][1]))
        return ("solver", str(solver)) if isinstance(solver, str) and solver else ("-", "default")

    solvers = df["solver"] if "solver" in df.columns else [None] * len(df)
    picked = [first(o, s) for o, s in zip(df["options"], solvers)]
    data = df.assign(option=[k for k, _ in picked], value=[v for _, v in picked])
    keys = ["paradigm", "encoding", "option", "value"]
    g = data.groupby(keys)
    table = pd.DataFrame(
        {
            "runs": g.size(),
            "solved": g["solved"].sum().astype(int),
            "median_s": g["time_total"].median(),
            "median_choices": g["search_choices"].median() if "search_choices" in data else np.nan,
        }
    )
    fastest = table.groupby(level=["paradigm", "encoding", "option"])["median_s"].transform("min")
    table["vs_fastest"] = table["median_s"] / fastest
    return table


def strategy_bars(table: pd.DataFrame, title: str = "Search strategies"):
    """One panel per paradigm/encoding/option: median time per strategy value (ms, from zero)."""
    import matplotlib.pyplot as plt

    groups = list(table.groupby(level=["paradigm", "encoding", "option"]))
    ncols = min(3, max(1, len(groups)))
    nrows = -(-max(1, len(groups)) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.4 * nrows), squeeze=False)
    for ax, ((paradigm, encoding, option), part) in zip(axes.flat, groups):
        values = part.index.get_level_values("value")
        ax.bar(range(len(part)), part["median_s"].to_numpy(float) * 1e3, color="tab:blue")
        ax.set_xticks(range(len(part)), list(values), rotation=40, ha="right", fontsize="small")
        ax.set_title(f"{paradigm}/{encoding}: {option}", fontsize="medium")
        ax.set_ylabel("median time per board (ms)")
        ax.set_ylim(bottom=0)
        ax.grid(True, axis="y", alpha=0.3)
    for ax in list(axes.flat)[len(groups) :]:
        ax.set_visible(False)
    fig.suptitle(title)
    fig.tight_layout()
    return fig
