"""The benchmark layer: sweep definition, isolated runs, executors, results store, report.

>>> from puzzlebench.bench import Sweep, run_sweep
>>> sweep = Sweep(suites=["seed000"], paradigms=["asp", "sat"], timeout=20, out="results/mine.jsonl")
>>> outcome = run_sweep(sweep.expand(), sweep.out, resume=True)

Definition (:mod:`.spec`), execution (:mod:`.runner`, :mod:`.worker`), storage (:mod:`.store`)
and reporting (:mod:`.report`) are kept apart; :mod:`puzzlebench.results` reads the records.
"""

from __future__ import annotations

from .runner import DaskExecutor, SequentialExecutor, SweepOutcome, ThreadExecutor, execute, run_sweep
from .spec import Run, SuiteItem, Sweep, load_items
from .store import ResultStore, read_records

__all__ = [
    "DaskExecutor",
    "ResultStore",
    "Run",
    "SequentialExecutor",
    "SuiteItem",
    "Sweep",
    "SweepOutcome",
    "ThreadExecutor",
    "execute",
    "load_items",
    "read_records",
    "run_sweep",
]
