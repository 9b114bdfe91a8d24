"""Cross-check: run one puzzle in several paradigms (or encodings) and say whether they agree.

Agreement is judged on complete encodings only, and never on a solver's own say-so: every
answer is checked by the independent verifier, counts are compared wherever enumeration was
exhausted (or passed the limit), and unique answers must be the same cells. Relaxed encodings
are run and reported (do their answers happen to pass the verifier?) but never expected to agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from . import registry
from .errors import EncodingError, SolverUnavailable
from .model import Puzzle
from .result import Result, Status


class Verdict(str, Enum):
    AGREE = "agree"
    DISAGREE = "disagree"
    INCONCLUSIVE = "inconclusive"  # a timeout or error kept some run from answering

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Config:
    """One solver configuration to compare."""

    paradigm: str
    encoding: str = "default"
    options: Mapping[str, Any] = field(default_factory=dict)
    solver: str | None = None  # the paradigm's default solver when None

    @property
    def label(self) -> str:
        from .bench.spec import make_label

        return make_label(self.paradigm, self.encoding, self.options, self.solver or "")


@dataclass(frozen=True)
class Outcome:
    """What one configuration said about the puzzle."""

    config: Config
    result: Result | None
    error: str | None = None

    @property
    def label(self) -> str:
        return self.config.label

    @property
    def status(self) -> str:
        if self.result is None:
            return "error"
        return self.result.status.value

    @property
    def count_text(self) -> str:
        r = self.result
        if r is None or r.status in (Status.ERROR, Status.TIMEOUT, Status.CRASH, Status.MEMOUT):
            return "-"
        if r.count == 0:
            return "none" if r.exhausted else "none?"
        if r.count == 1:
            return "unique" if r.exhausted else "1+"
        return str(r.count) if r.exhausted else f"{r.count}+"

    @property
    def answered(self) -> bool:
        return self.result is not None and self.result.status in (Status.SAT, Status.UNSAT, Status.WRONG)


@dataclass(frozen=True)
class CrossCheck:
    """The verdict on one puzzle, with every outcome and every difference found."""

    puzzle: Puzzle
    outcomes: tuple[Outcome, ...]
    verdict: Verdict
    differences: tuple[str, ...]
    source: str | None = None

    @property
    def agree(self) -> bool:
        return self.verdict is Verdict.AGREE

    def to_json(self) -> dict[str, Any]:
        return {
            "puzzle": self.puzzle.name or self.source,
            "kind": self.puzzle.family.value,
            "rows": self.puzzle.rows,
            "cols": self.puzzle.cols,
            "verdict": self.verdict.value,
            "differences": list(self.differences),
            "runs": [self._run_json(o) for o in self.outcomes],
        }

    @staticmethod
    def _run_json(o: Outcome) -> dict[str, Any]:
        """One run: its record (``Result.to_record``, the one schema), the label, what the count
        says (``unique``, ``2+``, ...), and the answers' cells."""
        base: dict[str, Any] = {
            "label": o.label,
            "paradigm": o.config.paradigm,
            "encoding": o.config.encoding,
            "solver": o.config.solver,
            "status": o.status,
            "error": o.error,
        }
        if o.result is not None:
            base.update(o.result.to_record())
        base.update(
            count_text=o.count_text,
            verified=o.result.verified if o.result else None,
            solutions=[s.sorted() for s in o.result.solutions] if o.result else [],
        )
        return base

    def _repr_html_(self) -> str:
        from html import escape

        rows = "".join(
            f"<tr><td>{escape(o.label)}</td><td>{o.status}</td><td>{o.count_text}</td>"
            f"<td>{'' if o.result is None else f'{o.result.timings.total * 1000:.1f}'}</td></tr>"
            for o in self.outcomes
        )
        diffs = "".join(f"<li>{escape(d)}</li>" for d in self.differences)
        return (
            f"<p><b>{escape(self.puzzle.name or self.puzzle.family.value)}</b> "
            f"({self.puzzle.rows}x{self.puzzle.cols}): <b>{self.verdict.value}</b></p>"
            f"<table><tr><th>run</th><th>status</th><th>count</th><th>ms</th></tr>{rows}</table>"
            + (f"<ul>{diffs}</ul>" if diffs else "")
        )


def default_configs(
    puzzle: Puzzle,
    paradigms: Sequence[str] | None = None,
    encoding: str = "default",
    options: Mapping[str, Any] | None = None,
    solvers: Sequence[str] | None = None,
) -> list[Config]:
    """One configuration per available paradigm that has ``encoding`` for this family, on its
    default solver; ``solvers`` names solvers instead (each in its own paradigm; ``"all"``:
    every installed solver of the chosen paradigms)."""
    chosen = list(paradigms) if paradigms else registry.available()
    out = []
    for p in chosen:
        if not registry.encodings(puzzle.family, p) and not _is_file(encoding):
            continue
        names = [
            s.name
            for s in registry.solvers(p)
            if (solvers and ("all" in solvers and s.supported() or s.name in solvers))
        ]
        if solvers and not names and not paradigms:
            continue  # solvers were named, none of them in this paradigm
        chosen_solvers: list[str | None] = [*names] or [None]
        for name in chosen_solvers:
            out.append(Config(p, encoding, dict(options or {}), name))
    return out


def _is_file(encoding: str) -> bool:
    from .encodings.files import is_encoding_file

    return is_encoding_file(encoding)


