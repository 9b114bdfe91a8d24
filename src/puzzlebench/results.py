"""Benchmark records as a pandas DataFrame, and what is derived from them (CSV, Parquet, mkplot).

>>> from puzzlebench import results
>>> df = results.load("results/t.jsonl")             # one row per run
>>> results.to_csv(df, "results/runs.csv")

Columns follow the shared results record; ``size_*``/``search_*`` are flat columns, and
``solved`` and ``par2`` are added: a run is solved when it reached its goal (``count`` answers
found, or the search exhausted) with answers the verifier accepts, and its PAR-2 time is its
total time when solved, twice its timeout otherwise.

Each run counts once: records sharing a ``key`` (the same run stored twice, e.g. by two sweeps
that wrote to one file before the store was locked) are dropped but the first, with a
:class:`DuplicateRecordsWarning`; ``df.attrs["duplicates_dropped"]`` says how many.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from .bench.metadata import machine_id
from .bench.spec import make_label
from .bench.store import read_records
from .errors import PuzzleError

#: Leading columns, in the shared record's order; any others follow.
COLUMNS: tuple[str, ...] = (
    "key",
    "puzzle_id",
    "puzzle_hash",
    "suite",
    "family",
    "rows",
    "cols",
    "paradigm",
    "solver",
    "solver_version",
    "encoding",
    "encoding_hash",
    "options",
    "label",
    "complete",
    "repeat",
    "status",
    "verdict",
    "count",
    "count_limit",
    "exhausted",
    "solved",
    "par2",
    "solution_hash",
    "expected_count",
    "deduce",
    "settled",
    "time_deduce",
    "time_build",
    "time_solve",
    "time_first",
    "time_total",
    "time_cpu",
    "time_wall",
    "time_startup",
    "time_run",
    "peak_rss_mb",
    "backend",
    "backend_version",
    "timeout",
    "memory_mb",
    "jobs",
    "versions",
    "git_commit",
    "python",
    "machine",
    "machine_id",
    "timestamp",
    "error",
)
SOLVED_STATUSES = ("sat", "unsat")
#: Columns holding dicts or lists: kept as objects in the frame, JSON text in CSV/Parquet.
NESTED = ("options", "versions", "machine", "extra", "resolved_options", "solution_hashes")


class ResultsNotFound(PuzzleError, FileNotFoundError):
    """A results path that does not exist."""


class IncomparableRunsWarning(UserWarning):
    """The records were measured under different settings (timeout, memory, machine) or with
    several versions of one solver; tables and plots split or refuse them."""


#: Settings under which two runs' times can be compared.
COMPARABLE = ("timeout", "memory_mb", "machine_id")


def incomparable(df: pd.DataFrame) -> dict[str, list]:
    """What makes the runs of ``df`` not comparable: each setting of :data:`COMPARABLE` with
    more than one value, and ``"<solver> version"`` for a solver seen in several versions."""
    out: dict[str, list] = {}
    for col in COMPARABLE:
        if col in df.columns:
            values = sorted({v for v in df[col].dropna().tolist()}, key=str)
            if len(values) > 1:
                out[col] = values
    if {"solver", "solver_version"} <= set(df.columns):
        for solver, versions in df.dropna(subset=["solver", "solver_version"]).groupby("solver")[
            "solver_version"
        ]:
            if versions.nunique() > 1:
                out[f"{solver} version"] = sorted(versions.unique(), key=str)
    return out


def describe_incomparable(found: dict[str, list]) -> str:
    """``"timeout (20.0, 60.0); machine_id (a, b)"``."""
    return "; ".join(f"{name} ({', '.join(map(str, values))})" for name, values in found.items())


def require_comparable(df: pd.DataFrame, what: str) -> None:
    """Refuse ``what`` (a plot, a table) over runs measured under different settings."""
    found = {k: v for k, v in incomparable(df).items() if k in COMPARABLE}
    if found:
        raise PuzzleError(
            f"{what}: the runs are not comparable, they differ in {describe_incomparable(found)}; "
            f"select one setting first (e.g. df[df.timeout == {found.get('timeout', ['T'])[0]}])"
        )


class DuplicateRecordsWarning(UserWarning):
    """Records sharing a key were dropped (the first of each key is kept)."""


def drop_duplicate_keys(df: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """``(df without repeated keys, how many rows were dropped)``: the first record of each
    ``key`` stays; records without a key are all kept."""
    if df.empty or "key" not in df.columns:
        return df, 0
    repeated = df["key"].notna() & df.duplicated("key", keep="first")
    dropped = int(repeated.sum())
    return (df[~repeated].reset_index(drop=True), dropped) if dropped else (df, 0)


def _paths(path_or_paths: str | Path | Iterable[str | Path]) -> list[Path]:
    items = [path_or_paths] if isinstance(path_or_paths, (str, Path)) else list(path_or_paths)
    out: list[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            out.extend(sorted(p.glob("*.jsonl")))
        elif p.exists():
            out.append(p)
        else:
            raise ResultsNotFound(f"no results at {p}")
    return out


def _flatten(record: dict[str, Any]) -> dict[str, Any]:
    """Nested ``size``/``search`` dicts (if a producer wrote them) become ``size_k``/``search_k``."""
    for group in ("size", "search"):
        nested = record.pop(group, None)
        if isinstance(nested, dict):
            for k, v in nested.items():
                record.setdefault(f"{group}_{k}", v)
    if "label" not in record and "paradigm" in record:
        record["label"] = make_label(
            record["paradigm"], record.get("encoding", "default"), record.get("options") or {}
        )
    return record


def is_solved(row: pd.Series | dict) -> bool:
    """Goal reached: sat/unsat, verifier accepts, and ``count`` answers found or search exhausted."""
    if row.get("status") not in SOLVED_STATUSES or row.get("verdict") == "invalid":
        return False
    limit = row.get("count_limit")
    found = row.get("count") or 0
    reached = bool(row.get("exhausted")) or (limit is not None and not pd.isna(limit) and 0 < limit <= found)
    return reached


def _shown(path: Path) -> str:
    """``path`` relative to the working folder when inside it (tables name no machine paths)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load(path_or_paths: str | Path | Iterable[str | Path]) -> pd.DataFrame:
    """Every record of one or more JSON-lines files (or folders of them) as one DataFrame; the
    ``source`` column names each record's file."""
    records = [
        _flatten(dict(r, source=_shown(p))) for p in _paths(path_or_paths) for r in read_records(p, runs=True)
    ]
    df = pd.DataFrame.from_records(records)
    if df.empty:
        return pd.DataFrame(columns=list(COLUMNS))
    # Rule: a run counts once; the first record of a key is kept (the one stored first)
    df, dropped = drop_duplicate_keys(df)
    if dropped:
        warnings.warn(
            f"{dropped} duplicate record(s) dropped: a run key stored more than once; "
            "the first record of each key is kept",
            DuplicateRecordsWarning,
            stacklevel=2,
        )
    for col in COLUMNS:  # records of failed runs lack measurements; the columns are still there
        if col not in df.columns:
            df[col] = None
    # records written before solvers were named: the backend was the paradigm's one solver
    df["solver"] = df["solver"].where(df["solver"].notna(), df["backend"])
    df["solver_version"] = df["solver_version"].where(df["solver_version"].notna(), df["backend_version"])
    df["machine_id"] = [machine_id(m) if isinstance(m, dict) and m else None for m in df["machine"]]
    found = incomparable(df)
    if found:
        warnings.warn(
            f"runs measured under different settings: {describe_incomparable(found)}; reports split "
            "them and plots refuse them until one setting is selected",
            IncomparableRunsWarning,
            stacklevel=2,
        )
    df["solved"] = [is_solved(r) for r in df.to_dict("records")]
    timeout = pd.to_numeric(df.get("timeout"), errors="coerce")
    df["par2"] = pd.to_numeric(df["time_total"], errors="coerce").where(df["solved"], 2 * timeout)
    leading = [c for c in COLUMNS if c in df.columns]
    sized = sorted(c for c in df.columns if c.startswith(("size_", "search_")))
    rest = [c for c in df.columns if c not in leading and c not in sized]
    df = df[leading + sized + rest]
    df.attrs["duplicates_dropped"] = dropped
    return df


