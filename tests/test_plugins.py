"""The open workbench, end to end: plugins, run-time registrations and encoding files.

* The plugin fixture ``tests/plugin_pkg`` (a Light Up SAT encoding ``demo`` and a solver
  ``demo-minisat`` on the plugin's own Backend, behind a ``puzzlebench.plugins`` entry point) is
  "installed" without touching the venv: a temporary folder holds a copy of the package and a
  minimal ``.dist-info`` (METADATA + entry_points.txt, read from its pyproject.toml), and goes on
  ``PYTHONPATH`` of the child processes only. ``importlib.metadata`` finds the entry point there
  in the CLI, its isolated workers and its Dask workers alike.
  ``--plugin MODULE``, ``--plugin FILE.py`` and ``PUZZLEBENCH_PLUGINS`` load a module on
  request; a broken plugin is one line on stderr and exit status 2.
* Registrations made in this process (``pb.register_encoding`` on a nested function,
  ``pb.register_solver`` on a nested Backend class, ``pb.register_paradigm``) travel to isolated
  workers by cloudpickle, as from a notebook's ``__main__``.
* Wrong and relaxed user encodings are caught by the verifier and the cross-check.
* Encoding files are read on every solve; their content hash keys the records, so ``--resume``
  never reuses a record of an older version.

Everything registered in this process is unregistered again, so other test modules see the
built-in registry only.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

import puzzlebench as pb
from puzzlebench import registry
from puzzlebench.bench import Sweep, ThreadExecutor, load_items, run_sweep
from puzzlebench.bench import read_records as _read_records
from puzzlebench.crosscheck import Config, Verdict
from puzzlebench.errors import EncodingError, VerificationError
from puzzlebench.model import Kuromasu
from puzzlebench.suites import load_suite

REPO = Path(__file__).resolve().parent.parent
PLUGIN_PKG = REPO / "tests" / "plugin_pkg"
#: Kuromasu 2x2 with a 1 in a corner: both neighbours black cut (1,1) off. Unsatisfiable with the
#: connectivity rule, satisfiable (by an answer the verifier rejects) without it.
CUT_CORNER = Kuromasu(2, 2, numbers={(0, 0): 1}, name="cut-corner")

KUROMASU_LP = """\
% Kuromasu against the fact schema: size/2, num/3, clue/2; the answer is black/2.
cell(R,C) :- size(H,W), R = 0..H-1, C = 0..W-1.
{ black(R,C) } :- cell(R,C), not clue(R,C).
white(R,C) :- cell(R,C), not black(R,C).
:- black(R,C), black(R+1,C).
:- black(R,C), black(R,C+1).
dir(-1,0; 1,0; 0,-1; 0,1).
see(R,C,DR,DC,1) :- num(R,C,_), dir(DR,DC), white(R+DR,C+DC).
see(R,C,DR,DC,K+1) :- see(R,C,DR,DC,K), num(R,C,N), K < N, white(R+DR*(K+1),C+DC*(K+1)).
:- num(R,C,N), #count{ DR,DC,K : see(R,C,DR,DC,K) } != N-1.
%% connectivity
reach(R,C) :- (R,C) = #min{ (X,Y) : white(X,Y) }.
reach(R+DR,C+DC) :- reach(R,C), dir(DR,DC), white(R+DR,C+DC).
:- white(R,C), not reach(R,C).
#show black/2.
"""


def _without_connectivity(text: str) -> str:
    return text.split("%% connectivity")[0] + "#show black/2.\n"


# -- the plugin fixture, "installed" for child processes ----------------------------------------
def _write_dist(site: Path, name: str, version: str, entry_points: dict[str, dict[str, str]]) -> None:
    dist = site / f"{name.replace('-', '_')}-{version}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    lines = []
    for group, items in entry_points.items():
        lines += [f"[{group}]", *(f"{k} = {v}" for k, v in items.items()), ""]
    (dist / "entry_points.txt").write_text("\n".join(lines))


@pytest.fixture(scope="session")
def plugin_site(tmp_path_factory) -> Path:
    """A folder holding the plugin package and its dist-info (entry points from pyproject.toml)."""
    project = tomllib.loads((PLUGIN_PKG / "pyproject.toml").read_text())["project"]
    site = tmp_path_factory.mktemp("plugin-site")
    shutil.copytree(
        PLUGIN_PKG / "pb_demo_plugin", site / "pb_demo_plugin", ignore=shutil.ignore_patterns("__pycache__")
    )
    _write_dist(site, project["name"], project["version"], project["entry-points"])
    return site


def _env(*paths: Path, **extra: str) -> dict[str, str]:
    """This process's environment for a child: ``paths`` first on PYTHONPATH, no plugin list."""
    env = {k: v for k, v in os.environ.items() if k != "PUZZLEBENCH_PLUGINS"}
    env["PYTHONPATH"] = os.pathsep.join([*map(str, paths), *filter(None, [os.environ.get("PYTHONPATH")])])
    env["MPLBACKEND"] = "Agg"
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def plugin_env(plugin_site) -> dict[str, str]:
    return _env(plugin_site)


