"""The raw results store: JSON lines, one record per run, each written whole.

A record reaches the disk with one ``os.write`` of a complete line on an ``O_APPEND`` descriptor
followed by ``os.fsync``, so a process killed at any moment leaves at most one torn trailing line.
Opening a store for resume drops such a line (truncating the file in place) and remembers the keys
already present, so a resumed sweep neither loses a finished record nor duplicates one.

One writer at a time: a store holds an exclusive ``flock`` on the results file from opening to
closing (a sweep's whole duration), taken without waiting. A second sweep on the same file is
refused with :class:`StoreLockedError` (the CLI prints one line and exits with status 2) instead of
running and appending the same runs again (each run then stored twice). The lock is on
the results file itself, so no lock file is left behind; that is also why a torn line is repaired
by truncating in place, never by replacing the file (a new file would not carry the lock).
"""

from __future__ import annotations

import json
import math
import os
import stat
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import PuzzleError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locking
    fcntl = None  # type: ignore[assignment]  # not POSIX: no module to hold


class StoreExistsError(PuzzleError):
    """The output file already holds records and the sweep was not asked to resume."""


class StoreLockedError(PuzzleError):
    """Another sweep is writing to the same results file right now."""


def read_records(path: str | os.PathLike, runs: bool = False) -> Iterator[dict[str, Any]]:
    """The complete records of a JSON-lines file; a torn (unterminated) last line is skipped with
    a warning. ``runs``: also skip (with a warning) records that are not run records a report
    can place (:data:`REQUIRED` fields, a known status)."""
    with open(path, "rb") as fh:
        data = fh.read()
    yield from _parse(data, str(path), runs)[0]


class ResultsWarning(UserWarning):
    """A line of a results file that was skipped (not UTF-8, not a JSON object, wrong-typed fields)."""


#: Types the readers of records rely on, for the fields that have them (None is always allowed).
_STR = (str,)
_NUM = (int, float)
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "key": _STR,
    "puzzle_id": _STR,
    "puzzle_hash": _STR,
    "suite": _STR,
    "family": _STR,
    "paradigm": _STR,
    "solver": _STR,
    "solver_version": _STR,
    "encoding": _STR,
    "encoding_hash": _STR,
    "label": _STR,
    "status": _STR,
    "verdict": _STR,
    "solution_hash": _STR,
    "backend": _STR,
    "backend_version": _STR,
    "error": _STR,
    "git_commit": _STR,
    "python": _STR,
    "timestamp": _STR,
    "options": (dict,),
    "resolved_options": (dict,),
    "versions": (dict,),
    "machine": (dict,),
    "extra": (dict,),
    "solution_hashes": (list,),
    "rows": (int,),
    "cols": (int,),
    "repeat": (int,),
    "count": (int,),
    "count_limit": (int,),
    "expected_count": (int,),
    "jobs": (int,),
    "memory_mb": _NUM,
    "timeout": _NUM,
    "time_build": _NUM,
    "time_solve": _NUM,
    "time_first": _NUM,
    "time_total": _NUM,
    "time_cpu": _NUM,
    "time_wall": _NUM,
    "time_startup": _NUM,
    "time_run": _NUM,
    "peak_rss_mb": _NUM,
    "peak_rss_self_mb": _NUM,
    "exhausted": (bool,),
    "complete": (bool,),
}


#: Fields a run record cannot be placed without: the report's configuration and outcome.
REQUIRED = ("paradigm", "status")
#: The statuses a run can end with (:class:`puzzlebench.result.Status`).
STATUSES = ("sat", "unsat", "timeout", "error", "wrong", "crash", "memout")
#: Measurements that cannot be negative (times in seconds, counts, sizes, limits).
NON_NEGATIVE = tuple(name for name, types in FIELD_TYPES.items() if types in (_NUM, (int,)))
#: Longest time a record can hold, in seconds (a year): more is a corrupt value, not a measurement.
MAX_SECONDS = 365 * 24 * 3600.0
SECONDS = (
    "timeout",
    "time_build",
    "time_solve",
    "time_first",
    "time_total",
    "time_cpu",
    "time_wall",
    "time_startup",
    "time_run",
)