def _flat_copy(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    for col in NESTED:
        if col in out:
            out[col] = [
                json.dumps(v, sort_keys=True, default=str) if isinstance(v, (dict, list)) else v
                for v in out[col]
            ]
    return out


#: First characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _inert(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula, with a leading ``'`` (OWASP's
    advice: the quote makes it text); anything else as it is."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def to_csv(df: pd.DataFrame, path: str | Path) -> Path:
    """Write ``df`` as CSV (dict and list columns as JSON text).

    Rule: a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
    written with a leading ``'`` (record fields such as ``error`` or a puzzle id come from
    outside); numbers are written as they are."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    flat = _flat_copy(df)
    for col in flat.columns:
        if not pd.api.types.is_numeric_dtype(flat[col]) and not pd.api.types.is_bool_dtype(flat[col]):
            flat[col] = flat[col].map(_inert)
    flat.columns = [_inert(str(c)) for c in flat.columns]
    flat.to_csv(path, index=False)
    return path


def to_parquet(df: pd.DataFrame, path: str | Path) -> Path:
    """Write ``df`` as Parquet (dict and list columns as JSON text)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    flat = _flat_copy(df)
    for col in flat.columns:  # mixed object columns (None beside numbers or text) as text
        if not pd.api.types.is_numeric_dtype(flat[col]) and not pd.api.types.is_bool_dtype(flat[col]):
            flat[col] = flat[col].map(
                lambda v: None if v is None or (isinstance(v, float) and pd.isna(v)) else str(v)
            )
    flat.to_parquet(path, index=False)
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text).strip("_")


