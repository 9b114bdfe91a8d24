"""The ``puzzlebench`` command line.

Core commands live here; the benchmark and generator commands register themselves from their
packages (``register(subparsers)`` in ``bench.commands`` and ``generate.commands``).
Bad input prints one clear line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Sequence

from .errors import PuzzleError, SolverUnavailable

_PLUGINS = ("puzzlebench.bench.commands", "puzzlebench.generate.commands")


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["key=value", ...]`` -> dict (values stay strings; the encoding parses them)."""
    out: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise PuzzleError(f"--option expects key=value, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def _cmd_convert(args: argparse.Namespace) -> int:
    from .formats import dump, load

    puzzle = load(args.source, args.format)
    text = dump(puzzle, args.to)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text if text.endswith("\n") else text + "\n")
    else:
        print(text)
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from .formats import load
    from .render import render_text
    from .solvers import solve

    puzzle = load(args.source, args.format)
    result = solve(
        puzzle, args.paradigm, args.encoding, count=args.count, timeout=args.timeout,
        solver=args.solver, strict=False, **parse_options(args.option),
    )
    if args.json:
        print(json.dumps(result.to_json(puzzle.rows, puzzle.cols), default=str))
    else:
        print(render_text(puzzle))
        print()
        label = f"{result.paradigm}/{result.encoding} on {result.solver} ({result.solver_version})"
        shown = "exhausted" if result.exhausted else "not exhausted"
        print(f"{label}: {result.status}, {result.count} solution(s), {shown}, "
              f"{result.timings.total * 1000:.1f} ms (build {result.timings.build * 1000:.1f} ms)")
        for i, answer in enumerate(result.solutions, 1):
            print(f"\nsolution {i}:")
            print(render_text(puzzle, answer, result.violations[i - 1] if result.violations else ()))
        if result.error:
            print(f"\nerror: {result.error}", file=sys.stderr)
    return 0 if result.status.value in ("sat", "unsat") else 1


def _cmd_check(args: argparse.Namespace) -> int:
    from .crosscheck import crosscheck, format_reports
    from .formats import load

    reports = []
    for source in args.sources:
        puzzle = load(source, args.format)
        reports.append(crosscheck(
            puzzle, paradigms=args.paradigm or None, count=args.count, timeout=args.timeout,
            encoding=args.encoding, options=parse_options(args.option), source=source, solvers=args.solver,
        ))
    if args.json:
        print(json.dumps([r.to_json() for r in reports], default=str))
    else:
        print(format_reports(reports))
    return 0 if all(r.agree for r in reports) else 1


def _cmd_encodings(args: argparse.Namespace) -> int:
    from . import registry

    if args.schema:
        from .encodings.files import schema

        family, paradigm = args.schema
        registry.paradigm(paradigm)
        print(schema(family, paradigm))
        return 0
    specs = registry.encodings(args.family, args.paradigm)
    if args.json:
        print(json.dumps([s.describe() for s in specs], default=str, indent=1))
        return 0
    for s in specs:
        kind = "complete" if s.complete else "relaxed"
        print(f"{s.family.value:<10} {s.paradigm:<9} {s.name:<14} {s.origin:<8} {kind:<8} {s.description}")
        for opt in s.options:
            choices = "|".join(map(str, opt.choices)) if opt.choices else type(opt.default).__name__
            relax = f" (relaxed: {', '.join(map(str, opt.relaxing))})" if opt.relaxing else ""
            print(f"{'':>36}--option {opt.name}={choices}  default {opt.default}{relax}")
    return 0


def _cmd_solvers(args: argparse.Namespace) -> int:
    from . import registry

    rows = []
    for spec in registry.solvers(args.paradigm):
        reason = spec.unavailable_reason()
        default = spec.name == registry.paradigm(spec.paradigm).default_solver
        rows.append({
            "paradigm": spec.paradigm, "solver": spec.name, "default": default, "installed": reason is None,
            "version": spec.version() if reason is None else None, "description": spec.description,
            "unavailable": reason,
        })
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for row in rows:
        mark = "*" if row["default"] else " "
        state = row["version"] if row["installed"] else f"not available: {row['unavailable']}"
        print(f"{row['paradigm']:<10}{mark}{row['solver']:<16} {state}")
    print("\n* the paradigm's default; --solver NAME picks another (solve, check, bench)")
    return 0


