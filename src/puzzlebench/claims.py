"""The README's findings, written from the results files that hold them (no typed numbers).

Each claim is a sentence built from one results file of this checkout, and names the machine
and date of the run that measured it:

* ``results/janko/summary.json`` (``benchmarks/janko.py``): the paradigms against puzzlekit, and
  ``results/janko-<family>/summary.json``: one family's run kept apart (its family's line only);
* ``results/connectivity/summary.csv`` (``benchmarks/connectivity.py``): what Kuromasu's
  connectivity rule costs;
* ``results/solvers-<family>/summary.json`` (``benchmarks/solvers.py``): every solver pair;
* ``results/frontier/summary.json`` (``benchmarks/frontier.py``): the largest Kuromasu boards;
* ``results/<machine>/report.txt`` (``puzzlebench main``, ``make bench``): the bundled suites, for the
  reference machine(s) named in ``results/reference.json`` (``{"main": ["<host>-<machine id>"]}``);
  without that file, every machine of ``results/machines.json`` (the main job's own, untracked index).

``python -m puzzlebench.claims --readme README.md`` rewrites the block between the
``<!-- claims -->`` and ``<!-- /claims -->`` markers; the tests check that the README's block is
what this module writes from the committed results.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from pathlib import Path
from typing import Any

BEGIN, END = "<!-- claims -->", "<!-- /claims -->"


def _load_json(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _where(doc: dict[str, Any]) -> str:
    machine = doc.get("machine") or {}
    when = str(doc.get("timestamp", "?"))[:10]
    return f"{machine.get('cores', '?')}-core {machine.get('cpu', 'unknown CPU')}, {when}"


_NAMES = {"akari": "Akari", "kuromasu": "Kuromasu", "hitori": "Hitori", "nurikabe": "Nurikabe"}


def janko_claims(root: Path) -> list[str]:
    """The corpus run (``results/janko``) and runs of one family kept apart (``results/janko-<family>``)."""
    corpus = _load_json(root / "janko" / "summary.json")
    out = _janko_run(corpus)
    in_corpus = list(corpus.get("families", ())) if corpus else []
    lines = {
        f: i + 1
        for i, f in enumerate(
            f
            for f in in_corpus
            if corpus and any(r["family"] == f and r["paradigm"] != "puzzlekit" for r in corpus["summary"])
        )
    }
    for path in sorted(root.glob("janko-*/summary.json")):
        doc = _load_json(path)
        if doc and len(doc.get("families", ())) == 1:
            line = _janko_run(doc, apart=True)[1:]  # its family's line; the first speaks for the whole corpus
            family = doc["families"][0]
            if line and family in lines:  # a later run of a corpus family stands in for the corpus run's line
                out[lines[family]] = line[0]
            else:
                out += line
    return out


def _config(row: dict[str, Any]) -> str:
    """A summary row's configuration as the claims name it: the paradigm, and the deduction stage
    when the run compared settings of it."""
    name = row["paradigm"].upper()
    config = row.get("config")
    if not config or config == row["paradigm"]:
        return name
    return f"{name} (deduce={row.get('deduce') or config.partition('deduce=')[2].rstrip(']')})"


def _janko_run(doc: dict[str, Any] | None, apart: bool = False) -> list[str]:
    if not doc:
        return []
    rows = doc["summary"]
    peer = "puzzlekit"
    ours = [r for r in rows if r["paradigm"] != peer]
    puzzles = {r["family"]: r["puzzles"] for r in rows}
    solved_all = all(r["solved"] == r["puzzles"] for r in ours)
    out = [
        f"**Every paradigm's default encoding {'solves' if solved_all else 'does not solve'} every janko puzzle** "
        f"with its published answer and a uniqueness proof: "
        + ", ".join(f"{puzzles[f]:,} {_NAMES.get(f, f)}" for f in doc["families"])
        + (f", every {doc['every']}th of each corpus" if (doc.get("every") or 1) > 1 else "")
        + f" ({sum(r['puzzles'] for r in ours):,} runs of "
        + ", ".join(dict.fromkeys(r["paradigm"].upper() for r in ours))
        + f"; `benchmarks/janko.py`, {_where(doc)})"
        + (
            ""
            if solved_all
            else ": not solved and proven within the limit, "
            + ", ".join(
                f"{_config(r)} {r['puzzles'] - r['solved']} {_NAMES.get(r['family'], r['family'])}"
                for r in ours
                if r["solved"] < r["puzzles"]
            )
        )
        + "."
    ]
    for family in doc["families"]:
        mine = [r for r in ours if r["family"] == family]
        theirs = next((r for r in rows if r["family"] == family and r["paradigm"] == peer), None)
        if not mine:
            continue
        best = min(mine, key=lambda r: r["total_s"])
        others = ", ".join(
            f"{_config(r)} {r['total_s']:.1f} s"
            for r in sorted(mine, key=lambda r: r["total_s"])
            if r is not best
        )
        sampled = best.get("peer_puzzles") and (doc.get("peer_every") or 1) > 1
        if sampled:  # puzzlekit ran on a sample (janko.py --peer-every)
            versus = (
                f"; on the {best['peer_puzzles']} puzzles puzzlekit ran (every {doc.get('peer_every')}th) "
                f"{best['on_peer_puzzles_s']:.2f} s against puzzlekit's {theirs['total_s']:.2f} s "
                f"({best['vs_puzzlekit']:.3f}; one answer, no proof)"
                if theirs and best.get("vs_puzzlekit") is not None
                else ""
            )
        else:
            versus = (
                f", {best['vs_puzzlekit']:.3f} of puzzlekit's {theirs['total_s']:.2f} s (one answer, no proof)"
                if theirs and best.get("vs_puzzlekit") is not None
                else ""
            )
        worst = max(mine, key=lambda r: r["worst_s"] or 0)
        unsolved = [f"{_config(r)} {r['puzzles'] - r['solved']}" for r in mine if r["solved"] < r["puzzles"]]
        count = f" ({best['puzzles']:,} puzzles)" if sampled else ""
        if apart:  # a run of its own: which paradigms ran in it, where and when
            count = (
                f" ({best['puzzles']:,} puzzles; "
                + ", ".join(_config(r) for r in sorted(mine, key=lambda r: r["total_s"]))
                + (" and puzzlekit" if theirs else "")
                + f" in one run, {_where(doc)})"
            )
        limit = doc.get("timeout")
        out.append(
            f"{_NAMES.get(family, family)}{count}: "
            f"{_config(best)} is fastest, {best['total_s']:.2f} s in all"
            f"{versus}{f'; then {others}' if others else ''}; the slowest puzzle of any paradigm takes {worst['worst_s']:.2f} s "
            f"({_config(worst)}, {worst['worst_id']})"
            + (
                f"; not solved and proven{f' within {limit:g} s' if limit else ''}: " + ", ".join(unsolved)
                if unsolved
                else ""
            )
            + "."
        )
    return out


def _sample(doc: dict) -> str:
    """How the corpus was sampled: every Nth puzzle, when the run did not take them all."""
    every = int(doc.get("every") or 1)
    nth = {1: "st", 2: "nd", 3: "rd"}.get(every % 10 if every % 100 not in (11, 12, 13) else 0, "th")
    return f" (every {every}{nth} of the corpus)" if every > 1 else ""


def _growth(rows: list[dict]) -> str:
    """The fitted time exponents of the steepest and the gentlest variant that have one."""
    fitted = [r for r in rows if r.get("time_k") not in (None, "")]
    if len(fitted) < 2:
        return ""
    name = lambda r: f"{r['paradigm'].upper()} {r['connectivity']}"
    lo, hi = (min(fitted, key=lambda r: float(r["time_k"])), max(fitted, key=lambda r: float(r["time_k"])))
    return (
        f"; time grows as cells^k with k = {float(hi['time_k']):.2f} [{float(hi['time_k_low']):.2f}, "
        f"{float(hi['time_k_high']):.2f}] for {name(hi)} down to {float(lo['time_k']):.2f} for {name(lo)} "
        f"(95% intervals)"
    )


def connectivity_claims(root: Path) -> list[str]:
    path = root / "connectivity" / "summary.csv"
    meta = _load_json(root / "connectivity" / "summary.json") or {}
    try:
        with path.open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    except OSError:
        return []

    def row(paradigm: str, encoding: str, connectivity: str) -> dict[str, str] | None:
        return next(
            (
                r
                for r in rows
                if (r["paradigm"], r["encoding"], r["connectivity"]) == (paradigm, encoding, connectivity)
            ),
            None,
        )

    def ratio(r: dict[str, str] | None, col: str) -> str:
        return f"{float(r[col]):.2f}x" if r and r.get(col) not in (None, "") else "?"

    reach, lazy, prop = (
        row("asp", "default", "reach"),
        row("sat", "default", "lazy"),
        row("sat", "default", "propagator"),
    )
    closure, seed = row("asp", "default", "closure"), row("asp", "seed000", "closure")
    cheaper = [
        f"{name} {ratio(r, 'vs_none')}"
        for name, r in (("ASP reach", reach), ("SAT lazy cuts", lazy), ("SAT propagator", prop))
        if r
    ]
    out = [
        f'**Seed 000\'s question** (why "all white cells connected" slowed its solver): on '
        f"{reach['puzzles'] if reach else '?'} janko Kuromasu puzzles{_sample(meta)}, relative to the same encoding without the rule, "
        + ", ".join(cheaper)
        + (
            f"; the all-pairs closure is {ratio(closure, 'vs_none')} inside our program and seed 000's own "
            f"program is {ratio(seed, 'vs_none')} (boards up to 400 cells), with "
            f"{float(closure['mean_size']):,.0f} ground rules on average against {float(reach['mean_size']):,.0f} for reach"
            if closure and seed and reach
            else ""
        )
        + _growth([r for r in meta.get("summary", []) if not r["relaxed"]])
        + f" (`benchmarks/connectivity.py`{', ' + _where(meta) if meta else ''})."
    ]
    return out


def solver_claims(root: Path) -> list[str]:
    out = []
    for path in sorted(root.glob("solvers-*/summary.json")):
        doc = _load_json(path)
        if not doc:
            continue
        family = path.parent.name.removeprefix("solvers-")
        table = [t for t in doc["table"] if t["encoding"] == "default"]
        wrong = sorted(
            {cfg for d in doc["disagreements"] for cfg, what in d["answers"].items() if what == "none"}
        )
        sat = [t for t in table if t["paradigm"] == "sat" and t["vs_default_solver"]]
        smt = {t["solver"]: t for t in table if t["paradigm"] == "smt"}
        text = (
            f"{_NAMES.get(family, family)}, every solver ({doc['runs']:,} runs, `benchmarks/solvers.py`, {_where(doc)}): "
            f"{len(doc['disagreements'])} puzzle(s) on which two (solver, encoding) pairs prove different things"
        )
        if wrong:
            text += f" ({', '.join(wrong)} wrongly report no answer)"
        if sat:
            text += (
                f"; the {len(sat)} SAT solvers are within {min(t['vs_default_solver'] for t in sat):.2f}-"
                f"{max(t['vs_default_solver'] for t in sat):.2f}x of the default"
            )
        if "cvc5" in smt and smt["cvc5"]["vs_default_solver"]:
            text += f"; cvc5 takes {smt['cvc5']['vs_default_solver']:.1f}x z3's time"
        out.append(text + ".")
    return out


def other_connectivity_claims(root: Path) -> list[str]:
    """The same question on other families' corpora (``connectivity.py --family``)."""
    out = []
    for path in sorted(root.glob("connectivity-*/summary.json")):
        doc = _load_json(path)
        if not doc:
            continue
        rows = [r for r in doc["summary"] if not r["relaxed"] and r.get("vs_none")]
        parts = [
            f"{r['paradigm'].upper()} {r['connectivity']}{' (default)' if r['default'] else ''} "
            f"{r['vs_none']:.2f}x"
            for r in rows
            if r["default"] or r["connectivity"] in ("propagator", "reach")
        ]
        unique = next((r["unique_without_rule"] for r in doc["summary"] if r["relaxed"]), None)
        family = _NAMES.get(doc["family"], doc["family"])
        out.append(
            f"The same question on {doc['puzzles']} janko {family} puzzles{_sample(doc)}: relative to the same "
            f"encoding without the rule, "
            + ", ".join(parts)
            + (f"; without it {unique} of them get their one valid answer" if unique is not None else "")
            + _growth(rows)
            + f" (`benchmarks/connectivity.py --family {doc['family']}`, {_where(doc)})."
        )
    return out