def crosscheck(
    puzzle: Puzzle,
    paradigms: Sequence[str] | None = None,
    count: int = 2,
    timeout: float | None = None,
    encoding: str = "default",
    options: Mapping[str, Any] | None = None,
    configs: Iterable[Config] | None = None,
    source: str | None = None,
    solvers: Sequence[str] | None = None,
) -> CrossCheck:
    """Solve ``puzzle`` with each configuration and compare what they found.

    By default every available paradigm runs its ``encoding`` with ``count=2`` (uniqueness);
    pass ``count=0`` to compare full enumerations (e.g. LightBulbs solution counts), or
    ``configs`` to compare encodings, options or solvers within one paradigm, or ``solvers``
    to run named solvers (``["z3", "cvc5"]``, ``["all"]``).
    """
    from .solvers import solve

    configs = (
        list(configs)
        if configs is not None
        else default_configs(puzzle, paradigms, encoding, options, solvers)
    )
    outcomes = []
    for cfg in configs:
        try:
            result = solve(
                puzzle,
                cfg.paradigm,
                cfg.encoding,
                count=count,
                timeout=timeout,
                solver=cfg.solver,
                strict=False,
                **dict(cfg.options),
            )
            outcomes.append(Outcome(cfg, result))
        except (EncodingError, SolverUnavailable) as exc:
            outcomes.append(Outcome(cfg, None, str(exc)))
    verdict, differences = judge(outcomes, count)
    return CrossCheck(puzzle, tuple(outcomes), verdict, tuple(differences), source)


def judge(outcomes: Sequence[Outcome], count: int) -> tuple[Verdict, list[str]]:
    """Compare outcomes: the verdict and a sentence for each difference."""
    diffs: list[str] = []
    inconclusive = False
    complete: list[Outcome] = []
    for o in outcomes:
        r = o.result
        if r is None or r.status in (Status.ERROR, Status.TIMEOUT, Status.CRASH, Status.MEMOUT):
            inconclusive = True
            why = o.error or (r.error.splitlines()[0] if r and r.error else o.status)
            diffs.append(f"{o.label}: no answer ({o.status}: {why})")
            continue
        rejected = [(i, v) for i, v in enumerate(r.violations) if v]
        if not r.complete:
            passed = "pass" if not rejected else f"do not all pass ({len(rejected)} rejected)"
            diffs.append(f"{o.label} is relaxed: its {r.count} answer(s) {passed} the verifier")
            continue
        for i, v in rejected:
            diffs.append(
                f"{o.label}: answer {i + 1} rejected by the verifier: " + "; ".join(str(x) for x in v[:3])
            )
        complete.append(o)

    disagree = any(o.result and o.result.complete and not o.result.verified for o in outcomes)
    # Compare each complete outcome with the first one.
    if complete:
        ref = complete[0]
        for other in complete[1:]:
            problem = _compare(ref, other, count)
            if problem:
                disagree = True
                diffs.append(problem)
    if disagree:
        return Verdict.DISAGREE, diffs
    if inconclusive or not complete:
        return Verdict.INCONCLUSIVE, diffs
    return Verdict.AGREE, diffs


def _bound(r: Result, limit: int) -> tuple[int, int | None]:
    """The range [low, high] of the true number of answers that ``r`` establishes."""
    if r.exhausted or (r.status is Status.UNSAT):
        return r.count, r.count
    return r.count, None  # stopped at the limit: at least this many


def _compare(a: Outcome, b: Outcome, limit: int) -> str | None:
    ra, rb = a.result, b.result
    assert ra is not None and rb is not None
    lo_a, hi_a = _bound(ra, limit)
    lo_b, hi_b = _bound(rb, limit)
    if (hi_a is not None and lo_b > hi_a) or (hi_b is not None and lo_a > hi_b):
        return f"{a.label} finds {a.count_text} answer(s), {b.label} finds {b.count_text}"
    if hi_a is not None and hi_b is not None:
        sa = {s.cells for s in ra.solutions}
        sb = {s.cells for s in rb.solutions}
        if sa != sb:
            if len(sa) == len(sb) == 1:
                (x,), (y,) = sa, sb
                only_a, only_b = sorted(x - y), sorted(y - x)
                return (
                    f"{a.label} and {b.label} give different answers: "
                    f"only in {a.label}: {_cells(only_a)}; only in {b.label}: {_cells(only_b)}"
                )
            return f"{a.label} and {b.label} enumerate different answer sets ({len(sa - sb)} vs {len(sb - sa)} not shared)"
    return None


def _cells(cells: Sequence[tuple[int, int]], most: int = 8) -> str:
    text = " ".join(f"({r},{c})" for r, c in cells[:most])
    return (text + (f" ... (+{len(cells) - most})" if len(cells) > most else "")) or "none"


def format_reports(reports: Sequence[CrossCheck]) -> str:
    """A plain-text table per puzzle: run, status, count, time; then the verdict and differences."""
    lines = []
    for rep in reports:
        name = rep.puzzle.name or rep.source or rep.puzzle.family.value
        lines.append(f"{name}  {rep.puzzle.family.value} {rep.puzzle.rows}x{rep.puzzle.cols}")
        width = max([len(o.label) for o in rep.outcomes] + [10])
        lines.append(
            f"  {'run':<{width}}  {'status':<8} {'count':<7} {'total ms':>9} {'build ms':>9}  verified"
        )
        for o in rep.outcomes:
            r = o.result
            total = f"{r.timings.total * 1000:9.1f}" if r else f"{'-':>9}"
            build = f"{r.timings.build * 1000:9.1f}" if r else f"{'-':>9}"
            verified = ("yes" if r.verified else "NO") if r and r.solutions else "-"
            lines.append(f"  {o.label:<{width}}  {o.status:<8} {o.count_text:<7} {total} {build}  {verified}")
        lines.append(f"  verdict: {rep.verdict.value}")
        lines.extend(f"    - {d}" for d in rep.differences)
        lines.append("")
    agree = sum(r.agree for r in reports)
    lines.append(f"{agree} of {len(reports)} puzzle(s): all paradigms agree")
    return "\n".join(lines)
