"""Fuzzing every reader of ``puzzlebench.formats``: only ``PuzzleError`` (or success) may come out.

Cases are mutations of valid samples (the files of ``puzzles/seeds/`` and those puzzles written
in every format that can hold them, answers and a janko JSON corpus file included) and random
text. Each case goes to one reader:

* ``loads:FORMAT`` / ``loads:auto`` -- ``formats.loads(text, FORMAT)`` (auto-detection, with or
  without a family hint);
* ``file`` -- the mutated bytes written to a file with a known extension, read by
  ``formats.load(path)`` and ``formats.load_with_solution(path)`` (not UTF-8, BOMs, ...);
* ``solution:FORMAT`` -- ``formats.load_solution(text, puzzle, FORMAT)`` against the sample's puzzle;
* ``janko-json`` -- ``formats.iter_janko(path)`` over a mutated puzzlekit-dataset JSON file;
* ``cli:convert`` -- ``puzzlebench convert FILE --to FORMAT`` in this process: an exception
  escaping ``cli.main`` is a traceback a user would see.

A puzzle that loads is written back in native format and read again (boards up to
``ROUNDTRIP_MAX_CELLS``); an exception there counts too, a changed board is a ``roundtrip``
mismatch. Anything that is not a ``PuzzleError`` is a *non-project exception*; an input error
(a ``PuzzleError`` of a reader, not a ``RequestError`` such as a format without answers) that
does not name its line and column is counted in ``errors_without_line_and_column``; a case running
past ``--case-timeout`` seconds is a *hang*. The JSON written to ``--out`` holds the counts,
the failures grouped by (target, exception type, innermost puzzlebench frame) with examples,
and the settings, so a run can be repeated exactly (``--seed``).

Usage::

    .venv/bin/python benchmarks/fuzz.py [--cases 10000] [--seed 0] [--out results/fuzz.json]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from puzzlebench import cli, formats  # noqa: E402
from puzzlebench.errors import ParseError, PuzzleError, RequestError  # noqa: E402
from puzzlebench.formats.base import safe_name  # noqa: E402
from puzzlebench.model import Family, Hitori, Kuromasu, LightBulbs, LightUp, Nurikabe, Puzzle, family_spec  # noqa: E402

ROUNDTRIP_MAX_CELLS = 10_000
#: Characters that have broken readers before: non-ASCII digits (``str.isdigit`` accepts them),
#: a byte-order mark, control characters, separators of other alphabets.
TRICKY = [
    "²",
    "³",
    "¹",
    "٣",
    "۴",
    "߀",
    "०",
    "১",
    "௧",
    "໑",
    "１",
    "Ⅻ",
    "½",
    "\ufeff",
    "\x00",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x85",
    "\u2028",
    "\u2029",
    "\r",
    "\t",
    "\n",
    " ",
    "\u00a0",
    "\u200b",
    "é",
    "😀",
    "-",
    "+",
    ".",
    "..",
    ":",
    ";",
    ",",
    "|",
    "[|",
    "|]",
    "=",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    '"',
    "'",
    "%",
    "#",
    "?",
    "*",
    "_",
    "/",
    "\\",
    "x",
    "o",
    "B",
    "e",
    "E",
    "inf",
    "nan",
    "null",
    "true",
    "[]",
    "{}",
]
NUMBERS = [
    "0",
    "-1",
    "1",
    "4",
    "5",
    "9",
    "10",
    "26",
    "1296",
    "100000",
    "99999999999",
    "9" * 5000,
    "1" + "0" * 4400,
    "0" * 5000 + "7",
    "1e5",
    "1.5",
    "0x10",
    "²",
    "١٠",
    "１２",
    "-0",
    "+3",
    "007",
    " 3",
    "3 ",
    "",
]
EXTENSIONS = sorted({ext for fmt in formats.FORMATS.values() for ext in fmt.extensions} | {".txt", ".json"})


class RoundTrip(Exception):
    """A loaded puzzle that its native text does not give back."""


class Hang(BaseException):
    """Raised by the alarm when a case runs too long (a BaseException: readers cannot swallow it)."""


def _alarm(signum, frame):  # pragma: no cover - timing dependent
    raise Hang()


# -- samples ------------------------------------------------------------------------------------
def _extra_puzzles() -> list[Puzzle]:
    """Small boards covering what the seeds lack: LightBulbs, Kuromasu and Nurikabe '?' cells,
    Hitori (numbers past one digit, past 35 and past puzz.link's 1295, cells without a number),
    odd shapes."""
    return [
        LightBulbs.from_rows([[1, 2, 3], [4, 5, 6]], name="lb"),
        Kuromasu(3, 4, numbers={(0, 1): 3, (2, 3): 5}, unknown=frozenset({(1, 0)}), name="q"),
        Kuromasu(2, 2, numbers={(0, 0): 2}),
        LightUp(1, 5, walls=frozenset({(0, 2)}), numbers={(0, 4): 1}),
        LightUp(4, 4, walls=frozenset({(1, 1)}), numbers={(2, 2): 0, (3, 0): 4}),
        Hitori.from_rows([[1, 2, 2], [2, 3, 1], [3, 1, 1]], name="h"),
        Hitori.from_rows([[12, 40], [40, 1300]]),
        Hitori.from_rows([[0, 2, 0], [2, 0, 40]], name="hb"),  # 0: a cell without a number
        Nurikabe(3, 4, numbers={(0, 0): 2, (2, 3): 3}, name="n"),
        Nurikabe(2, 3, numbers={(0, 1): 1}, unknown=frozenset({(1, 2)})),
    ]


def samples(seed_dir: Path) -> tuple[list[dict[str, Any]], list[bytes]]:
    """(text samples with their format and puzzle, janko JSON documents)."""
    out: list[dict[str, Any]] = []
    puzzles: list[tuple[Puzzle, Any]] = []
    for path in sorted(seed_dir.iterdir()):
        text = path.read_text(encoding="utf-8")
        out.append({"text": text, "format": None, "puzzle": None, "ext": path.suffix})
        if path.suffix == ".json" or ".answer" in path.name:
            continue
        try:
            puzzle, solution = formats.load_with_solution(str(path))
        except PuzzleError:
            continue
        answer = seed_dir / path.name.replace(path.suffix, ".answer.pzl")
        if solution is None and answer.exists():
            try:
                solution = formats.load_solution(str(answer), puzzle)
            except PuzzleError:
                solution = None
        puzzles.append((puzzle, solution))
    puzzles += [(p, None) for p in _extra_puzzles()]
    janko_docs: list[bytes] = []
    for puzzle, solution in puzzles:
        for fmt in formats.FORMATS.values():
            if not fmt.can_write(puzzle):
                continue
            text = formats.dump(puzzle, fmt.name)
            ext = fmt.extensions[0] if fmt.extensions else ".txt"
            out.append({"text": text, "format": fmt.name, "puzzle": puzzle, "ext": ext})
            if solution is not None and fmt.write_solution is not None:
                sol = formats.dump_solution(puzzle, solution, fmt.name)
                out.append({"text": sol, "format": fmt.name, "puzzle": puzzle, "ext": ext, "solution": True})
        if formats.FORMATS["janko"].can_write(puzzle):
            record = {"problem": formats.dump(puzzle, "janko")}
            if solution is not None:
                record["solution"] = formats.dump_solution(puzzle, solution, "janko")
            family = family_spec(puzzle).janko.dataset_names[0]
            janko_docs.append(
                json.dumps({"name": family, "data": {"p1": record, "p2": dict(record)}}, indent=1).encode()
            )
    return out, janko_docs


# -- mutations ----------------------------------------------------------------------------------
def _span(rng: random.Random, text: str) -> tuple[int, int]:
    if not text:
        return 0, 0
    a = rng.randrange(len(text) + 1)
    b = min(len(text), a + rng.choice((1, 1, 2, 3, 5, 10, 40)))
    return a, b


def _random_text(rng: random.Random, length: int | None = None) -> str:
    length = rng.randrange(0, 120) if length is None else length
    pool = TRICKY + list("0123456789abcdefghijklmnopqrstuvwxyzABX.-#?*\n ") * 3
    return "".join(rng.choice(pool) for _ in range(length))


def mutate_text(rng: random.Random, text: str, donors: list[str]) -> str:
    op = rng.randrange(12)
    a, b = _span(rng, text)
    if op == 0:
        return text[:a] + text[b:]
    if op == 1:
        return text[:a] + rng.choice(TRICKY) + text[a:]
    if op == 2:
        return text[:a] + rng.choice(TRICKY) + text[b:]
    if op == 3:
        return text[:a] + text[a:b] * rng.randint(2, 4) + text[a:]
    if op == 4:
        numbers = list(re.finditer(r"\d+", text))
        if numbers:
            m = rng.choice(numbers)
            return text[: m.start()] + rng.choice(NUMBERS) + text[m.end() :]
        return text + rng.choice(NUMBERS)
    if op == 5:
        return "\ufeff" + text
    if op == 6:
        return text[:a]
    if op == 7:
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        choice = rng.randrange(3)
        if choice == 0:
            lines[i] = _random_text(rng, rng.randrange(0, 30))
        elif choice == 1:
            lines.insert(i, lines[i])
        else:
            del lines[i]
        return "\n".join(lines)
    if op == 8:
        donor = rng.choice(donors)
        c, d = _span(rng, donor)
        return text[:a] + donor[c : d + rng.randrange(0, 60)] + text[b:]
    if op == 9:
        return text.replace("\n", rng.choice(("\r\n", "\r", "\n\n", " ", "\u2028")))
    if op == 10:
        return text.swapcase() if rng.random() < 0.3 else text.upper() if rng.random() < 0.5 else text.lower()
    return _random_text(rng)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    op = rng.randrange(6)
    a = rng.randrange(len(data) + 1)
    if op == 0:
        return data[:a] + bytes([rng.choice((0xFF, 0xFE, 0x80, 0xC3, 0xE2, 0xF0, 0xC0, 0xED))]) + data[a:]
    if op == 1:
        return b"\xef\xbb\xbf" + data
    if op == 2:
        return data.decode("utf-8", "replace").encode("utf-16")
    if op == 3:
        return data.decode("utf-8", "replace").encode("latin-1", "replace")
    if op == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 80)))
    return data[:a] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6))) + data[a:]


ODD_VALUES: list[Any] = [42, None, [], {}, [1, 2, 3], True, 1.5, "", "\n", {"problem": 1}, "x" * 50]
ODD_IDS = ["x\nrow(99).", "a\rb", "\x00", "tab\there", "\u2028", "kind: lightup", "", "é😀"]


def mutate_janko(rng: random.Random, data: bytes, donors: list[str]) -> bytes:
    """A structural change to a puzzlekit-dataset document: wrong-typed fields, odd ids, ..."""
    doc = json.loads(data)
    op = rng.randrange(8)
    records = doc["data"]
    pid = rng.choice(list(records))
    if op == 0:
        records[pid][rng.choice(("problem", "solution", "source"))] = rng.choice(ODD_VALUES)
    elif op == 1:
        records[pid] = rng.choice(ODD_VALUES)
    elif op == 2:
        doc["data"] = rng.choice(ODD_VALUES)
    elif op == 3:
        doc = rng.choice(ODD_VALUES)
    elif op == 4:
        records[rng.choice(ODD_IDS)] = records.pop(pid)
    elif op == 5:
        doc["name"] = rng.choice(ODD_VALUES + ["akari", "kuromasu", "lightbulbs", "hitori", "nurikabe"])
    elif op == 6:
        field = rng.choice(("problem", "solution"))
        if isinstance(records[pid].get(field), str):
            records[pid][field] = mutate_text(rng, records[pid][field], donors)
    else:
        records[pid].pop(rng.choice(("problem", "solution")), None)
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")


# -- running a case -------------------------------------------------------------------------------
def _roundtrip(puzzle: Any) -> str | None:
    """Write a loaded puzzle natively and read it again; a description of any change."""
    if not isinstance(puzzle, Puzzle) or puzzle.rows * puzzle.cols > ROUNDTRIP_MAX_CELLS:
        return None
    text = formats.dump(puzzle, "native")
    try:
        again = formats.loads(text, "native")
    except PuzzleError as exc:
        return f"the native text of a loaded puzzle does not load: {exc}"
    if again != puzzle or again.name != safe_name(puzzle.name):  # names lose control characters
        return f"native round trip changed the puzzle (name {puzzle.name!r} -> {again.name!r})"
    return None


def _cli_convert(path: str, target: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            cli.main(["convert", path, "--to", target])
        except SystemExit:
            pass


def run_case(
    rng: random.Random, case: int, pool: list[dict[str, Any]], janko_docs: list[bytes], tmp: Path
) -> tuple[str, Callable[[], Any], str]:
    """(target, the call, a printable description of the input)."""
    donors = [s["text"] for s in pool]
    sample = rng.choice(pool)
    text = sample["text"] if rng.random() < 0.9 else _random_text(rng)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        text = mutate_text(rng, text, donors)
    kind = rng.random()
    names = list(formats.FORMATS)
    if kind < 0.45:
        fmt = sample["format"] if sample["format"] and rng.random() < 0.5 else rng.choice(names)
        return f"loads:{fmt}", lambda: formats.loads(text, fmt), repr(text)
    if kind < 0.55:
        family = rng.choice((None, None, *map(str, Family)))
        return "loads:auto", lambda: formats.loads(text, None, family), repr(text)
    if kind < 0.62 and sample["puzzle"] is not None:
        fmt = sample["format"] if rng.random() < 0.7 else rng.choice(names)
        puzzle = sample["puzzle"]
        return f"solution:{fmt}", lambda: formats.load_solution(text, puzzle, fmt), repr(text)
    data = text.encode("utf-8", "surrogatepass")
    if kind < 0.70 and janko_docs:
        doc = rng.choice(janko_docs)
        if rng.random() < 0.5:
            doc = mutate_janko(rng, doc, donors)
        elif rng.random() < 0.7:
            doc = mutate_text(rng, doc.decode(), donors).encode("utf-8", "surrogatepass")
        if rng.random() < 0.3:
            doc = mutate_bytes(rng, doc)
        path = tmp / f"case{case}.json"
        path.write_bytes(doc)

        def entries():
            for entry in formats.iter_janko(path):
                problem = _roundtrip(entry.puzzle)
                if problem:
                    raise RoundTrip(problem)
            return None

        return "janko-json", entries, repr(doc[:300])
    if rng.random() < 0.5:
        data = mutate_bytes(rng, data)
    ext = sample["ext"] if rng.random() < 0.6 else rng.choice(EXTENSIONS)
    path = tmp / f"case{case}{ext}"
    path.write_bytes(data)
    if kind < 0.80:
        target = rng.choice(names)
        return "cli:convert", lambda: _cli_convert(str(path), target), repr(data[:300])

    def both():
        formats.load(str(path))
        return formats.load_with_solution(str(path))[0]

    return "file", both, repr(data[:300])


def _located(exc: PuzzleError) -> bool:
    """Whether an input error names its format, line and column (a :class:`ParseError` that does)."""
    return isinstance(exc, ParseError) and exc.line is not None and exc.column is not None


def _where(exc: BaseException) -> str:
    """The innermost puzzlebench frame of a traceback (file:line function)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "puzzlebench" in f.filename]
    if not frames:
        return "?"
    f = frames[-1]
    return f"{Path(f.filename).name}:{f.lineno} {f.name}"


