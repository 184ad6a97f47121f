# Parlor — one command to run, one to test. Everything lives in .venv at the repository root.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test setup system-deps lint bench screenshots bundle clean

run: setup            ## set up and run Parlor on this desktop (hardware mocked)
	$(PY) -m engine simulate meri --delay 0.5

test: setup           ## set up and run every test (UI tests on a virtual screen)
	xvfb-run -a -s "-screen 0 1280x1280x24" $(PY) -m pytest -q
	$(VENV)/bin/ruff check engine ui hardware device tests

setup: system-deps $(STAMP)

system-deps:
	@./scripts/system-deps.sh

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,bundle]'
	touch $(STAMP)

lint: setup
	$(VENV)/bin/ruff check engine ui hardware device tests

bench: setup          ## speed and memory figures (not part of the tests)
	$(PY) -m engine bench

clean:
	rm -rf $(VENV) build dist .pytest_cache
