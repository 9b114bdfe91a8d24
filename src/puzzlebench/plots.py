"""The standard plots of the field, drawn from the results DataFrame.

Every function takes the DataFrame of :func:`puzzlebench.results.load` (one row per run) and
returns a matplotlib Figure; nothing is shown or saved unless asked. A run counts as solved when
its status is ``sat`` or ``unsat`` and the verifier did not reject its answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

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
PARADIGM_COLOURS = {"asp": "tab:blue", "smt": "tab:purple", "sat": "tab:green", "cp": "tab:orange",
                    "minizinc": "tab:brown", "puzzlekit": "tab:gray"}
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
        out[label] = {"marker": MARKERS[i % len(MARKERS)], "linestyle": LINESTYLES[i % len(LINESTYLES)],
                      **({"color": colour} if colour else {})}
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


def cactus(df: pd.DataFrame, by: str = "label", time: str = TIME, vbs: bool = False, title: str | None = None) -> Figure:
    """Instances solved (x) within a time (y, log scale), one line per configuration."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    runs = df[solved_mask(df)]
    labels = _labels(df, by)
    styles = _styles(labels)
    for label in labels:
        times = np.sort(runs.loc[runs[by] == label, time].to_numpy(dtype=float))
        if len(times):
            ax.plot(np.arange(1, len(times) + 1), times, markersize=3, label=str(label), **styles[label])
    if vbs and len(runs):
        best = runs.assign(_inst=_instance(runs)).groupby("_inst")[time].min().sort_values().to_numpy()
        ax.plot(np.arange(1, len(best) + 1), best, "k--", linewidth=1.2, label="virtual best")
    ax.set_yscale("log")
    ax.set_xlabel("instances solved")
    ax.set_ylabel(f"{time.replace('time_', '')} time per instance (s)")
    ax.set_title(title or "Cactus plot")
    ax.grid(True, which="both", alpha=0.3)
    _legend(fig, ax, len(labels) + vbs)
    fig.tight_layout()
    return fig