def to_mkplot(df: pd.DataFrame, path: str | Path, benchmark: str = "puzzlebench") -> list[Path]:
    """One mkplot JSON file per solver configuration (label) in the folder ``path``.

    Format (mkplot's ``load_json``): ``{"preamble": {"benchmark", "program", "prog_args",
    "prog_alias"}, "stats": {instance: {"status": bool, "rtime": seconds, "mempeak": "N KiB"}}}``.
    Instances are ``suite/puzzle_id``; with repetitions, the median time of the instance is used
    and it counts as solved only if every repetition was.
    """
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if df.empty:
        return written
    frame = df.assign(instance=df["suite"].astype(str) + "/" + df["puzzle_id"].astype(str))
    for label, group in frame.groupby("label", sort=True):
        stats: dict[str, Any] = {}
        for instance, runs in group.groupby("instance", sort=True):
            solved = bool(runs["solved"].all())
            rtime = float(runs["time_total"].median()) if solved else float(runs["timeout"].max())
            entry: dict[str, Any] = {"status": solved, "rtime": rtime}
            if "peak_rss_mb" in runs and runs["peak_rss_mb"].notna().any():
                entry["mempeak"] = f"{int(runs['peak_rss_mb'].max() * 1024)} KiB"
            stats[str(instance)] = entry
        first = group.iloc[0]
        preamble = {
            "benchmark": benchmark,
            "program": str(label),
            "prog_alias": str(label),
            "prog_args": json.dumps(first.get("options") or {}, sort_keys=True, default=str),
        }
        out = folder / f"{_slug(str(label))}.json"
        out.write_text(json.dumps({"preamble": preamble, "stats": stats}, indent=1) + "\n", encoding="utf-8")
        written.append(out)
    return written


__all__ = [
    "COLUMNS",
    "DuplicateRecordsWarning",
    "drop_duplicate_keys",
    "is_solved",
    "load",
    "to_csv",
    "to_mkplot",
    "to_parquet",
]
