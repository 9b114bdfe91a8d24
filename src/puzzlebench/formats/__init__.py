"""Puzzle formats: one module per format, a registry, auto-detection, and load/dump.

>>> from puzzlebench.formats import load, dump
>>> puzzle = load("7x7:c0a1bBe1f1eBf1e1b1a0c")        # a Tatham game id
>>> print(dump(puzzle, "puzzlink"))                     # the same board as a puzz.link URL

``load`` takes a path, a literal (Tatham game id, puzz.link URL) or the text itself, and
detects the format from the file name and content unless ``format`` is given.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from ..errors import ParseError, PuzzleError, RequestError
from ..model import Family, Puzzle, Solution, family_specs
from . import asp, digits, janko, mzn, native, puzzlink, runs
from .base import Format, decode_text, strip_bom
from .janko import JankoEntry, iter_janko

#: Every format by name, in the order auto-detection tries them.
FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        native.FORMAT,
        puzzlink.FORMAT,
        runs.TATHAM,
        asp.FORMAT,
        mzn.FORMAT,
        janko.FORMAT,
        digits.FORMAT,
        runs.PUZZLETEAM,
    )
}

__all__ = [
    "FORMATS",
    "Format",
    "JankoEntry",
    "describe_formats",
    "detect_format",
    "dump",
    "dump_solution",
    "get_format",
    "iter_janko",
    "load",
    "load_solution",
    "load_with_solution",
    "loads",
]


def get_format(name: str) -> Format:
    """The format called ``name`` (case-insensitive), or a PuzzleError listing the choices."""
    fmt = FORMATS.get(name.lower().strip())
    if fmt is None:
        raise RequestError(f"unknown format {name!r}; choose one of {', '.join(FORMATS)}")
    return fmt


def _family(family: Family | str | None) -> Family | None:
    if family is None:
        return None
    try:
        return Family(family)
    except ValueError:
        raise RequestError(f"unknown family {family!r}; choose {', '.join(map(str, Family))}") from None


def _family_hint(filename: str | None) -> Family | None:
    """A family named in a file name by its name or an alias (akari, kurodoko, ...); the longest
    name found wins (``lightbulbs`` over ``lightup``... and ``lightbulb`` over nothing)."""
    if not filename:
        return None
    low = Path(filename).name.lower()
    names = [(name, spec.family) for spec in family_specs() for name in (spec.family.value, *spec.aliases)]
    found = [(len(name), family) for name, family in names if name in low or name.rstrip("s") in low]
    return max(found, key=lambda f: f[0])[1] if found else None


def detect_format(text: str, filename: str | None = None, family: Family | None = None) -> Format:
    """The format of ``text``: by file extension when one matches, else by content.

    With a ``family``, only formats holding that family are considered (this settles, e.g.,
    a one-line board of digits: LightBulbs digits or a Puzzle Team Light Up string).
    """
    if filename:
        name = Path(filename).name.lower()
        for fmt in FORMATS.values():
            if any(name.endswith(ext) for ext in fmt.extensions) and fmt.detect(text):
                return fmt
    candidates = [f for f in FORMATS.values() if family is None or family in f.carries()]
    for fmt in candidates:
        if fmt.detect(text):
            return fmt
    first = text.strip().split("\n", 1)[0][:40]
    raise ParseError(
        "auto", f"cannot tell the format of {first!r}; pass a format ({', '.join(FORMATS)})", 1, 1
    )


def _looks_like_path(text: str) -> bool:
    """A one-word string with a folder separator or a known extension (and no URL/game-id marks)."""
    if any(ch in text for ch in "?: \t") or not text.strip():
        return False
    if any(fmt.literal and fmt.detect(text) for fmt in FORMATS.values()):
        return False  # a literal such as puzz.link's bare akari/6/6/nekcakbl
    known = {ext for fmt in FORMATS.values() for ext in fmt.extensions} | {".txt", ".json"}
    return "/" in text or os.sep in text or Path(text).suffix.lower() in known


def _read_source(source: str | os.PathLike) -> tuple[str, str | None]:
    """(text, file name or None): a path is read, '-' is stdin, anything else is the text itself."""
    if isinstance(source, os.PathLike):
        path = Path(source)
    elif source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream stand-in (tests, notebooks)
            return strip_bom(sys.stdin.read()), None
        return decode_text(stream.read(), "auto", "standard input"), None
    elif "\n" not in source and len(source) < 4096 and not source.lstrip().startswith(("http:", "https:")):
        path = Path(source)
        try:
            exists = path.is_file()
        except OSError:
            exists = False
        if not exists:
            if _looks_like_path(source):
                raise RequestError(f"no such file: {source}")
            return source, None
    else:
        return source, None
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise RequestError(f"no such file: {path}") from None
    except OSError as exc:
        raise RequestError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_text(data, "auto", path.name), str(path)


def loads(
    text: str, format: str | None = None, family: Family | str | None = None, filename: str | None = None
) -> Puzzle:
    """Parse puzzle text in ``format`` (detected when omitted); a leading byte-order mark is ignored."""
    text = strip_bom(text)
    family = _family(family) or _family_hint(filename)
    fmt = get_format(format) if format else detect_format(text, filename, family)
    puzzle = _placed(fmt, fmt.read, text, family)
    if filename and not puzzle.name:
        puzzle = puzzle.with_meta(name=Path(filename).stem.split(".")[0])
    return puzzle


def _placed(fmt: Format, reader, text: str, *args):
    """``reader(text, *args)``; an error it raises without a place becomes a :class:`ParseError`
    of ``fmt`` at the start of the text.

    Rule: every input error names format, line and column. Readers name the exact place of what
    they refuse; this catches what a reader leaves to the model (a clue out of range in a
    one-line format, whose place in the text the model cannot know)."""
    try:
        return reader(text, *args)
    except (ParseError, RequestError) as exc:
        if isinstance(exc, RequestError) or exc.line is not None:
            raise
        raise ParseError(exc.format, exc.reason, 1, 1) from None
    except PuzzleError as exc:
        raise ParseError(fmt.name, str(exc), 1, 1) from None


def load(source: str | os.PathLike, format: str | None = None, family: Family | str | None = None) -> Puzzle:
    """Read a puzzle from a file path, a literal (Tatham game id, puzz.link URL) or text."""
    text, filename = _read_source(source)
    return loads(text, format, family, filename)


def dump(puzzle: Puzzle, format: str = "native") -> str:
    """``puzzle`` as text in ``format`` (PuzzleError if the format cannot express it)."""
    fmt = get_format(format)
    fmt.check_writable(puzzle)
    return fmt.write(puzzle)


def _solution_format(fmt: Format) -> Format:
    if fmt.read_solution is None or fmt.write_solution is None:
        able = ", ".join(f.name for f in FORMATS.values() if f.read_solution)
        raise RequestError(f"format {fmt.name} cannot carry a solution; use one of {able}")
    return fmt


def load_solution(
    source: str | os.PathLike, puzzle: Puzzle | None = None, format: str | None = None
) -> Solution:
    """Read an answer. Native files carry their own board; other formats need ``puzzle``."""
    text, filename = _read_source(source)
    text = strip_bom(text)
    fmt = _solution_format(get_format(format) if format else detect_format(text, filename))
    if puzzle is None:
        if fmt is not native.FORMAT:
            raise RequestError(f"format {fmt.name} needs the puzzle to read a solution against")
        return _placed(fmt, native.read_solution, text)
    if puzzle.family not in fmt.carries():
        families = ", ".join(f.value for f in fmt.carries())
        raise RequestError(f"format {fmt.name} holds {families} answers, not {puzzle.family.value}")
    assert fmt.read_solution is not None  # _solution_format checked it
    return _placed(fmt, fmt.read_solution, text, puzzle)


def load_with_solution(
    source: str | os.PathLike, format: str | None = None, family: Family | str | None = None
) -> tuple[Puzzle, Solution | None]:
    """The puzzle and, when the text carries one, its answer."""
    text, filename = _read_source(source)
    text = strip_bom(text)
    fmt = get_format(format) if format else detect_format(text, filename)
    puzzle = loads(text, fmt.name, family, filename)
    if fmt is native.FORMAT and "\nsolution:" in "\n" + text:
        return puzzle, _placed(fmt, native.read_solution, text, puzzle)
    return puzzle, None


def dump_solution(puzzle: Puzzle, solution: Solution | Iterable, format: str = "native") -> str:
    """``solution`` of ``puzzle`` as text (native: the board with the answer marked)."""
    fmt = _solution_format(get_format(format))
    fmt.check_writable(puzzle)
    if not isinstance(solution, Solution):
        solution = puzzle.solution(solution)
    assert fmt.write_solution is not None  # _solution_format checked it
    return fmt.write_solution(puzzle, solution)


def describe_formats() -> str:
    """A table of the formats: name, families, extensions, solution support, description."""
    lines = [f"{'format':<11} {'families':<29} {'extensions':<12} {'answer':<6} description"]
    for fmt in FORMATS.values():
        families = ",".join(f.value for f in fmt.carries())
        exts = ",".join(fmt.extensions) or "-"
        answer = "yes" if fmt.read_solution else "no"
        lines.append(f"{fmt.name:<11} {families:<29} {exts:<12} {answer:<6} {fmt.description}")
    return "\n".join(lines)