def scatter(df: pd.DataFrame, x: str, y: str, by: str = "label", time: str = TIME, timeout: float | None = None) -> Figure:
    """Per-instance times of configuration ``x`` against ``y`` (log-log); unsolved runs sit on the border."""
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
        ax.scatter(pairs.loc[border, x], pairs.loc[border, y], s=18, marker="x", color="red", label="timeout / failure")
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
    ax.set_title("Per-instance time (dotted: 10x)")
    ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def power_law(cells: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    """Fit ``value = a * cells**k`` by least squares in log-log space; returns (k, a)."""
    ok = (cells > 0) & (values > 0)
    if ok.sum() < 2 or len(np.unique(cells[ok])) < 2:
        return float("nan"), float("nan")
    k, log_a = np.polyfit(np.log(cells[ok]), np.log(values[ok]), 1)
    return float(k), float(np.exp(log_a))


def _vs_grid(df: pd.DataFrame, value: str, by: str, ylabel: str, title: str) -> Figure:
    data = df[df[value].notna()].assign(cells=lambda d: d["rows"] * d["cols"])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    labels = _labels(data, by)
    styles = _styles(labels)
    for label in labels:
        part = data[data[by] == label]
        grouped = part.groupby("cells")[value].median()
        if grouped.empty:
            continue
        k, a = power_law(part["cells"].to_numpy(float), part[value].to_numpy(float))
        line = ax.plot(grouped.index, grouped.to_numpy(), markersize=4, **styles[label],
                       label=f"{label} (k={k:.2f})" if np.isfinite(k) else str(label))[0]
        if np.isfinite(k):
            xs = np.array([grouped.index.min(), grouped.index.max()], dtype=float)
            ax.plot(xs, a * xs**k, linestyle=":", color=line.get_color(), linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("grid size (cells, R x C)")
    ax.set_ylabel(ylabel)
    ax.set_title(title + " (dotted: fitted power law, value ~ cells^k)")
    ax.grid(True, which="both", alpha=0.3)
    _legend(fig, ax, len(labels))
    fig.tight_layout()
    return fig


def size_vs_grid(df: pd.DataFrame, size: str | None = None, by: str = "label") -> Figure:
    """Encoding size against grid size, log-log, with each series' fitted exponent in the legend.

    ``size`` defaults to the first size column present among atoms, variables, constraints.
    Sizes count different things per paradigm (atoms vs variables), so compare within a paradigm.
    """
    if size is None:
        size = next((c for c in ("size_atoms", "size_variables", "size_constraints", "size_assertions") if c in df), None)
        if size is None:
            raise KeyError("no size_* column in the results")
    return _vs_grid(df, size, by, size.replace("size_", "") + " (count)", "Encoding size vs grid size")


def runtime_vs_grid(df: pd.DataFrame, by: str = "label", time: str = TIME) -> Figure:
    """Median solved-run time against grid size, log-log, one series per configuration."""
    return _vs_grid(df[solved_mask(df)], time, by, f"{time.replace('time_', '')} time (s)", "Runtime vs grid size")


def ablation_bars(df: pd.DataFrame, option: str, metrics: Sequence[str] = (TIME, "size_atoms"), by: str = "paradigm") -> Figure:
    """Median time and size per value of one option (e.g. ``connectivity``), grouped by paradigm."""
    values = df["options"].map(lambda o: (o or {}).get(option) if isinstance(o, dict) else None)
    data = df.assign(_value=values.astype(str))[values.notna()]
    metrics = [m for m in metrics if m in data and data[m].notna().any()]
    if not metrics:
        raise KeyError(f"none of the metrics are present for option {option!r}")
    fig, axes = plt.subplots(1, len(metrics), figsize=(5.5 * len(metrics), 4.2), squeeze=False)
    for ax, metric in zip(axes[0], metrics):
        table = data.groupby([by, "_value"])[metric].median().unstack("_value")
        table.plot.bar(ax=ax, logy=True, rot=0)
        ax.set_ylabel(("time (s)" if metric.startswith("time") else metric.replace("size_", "") + " (count)") + ", median")
        ax.set_xlabel(by)
        ax.set_title(f"{metric} by {option}")
        ax.legend(title=option, fontsize="small")
    fig.tight_layout()
    return fig


def agreement_matrix(df: pd.DataFrame, by: str = "label") -> Figure:
    """Share of shared, answered instances on which two configurations give the same answer."""
    data = df[df["status"].isin(SOLVED + ("wrong",))].assign(_inst=_instance(df))
    data = data.assign(_answer=data["status"].astype(str) + ":" + data["count"].astype(str) + ":" + data["solution_hash"].fillna("").astype(str))
    wide = data.pivot_table(index="_inst", columns=by, values="_answer", aggfunc="first")
    labels = list(wide.columns)
    n = len(labels)
    mat = np.full((n, n), np.nan)
    for i, a in enumerate(labels):
        for j, b in enumerate(labels):
            both = wide[[a, b]].dropna() if a != b else wide[[a]].dropna()
            if len(both):
                mat[i, j] = (both.iloc[:, 0] == both.iloc[:, -1]).mean()
    fig, ax = plt.subplots(figsize=(1.0 + 0.7 * max(n, 2), 0.8 + 0.6 * max(n, 2)))
    im = ax.imshow(mat, vmin=0, vmax=1, cmap="RdYlGn")
    ax.set_xticks(range(n), labels, rotation=45, ha="right", fontsize="small")
    ax.set_yticks(range(n), labels, fontsize="small")
    for i in range(n):
        for j in range(n):
            if np.isfinite(mat[i, j]):
                ax.text(j, i, f"{mat[i, j]:.0%}", ha="center", va="center", fontsize="x-small")
    fig.colorbar(im, ax=ax, label="instances with the same answer")
    ax.set_title("Agreement between configurations")
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
        for col in ("size_atoms", "size_variables", "size_constraints"):
            if col in part and part[col].notna().any():
                save(size_vs_grid(part[part[col].notna()], col), f"{family}_{col}_vs_grid")
        save(agreement_matrix(part), f"{family}_agreement")
        has_conn = part["options"].map(lambda o: isinstance(o, dict) and "connectivity" in o)
        if has_conn.any() and part.loc[has_conn, "options"].map(lambda o: o["connectivity"]).nunique() > 1:
            save(ablation_bars(part[has_conn], "connectivity"), f"{family}_connectivity_ablation")
    return written
