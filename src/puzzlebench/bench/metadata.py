"""What every record carries about where and with what it ran: versions, commit, machine."""

from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
import sys
from functools import lru_cache
from importlib import metadata as _md
from pathlib import Path
from typing import Any

#: Distribution names of the solver libraries, by the short name used in records.
BACKEND_DISTRIBUTIONS: dict[str, str] = {
    "clingo": "clingo",
    "z3": "z3-solver",
    "pysat": "python-sat",
    "ortools": "ortools",
}


@lru_cache(maxsize=None)
def versions() -> dict[str, str]:
    """Installed versions of the solver libraries and Python (read from package metadata)."""
    out = {"python": platform.python_version()}
    for short, dist in BACKEND_DISTRIBUTIONS.items():
        try:
            out[short] = _md.version(dist)
        except _md.PackageNotFoundError:
            out[short] = "absent"
    try:
        out["puzzlebench"] = _md.version("puzzlebench")
    except _md.PackageNotFoundError:
        out["puzzlebench"] = "unknown"
    return out


@lru_cache(maxsize=None)
def git_commit(where: str | None = None) -> str:
    """``git rev-parse HEAD`` of the project's checkout, or ``"unknown"`` outside one."""
    root = Path(where) if where else Path(__file__).resolve().parents[3]
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10, check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.lower().startswith(("model name", "hardware", "cpu model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


@lru_cache(maxsize=None)
def machine() -> dict[str, Any]:
    """CPU model, core count (usable by this process), platform and host name."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return {
        "cpu": _cpu_model(),
        "cores": cores,
        "platform": platform.platform(),
        "host": platform.node(),
    }


def python_version() -> str:
    return sys.version.split()[0]


def timestamp() -> str:
    """Now, in UTC, ISO 8601."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