def _bad_field(record: dict[str, Any], runs: bool = False) -> str | None:
    """The first field whose value the readers cannot use, described; None if all fit.

    Rule: a field has its type (:data:`FIELD_TYPES`); a number is finite (NaN and infinity
    have no place in a mean), a measurement is not negative, a time is at most
    :data:`MAX_SECONDS`; the status is one of :data:`STATUSES`; the fields of :data:`REQUIRED`
    are present (the last two for ``runs``, records a report places).
    """
    for name in REQUIRED if runs else ():
        if record.get(name) is None:
            return f"no {name!r} field"
    for name, types in FIELD_TYPES.items():
        value = record.get(name)
        if value is None:
            continue
        if isinstance(value, bool) and bool not in types:  # JSON true is not a number here
            return f"field {name!r} is a boolean"
        if not isinstance(value, types):
            return f"field {name!r} is a {type(value).__name__}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"field {name!r} is {value} (not a finite number)"
        if not isinstance(value, (int, float)):
            continue
        if name in NON_NEGATIVE and value < 0:
            return f"field {name!r} is negative ({value})"
        if name in SECONDS and value > MAX_SECONDS:
            return f"field {name!r} is {value:g} s (more than a year: not a measurement)"
    if runs and record["status"] not in STATUSES:
        return f"unknown status {record['status']!r} (expected one of {', '.join(STATUSES)})"
    return None


def _skip(name: str, number: int, why: str) -> None:
    warnings.warn(f"{name}: line {number} skipped: {why}", ResultsWarning, stacklevel=4)


def _parse(data: bytes, name: str, runs: bool = False) -> tuple[list[dict[str, Any]], int]:
    """(records, good): ``good`` is the length of the data without a torn tail. A last line
    without its newline, or a final line that is not valid JSON, counts as torn.

    A line that is not UTF-8, is JSON but not an object, or has a field the readers cannot use
    (:func:`_bad_field`) is skipped, and so is a torn tail, each with a :class:`ResultsWarning`
    naming its line number.
    """
    lines = data.split(b"\n")
    tail = lines.pop()  # text after the last newline: empty unless the last write was cut short
    records: list[dict[str, Any]] = []
    good = len(data) if not tail.strip() else len(data) - len(tail)
    if tail.strip():  # Rule: a dropped line is always named, even the torn tail a killed writer leaves
        _skip(name, len(lines) + 1, f"a torn last line without its newline ({len(tail)} bytes)")
    offset = 0
    for number, line in enumerate(lines, 1):
        start, offset = offset, offset + len(line) + 1
        if not line.strip():
            continue
        if number == 1 and line.startswith(b"\xef\xbb\xbf"):
            line = line[3:]  # a byte-order mark some editors add
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            _skip(name, number, f"not UTF-8 text (byte 0x{line[exc.start]:02x} at column {exc.start + 1})")
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError:
            if number == len(lines) and not tail:
                good = start  # a complete-looking but corrupt final line: treat it as torn too
                _skip(name, number, "the last line is not valid JSON (treated as torn)")
                continue
            raise PuzzleError(f"{name}: line {number} is not valid JSON") from None
        except (ValueError, RecursionError) as exc:  # numbers past int()'s digit limit, deep nesting
            _skip(name, number, f"unreadable JSON ({str(exc)[:60]})")
            continue
        if not isinstance(record, dict):
            _skip(name, number, f"a JSON {type(record).__name__}, not an object")
            continue
        bad = _bad_field(record, runs)
        if bad:
            _skip(name, number, bad)
            continue
        records.append(record)
    return records, good