def _add_plugin_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--plugin", action="append", default=[], metavar="MODULE",
        help="import a module that registers encodings/solvers (repeatable; also $PUZZLEBENCH_PLUGINS "
             "and the 'puzzlebench.plugins' entry-point group)",
    )


def build_parser() -> argparse.ArgumentParser:
    from . import registry

    paradigms = registry.paradigms()
    parser = argparse.ArgumentParser(
        prog="puzzlebench",
        description="Compare ASP, SMT, SAT, CP and MIP encodings and solvers on Light Up, Kuromasu and "
                    "LightBulbs: verified, cross-checked, benchmarked.",
    )
    _add_plugin_option(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("convert", help="convert a puzzle between formats")
    p.add_argument("source", help="file, puzz.link URL, Tatham game id, or '-' for stdin")
    p.add_argument("--to", required=True, help="target format (see 'puzzlebench formats')")
    p.add_argument("--format", help="input format (auto-detected when omitted)")
    p.add_argument("-o", "--output", help="write to this file instead of stdout")
    p.set_defaults(func=_cmd_convert)

    p = sub.add_parser("formats", help="list the puzzle formats")
    p.set_defaults(func=lambda a: _print_formats())

    p = sub.add_parser("solve", help="solve a puzzle in one paradigm")
    p.add_argument("source")
    p.add_argument("--paradigm", default="sat", choices=paradigms)
    p.add_argument("--solver", help="one of the paradigm's solvers (see 'puzzlebench solvers'; default: its own)")
    p.add_argument("--encoding", default="default", help="a registered name, or an encoding file (.lp, .mzn)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="encoding or backend option (repeatable)")
    p.add_argument("--count", type=int, default=1, help="answers wanted: 1, 2 proves uniqueness, 0 all")
    p.add_argument("--timeout", type=float, default=None, help="seconds")
    p.add_argument("--format", help="input format (auto-detected when omitted)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("check", help="cross-check a puzzle across every available paradigm")
    p.add_argument("sources", nargs="+")
    p.add_argument("--paradigm", action="append", choices=paradigms, help="restrict (repeatable)")
    p.add_argument("--solver", action="append", metavar="NAME",
                   help="run these solvers instead of each paradigm's default (repeatable; 'all' = every installed one)")
    p.add_argument("--encoding", default="default", help="a registered name, or an encoding file (.lp, .mzn)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--count", type=int, default=2, help="answers wanted per paradigm (2 proves uniqueness, 0 all)")
    p.add_argument("--timeout", type=float, default=60.0)
    p.add_argument("--format")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("encodings", help="list the encoding registry")
    p.add_argument("--family", choices=("lightup", "kuromasu", "lightbulbs"))
    p.add_argument("--paradigm", choices=paradigms)
    p.add_argument("--schema", nargs=2, metavar=("FAMILY", "PARADIGM"),
                   help="print the instance interface an encoding of FAMILY in PARADIGM is written against")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_encodings)

    p = sub.add_parser("solvers", help="list the solvers of every paradigm, installed or not")
    p.add_argument("--paradigm", choices=paradigms)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_solvers)

    for name in _PLUGINS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    for command in sub.choices.values():  # --plugin is read before parsing; accepted after any command too
        _add_plugin_option(command)
    return parser


def _print_formats() -> int:
    from .formats import describe_formats

    print(describe_formats())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Plugins first: they may add paradigms and solvers the parser offers as choices.
    early = argparse.ArgumentParser(add_help=False)
    _add_plugin_option(early)
    try:
        from . import plugins

        for name in early.parse_known_args(argv)[0].plugin:
            plugins.load(name)
        parser = build_parser()
    except PuzzleError as exc:
        print(f"puzzlebench: error: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (PuzzleError, SolverUnavailable) as exc:
        print(f"puzzlebench: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("puzzlebench: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
