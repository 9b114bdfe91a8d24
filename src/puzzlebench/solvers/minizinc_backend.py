"""The MiniZinc peer: the ``minizinc`` driver running a model with Gecode in a child process.

The driver is an external binary, so the hard wall-clock limit is the parent's: the child runs
in its own session and its whole process group is killed at the deadline. Solutions and
statistics are read from ``--json-stream`` as they arrive, so enumeration is lazy.

Counting is faithful because the model's only decision variables are the bulb array ``x``
(walls fixed false): ``--all-solutions`` never repeats a bulb set. The backend still checks this
and refuses a repeated answer rather than counting it twice.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from ..encodings.minizinc import MiniZincArtifact
from ..model import Cell
from .base import Backend

#: The driver's statistics that measure the flattened model (compiler side).
_FLAT_SIZE = re.compile(r"^flat(\w+?)(Vars|Constraints)$")


@lru_cache(maxsize=1)
def _solvers_listing() -> str:
    """``minizinc --solvers`` output ('' when the binary is missing or broken)."""
    exe = shutil.which("minizinc")
    if exe is None:
        return ""
    try:
        return subprocess.run([exe, "--solvers"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


class MiniZincBackend(Backend):
    """``minizinc --solver NAME`` on a model and its data, answers read from the JSON stream.

    The registry names MiniZinc's solvers (``gecode``, ``chuffed``, ...); the solver's name
    comes in the settings.
    """

    paradigm: ClassVar[str] = "minizinc"
    name: ClassVar[str] = "minizinc"

    def __init__(self, options, settings=None):
        super().__init__(options, settings)
        self.solver_name: str = self.settings.get("solver", "gecode")
        self._artifact: MiniZincArtifact | None = None
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[str] = []
        self._stats: dict[str, Any] = {}
        self._readers: list[threading.Thread] = []
        self._deadline: float | None = None
        self._done = False

    # -- availability -------------------------------------------------------------------------
    @classmethod
    def supported(cls) -> bool:
        return "org.gecode.gecode" in _solvers_listing()

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if shutil.which("minizinc") is None:
            return "the minizinc binary is not on PATH (Debian/Ubuntu: apt-get install minizinc)"
        if not cls.supported():
            return "minizinc is installed but lists no Gecode solver (`minizinc --solvers`)"
        return None

    @classmethod
    def unavailable_reason_for(cls, settings) -> str | None:
        name = settings.get("solver", "gecode")
        if shutil.which("minizinc") is None:
            return "the minizinc binary is not on PATH (Debian/Ubuntu: apt-get install minizinc)"
        if not re.search(rf"\b{re.escape(name)}\b", _solvers_listing(), re.IGNORECASE):
            return f"minizinc is installed but lists no solver {name!r} (`minizinc --solvers`)"
        return None

    @classmethod
    def solver_version(cls, settings) -> str:
        name = settings.get("solver", "gecode")
        found = re.search(rf"^\s*{re.escape(name)}\s+(\S+)", _solvers_listing(), re.IGNORECASE | re.MULTILINE)
        return f"{cls.version().split(',')[0]}, {name} {found.group(1) if found else '?'}"

    @classmethod
    def version(cls) -> str:
        exe = shutil.which("minizinc")
        if exe is None:
            return "unavailable"
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30).stdout
        mzn = re.search(r"version (\S+)", out)
        gecode = re.search(r"Gecode (\S+)", _solvers_listing())
        return f"minizinc {mzn.group(1) if mzn else '?'}, gecode {gecode.group(1) if gecode else '?'}"

    # -- the work -----------------------------------------------------------------------------
    def build(self, artifact: MiniZincArtifact, deadline: float | None) -> None:
        """Write the model and data to a private directory; compilation happens in the child."""
        self._artifact = artifact
        self._deadline = deadline
        self._tmp = tempfile.TemporaryDirectory(prefix="puzzlebench-mzn-")
        tmp = Path(self._tmp.name)
        (tmp / "model.mzn").write_text(artifact.model, encoding="utf-8")
        (tmp / "data.dzn").write_text(artifact.data, encoding="utf-8")

    def _start(self, limit: int) -> None:
        assert self._tmp is not None
        tmp = Path(self._tmp.name)
        exe = shutil.which("minizinc") or "minizinc"
        # One answer per solution on the JSON stream; -n N stops after N, -a enumerates all.
        count = ["-a"] if limit == 0 else ["-n", str(limit)]
        cmd = [
            exe,
            "--solver",
            self.solver_name,
            *count,
            "--statistics",
            "--output-mode",
            "json",
            "--json-stream",
            str(tmp / "model.mzn"),
            str(tmp / "data.dzn"),
        ]
        self._proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=tmp
        )
        self._readers = [
            threading.Thread(target=self._pump, args=(self._proc.stdout, self._lines), daemon=True),
            threading.Thread(target=self._collect_stderr, args=(self._proc.stderr,), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _pump(stream, sink: queue.Queue) -> None:
        for line in stream:
            sink.put(line)
        sink.put(None)  # end of stream

    def _collect_stderr(self, stream) -> None:
        for line in stream:
            self._stderr.append(line)

    def _messages(self) -> Iterator[dict[str, Any]]:
        """JSON messages from the child until its stream ends; kills it at the deadline."""
        while not self._done:
            try:
                line = self._lines.get(timeout=self.remaining(self._deadline))
            except queue.Empty:
                self.timed_out = True
                self._kill()
                return
            if line is None:
                self._done = True
                return
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                raise RuntimeError(
                    self._failure(f"minizinc wrote a line that is not JSON: {line[:200]!r}")
                ) from None

    def native_enumeration(self) -> bool:
        return True

    def enumerate(self, limit: int, deadline: float | None) -> Iterator[frozenset[Cell]]:
        assert self._artifact is not None, "build() first"
        self._deadline = deadline
        self._start(limit)
        by_index = {index: cell for cell, index in self._artifact.decision.items()}
        seen: set[frozenset[Cell]] = set()
        for msg in self._messages():
            kind = msg.get("type")
            if kind == "solution":
                cells = self._decode(msg["output"]["json"][self._artifact.array], by_index)
                # Blocking on decision cells only: a repeated bulb set would mean hidden auxiliaries.
                if cells in seen:
                    raise RuntimeError(
                        "minizinc returned the same bulb set twice: the model has auxiliary variables"
                    )
                seen.add(cells)
                yield cells
            elif kind == "status":
                # ALL_SOLUTIONS / UNSATISFIABLE: the search space was fully explored.
                self.exhausted = msg["status"] in ("ALL_SOLUTIONS", "UNSATISFIABLE", "OPTIMAL_SOLUTION")
                if msg["status"] == "UNKNOWN":
                    self.timed_out = True
                elif msg["status"] == "ERROR":
                    raise RuntimeError(self._failure("minizinc reported an error status"))
            elif kind == "statistics":
                self._stats.update(msg["statistics"])
            elif kind == "error":
                raise RuntimeError(
                    self._failure(f"minizinc {msg.get('what', 'error')}: {msg.get('message', '')}")
                )
        self._wait()
        if self._proc is not None and self._proc.returncode not in (0, None) and not self.timed_out:
            raise RuntimeError(self._failure(f"minizinc exited with status {self._proc.returncode}"))

    @staticmethod
    def _decode(rows: list[list[bool]], by_index: dict[tuple[int, int], Cell]) -> frozenset[Cell]:
        marked = {(i + 1, j + 1) for i, row in enumerate(rows) for j, value in enumerate(row) if value}
        stray = marked - by_index.keys()
        if stray:
            raise RuntimeError(f"minizinc marked cells outside the decision set: {sorted(stray)[:3]}")
        return frozenset(by_index[index] for index in marked)

    def _failure(self, message: str) -> str:
        tail = "".join(self._stderr[-5:]).strip()
        return f"{message}\n{tail}" if tail else message

    # -- process control ----------------------------------------------------------------------
    def _drain(self) -> None:
        """Read what the child still sends (final statistics) until it exits or the deadline."""
        if self._proc is None:
            return
        for msg in self._messages():
            if msg.get("type") == "statistics":
                self._stats.update(msg["statistics"])
        self._wait()

    def _wait(self) -> None:
        if self._proc is None:
            return
        try:
            # The stream has ended or been read to the deadline: the child is exiting.
            self._proc.wait(timeout=self.remaining(self._deadline))
        except subprocess.TimeoutExpired:
            self.timed_out = True
            self._kill()

    def _kill(self) -> None:
        """Kill the child's whole process group (driver, flattener and solver)."""
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()

    def interrupt(self) -> None:
        self._kill()

    # -- figures ------------------------------------------------------------------------------
    def size(self) -> dict[str, int]:
        self._drain()
        s = self._stats
        out: dict[str, int] = {}
        for key in ("variables", "propagators"):
            if key in s:
                out[key] = int(s[key])
        flat_vars = sum(int(v) for k, v in s.items() if (m := _FLAT_SIZE.match(k)) and m.group(2) == "Vars")
        flat_cons = sum(
            int(v) for k, v in s.items() if (m := _FLAT_SIZE.match(k)) and m.group(2) == "Constraints"
        )
        if any(_FLAT_SIZE.match(k) for k in s):
            out["flat_variables"] = flat_vars
            out["flat_constraints"] = flat_cons
        return out

    def search(self) -> dict[str, float]:
        self._drain()
        names = {
            "nodes": "choices",
            "failures": "conflicts",
            "propagations": "propagations",
            "restarts": "restarts",
            "peakDepth": "peak_depth",
        }
        return {ours: float(self._stats[theirs]) for theirs, ours in names.items() if theirs in self._stats}

    def extra(self) -> dict[str, Any]:
        self._drain()
        names = {
            "flatTime": "minizinc_flat_time",
            "initTime": "gecode_init_time",
            "solveTime": "gecode_solve_time",
        }
        return {ours: float(self._stats[theirs]) for theirs, ours in names.items() if theirs in self._stats}

    def close(self) -> None:
        self._kill()
        # The readers end at EOF once the process group is gone; then the pipes can be closed.
        for reader in self._readers:
            reader.join(timeout=2)
        if self._proc is not None:
            for stream in (self._proc.stdout, self._proc.stderr):
                if stream is not None:
                    stream.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
