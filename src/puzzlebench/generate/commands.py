"""The ``generate`` and ``generate-suites`` commands of the ``puzzlebench`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import generators
from .common import GenerationError, parse_size


def _option_value(text: str):
    """``key=value`` values: JSON when it parses (numbers, true/false), else the string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _cmd_generate(args: argparse.Namespace) -> int:
    from tqdm.auto import tqdm

    from ..cli import parse_options
    from ..formats import dump, dump_solution, get_format
    from . import generate

    rows, cols = parse_size(args.size)
    if args.count < 1:
        raise GenerationError(f"--count must be at least 1, got {args.count}")
    fmt = get_format(args.format)
    if args.family not in {f.value for f in fmt.carries()}:
        raise GenerationError(
            f"format {fmt.name} cannot hold {args.family} puzzles "
            f"(it holds {', '.join(f.value for f in fmt.carries())})"
        )
    options = {k: _option_value(v) for k, v in parse_options(args.option).items()}
    if args.density is not None:
        options["density"] = args.density
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    ext = fmt.extensions[0] if fmt.extensions else ".txt"
    seeds = range(args.seed, args.seed + args.count)
    for seed in tqdm(
        seeds, desc=f"generating {args.family}", unit="puzzle", disable=args.count == 1 or out is None
    ):
        gen = generate(args.family, rows, cols, seed, paradigm=args.paradigm, **options)
        text = dump(gen.puzzle, fmt.name)
        if out is None:
            print(text.rstrip("\n"))
            if args.count > 1:
                print()
            continue
        stem = out / f"{args.family}-{rows}x{cols}-s{seed}"
        stem.with_name(stem.name + ext).write_text(text.rstrip("\n") + "\n", encoding="utf-8")
        if args.solution:
            sol = dump_solution(gen.puzzle, gen.solution, "native")
            stem.with_name(stem.name + ".solution.pzl").write_text(sol.rstrip("\n") + "\n", encoding="utf-8")
    if out is not None:
        print(f"wrote {args.count} puzzle(s) to {out}", file=sys.stderr)
    return 0


def _cmd_suites(args: argparse.Namespace) -> int:
    from .suites import run

    return run(args)


def register(subparsers) -> None:
    """Add ``generate`` and ``generate-suites`` to the ``puzzlebench`` command line."""
    p = subparsers.add_parser("generate", help="generate seeded puzzles with uniqueness proofs")
    p.add_argument("family", choices=list(map(str, generators())))
    p.add_argument("--size", required=True, help="ROWSxCOLS, e.g. 10x10")
    p.add_argument(
        "--density",
        type=float,
        help="walls (lightup), black cells (kuromasu), shaded cells (hitori) or lit cells (lightbulbs)",
    )
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--count", type=int, default=1, help="puzzles, with seeds SEED, SEED+1, ...")
    p.add_argument("--format", default="native", help="output format (see 'puzzlebench formats')")
    p.add_argument("--out", help="folder to write files into (default: print)")
    p.add_argument("--solution", action="store_true", help="with --out, also write each planted answer")
    p.add_argument(
        "--paradigm", default="auto", help="proof paradigm: auto (fastest), none, or asp/smt/sat/cp"
    )
    p.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="generator option, e.g. symmetric=true, minimize=false, unique=true (repeatable)",
    )
    p.set_defaults(func=_cmd_generate)

    from .suites import add_arguments

    p = subparsers.add_parser("generate-suites", help="regenerate the bundled gen-* scaling suites")
    add_arguments(p)
    p.set_defaults(func=_cmd_suites)
