"""The standard plots of the field, drawn from the results DataFrame.

Every function takes the DataFrame of :func:`puzzlebench.results.load` (one row per run) and
returns a matplotlib Figure; nothing is shown or saved unless asked. A run counts as solved when
its status is ``sat`` or ``unsat`` and the verifier did not reject its answer. Plots of times
refuse runs measured under different settings (timeout, memory limit, machine): select one first.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import LogFormatterSciNotation, LogLocator, NullFormatter

from .results import require_comparable
from .stats import fit_power_law

SOLVED = ("sat", "unsat")
TIME = "time_total"


def solved_mask(df: pd.DataFrame) -> pd.Series:
    """Rows whose run answered and whose answer (if any) passed the verifier; where the frame
    has a ``solved`` column (:func:`puzzlebench.results.load`), also runs that reached their goal
    (a run that found one answer but timed out proving uniqueness is not solved)."""
    ok = df["status"].isin(SOLVED)
    if "verdict" in df:
        ok &= df["verdict"].fillna("none") != "invalid"
    if "solved" in df:
        ok &= df["solved"].fillna(False).astype(bool)
    return ok


def _labels(df: pd.DataFrame, by: str) -> list[str]:
    return sorted(df[by].dropna().unique(), key=str)


#: One colour family per paradigm, so every configuration of a paradigm reads as kin.
PARADIGM_COLOURS = {
    "asp": "tab:blue",
    "smt": "tab:purple",
    "sat": "tab:green",
    "cp": "tab:orange",
    "minizinc": "tab:brown",
    "puzzlekit": "tab:gray",
}
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
LINESTYLES = ("-", "--", "-.", (0, (3, 1, 1, 1)), (0, (5, 2)))


def _styles(labels: Sequence[str]) -> dict[str, dict]:
    """Line style per label: the paradigm (text before the first '/') picks the colour, the
    label's rank within its paradigm the marker and dash pattern."""
    seen: dict[str, int] = {}
    out = {}
    for label in labels:
        paradigm = str(label).split("/", 1)[0]
        i = seen.get(paradigm, 0)
        seen[paradigm] = i + 1
        colour = PARADIGM_COLOURS.get(paradigm)
        out[label] = {
            "marker": MARKERS[i % len(MARKERS)],
            "linestyle": LINESTYLES[i % len(LINESTYLES)],
            **({"color": colour} if colour else {}),
        }
    return out


def _legend(fig: Figure, ax, entries: int) -> None:
    """A legend inside the axes for a few series, beside them for many (it would hide the data)."""
    if entries > 6:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
        fig.set_size_inches(11, 4.8)
    else:
        ax.legend(fontsize="small")


def _timeout_of(df: pd.DataFrame, timeout: float | None) -> float:
    if timeout is not None:
        return float(timeout)
    if "timeout" in df and df["timeout"].notna().any():
        return float(df["timeout"].max())
    return float(df[TIME].max()) * 2 if len(df) else 1.0


def _instance(df: pd.DataFrame) -> pd.Series:
    key = df["puzzle_id"].astype(str)
    if "family" in df:
        key = df["family"].astype(str) + ":" + key
    return key


#: One colour per phase of a run, used by every figure that draws phases (build before solve).
PHASE_COLOURS = {"deduce": "tab:green", "build": "tab:orange", "solve": "tab:blue"}
#: The stages of a run, in order, with the record's column and the legend's words.
PHASES = (
    ("deduce", "time_deduce", "deduce (the deduction stage)"),
    ("build", "time_build", "build (encode, ground, load)"),
    ("solve", "time_solve", "solve (search, uniqueness proof)"),
)

#: The natural size metric of each paradigm: what its solver is actually handed.
NATURAL_SIZE = {
    "asp": "size_rules",
    "sat": "size_clauses",
    "smt": "size_assertions",
    "cp": "size_constraints",
    "mip": "size_constraints",
    "minizinc": "size_flat_constraints",
    "puzzlekit": "size_constraints",
}
_SIZE_FALLBACK = (
    "size_constraints",
    "size_clauses",
    "size_rules",
    "size_assertions",
    "size_atoms",
    "size_variables",
)

UNSOLVED_LABEL = "timeout/unsolved"


