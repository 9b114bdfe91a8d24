"""Suites of puzzles: bundled folders with a manifest, plain folders, janko corpus files.

>>> from puzzlebench.suites import list_suites, load_suite
>>> suite = load_suite("seeds")                       # puzzles/seeds/manifest.json
>>> [(e.id, e.solutions) for e in suite]
>>> load_suite("../shared/corpora/janko/Akari_dataset.json", limit=50)

Bundled suites live in the repository's ``puzzles/`` folder (override with the environment
variable ``PUZZLEBENCH_PUZZLES``). Entries parse their puzzle when first asked, so listing a
large suite is cheap.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .errors import PuzzleError
from .formats import FORMATS, iter_janko, load, load_solution
from .model import Puzzle, Solution


def puzzles_root() -> Path:
    """The folder of bundled suites: ``$PUZZLEBENCH_PUZZLES`` or the checkout's ``puzzles/``."""
    env = os.environ.get("PUZZLEBENCH_PUZZLES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "puzzles"


@dataclass(eq=False)
class SuiteEntry:
    """One puzzle of a suite. ``puzzle`` and ``solution`` are read on first use."""

    id: str
    family: str | None = None
    solutions: int | None = None  # known number of solutions (1 = unique), if the suite says
    meta: Mapping[str, Any] = field(default_factory=dict)
    _puzzle: Callable[[], Puzzle] | Puzzle | None = field(default=None, repr=False)
    _solution: Callable[[Puzzle], Solution | None] | Solution | None = field(default=None, repr=False)

    @cached_property
    def puzzle(self) -> Puzzle:
        got = self._puzzle() if callable(self._puzzle) else self._puzzle
        if got is None:
            raise PuzzleError(f"suite entry {self.id} has no puzzle")
        return got if got.name else got.with_meta(name=self.id)

    @cached_property
    def solution(self) -> Solution | None:
        """The expected (published) answer, if the suite has one."""
        return self._solution(self.puzzle) if callable(self._solution) else self._solution


@dataclass
class Suite:
    """A named list of entries (iterate it, index it, take ``len``)."""

    name: str
    entries: list[SuiteEntry]
    description: str = ""
    path: Path | None = None

    def __iter__(self) -> Iterator[SuiteEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, key: int | str) -> SuiteEntry:
        if isinstance(key, str):
            for entry in self.entries:
                if entry.id == key:
                    return entry
            raise KeyError(key)
        return self.entries[key]

    @property
    def puzzles(self) -> list[Puzzle]:
        return [e.puzzle for e in self.entries]


def list_suites(root: Path | None = None) -> list[str]:
    """Names of the bundled suites (folders with a manifest.json)."""
    root = root or puzzles_root()
    if not root.is_dir():
        return []
    return sorted(p.parent.name for p in root.glob("*/manifest.json"))


#: Manifest entry fields and the JSON types each may have (``file`` is required).
_ENTRY_FIELDS: dict[str, tuple[type, ...]] = {
    "file": (str,),
    "solution": (str,),
    "id": (str, int),
    "family": (str,),
    "solutions": (int,),
    "origin": (str,),
    "meta": (dict,),
}


def _inside(folder: Path, name: str, where: str) -> Path:
    """``folder / name``, refused unless it stays inside ``folder`` (after ``..`` and links).

    Rule: a manifest names files of its own suite only; a path leading out of the folder is
    refused without reading it, so no line of another file reaches an error message."""
    if not name.strip():
        raise PuzzleError(f"{where}: an empty file name")
    target = folder / name
    try:
        inside = target.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError) as exc:  # a link loop, a NUL in the name
        raise PuzzleError(f"{where}: cannot use the path {name[:80]!r} ({exc})") from None
    if not inside:
        raise PuzzleError(
            f"{where}: {name[:80]!r} lies outside the suite's folder {folder}; "
            "a manifest names only files of its own suite"
        )
    return target


def _loader(path: Path, fmt: str | None = None, family: str | None = None) -> Callable[[], Puzzle]:
    """What reads ``path``'s puzzle, for its suite entry to call on first use."""
    return lambda: load(path, fmt, family)


def _solution_loader(path: Path) -> Callable[[Puzzle], Solution]:
    """What reads the solution in ``path`` of an entry's puzzle, on first use."""
    return lambda puzzle: load_solution(path, puzzle)