def frontier_claims(root: Path) -> list[str]:
    doc = _load_json(root / "frontier" / "summary.json")
    if not doc:
        return []
    side = doc["side"]
    solves = sorted(
        (r for r in doc["summary"] if r["kind"] == "solve" and not r["options"]),
        key=lambda r: (-r["solved"], r["median_s"]),
    )
    parts = [
        f"{r['paradigm'].upper()} {r['solved']}/{r['runs']}, median {r['median_s']:.1f} s, worst {r['worst_s']:.1f} s"
        for r in solves
    ]
    text = (
        f"The frontier, {side}x{side} Kuromasu (the bundled boards, `count=2`, timeout {doc['timeout']:g} s): "
        + "; ".join(parts)
    )
    made = [r for r in doc["summary"] if r["kind"] == "generate"]
    if made:
        text += f"; generating one board with its uniqueness proof takes {made[0]['median_s']:.0f} s"
    return [text + f" (`benchmarks/frontier.py`, {_where(doc)})."]


def main_job_claims(root: Path) -> list[str]:
    reference = _load_json(root / "reference.json")
    names = (
        reference.get("main", [])
        if isinstance(reference, dict)
        else sorted(_load_json(root / "machines.json") or {})
    )
    out = []
    for name in names:
        report = root / name / "report.txt"
        machine = _load_json(root / name / "machine.json") or {}
        if not report.exists():
            continue
        head = report.read_text(encoding="utf-8").splitlines()[0]
        took = ""
        if (root / name / "main.jsonl").exists():
            from .bench.store import read_records

            times = (r.get("time_wall") for r in read_records(root / name / "main.jsonl"))
            walls = [w for w in times if isinstance(w, (int, float))]
            # the runs are sequential: their wall times add up to the job's time, less start-up and plots
            took = f", the runs taking {sum(walls) / 60:.0f} min one after another" if walls else ""
        disagreements = re.search(
            r"Disagreements between complete encodings: (\d+)", report.read_text(encoding="utf-8")
        )
        out.append(
            f"The main job on `{name}` ({_where(machine)}{took}): {head}; "
            f"{disagreements.group(1) if disagreements else '?'} disagreements between complete encodings "
            f"(`results/{name}/report.txt`)."
        )
    return out


def claims(root: str | Path = "results") -> list[str]:
    """Every claim the results under ``root`` support, in README order."""
    root = Path(root)
    return (
        janko_claims(root)
        + solver_claims(root)
        + connectivity_claims(root)
        + other_connectivity_claims(root)
        + frontier_claims(root)
        + main_job_claims(root)
    )


def block(root: str | Path = "results") -> str:
    """The README block: the claims as a list between the markers."""
    body = "\n".join(f"- {c}" for c in claims(root))
    return f"{BEGIN}\n{body}\n{END}"


def rewrite(readme: str | Path, root: str | Path = "results") -> bool:
    """Replace the README's claims block; True if it changed."""
    path = Path(readme)
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{path}: no {BEGIN} ... {END} block")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    new = text[:start] + block(root) + text[end:]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="print, or write into a README, the claims the results support")
    ap.add_argument("--results", default="results")
    ap.add_argument("--readme", help="rewrite this file's claims block")
    args = ap.parse_args(argv)
    if args.readme:
        print("rewritten" if rewrite(args.readme, args.results) else "unchanged", args.readme)
    else:
        print(block(args.results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