def _families(df: pd.DataFrame) -> list:
    """The families of the frame (``[None]`` when it has no family column or no family)."""
    if "family" not in df:
        return [None]
    fams = sorted(df["family"].dropna().unique(), key=str)
    return fams or [None]


def _of_family(df: pd.DataFrame, family) -> pd.DataFrame:
    return df if family is None or "family" not in df else df[df["family"] == family]


def _named(title: str, family) -> str:
    """``title`` naming ``family`` (prefixed unless it already does)."""
    if family is None or str(family).lower() in title.lower():
        return title
    return f"{family}: {title}"


def _tidy_log(ax) -> None:
    """No labels on minor ticks of log axes (they overlap); a short range gets 1-2-5 major ticks instead."""
    for axis, lim in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
        if axis.get_scale() != "log":
            continue
        axis.set_minor_formatter(NullFormatter())
        lo, hi = sorted(lim)
        if lo > 0 and hi / lo < 10**1.5:
            axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            axis.set_major_formatter(LogFormatterSciNotation(labelOnlyBase=False))


def _relaxed(rows: pd.DataFrame) -> bool:
    """Runs of an encoding that drops constraints (``complete`` False): its answers may fail the verifier."""
    return "complete" in rows and bool(rows["complete"].eq(False).any())


def _count_limit(rows: pd.DataFrame):
    if "count_limit" not in rows:
        return None
    limits = pd.to_numeric(rows["count_limit"], errors="coerce").dropna()
    return int(limits.mode().iloc[0]) if len(limits) else None


def _marks(df: pd.DataFrame, labels: Sequence, by: str) -> dict:
    """Per label: ``(suffix, relaxed)``; the suffix says "(relaxed)" for incomplete encodings and
    "(count=N)" where the label asked for another number of answers than most of the frame."""
    majority = _count_limit(df)
    out = {}
    for label in labels:
        rows = df[df[by] == label]
        suffix, relaxed = "", _relaxed(rows)
        if relaxed:
            suffix += " (relaxed)"
        limit = _count_limit(rows)
        if limit is not None and majority is not None and limit != majority:
            suffix += f" (count={limit})"
        out[label] = (suffix, relaxed)
    return out


def _panels(n: int, width: float = 7, height: float = 4.5):
    fig, axes = plt.subplots(n, 1, figsize=(width, height * n), squeeze=False)
    return fig, list(axes[:, 0])


def _instance_sets(df: pd.DataFrame, by: str) -> list[tuple[object, frozenset, list]]:
    """``(family, instance set, labels)`` groups: the configurations of a family run on the same
    instances, larger sets first (a cactus line only compares with lines over the same set)."""
    groups = []
    for family in _families(df):
        part = _of_family(df, family)
        inst = _instance(part)
        sets: dict[frozenset, list] = {}
        for label in _labels(part, by):
            sets.setdefault(frozenset(inst[part[by] == label]), []).append(label)
        for key in sorted(sets, key=lambda k: (-len(k), sorted(k))):
            groups.append((family, key, sets[key]))
    return groups


