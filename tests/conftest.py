"""Shared fixtures: where the repository, the bundled puzzles and the external corpora are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PUZZLES = REPO / "puzzles"
SHARED = Path(os.environ.get("PUZZLEBENCH_SHARED", REPO.parent / "shared"))
JANKO = SHARED / "corpora" / "janko"
SEEDS = SHARED / "seeds"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def puzzles_dir() -> Path:
    return PUZZLES


@pytest.fixture(scope="session")
def janko_dir() -> Path:
    if not (JANKO / "Akari_dataset.json").exists():
        pytest.skip(f"janko corpus not found beside the repository ({JANKO.name}); set PUZZLEBENCH_SHARED")
    return JANKO


@pytest.fixture(scope="session")
def seeds_dir() -> Path:
    if not SEEDS.exists():
        pytest.skip("seed documents not found beside the repository; set PUZZLEBENCH_SHARED")
    return SEEDS


def committed_main_results() -> Path:
    """Main-job records kept as test data (``tests/data/main-sample.jsonl``: the first records and
    every run on four LightBulbs boards of a main job, ``puzzlebench main``)."""
    return REPO / "tests" / "data" / "main-sample.jsonl"


def fix_settings(monkeypatch: pytest.MonkeyPatch, family, paradigm: str, **values) -> None:
    """The default encoding's fixed settings at ``values`` for one test, restored after it: for
    tests of code the default runs on boards too large for brute force. Each name must be one of
    the encoding's settings."""
    from puzzlebench import registry

    spec = registry.get(family, paradigm)
    for name, value in values.items():
        assert name in spec.settings, name
        monkeypatch.setitem(spec.settings, name, value)
