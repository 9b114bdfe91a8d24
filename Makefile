# puzzlebench: the two commands of the README, and the pieces they are made of.
PYTHON ?= python3.11
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup bench lint test test-slow clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,notebooks,peers]'
	$(PY) -m ipykernel install --sys-prefix --name python3 >/dev/null
	$(PY) -m puzzlebench.encodings.compiled
	touch $(STAMP)

setup: $(STAMP)

## The main job: the benchmark over the bundled suites, writing results/.
bench: $(STAMP)
	$(VENV)/bin/puzzlebench main --out results

## The linters and the type checker (settings in pyproject.toml).
lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests
	$(VENV)/bin/mypy

## The test suite (notebooks included, on small parameters), after the linters and the type checker.
test: lint
	$(PY) -m pytest -n 2 -q --durations=15 -m "not slow" tests

## The slow tests (corpus boards, every option value against brute force): CI runs them after `test`.
test-slow: $(STAMP)
	$(PY) -m pytest -n 2 -q --durations=15 -m slow tests

clean:
	rm -rf $(VENV) .pytest_cache build src/*.egg-info