def cactus(
    df: pd.DataFrame, by: str = "label", time: str = TIME, vbs: bool = False, title: str | None = None
) -> Figure:
    """Instances solved (x) within a time (y, log scale), one line per configuration.

    Lines are only drawn together when their configurations ran on the same instances: one panel
    per family and instance set, its size ("n=24 puzzles") in the panel title. Relaxed encodings
    (``complete`` False) are dashed and marked "(relaxed)", configurations asked for another number
    of answers than most are marked "(count=N)"; neither enters the virtual best.
    """
    require_comparable(df, "cactus plot")
    df = df.reset_index(drop=True)  # a frame concatenated from several may repeat index values
    groups = _instance_sets(df, by)
    fig, axes = _panels(len(groups))
    solved = solved_mask(df)
    for ax, (family, instances, labels) in zip(axes, groups):
        part = _of_family(df, family)
        part = part[part[by].isin(labels)]
        runs = part[solved.loc[part.index].to_numpy()]
        styles = _styles(labels)
        marks = _marks(part, labels, by)
        entries = 0
        for label in labels:
            times = np.sort(runs.loc[runs[by] == label, time].to_numpy(dtype=float))
            if len(times):
                suffix, relaxed = marks[label]
                style = {**styles[label], "linestyle": "--" if relaxed else "-"}
                ax.plot(np.arange(1, len(times) + 1), times, markersize=3, label=str(label) + suffix, **style)
                entries += 1
        if vbs:
            exact = [label for label in labels if not marks[label][0]]
            best_runs = runs[runs[by].isin(exact)]
            if len(best_runs):
                best = (
                    best_runs.assign(_inst=_instance(best_runs))
                    .groupby("_inst")[time]
                    .min()
                    .sort_values()
                    .to_numpy()
                )
                ax.plot(np.arange(1, len(best) + 1), best, "k:", linewidth=1.4, label="virtual best")
                entries += 1
        ax.set_yscale("log")
        ax.set_xlabel("instances solved")
        ax.set_ylabel(f"{time.replace('time_', '')} time per instance (s)")
        n = f"n={len(instances)} puzzles"
        if len(groups) == 1:
            ax.set_title(_named(f"{title} ({n})" if title else f"Cactus plot, {n}", family))
        else:
            ax.set_title(_named(n if title else f"Cactus plot, {n}", family))
        ax.grid(True, which="both", alpha=0.3)
        if entries:
            _legend(fig, ax, entries)
        _tidy_log(ax)
    if title and len(groups) > 1:
        fig.suptitle(_named(title, groups[0][0]) if len({g[0] for g in groups}) == 1 else title)
    if len(groups) > 1:
        w, h = fig.get_size_inches()
        fig.set_size_inches(w, 4.5 * len(groups))
    fig.tight_layout()
    return fig


def scatter(
    df: pd.DataFrame, x: str, y: str, by: str = "label", time: str = TIME, timeout: float | None = None
) -> Figure:
    """Per-instance times of configuration ``x`` against ``y`` (log-log); unsolved runs sit on the border."""
    require_comparable(df, "scatter plot")
    limit = _timeout_of(df, timeout)
    data = df.assign(_inst=_instance(df), _t=np.where(solved_mask(df), df[time], limit))
    wide = data.pivot_table(index="_inst", columns=by, values="_t", aggfunc="median")
    if x not in wide or y not in wide:
        raise KeyError(f"no runs labelled {x!r} and {y!r} (have: {', '.join(map(str, wide.columns))})")
    pairs = wide[[x, y]].dropna()
    fig, ax = plt.subplots(figsize=(5, 5))
    border = (pairs[x] >= limit) | (pairs[y] >= limit)
    ax.scatter(pairs.loc[~border, x], pairs.loc[~border, y], s=12, alpha=0.7, label="both solved")
    if border.any():
        ax.scatter(
            pairs.loc[border, x],
            pairs.loc[border, y],
            s=18,
            marker="x",
            color="red",
            label="timeout / failure",
        )
    lo = max(min(pairs.min().min(), limit) * 0.5, 1e-5)
    ax.plot([lo, limit], [lo, limit], "k-", linewidth=0.8)
    for f in (10, 0.1):
        ax.plot([lo, limit], [lo * f, limit * f], "k:", linewidth=0.6)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, limit * 1.3)
    ax.set_ylim(lo, limit * 1.3)
    ax.set_xlabel(f"{x} (s)")
    ax.set_ylabel(f"{y} (s)")
    fams = _families(df)
    ax.set_title(_named("Per-instance time (dotted: 10x)", fams[0] if len(fams) == 1 else None))
    ax.legend(fontsize="small")
    _tidy_log(ax)
    fig.tight_layout()
    return fig


