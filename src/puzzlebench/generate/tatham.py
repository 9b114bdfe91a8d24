"""Simon Tatham's generators as an outside source of puzzles with unique solutions.

Debian's ``sgt-puzzles`` package installs ``sgt-lightup`` (Light Up) and ``sgt-range`` (Range,
i.e. Kuromasu) in ``/usr/games``. Each front end prints fresh game ids without opening a window:
``sgt-lightup --generate N 10x10b20s2d1#SEED`` writes N ids, one per line, and the same
parameters and seed always give the same ids. Tatham's generators only publish puzzles their own
solvers prove unique, which makes them an independent check of our uniqueness proofs and a
second source of benchmark puzzles beside our generators.

>>> from puzzlebench.generate.tatham import tatham_puzzles
>>> [p.name for p in tatham_puzzles("lightup", 7, 7, count=2, seed=1)]   # doctest: +SKIP
['sgt-lightup-7x7-1-0', 'sgt-lightup-7x7-1-1']
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from ..errors import PuzzleError
from ..formats import loads
from ..model import Family, Puzzle

#: Family -> the sgt-puzzles front end that generates it.
BINARIES: dict[Family, str] = {Family.LIGHTUP: "sgt-lightup", Family.KUROMASU: "sgt-range"}
#: Where Debian and a local build put the games (``/usr/games`` is often not on ``PATH``).
SEARCH_DIRS: tuple[str, ...] = ("/usr/games", "/usr/local/games")


class TathamUnavailable(PuzzleError):
    """The sgt-puzzles front end for a family is not installed."""


def binary(family: Family | str) -> str | None:
    """Path of the generator for ``family``, or None when sgt-puzzles is not installed."""
    fam = Family(family)
    name = BINARIES.get(fam)
    if name is None:
        return None
    found = shutil.which(name)
    if found:
        return found
    for folder in SEARCH_DIRS:
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def unavailable_reason(family: Family | str) -> str | None:
    """Why :func:`tatham_ids` cannot run for ``family`` (None when it can)."""
    fam = Family(family)
    if fam not in BINARIES:
        return f"Simon Tatham's collection has no {fam} generator"
    if binary(fam) is None:
        return f"{BINARIES[fam]} not found (Debian/Ubuntu: apt-get install sgt-puzzles)"
    return None


def tatham_ids(
    family: Family | str,
    rows: int,
    cols: int,
    count: int = 1,
    seed: int = 0,
    params: str = "",
    timeout: float = 120.0,
) -> list[str]:
    """``count`` game ids from Tatham's generator, reproducible from ``seed``.

    ``params`` is appended to the size as the game's own parameter string, e.g. ``b20s2d2`` for
    Light Up (20 % walls, 180-degree symmetry, tricky) or ``""`` for its defaults.
    """
    fam = Family(family)
    reason = unavailable_reason(fam)
    if reason:
        raise TathamUnavailable(reason)
    if rows < 1 or cols < 1 or count < 1:
        raise PuzzleError(f"tatham: need a positive size and count, got {rows}x{cols}, count {count}")
    spec = f"{cols}x{rows}{params}#{seed}"  # Tatham writes W x H, i.e. columns first
    program = binary(fam)
    assert program is not None  # unavailable_reason said it is installed
    try:
        done = subprocess.run(
            [program, "--generate", str(count), spec],
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "DISPLAY": ""},
        )
    except subprocess.TimeoutExpired:
        raise PuzzleError(
            f"{BINARIES[fam]} did not generate {count} {spec} puzzle(s) in {timeout:g} s"
        ) from None
    ids = [line.strip() for line in done.stdout.splitlines() if ":" in line]
    if done.returncode != 0 or len(ids) != count:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise PuzzleError(f"{BINARIES[fam]} --generate {count} {spec} failed: {tail[0]}")
    return ids


def tatham_puzzles(
    family: Family | str,
    rows: int,
    cols: int,
    count: int = 1,
    seed: int = 0,
    params: str = "",
    timeout: float = 120.0,
) -> list[Puzzle]:
    """Tatham's puzzles parsed into the model, each named and carrying how it was made."""
    fam = Family(family)
    out = []
    for i, game_id in enumerate(tatham_ids(fam, rows, cols, count, seed, params, timeout)):
        puzzle = loads(game_id, "tatham", family=fam)
        out.append(
            puzzle.with_meta(
                name=f"{BINARIES[fam]}-{rows}x{cols}-{seed}-{i}",
                source=BINARIES[fam],
                game_id=game_id,
                generator={"program": BINARIES[fam], "params": params, "seed": seed, "index": i},
            )
        )
    return out


# -- the bundled suite -------------------------------------------------------------------------
#: The ``tatham`` suite: (family, rows, cols, params, count). Light Up at Tatham's default
#: parameters (20 % walls, symmetric, "easy") and at his hardest setting ``d2``; Range at
#: growing sizes.
SUITE_PLAN: tuple[tuple[str, int, int, str, int], ...] = (
    ("lightup", 7, 7, "", 3),
    ("lightup", 10, 10, "b20s2d2", 3),
    ("lightup", 14, 14, "b20s2d2", 3),
    ("lightup", 20, 20, "b20s2d2", 2),
    ("kuromasu", 7, 7, "", 3),
    ("kuromasu", 9, 9, "", 3),
    ("kuromasu", 13, 13, "", 3),
    ("kuromasu", 17, 17, "", 2),
)
SUITE_SEED = 2026


def write_suite(folder: str | os.PathLike, seed: int = SUITE_SEED, paradigm: str = "sat") -> Path:
    """Write the ``tatham`` suite: one ``.sgt`` game id per puzzle, the answer found by
    ``paradigm`` (proved unique with ``count=2``) as a native answer file, and a manifest."""
    import json

    from .. import solve
    from ..formats import dump_solution

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for family, rows, cols, params, count in SUITE_PLAN:
        for puzzle in tatham_puzzles(family, rows, cols, count, seed, params):
            result = solve(puzzle, paradigm, count=2, timeout=300)
            if not result.unique:
                raise PuzzleError(
                    f"{puzzle.name}: {paradigm} found {result.count} answer(s) "
                    f"({result.status.value}); Tatham's generator promises exactly one"
                )
            name = puzzle.name
            (folder / f"{name}.sgt").write_text(puzzle.meta["game_id"] + "\n", encoding="utf-8")
            (folder / f"{name}.answer.pzl").write_text(
                dump_solution(puzzle, result.solutions[0]), encoding="utf-8"
            )
            entries.append(
                {
                    "id": name,
                    "file": f"{name}.sgt",
                    "family": family,
                    "rows": rows,
                    "cols": cols,
                    "origin": "tatham",
                    "solution": f"{name}.answer.pzl",
                    "solutions": 1,
                    "meta": {
                        "format": "tatham",
                        **puzzle.meta["generator"],
                        "solutions_counted_by": f"puzzlebench {paradigm}/default, count=2, exhausted",
                    },
                }
            )
    manifest = {
        "suite": "tatham",
        "description": "Puzzles from Simon Tatham's generators (sgt-lightup, sgt-range), which publish only "
        "puzzles their own solvers prove unique; regenerate with "
        "`python -m puzzlebench.generate.tatham puzzles/tatham`.",
        "puzzles": entries,
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return folder


if __name__ == "__main__":
    import sys

    target = write_suite(sys.argv[1] if len(sys.argv) > 1 else "puzzles/tatham")
    print(f"wrote {target}")
