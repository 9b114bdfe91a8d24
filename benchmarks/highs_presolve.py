"""What HiGHS's presolve does with a board's MIP model, and what a uniqueness proof costs under
each way of confirming its infeasible verdicts.

Two measurements per puzzle file (default: the bundled 100x100 Kuromasu boards):

* ``rules``: the family's default MIP model (as ``pb.solve`` builds it), presolved by HiGHS alone
  (``Highs.presolve``, one thread) with every rule on, then with one rule at a time switched off
  (``presolve_rule_off``, bit k), and with every rule off: the presolved model's rows and columns
  and the presolve's wall time. A rule whose removal leaves columns the whole presolve removes
  matters, and it is also run alone (every other rule off).
* ``solve``: ``pb.solve(count=2)`` with the defaults, and with the proof's runs presolved
  (``proof_presolve=same``) under each ``confirm`` value: status, uniqueness, times, HiGHS runs,
  confirmations. Every answer is checked against the bundled solution beside the puzzle.

Writes ``rows.jsonl`` and ``summary.json`` (machine, versions, settings) into ``--out``.

Usage::

    .venv/bin/python benchmarks/highs_presolve.py [PUZZLE ...] [--rules 0-18] [--timeout 60]
        [--no-solve] [--no-rules] [--out results/highs-presolve]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tqdm import tqdm

import puzzlebench as pb
from puzzlebench import registry
from puzzlebench.bench.metadata import git_commit, machine, timestamp, versions
from puzzlebench.formats import load_solution

REPO = Path(__file__).resolve().parent.parent
BOARDS = [REPO / "puzzles" / "gen-kuromasu" / f"kuromasu-100x100-s{k}.pzl" for k in (1, 2, 3)]
#: The solve variants: the defaults, and the proof presolved under each confirmation.
VARIANTS: dict[str, dict[str, str]] = {
    "default": {},
    "presolved proof, confirm=unpresolved": {"proof_presolve": "same", "confirm": "unpresolved"},
    "presolved proof, confirm=reseeded": {"proof_presolve": "same", "confirm": "reseeded"},
}


def rule_bits(text: str) -> list[int]:
    """``0-18`` or ``12,15`` as a list of bit numbers."""
    bits: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        bits.extend(range(int(lo), int(hi or lo) + 1))
    return bits


def presolved(model, rule_off: int) -> dict:
    """HiGHS's presolve of ``model`` with the rules of ``rule_off`` switched off."""
    from puzzlebench.solvers.highs_backend import _new_highs, load_model

    highs = _new_highs()
    highs.setOptionValue("threads", 1)
    highs.setOptionValue("presolve_rule_off", rule_off)
    load_model(highs, model)
    start = time.perf_counter()
    highs.presolve()
    seconds = time.perf_counter() - start
    lp = highs.getPresolvedLp()
    return {"rows": int(lp.num_row_), "cols": int(lp.num_col_), "presolve_s": round(seconds, 3)}


def solved(puzzle, truth, options: dict, timeout: float) -> dict:
    result = pb.solve(puzzle, "mip", count=2, timeout=timeout, **options)
    extra = result.extra
    return {
        "status": result.status.value,
        "answers": len(result.solutions),
        "exhausted": result.exhausted,
        "unique": result.status.value == "sat" and result.exhausted and len(result.solutions) == 1,
        "correct": all(s.cells == truth.cells for s in result.solutions),
        "time_build_s": round(result.timings.build, 3),
        "time_total_s": round(result.timings.total, 3),
        "cpu_s": round(result.timings.cpu, 3),
        "runs": extra.get("runs", 0),
        "lazy_rounds": extra.get("lazy_rounds", 0),
        "infeasible_reseeded": extra.get("infeasible_reseeded", 0),
        "infeasible_confirmations": extra.get("infeasible_confirmations", 0),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "puzzles", nargs="*", type=Path, help="puzzle files (default: the bundled 100x100 Kuromasu boards)"
    )
    ap.add_argument(
        "--rules", default="0-18", help="presolve rule bits to switch off one at a time (default 0-18)"
    )
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per solve (default 60)")
    ap.add_argument("--no-rules", action="store_true", help="leave the presolve-rule measurement out")
    ap.add_argument("--no-solve", action="store_true", help="leave the solves out")
    ap.add_argument("--out", type=Path, default=REPO / "results" / "highs-presolve")
    args = ap.parse_args(argv)
    paths = args.puzzles or BOARDS
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise SystemExit(f"no such puzzle file: {', '.join(missing)}")
    bits = rule_bits(args.rules)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    deciding: set[int] = set()  # the rules whose removal leaves columns the whole presolve removes
    for path in tqdm(paths, desc="boards", unit="board"):
        puzzle = pb.load(path)
        truth = load_solution(path.with_name(path.name.replace(".pzl", ".solution.pzl")), puzzle)
        if not args.no_rules:
            spec = registry.get(puzzle.family, "mip")
            model = spec.build(puzzle, spec.resolve({}))
            base = {
                "kind": "rules",
                "puzzle": path.name,
                "model_rows": model.num_rows,
                "model_cols": model.num_cols,
            }
            every = (1 << (max(bits) + 1)) - 1
            whole = {**base, "rule_off": None, **presolved(model, 0)}
            rows += [whole, {**base, "rule_off": "all", **presolved(model, every)}]
            for bit in bits:
                rows.append({**base, "rule_off": bit, **presolved(model, 1 << bit)})
                if rows[-1]["cols"] > whole["cols"]:  # a rule that matters: what it does alone
                    deciding.add(bit)
                    rows.append(
                        {**base, "rule_off": f"all but {bit}", **presolved(model, every & ~(1 << bit))}
                    )
        if not args.no_solve:
            for name, options in VARIANTS.items():
                rows.append(
                    {
                        "kind": "solve",
                        "puzzle": path.name,
                        "variant": name,
                        "options": options,
                        **solved(puzzle, truth, options, args.timeout),
                    }
                )
    summary = {
        "kind": "highs-presolve",
        "timestamp": timestamp(),
        "commit": git_commit(),
        "machine": machine(),
        "versions": versions(),
        "settings": {
            "puzzles": [p.name for p in paths],
            "rules": bits,
            "timeout_s": args.timeout,
            "variants": VARIANTS,
        },
        "rules_whose_removal_leaves_columns": sorted(deciding),
        "solve": {
            name: {
                "unique": sum(r["unique"] for r in rows if r.get("variant") == name),
                "correct": all(r["correct"] for r in rows if r.get("variant") == name),
                "time_total_s": [r["time_total_s"] for r in rows if r.get("variant") == name],
            }
            for name in VARIANTS
        }
        if not args.no_solve
        else {},
    }
    (args.out / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k not in ("machine", "versions")}, indent=1))


if __name__ == "__main__":
    main()