def _from_manifest(path: Path) -> Suite:
    folder = path.parent
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise PuzzleError(
            f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except UnicodeDecodeError as exc:
        raise PuzzleError(f"{path}: not UTF-8 text (byte {exc.start + 1})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("puzzles", []), list):
        raise PuzzleError(f"{path}: expected a JSON object with a list 'puzzles'")
    entries = []
    for i, item in enumerate(doc.get("puzzles", [])):
        where = f"{path}: puzzle {i}"
        if not isinstance(item, dict) or "file" not in item:
            raise PuzzleError(f"{where} needs at least a 'file'")
        # Rule: each field has its JSON type, so a number where a file name belongs is named here
        for name, types in _ENTRY_FIELDS.items():
            value = item.get(name)
            if value is not None and (not isinstance(value, types) or isinstance(value, bool)):
                wanted = " or ".join(
                    {str: "a string", int: "an integer", dict: "an object"}[t] for t in types
                )
                raise PuzzleError(f"{where}: {name!r} must be {wanted}, got {json.dumps(value)[:40]}")
        file = _inside(folder, item["file"], where)
        meta = item.get("meta") or {}
        fmt = meta.get("format")
        if fmt is not None and not isinstance(fmt, str):
            raise PuzzleError(f"{where}: 'meta.format' must be a string, got {json.dumps(fmt)[:40]}")
        sol = item.get("solution")
        answer = _inside(folder, sol, where) if sol else None
        entries.append(
            SuiteEntry(
                id=str(item.get("id") or Path(item["file"]).stem),
                family=item.get("family"),
                solutions=item.get("solutions"),
                meta={"origin": item.get("origin"), **meta},
                _puzzle=_loader(file, fmt, item.get("family")),
                _solution=_solution_loader(answer) if answer else None,
            )
        )
    return Suite(str(doc.get("suite") or folder.name), entries, str(doc.get("description", "")), folder)


def _from_folder(folder: Path) -> Suite:
    """Every puzzle file in a folder (by extension; answer files ``*.answer.*`` are skipped)."""
    extensions = {ext for fmt in FORMATS.values() for ext in fmt.extensions} | {".txt"}
    files = sorted(
        p for p in folder.iterdir() if p.is_file() and p.suffix in extensions and ".answer." not in p.name
    )
    entries = [SuiteEntry(id=p.stem, _puzzle=_loader(p)) for p in files]
    return Suite(folder.name, entries, f"puzzle files in {folder}", folder)


def _from_janko(path: Path) -> Suite:
    entries = [
        SuiteEntry(
            id=e.id,
            family=e.puzzle.family.value,
            meta=dict(e.puzzle.meta),
            _puzzle=e.puzzle,
            _solution=e.solution,
        )
        for e in iter_janko(path)
    ]
    return Suite(path.stem, entries, f"janko corpus {path.name} (published solutions)", path)


def load_suite(
    name_or_path: str | os.PathLike,
    limit: int | None = None,
    sample: int | None = None,
    seed: int = 0,
    family: str | None = None,
) -> Suite:
    """A bundled suite by name, a folder (with or without manifest), a manifest or a janko JSON file.

    ``family`` keeps one family; ``sample`` draws that many entries at random (fixed ``seed``);
    ``limit`` keeps the first entries.
    """
    text = str(name_or_path)
    path = Path(text)
    bundled = puzzles_root() / text
    if not path.exists() and (bundled / "manifest.json").exists():
        path = bundled
    if path.is_dir():
        suite = (
            _from_manifest(path / "manifest.json")
            if (path / "manifest.json").exists()
            else _from_folder(path)
        )
    elif path.is_file() and path.name == "manifest.json":
        suite = _from_manifest(path)
    elif path.is_file() and path.suffix == ".json":
        suite = _from_janko(path)
    elif path.is_file():
        suite = Suite(path.stem, [SuiteEntry(id=path.stem, _puzzle=lambda: load(path))], "", path)
    else:
        known = ", ".join(list_suites()) or "none"
        raise PuzzleError(f"no suite {text!r}: not a file or folder, nor a bundled suite ({known})")
    entries = suite.entries
    if family:
        entries = [e for e in entries if (e.family or e.puzzle.family.value) == family]
    if sample is not None and sample < len(entries):
        entries = sorted(random.Random(seed).sample(entries, sample), key=entries.index)
    if limit is not None:
        entries = entries[:limit]
    suite.entries = entries
    return suite
