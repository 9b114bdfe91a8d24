"""The text report of a results table: solved counts, PAR-2, virtual best solver,
disagreements between complete encodings, and failures.

Repetitions of a run are first folded into one instance per (puzzle, configuration): solved
only if every repetition was, timed by the median. PAR-2 is the mean over puzzles of the time
to solve, with every unsolved puzzle (timeout, memout, crash, error, wrong) counted as twice
the timeout. The virtual best solver takes, per puzzle, the best complete configuration.

Each run counts once: records repeating a run's ``key`` are dropped (the first is kept) and the
report says how many, whether :func:`puzzlebench.results.load` dropped them or they are in the
frame given.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

FAILURES = ("crash", "memout", "error", "wrong")
INSTANCE = ["family", "suite", "puzzle_id", "puzzle_hash"]


def instances(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (puzzle, configuration): repetitions folded."""
    keys = INSTANCE + ["label"]
    df = df.assign(solver_text=_solver_text(df))
    for col in ("time_deduce", "settled"):  # records from before the deduction stage: none ran
        df[col] = pd.to_numeric(df[col], errors="coerce").fillna(0) if col in df.columns else 0.0
    return (
        df.groupby(keys, dropna=False, sort=True)
        .agg(
            solved=("solved", "all"),
            par2=("par2", "median"),
            time=("time_total", "median"),
            time_min=("time_total", "min"),
            time_max=("time_total", "max"),
            repeats=("time_total", "size"),
            deduce=("time_deduce", "median"),
            settled=("settled", "median"),
            complete=("complete", "first"),
            paradigm=("paradigm", "first"),
            encoding=("encoding", "first"),
            solver=("solver_text", "first"),
        )
        .reset_index()
    )


def _solver_text(df: pd.DataFrame) -> pd.Series:
    """``name version`` of each run's solver ('' when the records do not say)."""
    if "solver" not in df.columns:
        return pd.Series([""] * len(df), index=df.index)
    version = (
        df["solver_version"]
        if "solver_version" in df.columns
        else pd.Series([None] * len(df), index=df.index)
    )
    return [
        (
            f"{name}" + (f" {ver}" if isinstance(ver, str) and ver and not ver.startswith(str(name)) else "")
            if isinstance(name, str)
            else ""
        )
        for name, ver in zip(df["solver"], version)
    ]


def solved_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per configuration and family: puzzles, solved, PAR-2 (mean seconds per puzzle), the
    deduction stage's mean seconds and settled cells per puzzle (both in the PAR-2), and for
    configurations run more than once the repetitions and the spread of their times (the median
    over puzzles of (slowest - fastest) / median repetition; NaN for single runs)."""
    inst = instances(df)
    inst = inst.assign(
        spread=((inst["time_max"] - inst["time_min"]) / inst["time"]).where(inst["repeats"] > 1)
    )
    table = (
        inst.groupby(["label", "family"], sort=True)
        .agg(
            puzzles=("solved", "size"),
            solved=("solved", "sum"),
            par2=("par2", "mean"),
            deduce=("deduce", "mean"),
            settled=("settled", "mean"),
            repeats=("repeats", "max"),
            spread=("spread", "median"),
            complete=("complete", "first"),
            solver=("solver", "first"),
        )
        .reset_index()
    )
    table["solved"] = table["solved"].astype(int)
    return table


def vbs_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per family, the virtual best of the complete configurations, and who was best how often."""
    inst = instances(df)
    inst = inst[inst["complete"].fillna(False).astype(bool)]
    rows: list[dict[str, Any]] = []
    for family, group in inst.groupby("family", sort=True):
        per_puzzle = group.sort_values(["par2", "label"]).groupby(INSTANCE, dropna=False).first()
        best = per_puzzle[per_puzzle["solved"]]["label"].value_counts()
        rows.append(
            {
                "family": family,
                "puzzles": len(per_puzzle),
                "solved": int(per_puzzle["solved"].sum()),
                "par2": float(per_puzzle["par2"].mean()),
                "fastest": ", ".join(f"{label} {n}" for label, n in best.items()),
            }
        )
    return pd.DataFrame(rows, columns=["family", "puzzles", "solved", "par2", "fastest"])


