"""What every record carries about where and with what it ran: versions, commit, machine."""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import platform
import subprocess
import sys
from functools import cache
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


@cache
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


@cache
def git_commit(where: str | None = None) -> str:
    """``git rev-parse HEAD`` of the project's checkout, or ``"unknown"`` outside one."""
    root = Path(where) if where else Path(__file__).resolve().parents[3]
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
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


def _memory_gb() -> float | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (AttributeError, OSError, ValueError):
        return None


def _install_id() -> str:
    """This installation's systemd/D-Bus machine id (two VMs of one image differ), or ''."""
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            return open(path, encoding="ascii").read().strip()
        except OSError:
            continue
    return ""


def machine_id(info: dict[str, Any] | None = None) -> str:
    """A short stable id of a machine: CPU, cores, memory, host name and installation id.

    Results measured on one machine are never reused or relabelled as another's: the id is part
    of every run's key and names the folder the main job writes."""
    info = info if info is not None else machine()
    if info.get("id"):
        return str(info["id"])
    ident = [
        info.get("cpu"),
        info.get("cores"),
        info.get("memory_gb"),
        info.get("host"),
        info.get("install", ""),
    ]
    return hashlib.sha256(repr(ident).encode()).hexdigest()[:10]


@cache
def machine() -> dict[str, Any]:
    """CPU model, core count (usable by this process), memory, platform, host name, and the
    machine's :func:`machine_id`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    install = _install_id()
    info: dict[str, Any] = {
        "cpu": _cpu_model(),
        "cores": cores,
        "memory_gb": _memory_gb(),
        "platform": platform.platform(),
        "host": platform.node(),
        "install": hashlib.sha256(install.encode()).hexdigest()[:10] if install else "",
    }
    info["id"] = machine_id(info)
    return info


def load_average() -> float | None:
    """The machine's one-minute load average (runnable processes), where the OS reports it."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def python_version() -> str:
    return sys.version.split()[0]


def timestamp() -> str:
    """Now, in UTC, ISO 8601."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