def _vs_grid(
    df: pd.DataFrame,
    value: str | dict,
    by: str,
    ylabel: str,
    title: str,
    unsolved: pd.DataFrame | None = None,
    timeout: float | None = None,
) -> Figure:
    """Median ``value`` against grid cells per series, log-log, one panel per family.

    ``value`` is a column, or a mapping paradigm -> column (each series then plots its paradigm's
    column, named in its legend label). ``unsolved`` rows are drawn as "x" at the timeout line."""

    def column(rows: pd.DataFrame) -> str | None:
        if isinstance(value, str):
            return value
        paradigm = rows["paradigm"].iloc[0] if "paradigm" in rows and len(rows) else None
        col = value.get(paradigm)
        if col is None or col not in rows or rows[col].isna().all():
            col = next((c for c in _SIZE_FALLBACK if c in rows and rows[c].notna().any()), None)
        return col

    cells = lambda d: d["rows"] * d["cols"]
    data = df.assign(cells=cells)
    if unsolved is not None:
        unsolved = unsolved.assign(cells=cells)
    limit = _timeout_of(df if unsolved is None else pd.concat([df, unsolved]), timeout)
    frame = data if unsolved is None else pd.concat([data, unsolved])
    families = _families(frame)
    fig, axes = _panels(len(families))
    for ax, family in zip(axes, families):
        part = _of_family(data, family)
        lost = _of_family(unsolved, family) if unsolved is not None else None
        labels = _labels(_of_family(frame, family), by)
        styles = _styles(labels)
        marks = _marks(_of_family(frame, family), labels, by)
        entries = 0
        for label in labels:
            rows = part[part[by] == label]
            col = column(rows) if len(rows) else None
            rows = rows[rows[col].notna()] if col else rows.iloc[:0]
            suffix = marks[label][0]
            name = (
                str(label)
                + suffix
                + ("" if isinstance(value, str) or col is None else f": {col.replace('size_', '')}")
            )
            n_lost = int((lost[by] == label).sum()) if lost is not None else 0
            grouped = rows.groupby("cells")[col].median() if col else pd.Series(dtype=float)
            colour = None
            if not grouped.empty:
                fit = fit_power_law(rows["cells"].to_numpy(float), rows[col].to_numpy(float))
                k, a = fit.k, fit.a
                extra = [fit.text()] if fit.fitted else []
                if n_lost:
                    extra.append(f"{n_lost} unsolved")
                line = ax.plot(
                    grouped.index,
                    grouped.to_numpy(),
                    markersize=4,
                    **styles[label],
                    label=name + (f" ({', '.join(extra)})" if extra else ""),
                )[0]
                colour = line.get_color()
                entries += 1
                if np.isfinite(k):
                    xs = np.array([grouped.index.min(), grouped.index.max()], dtype=float)
                    ax.plot(xs, a * xs**k, linestyle=":", color=colour, linewidth=1)
            if n_lost and lost is not None:
                xs = lost.loc[lost[by] == label, "cells"].to_numpy(float)
                ax.plot(
                    xs,
                    np.full(len(xs), limit),
                    linestyle="none",
                    marker="x",
                    markersize=6,
                    color=colour or styles[label].get("color", "k"),
                    label="_nolegend_" if colour else f"{name} ({n_lost} unsolved)",
                )
                entries += colour is None
        if lost is not None and len(lost):
            ax.axhline(limit, color="grey", linestyle="--", linewidth=0.8)
            ax.plot(
                [], [], linestyle="none", marker="x", color="k", label=f"{UNSOLVED_LABEL} (at {limit:g} s)"
            )
            entries += 1
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("grid size (cells, R x C)")
        ax.set_ylabel(ylabel)
        ax.set_title(_named(title + " (dotted: fitted power law, value ~ cells^k, 95% interval)", family))
        ax.grid(True, which="both", alpha=0.3)
        if entries:
            _legend(fig, ax, entries)
        _tidy_log(ax)
    if len(families) > 1:
        w, _ = fig.get_size_inches()
        fig.set_size_inches(w, 4.5 * len(families))
    fig.tight_layout()
    return fig


def size_vs_grid(df: pd.DataFrame, size: str | None = None, by: str = "label") -> Figure:
    """Encoding size against grid size, log-log, with each series' fitted exponent in the legend.

    By default each paradigm plots its own natural size (:data:`NATURAL_SIZE`: ASP rules, SAT
    clauses, SMT assertions, CP/MIP constraints), named in its legend label; a series never mixes
    metrics. ``size`` plots one column for every series that has it (compare within a paradigm:
    "variables" are integers for CP and Booleans for SAT).
    """
    df = df.reset_index(drop=True)  # a frame concatenated from several may repeat index values
    if size is not None:
        if size not in df:
            raise KeyError(f"no column {size!r} in the results")
        return _vs_grid(
            df[df[size].notna()],
            size,
            by,
            size.replace("size_", "") + " (count)",
            "Encoding size vs grid size",
        )
    if not any(c.startswith("size_") for c in df.columns):
        raise KeyError("no size_* column in the results")
    return _vs_grid(
        df,
        dict(NATURAL_SIZE),
        by,
        "size (count; metric per series in the legend)",
        "Encoding size vs grid size",
    )