def lock_holder(fd: int) -> str | None:
    """The process holding a ``flock`` on the file open as ``fd``, described as
    ``pid N (command line)``; None where the system does not say (``/proc/locks`` is Linux's)."""
    info = os.fstat(fd)
    inode = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        # Format: "N: FLOCK ADVISORY WRITE pid maj:min:inode start end" (a blocked waiter has "->")
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == inode and fields[0].endswith(":"):
            pid = fields[4]
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as fh:
                    command = fh.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
            except OSError:
                command = ""
            return f"pid {pid}" + (f" ({command[:200]})" if command else "")
    return None


def _flock_or_refuse(fd: int, path: Path, advice: str) -> None:
    """Take the writer's exclusive lock on ``fd`` without waiting, or raise
    :class:`StoreLockedError` naming the job that holds it."""
    if fcntl is None:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = lock_holder(fd)
        raise StoreLockedError(
            f"{path} is being written by another sweep (locked by {holder or 'another process'}); "
            f"wait for it to finish, {advice}"
        ) from None


def move_aside(path: str | os.PathLike) -> Path | None:
    """Start a results file over without losing it: under the writer's lock, rename it to
    ``<name>.old-<UTC time>`` beside itself (a name that folder readers, which take ``*.jsonl``,
    do not pick up) and return the new path; None when there is no file.

    Rule: a file another sweep is writing is never moved; :class:`StoreLockedError` names that job.
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return None
    try:
        _flock_or_refuse(fd, path, "or choose another --out")
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        aside = path.with_name(f"{path.name}.old-{stamp}")
        number = 1
        while aside.exists():  # two fresh starts within one second keep both older files
            number += 1
            aside = path.with_name(f"{path.name}.old-{stamp}-{number}")
        os.rename(path, aside)  # the lock goes with the inode; a new writer creates a new file
        return aside
    finally:
        os.close(fd)


class ResultStore:
    """Append-only JSON-lines file keyed by each record's ``key``, locked while open."""

    def __init__(self, path: str | os.PathLike, resume: bool = False):
        self.path = Path(path)
        self.keys: set[str] = set()
        self.repaired = False  # True when a torn trailing line was dropped on opening
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        if not stat.S_ISREG(os.fstat(self._fd).st_mode):  # /dev/full, a pipe: no records to read or repair
            os.close(self._fd)
            self._fd = -1
            raise PuzzleError(f"cannot write results to {self.path}: not a regular file")
        try:
            self._lock()
            # Rule: read only under the lock, so the keys include everything a previous writer stored
            data = self._read_all()
            records, good = _parse(data, str(self.path))
            if data and not resume:
                raise StoreExistsError(
                    f"{self.path} already holds {len(records)} record(s); pass --resume to continue it "
                    "or choose another --out"
                )
            if good < len(data):  # Rule: a torn tail is cut off in place (atomic for a tail)
                os.ftruncate(self._fd, good)
                os.fsync(self._fd)
                self.repaired = True
            self.keys = {r["key"] for r in records if "key" in r}
        except BaseException:
            self.close()
            raise

    def _lock(self) -> None:
        _flock_or_refuse(self._fd, self.path, "then --resume, or choose another --out")

    def _read_all(self) -> bytes:
        chunks: list[bytes] = []
        offset = 0
        while True:
            chunk = os.pread(self._fd, 1 << 20, offset)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            offset += len(chunk)

    def __contains__(self, key: object) -> bool:
        return key in self.keys

    def __len__(self) -> int:
        return len(self.keys)

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one line with a single write, then flush it to the disk."""
        line = (json.dumps(record, default=str) + "\n").encode("utf-8")
        written = os.write(self._fd, line)
        if written != len(line):  # regular files take the whole buffer; anything else is a disk error
            raise OSError(f"short write to {self.path}: {written} of {len(line)} bytes")
        os.fsync(self._fd)
        self.keys.add(record["key"])

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # releases the lock
            self._fd = -1

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