def _bounds(row: pd.Series) -> tuple[float, float]:
    """What a run proves about the number of answers: [low, high]."""
    found = int(row.get("count") or 0)
    if row.get("exhausted"):
        return found, found
    return found, math.inf


def _view(row: pd.Series) -> str:
    lo, hi = _bounds(row)
    count = f"{lo}" if lo == hi else f">={lo}"
    answer = f" answer {row['solution_hash']}" if lo == hi == 1 else ""
    return (
        f"{row['label']}: {row['status']}, {count} answer(s){answer}, verifier {row.get('verdict') or 'none'}"
    )


def disagreements(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Puzzles where complete configurations contradict each other (or the suite's known count).

    Counts contradict when what the runs prove cannot both hold (exhausted counts differ, or one
    exhausted below what another found); unique answers contradict when their cells differ.
    """
    runs = df[df["complete"].fillna(False).astype(bool) & df["status"].isin(["sat", "unsat", "wrong"])]
    out: list[dict[str, Any]] = []
    for (family, suite, pid, _), group in runs.groupby(INSTANCE, dropna=False, sort=True):
        views = group.drop_duplicates(["label", "count", "exhausted", "solution_hash", "verdict"])
        problems: list[str] = []
        rows = [r for _, r in views.iterrows()]
        for i, a in enumerate(rows):
            for b in rows[i + 1 :]:
                (alo, ahi), (blo, bhi) = _bounds(a), _bounds(b)
                if ahi < blo or bhi < alo:
                    problems.append(f"counts: {a['label']} vs {b['label']}")
                elif alo == ahi == blo == bhi == 1 and a["solution_hash"] != b["solution_hash"]:
                    problems.append(f"unique answers differ: {a['label']} vs {b['label']}")
            expected = a.get("expected_count")
            if expected is not None and not pd.isna(expected):
                lo, hi = _bounds(a)
                if not lo <= int(expected) <= hi:
                    problems.append(f"{a['label']} vs the suite's known count {int(expected)}")
        if problems:
            out.append(
                {
                    "family": family,
                    "suite": suite,
                    "puzzle_id": pid,
                    "problems": sorted(set(problems)),
                    "views": [_view(r) for r in rows],
                }
            )
    return out


def failures(df: pd.DataFrame) -> pd.DataFrame:
    """Runs that crashed, ran out of memory, errored or answered wrongly."""
    bad = df[df["status"].isin(FAILURES)]
    cols = ["status", "label", "suite", "puzzle_id", "repeat", "error"]
    out = bad[[c for c in cols if c in bad.columns]].copy()
    if "error" in out:
        out["error"] = out["error"].map(lambda e: (str(e).strip().splitlines() or [""])[0][:100] if e else "")
    return out


def _asked_counts(df: pd.DataFrame) -> dict[str, int]:
    """Configurations asked for another number of answers than most runs (e.g. a peer that
    cannot prove uniqueness asked for one), label -> count asked."""
    if "count_limit" not in df or df["count_limit"].isna().all():
        return {}
    usual = df["count_limit"].mode().iloc[0]
    per_label = df.groupby("label")["count_limit"].first()
    return {label: int(n) for label, n in per_label.items() if pd.notna(n) and n != usual}


def format_report(df: pd.DataFrame) -> str:
    """The whole report as text."""
    from ..results import COMPARABLE, describe_incomparable, drop_duplicate_keys, incomparable

    if df.empty:
        return "no records"
    # Rule: a run counts once (duplicates dropped at loading, or still in this frame)
    already = int(df.attrs.get("duplicates_dropped", 0) or 0)
    df, found = drop_duplicate_keys(df)
    lines: list[str] = []
    statuses = df["status"].value_counts()
    lines.append(
        f"{len(df)} runs over {df['puzzle_hash'].nunique()} puzzles, {df['label'].nunique()} configurations; "
        + ", ".join(f"{s} {n}" for s, n in statuses.items())
    )
    if "load_avg" in df.columns and pd.to_numeric(df["load_avg"], errors="coerce").notna().any():
        load = pd.to_numeric(df["load_avg"], errors="coerce").dropna()
        lines.append(
            f"Machine load (1-minute load average at the end of each run): median {load.median():.2f}, "
            f"max {load.max():.2f}"
        )
    if already + found:
        lines.append(
            f"Duplicate records dropped: {already + found} (a run key stored more than once; "
            "the first record of each key is counted)"
        )
    differ = incomparable(df)
    split = [col for col in COMPARABLE if col in differ]
    if differ:
        lines.append(
            f"Not comparable as one set: the runs differ in {describe_incomparable(differ)}"
            + (f"; the tables are split by {', '.join(split)}" if split else "")
        )
    if split:
        for values, group in df.groupby(split, dropna=False, sort=True):
            values = values if isinstance(values, tuple) else (values,)
            lines += ["", "== " + ", ".join(f"{c} = {v}" for c, v in zip(split, values)) + " =="]
            lines += _tables(group)
    else:
        lines += _tables(df)
    return "\n".join(lines)


def _tables(df: pd.DataFrame) -> list[str]:
    """The solved/PAR-2, virtual best, disagreement and failure tables of comparable runs."""
    lines = ["", "Solved and PAR-2 (s, mean per puzzle; unsolved count 2 x timeout), by family:"]
    table = solved_table(df)
    table["solved"] = table["solved"].astype(str) + "/" + table["puzzles"].astype(str)
    asked = _asked_counts(df)
    if asked:
        table["label"] = table["label"].map(
            lambda label: f"{label} (count={asked[label]})" if label in asked else label
        )
    relaxed = table["complete"].eq(False)
    table.loc[relaxed, "label"] = table.loc[relaxed, "label"] + " (relaxed)"
    table = table.sort_values(["family", "label"], kind="stable")
    repeated = table["repeats"].gt(1).any()
    if repeated:
        table["spread"] = [
            f"{r}x, {s:.0%}" if r > 1 and s == s else "" for r, s in zip(table["repeats"], table["spread"])
        ]
    shown = table.drop(columns=["puzzles", "complete", "repeats"] + ([] if repeated else ["spread"]))
    lines.append(
        shown.rename(
            columns={"par2": "PAR-2", "deduce": "deduce s", "settled": "settled", "spread": "repeats, spread"}
        ).to_string(index=False, float_format=lambda x: f"{x:.3f}")
    )
    if repeated:
        lines.append(
            "repeats, spread: runs per puzzle, and the median over puzzles of (slowest - fastest) / median "
            "of the repetitions; PAR-2 takes each puzzle's median repetition"
        )
    if relaxed.any():
        lines.append(
            "(relaxed): an encoding without one of the rules; it counts as solved only where every "
            "answer it found passed the verifier, i.e. where the dropped rule was not needed"
        )
    vbs = vbs_table(df)
    if not vbs.empty:
        lines += ["", "Virtual best solver (complete configurations):"]
        lines.append(
            vbs.rename(columns={"par2": "PAR-2"}).to_string(index=False, float_format=lambda x: f"{x:.3f}")
        )
    found = disagreements(df)
    lines += ["", f"Disagreements between complete encodings: {len(found)}"]
    for d in found:
        lines.append(f"  {d['family']} {d['suite']}/{d['puzzle_id']}: " + "; ".join(d["problems"]))
        lines += [f"    {v}" for v in d["views"]]
    bad = failures(df)
    lines += ["", f"Failures (crash/memout/error/wrong): {len(bad)}"]
    if not bad.empty:
        lines.append(bad.to_string(index=False, max_colwidth=100))
    return lines