def runtime_vs_grid(df: pd.DataFrame, by: str = "label", time: str = TIME) -> Figure:
    """Median solved-run time against grid size, log-log, one series per configuration; unsolved
    runs are drawn as "x" on the timeout line (legend: "timeout/unsolved")."""
    require_comparable(df, "runtime vs grid plot")
    df = df.reset_index(drop=True)  # a frame concatenated from several may repeat index values
    ok = solved_mask(df)
    return _vs_grid(
        df[ok & df[time].notna()],
        time,
        by,
        f"{time.replace('time_', '')} time (s)",
        "Runtime vs grid size",
        unsolved=df[~ok],
    )


_DEFAULTS: dict[tuple, object] = {}


def family_growth(
    runs: pd.DataFrame, value: str = "time_total", ylabel: str = "median total time (s)"
) -> Figure:
    """Median ``value`` against board cells per connectivity variant, log-log, one panel per family:
    the runs of ``benchmarks/connectivity.py`` (``analysis.connectivity_runs``) that finished
    (sat or unsat; timeouts would flatten the curves). The legend gives each fitted exponent."""
    done = runs[runs["status"].isin(["sat", "unsat"]) & runs[value].notna() & (runs[value] > 0)]
    families = list(dict.fromkeys(done["family"]))
    fig, axes = _panels(max(len(families), 1))
    for ax, family in zip(axes, families):
        part = done[done["family"] == family]
        labels = sorted(part["variant"].unique())
        styles = _styles(labels)
        for label in labels:
            rows = part[part["variant"] == label]
            med = rows.groupby("cells")[value].median()
            fit = fit_power_law(rows["cells"].to_numpy(), rows[value].to_numpy())
            name = f"{label} (k={fit.k:.2f})" if fit.fitted else f"{label} (no fit)"
            ax.plot(med.index, med.to_numpy(), label=name, markersize=4, **styles[label])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("cells")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{family}: {ylabel} per board size", fontsize="medium")
        _tidy_log(ax)
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    fig.set_size_inches(11, 4.5 * len(axes))
    fig.tight_layout()
    return fig


def _default_option(family, paradigm, encoding, option: str):
    """The registry's default of ``option`` for one encoding (None when it has no such option)."""
    key = (family, paradigm, encoding, option)
    if key not in _DEFAULTS:
        try:
            from . import registry

            _DEFAULTS[key] = registry.get(family, paradigm, encoding or "default").option(option).default
        except Exception:  # unknown family/encoding, or the encoding has no such option
            _DEFAULTS[key] = None
    return _DEFAULTS[key]


def option_values(df: pd.DataFrame, option: str) -> pd.Series:
    """The value of ``option`` each run used: ``resolved_options`` when recorded, else ``options``,
    else (a default run, stored as ``options={}``) the registry's default for its encoding."""
    out = []
    for row in df.to_dict("records"):
        value = None
        for col in ("resolved_options", "options"):
            opts = row.get(col)
            if isinstance(opts, dict) and option in opts:
                value = opts[option]
                break
        if value is None and row.get("family") is not None and row.get("paradigm") is not None:
            value = _default_option(row.get("family"), row.get("paradigm"), row.get("encoding"), option)
        out.append(value)
    return pd.Series(out, index=df.index, dtype=object)