def cli(*args: str, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "puzzlebench", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc


def _one_line_error(proc: subprocess.CompletedProcess, *fragments: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzlebench: error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def read_records(path) -> list[dict]:
    return list(_read_records(path))


def _file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


# -- entry point, CLI, isolated workers ----------------------------------------------------------
def test_entry_point_plugin_is_found_by_the_cli(plugin_env):
    solvers = json.loads(_ok(cli("solvers", "--paradigm", "sat", "--json", env=plugin_env)).stdout)
    demo = next(s for s in solvers if s["solver"] == "demo-minisat")
    assert demo["installed"] and demo["version"].startswith("minisat22 (python-sat ")
    listing = _ok(cli("encodings", "--family", "lightup", "--paradigm", "sat", env=plugin_env)).stdout
    assert any(line.split()[2:4] == ["demo", "pb-demo-plugin"] for line in listing.splitlines())
    # without the folder on the path there is no entry point, hence no plugin
    bare = json.loads(_ok(cli("solvers", "--paradigm", "sat", "--json", env=_env())).stdout)
    assert "demo-minisat" not in {s["solver"] for s in bare}


@pytest.mark.parametrize(
    "executor", [[], ["-j", "2"], ["--dask-local", "2"]], ids=["sequential", "j2", "dask"]
)
def test_bench_runs_the_plugin_encoding_and_solver(plugin_env, plugin_site, tmp_path, executor):
    out = tmp_path / "runs.jsonl"
    proc = _ok(
        cli(
            "bench",
            "--suite",
            "gen-lightup",
            "--limit",
            "2",
            "--paradigm",
            "sat",
            "--encoding",
            "demo",
            "--encoding",
            "default",
            "--solver",
            "demo-minisat",
            "--solver",
            "cadical195",
            "--timeout",
            "30",
            "--out",
            str(out),
            "--quiet",
            *executor,
            env=plugin_env,
        )
    )
    assert "8 run(s) stored" in proc.stderr and "0 failure(s)" in proc.stderr
    records = read_records(out)
    assert len(records) == 8
    assert {(r["encoding"], r["solver"]) for r in records} == {
        (e, s) for e in ("demo", "default") for s in ("demo-minisat", "cadical195")
    }
    plugin_hash = _file_hash(plugin_site / "pb_demo_plugin" / "__init__.py")
    for r in records:
        assert (r["status"], r["verdict"], r["count"], r["exhausted"], r["complete"]) == (
            "sat",
            "valid",
            1,
            True,
            True,
        ), r
        assert r["jobs"] == (1 if not executor else 2)
        if r["solver"] == "demo-minisat":
            assert r["backend"] == "demo-pysat" and r["solver_version"].startswith("minisat22 (python-sat ")
            assert r["label"].endswith("@demo-minisat")
        else:
            assert r["backend"] == "pysat" and r["solver_version"].startswith("cadical195")
        if r["encoding"] == "demo":
            assert r["encoding_hash"] == plugin_hash  # the plugin module's own source
    # every configuration found the same answer on each board
    by_puzzle: dict[str, set] = {}
    for r in records:
        by_puzzle.setdefault(r["puzzle_id"], set()).add(r["solution_hash"])
    assert len(by_puzzle) == 2 and all(len(hashes) == 1 for hashes in by_puzzle.values())


PROBE = """
from importlib.metadata import entry_points

from puzzlebench import plugins, registry


def probe(puzzle, desc):
    return {"status": "sat", "extra": {
        "entry_points": sorted(ep.value for ep in entry_points(group="puzzlebench.plugins")),
        "sat_solvers": [s.name for s in registry.solvers("sat")],
        "lightup_sat": [s.name for s in registry.encodings("lightup", "sat")],
        "explicit": plugins.explicit(), "shipped": len(desc["registrations"]),
    }}
"""


def test_a_worker_process_finds_the_entry_point_itself(plugin_site, tmp_path, monkeypatch):
    # this process never sees the plugin; its isolated worker gets the folder on PYTHONPATH only
    (tmp_path / "pb_probe.py").write_text(PROBE)
    monkeypatch.setenv("PYTHONPATH", _env(plugin_site, tmp_path)["PYTHONPATH"])
    monkeypatch.delenv("PUZZLEBENCH_PLUGINS", raising=False)
    sweep = Sweep(
        items=load_items("gen-lightup")[:1],
        paradigms=["sat"],
        task="pb_probe:probe",
        out=str(tmp_path / "r.jsonl"),
    )
    run_sweep(sweep.expand(), sweep.out, quiet=True)
    (record,) = read_records(sweep.out)
    extra = record["extra"]
    assert extra["entry_points"] == ["pb_demo_plugin"] and extra["explicit"] == [] and extra["shipped"] == 0
    assert "demo-minisat" in extra["sat_solvers"] and "demo" in extra["lightup_sat"]
    assert "pb_demo_plugin" not in sys.modules and "demo-minisat" not in {
        s.name for s in registry.solvers("sat")
    }


def _bench_demo_asp(*plugin_args: str, env: dict[str, str], out: Path) -> subprocess.CompletedProcess:
    return cli(
        *plugin_args,
        "bench",
        "--suite",
        "gen-kuromasu",
        "--limit",
        "2",
        "--paradigm",
        "asp",
        "--encoding",
        "demo-asp",
        "--timeout",
        "30",
        "--out",
        str(out),
        "--quiet",
        env=env,
    )


def _assert_demo_asp_records(out: Path) -> None:
    records = read_records(out)
    assert len(records) == 2
    for r in records:
        assert (r["encoding"], r["status"], r["verdict"], r["count"], r["exhausted"]) == (
            "demo-asp",
            "sat",
            "valid",
            1,
            True,
        )


def test_plugin_module_by_option_by_file_and_by_environment(plugin_env, plugin_site, tmp_path):
    # pb_demo_plugin.extra is not an entry point: without asking for it, demo-asp is unknown
    bare = _bench_demo_asp(env=plugin_env, out=tmp_path / "none.jsonl")
    assert bare.returncode == 2 and "asp/demo-asp: not registered" in bare.stderr
    # --plugin MODULE (before the command, or after it; -j 2: the workers load it too)
    _ok(_bench_demo_asp("--plugin", "pb_demo_plugin.extra", env=plugin_env, out=tmp_path / "option.jsonl"))
    _assert_demo_asp_records(tmp_path / "option.jsonl")
    after = cli(
        "bench",
        "--suite",
        "gen-kuromasu",
        "--limit",
        "2",
        "--paradigm",
        "asp",
        "--encoding",
        "demo-asp",
        "--out",
        str(tmp_path / "after.jsonl"),
        "--quiet",
        "-j",
        "2",
        "--plugin",
        "pb_demo_plugin.extra",
        env=plugin_env,
    )
    _ok(after)
    _assert_demo_asp_records(tmp_path / "after.jsonl")
    # --plugin path/to/file.py
    path = plugin_site / "pb_demo_plugin" / "extra.py"
    _ok(_bench_demo_asp("--plugin", str(path), env=plugin_env, out=tmp_path / "file.jsonl"))
    _assert_demo_asp_records(tmp_path / "file.jsonl")
    # PUZZLEBENCH_PLUGINS (comma separated; the workers inherit it)
    env = {**plugin_env, "PUZZLEBENCH_PLUGINS": "pb_demo_plugin.extra, pb_demo_plugin"}
    _ok(_bench_demo_asp(env=env, out=tmp_path / "env.jsonl"))
    _assert_demo_asp_records(tmp_path / "env.jsonl")


def test_a_broken_plugin_is_a_one_line_error_with_status_2(plugin_env, tmp_path):
    _one_line_error(
        cli("--plugin", "no.such.module", "solvers", env=plugin_env),
        "plugin 'no.such.module' (--plugin) failed to load",
        "ModuleNotFoundError",
    )
    _one_line_error(
        cli("solvers", env={**plugin_env, "PUZZLEBENCH_PLUGINS": "no.such.module"}),
        "plugin 'no.such.module' (PUZZLEBENCH_PLUGINS) failed to load",
    )
    # an installed package whose entry point raises on import
    site = tmp_path / "broken-site"
    site.mkdir()
    (site / "pb_broken_plugin.py").write_text("raise RuntimeError('broken on purpose')\n")
    _write_dist(site, "pb-broken-plugin", "0.0.0", {"puzzlebench.plugins": {"broken": "pb_broken_plugin"}})
    _one_line_error(cli("solvers", env=_env(site)), "entry point 'broken'", "RuntimeError: broken on purpose")


# -- registrations in this process, shipped to isolated workers ----------------------------------
@pytest.fixture
def registered():
    """Register encodings/solvers in a test; forget them afterwards."""
    encodings: list[tuple[str, str, str]] = []
    solvers: list[tuple[str, str]] = []

    class Registrar:
        def encoding(self, family, paradigm, name, build=None, **kw):
            encodings.append((family, paradigm, name))
            return pb.register_encoding(family, paradigm, name, build, **kw)

        def solver(self, name, paradigm, backend, description="", settings=None):
            solvers.append((paradigm, name))
            return pb.register_solver(name, paradigm, backend, description, settings)

    yield Registrar()
    for key in encodings:
        registry.unregister_encoding(*key)
    for paradigm, name in solvers:  # the registry has no unregister_solver
        registry._SOLVERS.get(paradigm, {}).pop(name, None)


def _kuromasu_items(n: int):
    return load_items("gen-kuromasu")[:n]


def test_a_nested_function_and_class_run_in_isolated_workers(registered, tmp_path):
    from puzzlebench.solvers.base import Backend

    kuromasu_cnf = _kuromasu_builder()  # a nested function (of the factory): pickled by value

    class NestedBackend(Backend):  # pickled by value too: the worker cannot import this test module
        paradigm, name = "sat", "nested"

        @classmethod
        def supported(cls):
            return True

        @classmethod
        def version(cls):
            return "nested 1.0"

        def build(self, artifact, deadline):
            from pysat.solvers import Solver

            self.art, self.sat = artifact, Solver(name="glucose4", bootstrap_with=artifact.clauses)

        def check(self, deadline):
            ok = self.sat.solve()
            self.true = {v for v in (self.sat.get_model() or []) if v > 0}
            return ok

        def marked(self):
            return frozenset(c for c, v in self.art.decision.items() if v in self.true)

        def add_clause(self, clause):
            self.sat.add_clause([self.art.decision[c] * (1 if pos else -1) for c, pos in clause])

        def close(self):
            self.sat.delete()

    registered.encoding("kuromasu", "sat", "test-nested", kuromasu_cnf)
    registered.solver("test-nested-glucose", "sat", NestedBackend, "a nested class")
    assert registry.shipped("kuromasu", "sat", "test-nested", "test-nested-glucose")  # both travel
    sweep = Sweep(
        items=_kuromasu_items(3),
        paradigms=["sat"],
        encodings=["test-nested", "default"],
        solvers=["test-nested-glucose", "cadical195"],
        timeout=30,
        out=str(tmp_path / "r.jsonl"),
    )
    runs = sweep.expand()
    assert len(runs) == 3 * 2 * 2
    outcome = run_sweep(runs, sweep.out, executor=ThreadExecutor(2), quiet=True)
    records = read_records(sweep.out)
    assert outcome.failures == 0, [r.get("error") for r in records if r["status"] != "sat"]
    for r in records:
        assert (r["status"], r["verdict"], r["count"], r["exhausted"]) == ("sat", "valid", 1, True), r
        if r["encoding"] == "test-nested":
            assert r["encoding_hash"]  # see test_a_shipped_builder_keeps_its_parent_hash
        if r["solver"] == "test-nested-glucose":
            assert r["backend"] == "nested" and r["solver_version"] == "nested 1.0"
    assert all(
        len({r["solution_hash"] for r in records if r["puzzle_id"] == pid}) == 1
        for pid in {r["puzzle_id"] for r in records}
    )


def test_a_notebook_style_main_script_runs_in_isolated_workers(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(f"""
import json
from itertools import combinations
from pysat.formula import IDPool
import puzzlebench as pb
from puzzlebench.bench import Sweep, load_items, read_records, run_sweep
from puzzlebench.encodings.sat.common import CnfModel

@pb.register_encoding("lightup", "sat", "script")   # defined in __main__, as in a notebook cell
def lightup(puzzle, options):
    cnf = CnfModel(pool=IDPool())
    bulb = cnf.decision = {{cell: cnf.var("bulb", *cell) for cell in puzzle.open_cells}}
    segs = []
    for seg in puzzle.grid.segments(puzzle.is_open):
        cells = list(seg.cells)
        cnf.extend([[-bulb[a], -bulb[b]] for a, b in combinations(cells, 2)])
        segs.append(cells)
    for cell in bulb:
        cnf.add(sorted({{bulb[x] for s in segs if cell in s for x in s}}))
    for (r, c), n in puzzle.numbers.items():
        ns = [bulb[x] for x in ((r-1, c), (r+1, c), (r, c-1), (r, c+1)) if x in bulb]
        cnf.extend([[-x for x in g] for g in combinations(ns, n + 1)] + [list(g) for g in combinations(ns, len(ns) - n + 1)])
    return cnf

sweep = Sweep(items=load_items("gen-lightup")[:2], paradigms=["sat"], encodings=["script"], timeout=30,
              out={str(tmp_path / "r.jsonl")!r})
run_sweep(sweep.expand(), sweep.out, quiet=True)
print(json.dumps([(r["status"], r["verdict"], r["count"]) for r in read_records(sweep.out)]))
""")
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == [["sat", "valid", 1]] * 2


def test_a_paradigm_registered_in_process_runs_in_isolated_workers(tmp_path):
    import itertools
    from dataclasses import dataclass

    from puzzlebench.bench.spec import items_from
    from puzzlebench.encodings.base import Artifact
    from puzzlebench.solvers.base import Backend

    @dataclass
    class Candidates(Artifact):
        puzzle: object = None

    class BruteBackend(Backend):  # native enumeration: generate and test through the verifier
        paradigm, name = "test-brute", "test-brute"

        @classmethod
        def supported(cls):
            return True

        @classmethod
        def version(cls):
            return "1.0"

        def build(self, artifact, deadline):
            self.art = artifact

        def native_enumeration(self):
            return True

        def enumerate(self, limit, deadline):
            cells, found, p = sorted(self.art.decision), 0, self.art.puzzle
            for k in range(len(cells) + 1):
                for marked in itertools.combinations(cells, k):
                    if not p.verify(p.solution(marked)):
                        yield frozenset(marked)
                        found += 1
                        if found == limit:
                            return
            self.exhausted = True

    pb.register_paradigm("test-brute", "generate and test", "test-brute")
    try:
        pb.register_solver("test-brute", "test-brute", BruteBackend)
        pb.register_encoding(
            "lightup",
            "test-brute",
            "default",
            lambda puzzle, options: Candidates({c: c for c in puzzle.open_cells}, puzzle=puzzle),
        )
        tiny = pb.LightUp(3, 3, walls={(1, 1)}, numbers={(1, 1): 2}, name="tiny")
        sweep = Sweep(
            items=items_from([tiny], "tiny"),
            paradigms=["test-brute", "sat"],
            count=0,
            out=str(tmp_path / "r.jsonl"),
        )
        run_sweep(sweep.expand(), sweep.out, quiet=True)
        records = {r["paradigm"]: r for r in read_records(sweep.out)}
        assert set(records) == {"test-brute", "sat"}
        for r in records.values():
            assert (r["status"], r["verdict"], r["count"], r["exhausted"]) == ("sat", "valid", 4, True), r
        assert records["test-brute"]["solution_hash"] == records["sat"]["solution_hash"]
    finally:
        registry.unregister_encoding("lightup", "test-brute", "default")
        for table in (registry._PARADIGMS, registry._SOLVERS, registry._DECLARED):  # no unregister_paradigm
            table.pop("test-brute", None)


def test_a_shipped_builder_keeps_its_parent_hash(registered, tmp_path):
    spec = registered.encoding("kuromasu", "sat", "test-hash", _kuromasu_builder())
    sweep = Sweep(
        items=_kuromasu_items(1), paradigms=["sat"], encodings=["test-hash"], out=str(tmp_path / "r.jsonl")
    )
    (run,) = sweep.expand()
    run_sweep([run], sweep.out, quiet=True)
    (record,) = read_records(sweep.out)
    assert record["status"] == "sat" and record["encoding_hash"] == spec.content_hash() == run.encoding_hash


def test_a_builder_from_a_module_on_the_parents_sys_path_runs_in_workers(registered, tmp_path, monkeypatch):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "pb_test_mine.py").write_text(
        "from puzzlebench import registry\n\n"
        "def build(puzzle, options):\n"
        "    spec = registry.get('kuromasu', 'sat')\n"
        "    return spec.build(puzzle, spec.resolve({}))\n"
    )
    monkeypatch.syspath_prepend(str(folder))
    import pb_test_mine

    registered.encoding("kuromasu", "sat", "test-module", pb_test_mine.build)
    sweep = Sweep(
        items=_kuromasu_items(1), paradigms=["sat"], encodings=["test-module"], out=str(tmp_path / "r.jsonl")
    )
    run_sweep(sweep.expand(), sweep.out, quiet=True)
    (record,) = read_records(sweep.out)
    assert record["status"] == "sat", record["error"]


# -- wrong and relaxed encodings -------------------------------------------------------------------
def _kuromasu_builder(visibility: bool = True):
    """A Kuromasu CNF builder: adjacency, optionally the numbers (ray chains and a totalizer), and
    connectivity as a lazy rule unless ``options["connectivity"] == "none"``.

    The builder is nested, imports what it needs and refers to nothing else of this module, so
    cloudpickle ships it by value: the isolated workers cannot import this test module."""

    def build(puzzle, options):
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool

        from puzzlebench.encodings.regions import connectivity_rule
        from puzzlebench.encodings.sat.common import CnfModel

        cnf = CnfModel(pool=IDPool())
        black = cnf.decision = {
            (r, c): cnf.var("black", r, c)
            for r in range(puzzle.rows)
            for c in range(puzzle.cols)
            if (r, c) not in puzzle.clue_cells
        }
        for (r, c), x in black.items():
            cnf.extend([[-x, -black[n]] for n in ((r + 1, c), (r, c + 1)) if n in black])
        for (r, c), n in puzzle.numbers.items() if visibility else ():
            seen = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                prev, k = None, 1
                while 0 <= r + dr * k < puzzle.rows and 0 <= c + dc * k < puzzle.cols and k <= n:
                    cell, s = (r + dr * k, c + dc * k), cnf.var("seen", r, c, dr, dc, k)
                    conds = ([prev] if prev else []) + ([-black[cell]] if cell in black else [])
                    cnf.extend([[-s, lit] for lit in conds] + [[s] + [-lit for lit in conds]])
                    seen.append(s)
                    prev, k = s, k + 1
            cnf.extend(CardEnc.equals(seen, n - 1, vpool=cnf.pool, encoding=EncType.totalizer).clauses)
        if options.get("connectivity", "lazy") == "lazy":
            cnf.lazy = connectivity_rule(puzzle.rows, puzzle.cols, black)
        return cnf

    return build


def test_a_wrong_user_encoding_is_caught(registered, tmp_path):
    registered.encoding(
        "kuromasu", "sat", "test-wrong", _kuromasu_builder(visibility=False)
    )  # claims to be complete
    # The bare puzzle (deduce="none"): the family's deduction settles this board, which would leave
    # the missing visibility rule nothing to get wrong.
    puzzle = load_suite("gen-kuromasu")[0].puzzle
    result = pb.solve(puzzle, "sat", encoding="test-wrong", count=2, strict=False, deduce="none")
    assert result.status is pb.Status.WRONG and result.complete and not result.verified
    assert "verifier rejects" in result.error and result.to_record()["verdict"] == "invalid"
    with pytest.raises(
        VerificationError, match="sat/test-wrong on cadical195 returned an answer the verifier rejects"
    ):
        pb.solve(puzzle, "sat", encoding="test-wrong", count=2, deduce="none")
    wrong = Config("sat", "test-wrong", {"deduce": "none"})
    report = pb.crosscheck(puzzle, configs=[Config("sat"), Config("asp"), wrong])
    assert report.verdict is Verdict.DISAGREE
    assert any(f"{wrong.label}: answer" in d and "rejected by the verifier" in d for d in report.differences)
    # in an isolated worker: a recorded status, counted as a failure
    sweep = Sweep(
        items=_kuromasu_items(1),
        paradigms=["sat"],
        encodings=["test-wrong"],
        options={"deduce": ["none"]},
        out=str(tmp_path / "r.jsonl"),
    )
    outcome = run_sweep(sweep.expand(), sweep.out, quiet=True)
    (record,) = read_records(sweep.out)
    assert outcome.failures == 1 and (record["status"], record["verdict"], record["complete"]) == (
        "wrong",
        "invalid",
        True,
    )


def test_a_relaxed_user_encoding_is_marked_and_left_out_of_agreement(registered):
    registered.encoding(
        "kuromasu", "sat", "test-relaxed", _kuromasu_builder(visibility=False), complete=False
    )
    registered.encoding(
        "kuromasu",
        "sat",
        "test-option",
        _kuromasu_builder(),
        options=[
            pb.Option("connectivity", "lazy", ("lazy", "none"), "lazy cuts, or none", relaxing=("none",))
        ],
    )
    puzzle = load_suite("gen-kuromasu")[0].puzzle
    result = pb.solve(
        puzzle, "sat", encoding="test-relaxed", count=2
    )  # strict: relaxed answers are not judged
    assert result.complete is False and result.status is pb.Status.SAT and not result.verified
    assert result.to_record()["complete"] is False
    assert pb.solve(CUT_CORNER, "sat", encoding="test-option", connectivity="none", count=2).complete is False
    assert pb.solve(CUT_CORNER, "sat", encoding="test-option", count=2).status is pb.Status.UNSAT
    for board, relaxed in (
        (puzzle, Config("sat", "test-relaxed")),
        (CUT_CORNER, Config("sat", "test-option", {"connectivity": "none"})),
    ):
        report = pb.crosscheck(board, configs=[Config("sat"), Config("asp"), relaxed])
        assert report.verdict is Verdict.AGREE, report.differences  # the complete ones agree
        (note,) = report.differences
        assert note.startswith(f"{relaxed.label} is relaxed") and "do not all pass" in note


def test_the_plugin_encoding_and_solver_match_brute_force(plugin_site, monkeypatch):
    """What tests/test_conformance.py checks for built-ins, on the plugin, in this process."""
    import random

    from bruteforce import all_solutions, random_lightup

    monkeypatch.syspath_prepend(str(plugin_site))
    try:
        import pb_demo_plugin  # noqa: F401  (registers on import)

        rng = random.Random(7)
        for i, shape in enumerate([(1, 4), (2, 3), (3, 3), (3, 4), (4, 4)] * 2):
            puzzle = random_lightup(rng, *shape)
            truth = all_solutions(puzzle)
            for solver in ("demo-minisat", None):
                result = pb.solve(puzzle, "sat", encoding="demo", solver=solver, count=0)
                assert result.exhausted and {s.cells for s in result.solutions} == truth, (i, solver)
    finally:
        registry.unregister_encoding("lightup", "sat", "demo")
        registry._SOLVERS["sat"].pop("demo-minisat", None)
        for name in [m for m in sys.modules if m.startswith("pb_demo_plugin")]:
            del sys.modules[name]


# -- encoding files ---------------------------------------------------------------------------------
def test_an_edited_lp_file_takes_effect_on_the_next_solve(tmp_path):
    path = tmp_path / "kuromasu.lp"
    path.write_text(KUROMASU_LP)
    # The bare puzzle (deduce="none") throughout: the family's deduction alone finds the walled-in
    # cell before the file runs, and the file's own rules are what this test watches.
    first = pb.solve(CUT_CORNER, "asp", encoding=str(path), count=2, deduce="none")
    assert first.status is pb.Status.UNSAT and first.exhausted and first.encoding_hash == _file_hash(path)
    path.write_text(_without_connectivity(KUROMASU_LP))  # the same process, the same path
    second = pb.solve(CUT_CORNER, "asp", encoding=str(path), count=2, strict=False, deduce="none")
    assert second.status is pb.Status.WRONG and second.encoding_hash != first.encoding_hash
    assert second.solution.cells == {(0, 1), (1, 0)}
    with pytest.raises(VerificationError):
        pb.solve(CUT_CORNER, "asp", encoding=str(path), count=2, deduce="none")
    path.write_text(KUROMASU_LP)
    again = pb.solve(CUT_CORNER, "asp", encoding=str(path), count=2, deduce="none")
    assert again.status is pb.Status.UNSAT and again.encoding_hash == first.encoding_hash  # content, not time


def test_an_lp_file_showing_an_extra_predicate_is_an_encoding_error(tmp_path):
    path = tmp_path / "extra.lp"
    path.write_text(KUROMASU_LP + "{ note }.\n#show note/0.\n")
    puzzle = load_suite("gen-kuromasu")[0].puzzle
    with pytest.raises(EncodingError, match=r"must #show black/2 only"):
        pb.solve(puzzle, "asp", encoding=str(path), count=2)


def test_resume_does_not_reuse_a_record_of_an_edited_encoding_file(tmp_path):
    path, out = tmp_path / "mine.lp", tmp_path / "runs.jsonl"
    path.write_text(KUROMASU_LP)
    args = (
        "bench",
        "--suite",
        "gen-kuromasu",
        "--limit",
        "2",
        "--paradigm",
        "asp",
        "--encoding",
        str(path),
        "--timeout",
        "30",
        "--out",
        str(out),
        "--resume",
        "--quiet",
    )
    env = _env()
    assert "2 run(s) stored, 0 already present" in _ok(cli(*args, env=env)).stderr
    assert "0 run(s) stored, 2 already present" in _ok(cli(*args, env=env)).stderr
    path.write_text(KUROMASU_LP.replace("% Kuromasu", "% Kuromasu (edited)"))
    assert "2 run(s) stored, 0 already present" in _ok(cli(*args, env=env)).stderr
    records = read_records(out)
    assert len(records) == 4 and len({r["key"] for r in records}) == 4
    old, new = records[:2], records[2:]
    assert {r["encoding_hash"] for r in new} == {_file_hash(path)} != {r["encoding_hash"] for r in old}
    assert all((r["status"], r["verdict"], r["encoding"]) == ("sat", "valid", str(path)) for r in records)