def fuzz(cases: int, seed: int, case_timeout: float, seed_dir: Path) -> dict[str, Any]:
    rng = random.Random(seed)
    pool, janko_docs = samples(seed_dir)
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    unlocated: dict[tuple[str, str, str], dict[str, Any]] = {}
    targets: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    roundtrips: list[dict[str, str]] = []
    signal.signal(signal.SIGALRM, _alarm)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="puzzlebench-fuzz-") as tmpdir:
        tmp = Path(tmpdir)
        for case in range(cases):
            target, call, shown = run_case(rng, case, pool, janko_docs, tmp)
            targets[target] += 1
            signal.setitimer(signal.ITIMER_REAL, case_timeout)
            try:
                result = call()
                if target.startswith(("loads", "file")):
                    problem = _roundtrip(result)
                    if problem:
                        outcomes["roundtrip"] += 1
                        if len(roundtrips) < 20:
                            roundtrips.append(
                                {
                                    "case": str(case),
                                    "target": target,
                                    "problem": problem,
                                    "input": shown[:300],
                                }
                            )
                outcomes["ok"] += 1
            except Hang:
                outcomes["hang"] += 1
                key = (target, "Hang", f"over {case_timeout:g} s")
                group = groups.setdefault(key, {"count": 0, "examples": []})
                group["count"] += 1
                if len(group["examples"]) < 3:
                    group["examples"].append({"case": case, "input": shown[:300]})
            except RoundTrip as exc:
                outcomes["roundtrip"] += 1
                if len(roundtrips) < 20:
                    roundtrips.append(
                        {"case": str(case), "target": target, "problem": str(exc), "input": shown[:300]}
                    )
            except PuzzleError as exc:
                outcomes["puzzle_error"] += 1
                if isinstance(exc, RequestError):  # the case asked for something no text can give
                    outcomes["request_error"] += 1
                elif not target.startswith("cli") and not _located(exc):
                    outcomes["unlocated"] += 1
                    key = (target, type(exc).__name__, _where(exc))
                    group = unlocated.setdefault(key, {"count": 0, "examples": []})
                    group["count"] += 1
                    if len(group["examples"]) < 3:
                        group["examples"].append(
                            {"case": case, "message": str(exc)[:200], "input": shown[:300]}
                        )
            except Exception as exc:  # noqa: BLE001 - the very thing being counted
                outcomes["non_project"] += 1
                key = (target, type(exc).__name__, _where(exc))
                group = groups.setdefault(key, {"count": 0, "examples": []})
                group["count"] += 1
                if len(group["examples"]) < 3:
                    group["examples"].append({"case": case, "message": str(exc)[:200], "input": shown[:300]})
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            for leftover in tmp.iterdir():
                leftover.unlink()
    elapsed = time.perf_counter() - start
    failures = sorted(
        ({"target": t, "exception": e, "where": w, **g} for (t, e, w), g in groups.items()),
        key=lambda g: -g["count"],
    )
    unplaced = sorted(
        ({"target": t, "exception": e, "where": w, **g} for (t, e, w), g in unlocated.items()),
        key=lambda g: -g["count"],
    )
    return {
        "cases": cases,
        "seed": seed,
        "non_project_exceptions": outcomes["non_project"],
        "hangs": outcomes["hang"],
        "cli_tracebacks": sum(
            g["count"] for g in failures if g["target"] == "cli:convert" and g["exception"] != "Hang"
        ),
        "roundtrip_mismatches": outcomes["roundtrip"],
        "errors_without_line_and_column": outcomes["unlocated"],
        "outcomes": dict(outcomes),
        "targets": dict(sorted(targets.items())),
        "failures": failures,
        "unlocated": unplaced,
        "roundtrips": roundtrips,
        "samples": len(pool),
        "seconds": round(elapsed, 2),
        "case_timeout_s": case_timeout,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--case-timeout", type=float, default=5.0, help="seconds before a case counts as a hang"
    )
    parser.add_argument(
        "--memory", type=int, default=4096, metavar="MB", help="data-segment limit of this process"
    )
    parser.add_argument("--seeds", default=str(REPO / "puzzles" / "seeds"), help="folder of valid samples")
    parser.add_argument("--out", default=str(REPO / "results" / "fuzz.json"))
    args = parser.parse_args(argv)
    if args.memory:
        limit = args.memory * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (limit, resource.getrlimit(resource.RLIMIT_DATA)[1]))
    report = fuzz(args.cases, args.seed, args.case_timeout, Path(args.seeds))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    print(
        f"{report['cases']} cases in {report['seconds']} s: {report['non_project_exceptions']} non-project "
        f"exception(s), {report['hangs']} hang(s), {report['cli_tracebacks']} CLI traceback(s), "
        f"{report['roundtrip_mismatches']} round-trip mismatch(es), {report['errors_without_line_and_column']} "
        f"input error(s) without line and column -> {out}"
    )
    for group in report["failures"][:15]:
        print(f"  {group['count']:5d}  {group['target']:<16} {group['exception']:<20} {group['where']}")
    if report["errors_without_line_and_column"]:
        print(f"  {report['errors_without_line_and_column']} input error(s) without line and column:")
        for group in report["unlocated"][:15]:
            print(f"  {group['count']:5d}  {group['target']:<16} {group['exception']:<20} {group['where']}")
    return (
        1
        if report["non_project_exceptions"] or report["hangs"] or report["errors_without_line_and_column"]
        else 0
    )


if __name__ == "__main__":
    raise SystemExit(main())