def ablation_bars(
    df: pd.DataFrame, option: str, metrics: Sequence[str] = (TIME, "size_atoms"), by: str = "paradigm"
) -> Figure:
    """Median time and size per value of one option (e.g. ``connectivity``), grouped by paradigm.

    Default runs appear under their real value (see :func:`option_values`). A value whose runs
    use a relaxed encoding (``complete`` False: its answers may fail the verifier) is hatched and
    labelled "(relaxed)". One row of panels per family.
    """
    require_comparable(df, "ablation bars plot")
    df = df.reset_index(drop=True)  # a frame concatenated from several may repeat index values
    values = option_values(df, option)
    data = df.assign(_value=values.astype(str))[values.notna()]
    metrics = [m for m in metrics if m in data and data[m].notna().any()]
    if not metrics:
        raise KeyError(f"none of the metrics are present for option {option!r}")
    families = _families(data)
    fig, axes = plt.subplots(
        len(families), len(metrics), figsize=(5.5 * len(metrics), 4.2 * len(families)), squeeze=False
    )
    for row_axes, family in zip(axes, families):
        part = _of_family(data, family)
        relaxed = {v for v, rows in part.groupby("_value") if _relaxed(rows)}
        names = {v: f"{v} (relaxed)" if v in relaxed else v for v in part["_value"].unique()}
        for ax, metric in zip(row_axes, metrics):
            table = part.groupby([by, "_value"])[metric].median().unstack("_value")
            if table.empty or table.isna().all().all():
                ax.set_title(_named(f"{metric} by {option} (no data)", family))
                continue
            table = table.rename(columns=names)
            table.plot.bar(ax=ax, logy=True, rot=0, legend=False)
            for name, bars in zip(table.columns, ax.containers):
                if name.endswith("(relaxed)"):
                    for bar in bars:
                        bar.set_hatch("//")
                        bar.set_edgecolor("k")
            ax.set_ylabel(
                ("time (s)" if metric.startswith("time") else metric.replace("size_", "") + " (count)")
                + ", median"
            )
            ax.set_xlabel(by)
            ax.set_title(_named(f"{metric} by {option}", family))
            ax.legend(
                title=option + (" (hatched: relaxed, answers may fail the verifier)" if relaxed else ""),
                fontsize="small",
                title_fontsize="small",
            )
            _tidy_log(ax)
    fig.tight_layout()
    return fig


def _answer_sets(data: pd.DataFrame) -> list[frozenset]:
    out = []
    for many, one in zip(
        data.get("solution_hashes", pd.Series([None] * len(data), index=data.index)), data["solution_hash"]
    ):
        if isinstance(many, (list, tuple, np.ndarray)) and len(many):
            out.append(frozenset(map(str, many)))
        elif isinstance(one, str) and one:
            out.append(frozenset(one.split(",")))
        else:
            out.append(frozenset())
    return out


def _agree(a: dict, b: dict) -> bool | None:
    """True/False when two answers of one instance are comparable, None when they are not.

    Comparable: both enumerations exhausted (same status, same answer set); or a definite
    contradiction (an answer of a count-limited run missing from an exhausted run's full set)."""
    if a["done"] and b["done"]:
        return a["status"] == b["status"] and a["set"] == b["set"]
    for full, part in ((a, b), (b, a)):
        if full["done"] and not part["done"] and not part["set"] <= full["set"]:
            return False
    return None


