"""The ``puzzlebench`` command line.

Core commands live here; the benchmark and generator commands register themselves from their
packages (``register(subparsers)`` in ``bench.commands`` and ``generate.commands``).
Bad input prints one clear line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import errors
from .errors import PuzzleError, SolverUnavailable
from .model import Family, family_specs

if TYPE_CHECKING:
    from .model import Puzzle
    from .result import Result

_PLUGINS = ("puzzlebench.bench.commands", "puzzlebench.generate.commands")
#: Memory limit (MB) of the isolated child that ``solve``/``check --timeout`` run in.
DEFAULT_MEMORY_MB = 4096
#: ``check`` without ``--timeout``: this many seconds per run, soft, in this process (as before).
CHECK_SOFT_TIMEOUT = 60.0


def positive_seconds(text: str) -> float:
    """argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, got {text!r}")
    return value


def positive_megabytes(text: str) -> int:
    """argparse type: a positive whole number of MB."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive whole number of MB, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number of MB, got {text!r}")
    return value


def parse_options(pairs: Sequence[str] | None, deduce: str | None = None) -> dict[str, str]:
    """``["key=value", ...]`` -> dict (values stay strings; the encoding parses them); ``deduce``,
    when given, names the deduction stage (the option ``deduce``, which every solve takes)."""
    out: dict[str, str] = {} if deduce is None else {"deduce": deduce}
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
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text if text.endswith("\n") else text + "\n")
        except OSError as exc:
            raise PuzzleError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        print(text)
    return 0


# -- hard limits: one solve in an isolated child (the benchmark runner's machinery) ---------------
def isolated_task(puzzle: Puzzle, desc: Mapping[str, Any]) -> dict[str, Any]:
    """What the worker child runs for ``solve``/``check --timeout`` (``task="puzzlebench.cli:isolated_task"``):
    one solve, returned whole (answers included) so the parent prints it as if it had run here."""
    import dataclasses

    from .solvers import solve

    try:
        result = solve(
            puzzle,
            desc["paradigm"],
            desc["encoding"],
            count=desc["count"],
            timeout=desc["timeout"],
            solver=desc.get("solver") or None,
            strict=False,
            **desc["options"],
        )
    except (PuzzleError, SolverUnavailable) as exc:  # re-raised in the parent, as in-process solving would
        return {"status": "error", "error": str(exc), "raise": type(exc).__name__}
    status = result.to_record()["status"]  # the benchmark's rule: an allocation failure is a memout
    return {
        "status": status,
        "error": result.error,
        "result": {
            "encoding": result.encoding,
            "status": status,
            "solutions": [s.sorted() for s in result.solutions],
            "exhausted": result.exhausted,
            "complete": result.complete,
            "options": dict(result.options),
            "timings": dataclasses.asdict(result.timings),
            "size": dict(result.size),
            "search": dict(result.search),
            "backend": result.backend,
            "backend_version": result.backend_version,
            "solver": result.solver,
            "solver_version": result.solver_version,
            "encoding_hash": result.encoding_hash,
            "error": result.error,
            "extra": dict(result.extra),
            "deduce": result.deduce,
            "settled": result.settled,
        },
    }


def solve_isolated(
    puzzle: Puzzle,
    paradigm: str,
    encoding: str = "default",
    count: int = 1,
    timeout: float = 60.0,
    memory_mb: int | None = DEFAULT_MEMORY_MB,
    solver: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Result:
    """:func:`puzzlebench.solve` in a child process under a hard wall-clock limit (``timeout`` plus
    the runner's grace counted from the moment the child is ready, then SIGKILL to the child's
    process group) and a memory limit. The child's start-up is ``timings.startup``, apart.

    A child that was killed, ran out of memory or died comes back as a Result with status
    ``timeout``, ``memout`` or ``crash``; unknown encodings, options or solvers raise here as
    they would in process.
    """
    from . import registry
    from .bench.runner import execute
    from .bench.spec import Run, SuiteItem
    from .result import Result, Status, Timings

    run = Run(
        SuiteItem(puzzle, puzzle.name or "puzzle", "cli"),
        paradigm,
        encoding,
        dict(options or {}),
        count,
        0,
        timeout,
        memory_mb,
        task=f"{__name__}:isolated_task",
        solver=solver or "",
    )
    fields = execute(run.describe())
    raised = fields.get("raise")
    if raised:
        cls = getattr(errors, raised, None)
        message = fields.get("error") or raised
        if (
            not (isinstance(cls, type) and issubclass(cls, (PuzzleError, SolverUnavailable)))
            or cls is errors.ParseError
        ):
            cls = PuzzleError
        raise cls(message)
    startup = float(fields.get("time_startup") or 0.0)
    data = fields.get("result")
    if isinstance(data, dict):
        solutions = tuple(puzzle.solution(tuple(cell) for cell in cells) for cells in data["solutions"])
        return Result(
            family=puzzle.family,
            paradigm=paradigm,
            encoding=data["encoding"],
            status=Status(data["status"]),
            solutions=solutions,
            exhausted=data["exhausted"],
            complete=data["complete"],
            options=data["options"],
            timings=Timings(**{**data["timings"], "startup": startup}),
            size=data["size"],
            search=data["search"],
            backend=data["backend"],
            backend_version=data["backend_version"],
            solver=data["solver"],
            solver_version=data["solver_version"],
            encoding_hash=data["encoding_hash"],
            deduce=data.get("deduce", "none"),
            settled=data.get("settled", 0),
            violations=tuple(tuple(puzzle.verify(s)) for s in solutions),
            error=data["error"],
            extra=data["extra"],
        )
    # The child did not report a result: killed at the limit, out of memory, crashed.
    try:
        status = Status(fields.get("status", "crash"))
    except ValueError:
        status = Status.CRASH
    solver_name, version, encoding_name = solver or "", "", encoding
    try:
        spec = registry.solver(paradigm, solver)
        solver_name, version = spec.name, spec.version()
    except Exception:  # noqa: BLE001  (names for the report only)
        pass
    try:
        encoding_name = registry.get(puzzle.family, paradigm, encoding).name
    except Exception:  # noqa: BLE001  (names for the report only)
        pass
    # Rule: the child's start-up is reported apart; the run's time is from its ready mark on
    run_s = fields.get("time_run")
    wall = float(run_s) if run_s is not None else max(0.0, float(fields.get("time_wall") or 0.0) - startup)
    return Result(
        family=puzzle.family,
        paradigm=paradigm,
        encoding=encoding_name,
        status=status,
        complete=bool(run.complete) if run.complete is not None else True,
        options=dict(options or {}),
        timings=Timings(total=wall, build=wall, startup=startup),
        solver=solver_name,
        solver_version=version,
        error=fields.get("error"),
        extra={"peak_rss_mb": fields.get("peak_rss_mb")},
    )


def _limits(args: argparse.Namespace) -> tuple[float | None, int]:
    """(hard timeout or None for in-process solving, memory MB) from ``--timeout``/``--memory``."""
    if args.timeout is None and args.memory is not None:
        raise PuzzleError("--memory limits the isolated run that --timeout starts; give --timeout too")
    return args.timeout, args.memory or DEFAULT_MEMORY_MB


def _cmd_solve(args: argparse.Namespace) -> int:
    from .formats import load
    from .render import render_text
    from .solvers import solve

    puzzle = load(args.source, args.format)
    timeout, memory = _limits(args)
    if args.count < 0:
        raise PuzzleError(f"--count must be >= 0, got {args.count}")
    if timeout is None:
        result = solve(
            puzzle,
            args.paradigm,
            args.encoding,
            count=args.count,
            timeout=None,
            solver=args.solver,
            strict=False,
            **parse_options(args.option, args.deduce),
        )
    else:
        result = solve_isolated(
            puzzle,
            args.paradigm,
            args.encoding,
            count=args.count,
            timeout=timeout,
            memory_mb=memory,
            solver=args.solver,
            options=parse_options(args.option, args.deduce),
        )
    if args.json:
        print(json.dumps(result.to_json(puzzle.rows, puzzle.cols), default=str))
    else:
        print(render_text(puzzle))
        print()
        label = f"{result.paradigm}/{result.encoding} on {result.solver} ({result.solver_version})"
        shown = "exhausted" if result.exhausted else "not exhausted"
        print(
            f"{label}: {result.status}, {result.count} solution(s), {shown}, "
            f"{result.timings.total * 1000:.1f} ms (deduce={result.deduce}: {result.settled} cells settled in "
            f"{result.timings.deduce * 1000:.1f} ms; build {result.timings.build * 1000:.1f} ms)"
            + (f"; start-up {result.timings.startup * 1000:.1f} ms apart" if result.timings.startup else "")
        )
        for i, answer in enumerate(result.solutions, 1):
            print(f"\nsolution {i}:")
            print(render_text(puzzle, answer, result.violations[i - 1] if result.violations else ()))
        if result.error:
            print(f"\nerror: {result.error}", file=sys.stderr)
    return 0 if result.status.value in ("sat", "unsat") else 1


def _cmd_check(args: argparse.Namespace) -> int:
    from .crosscheck import crosscheck, format_reports
    from .formats import load

    timeout, memory = _limits(args)
    if args.count < 0:
        raise PuzzleError(f"--count must be >= 0, got {args.count}")
    options = parse_options(args.option, args.deduce)
    reports = []
    for source in args.sources:
        puzzle = load(source, args.format)
        if timeout is None:
            reports.append(
                crosscheck(
                    puzzle,
                    paradigms=args.paradigm or None,
                    count=args.count,
                    timeout=CHECK_SOFT_TIMEOUT,
                    encoding=args.encoding,
                    options=options,
                    source=source,
                    solvers=args.solver,
                )
            )
        else:
            reports.append(_crosscheck_isolated(puzzle, args, options, source, timeout, memory))
    if args.json:
        print(json.dumps([r.to_json() for r in reports], default=str))
    else:
        print(format_reports(reports))
    return 0 if all(r.agree for r in reports) else 1


def _crosscheck_isolated(
    puzzle: Puzzle,
    args: argparse.Namespace,
    options: Mapping[str, Any],
    source: str,
    timeout: float,
    memory: int,
):
    """:func:`puzzlebench.crosscheck.crosscheck`, each configuration solved by :func:`solve_isolated`."""
    from .crosscheck import CrossCheck, Outcome, default_configs, judge
    from .errors import EncodingError

    configs = default_configs(puzzle, args.paradigm or None, args.encoding, options, args.solver)
    outcomes = []
    for cfg in configs:
        try:
            result = solve_isolated(
                puzzle,
                cfg.paradigm,
                cfg.encoding,
                count=args.count,
                timeout=timeout,
                memory_mb=memory,
                solver=cfg.solver,
                options=cfg.options,
            )
            outcomes.append(Outcome(cfg, result))
        except (EncodingError, SolverUnavailable) as exc:
            outcomes.append(Outcome(cfg, None, str(exc)))
    verdict, differences = judge(outcomes, args.count)
    return CrossCheck(puzzle, tuple(outcomes), verdict, tuple(differences), source)


def _cmd_encodings(args: argparse.Namespace) -> int:
    from . import registry

    if args.schema:
        from .encodings.files import schema

        family, paradigm = args.schema
        registry.paradigm(paradigm)
        print(schema(family, paradigm))
        return 0
    if args.deductions:
        from . import deduce

        families = [args.family] if args.family else [str(f) for f in Family]
        rows = [
            {
                "family": fam,
                "deduction": d.name,
                "default": d.name == deduce.default_deduction(fam),
                "description": d.description,
                "reference": d.reference,
            }
            for fam in families
            for d in deduce.deducers(fam)
        ]
        if args.json:
            print(json.dumps(rows, indent=1))
            return 0
        for row in rows:
            mark = "*" if row["default"] else " "
            print(f"{row['family']:<11}{mark}{row['deduction']:<8} {row['description']}")
        print("\n* the family's default for every paradigm (deduce=auto); deduce=none: the bare puzzle")
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
        rows.append(
            {
                "paradigm": spec.paradigm,
                "solver": spec.name,
                "default": default,
                "installed": reason is None,
                "version": spec.version() if reason is None else None,
                "description": spec.description,
                "unavailable": reason,
            }
        )
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
        "--plugin",
        action="append",
        default=[],
        metavar="MODULE",
        help="import a module that registers encodings/solvers (repeatable; also $PUZZLEBENCH_PLUGINS "
        "and the 'puzzlebench.plugins' entry-point group)",
    )


def build_parser() -> argparse.ArgumentParser:
    from . import registry

    paradigms = registry.paradigms()
    titles = [spec.title for spec in family_specs()]
    parser = argparse.ArgumentParser(
        prog="puzzlebench",
        description=f"Compare ASP, SMT, SAT, CP and MIP encodings and solvers on {', '.join(titles[:-1])} and "
        f"{titles[-1]}: verified, cross-checked, benchmarked.",
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
    p.add_argument(
        "--solver", help="one of the paradigm's solvers (see 'puzzlebench solvers'; default: its own)"
    )
    p.add_argument(
        "--deduce",
        metavar="NAME",
        help="the deduction stage before encoding: auto (the family's default, the same for every "
        "paradigm), none (the bare puzzle), or one of the family's ('puzzlebench encodings "
        "--deductions')",
    )
    p.add_argument("--encoding", default="default", help="a registered name, or an encoding file (.lp, .mzn)")
    p.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="encoding or backend option (repeatable)"
    )
    p.add_argument("--count", type=int, default=1, help="answers wanted: 1, 2 proves uniqueness, 0 all")
    p.add_argument(
        "--timeout",
        type=positive_seconds,
        default=None,
        help="seconds, a hard limit: the solve runs in an isolated child process, killed at the limit "
        "(default: no limit, solved in this process)",
    )
    p.add_argument(
        "--memory",
        type=positive_megabytes,
        default=None,
        metavar="MB",
        help=f"memory limit of that child (with --timeout; default {DEFAULT_MEMORY_MB})",
    )
    p.add_argument("--format", help="input format (auto-detected when omitted)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("check", help="cross-check a puzzle across every available paradigm")
    p.add_argument("sources", nargs="+")
    p.add_argument("--paradigm", action="append", choices=paradigms, help="restrict (repeatable)")
    p.add_argument(
        "--solver",
        action="append",
        metavar="NAME",
        help="run these solvers instead of each paradigm's default (repeatable; 'all' = every installed one)",
    )
    p.add_argument(
        "--deduce",
        metavar="NAME",
        help="the deduction stage before encoding: auto (the family's default, the same for every "
        "paradigm), none (the bare puzzle), or one of the family's ('puzzlebench encodings "
        "--deductions')",
    )
    p.add_argument("--encoding", default="default", help="a registered name, or an encoding file (.lp, .mzn)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument(
        "--count", type=int, default=2, help="answers wanted per paradigm (2 proves uniqueness, 0 all)"
    )
    p.add_argument(
        "--timeout",
        type=positive_seconds,
        default=None,
        help="seconds per run, a hard limit: each run in an isolated child process, killed at the limit "
        f"(default: {CHECK_SOFT_TIMEOUT:g} s, soft, in this process)",
    )
    p.add_argument(
        "--memory",
        type=positive_megabytes,
        default=None,
        metavar="MB",
        help=f"memory limit of each child (with --timeout; default {DEFAULT_MEMORY_MB})",
    )
    p.add_argument("--format")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("encodings", help="list the encoding registry")
    p.add_argument("--family", choices=[str(f) for f in Family])
    p.add_argument("--paradigm", choices=paradigms)
    p.add_argument(
        "--schema",
        nargs=2,
        metavar=("FAMILY", "PARADIGM"),
        help="print the instance interface an encoding of FAMILY in PARADIGM is written against",
    )
    p.add_argument(
        "--deductions", action="store_true", help="list the families' deductions (the --deduce stage)"
    )
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
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return int(args.func(args) or 0)
    except (PuzzleError, SolverUnavailable) as exc:
        print(f"puzzlebench: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # an output that cannot be written: /dev/full, read-only, a parent that is a file
        print(f"puzzlebench: error: {_os_error(exc, args)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("puzzlebench: interrupted", file=sys.stderr)
        return 130


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _os_error(exc: OSError, args: argparse.Namespace) -> str:
    """``cannot write PATH: reason`` (the command's output path when the error names no file)."""
    outputs = [str(v) for v in (getattr(args, "output", None), getattr(args, "out", None)) if v]
    path = exc.filename if exc.filename is not None else (outputs[0] if outputs else None)
    reason = exc.strerror or _one_line(exc)
    if path is None:
        return f"cannot write: {reason}"
    path = str(path)
    writing = exc.filename is None or any(path.startswith(o) or o.startswith(path) for o in outputs)
    return f"{'cannot write' if writing else 'cannot access'} {path}: {reason}"


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """puzzlebench's own warnings as one line (``puzzlebench: warning: ...``); others as usual."""
    if getattr(category, "__module__", "").startswith("puzzlebench"):
        print(f"puzzlebench: warning: {message}", file=file or sys.stderr)
    else:
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