def agreement_matrix(df: pd.DataFrame, by: str = "label") -> Figure:
    """Share of comparable shared instances on which two configurations give the same answers.

    Answers are compared as sets (all solution hashes of a run), and only where both runs
    exhausted the enumeration (``exhausted``, or ``unsat``): a run stopped at its count limit
    found *some* answers, so two such runs are "not comparable" (grey cell, "n/c") unless one's
    answers contradict the other's complete set. Frames without an ``exhausted`` column (legacy)
    compare the answers as recorded. The count limit is in the title; one panel per family.
    """
    df = df.reset_index(drop=True)  # a frame concatenated from several may repeat index values
    legacy = "exhausted" not in df
    data = df[df["status"].isin(SOLVED + ("wrong",))]
    data = data.assign(_inst=_instance(data), _set=_answer_sets(data))
    families = _families(data)
    fig, axes = plt.subplots(len(families), 1, squeeze=False)
    width = height = 0.0
    for ax, family in zip(axes[:, 0], families):
        part = _of_family(data, family)
        labels = _labels(part, by)
        n = len(labels)
        answers: dict = {}
        for row in part.to_dict("records"):
            done = legacy or bool(row.get("exhausted")) is True or row.get("status") == "unsat"
            answers.setdefault(row[by], {}).setdefault(
                row["_inst"], {"status": row["status"], "set": row["_set"], "done": done}
            )
        mat = np.full((n, n), np.nan)
        shared = np.zeros((n, n), dtype=int)
        for i, a in enumerate(labels):
            for j, b in enumerate(labels):
                common = set(answers.get(a, {})) & set(answers.get(b, {}))
                shared[i, j] = len(common)
                agreed = (_agree(answers[a][k], answers[b][k]) for k in common)
                verdicts = [v for v in agreed if v is not None]
                if verdicts:
                    mat[i, j] = float(np.mean(verdicts))
        cmap = plt.get_cmap("RdYlGn").with_extremes(bad="lightgrey")
        im = ax.imshow(np.ma.masked_invalid(mat), vmin=0, vmax=1, cmap=cmap)
        ax.set_xticks(range(n), labels, rotation=45, ha="right", fontsize="small")
        ax.set_yticks(range(n), labels, fontsize="small")
        for i in range(n):
            for j in range(n):
                if np.isfinite(mat[i, j]):
                    ax.text(j, i, f"{mat[i, j]:.0%}", ha="center", va="center", fontsize="x-small")
                elif shared[i, j]:
                    ax.text(j, i, "n/c", ha="center", va="center", fontsize="x-small", color="dimgrey")
        fig.colorbar(im, ax=ax, label="comparable instances with the same answers")
        limit = _count_limit(part)
        notes = ([f"count={limit}"] if limit is not None else []) + (
            [] if legacy else ["grey n/c: not comparable, enumeration not exhausted"]
        )
        title = "Agreement between configurations" + (f" ({'; '.join(notes)})" if notes else "")
        ax.set_title(_named(title, family), fontsize="medium")
        width = max(width, 2.5 + 0.7 * max(n, 2))
        height += 1.6 + 0.6 * max(n, 2)
    fig.set_size_inches(max(width, 6.5), height)
    fig.tight_layout()
    return fig


def phase_bars(df: pd.DataFrame, by: str | Sequence[str] = "label") -> Figure:
    """Time per stage (deduce, build, solve), summed over runs and stacked, in seconds, coloured
    by :data:`PHASE_COLOURS` (records without a deduction stage count it as 0 s)."""
    keys = [by] if isinstance(by, str) else list(by)
    phases = [(name, col, words) for name, col, words in PHASES if col in df.columns]
    g = df.groupby(keys)[[col for _, col, _ in phases]].sum()
    g.index = [" / ".join(map(str, k)) if isinstance(k, tuple) else str(k) for k in g.index]
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(g) + 1.8))
    g.plot.barh(stacked=True, ax=ax, color=[PHASE_COLOURS[name] for name, _, _ in phases])
    ax.set_xlabel("time summed over runs (s)")
    ax.set_ylabel(" / ".join(keys))
    fams = _families(df)
    ax.set_title(_named("Time per stage, summed over runs", fams[0] if len(fams) == 1 else None))
    ax.legend(
        [words for _, _, words in phases],
        fontsize="small",
        loc="upper center",
        bbox_to_anchor=(0.5, -0.15),
        ncol=len(phases),
    )
    fig.tight_layout()
    return fig


def save_standard_plots(df: pd.DataFrame, outdir: str | Path) -> list[Path]:
    """Write the standard figures as PNG (one set per family) and return their paths."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(fig: Figure, name: str) -> None:
        path = outdir / f"{name}.png"
        fig.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(fig)
        written.append(path)

    for family, part in df.groupby("family"):
        if part.empty:
            continue
        save(cactus(part, vbs=True, title=f"{family}: instances solved"), f"{family}_cactus")
        save(runtime_vs_grid(part), f"{family}_runtime_vs_grid")
        if any(c.startswith("size_") and part[c].notna().any() for c in part.columns):
            save(size_vs_grid(part), f"{family}_size_vs_grid")
        for col in ("size_atoms", "size_variables", "size_constraints"):
            if col in part and part[col].notna().any():
                save(size_vs_grid(part[part[col].notna()], col), f"{family}_{col}_vs_grid")
        save(agreement_matrix(part), f"{family}_agreement")
        conn = option_values(part, "connectivity")
        if conn.dropna().nunique() > 1:
            save(ablation_bars(part[conn.notna()], "connectivity"), f"{family}_connectivity_ablation")
        if {"time_build", "time_solve"} <= set(part.columns) and part[
            ["time_build", "time_solve"]
        ].notna().any().any():
            save(phase_bars(part), f"{family}_build_vs_solve")
    return written
