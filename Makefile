# Parlor — one command to run, one to test. Everything lives in .venv at the repository root.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test setup system-deps lint bench screenshots bundle bundle-selftest pi-check clean

run: setup            ## set up and run Parlor on this desktop (hardware mocked)
	GPIOZERO_PIN_FACTORY=mock $(VENV)/bin/parlor

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

screenshots: setup    ## PNGs of every screen and of each table mid-play and its summary, in screenshots/
	xvfb-run -a -s "-screen 0 1280x1280x24" $(PY) scripts/screenshots.py
	xvfb-run -a -s "-screen 0 1280x1280x24" $(PY) scripts/table_screenshots.py --out screenshots

# Kivy is imported by the spec: keep its logger quiet and out of ~/.kivy while building.
BUNDLE_ENV := KIVY_HOME=$(CURDIR)/build/kivy-home KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_NO_CONSOLELOG=1 KIVY_LOG_MODE=PYTHON

bundle: setup         ## one-folder app in dist/parlor (PyInstaller), then its self-test
	$(BUNDLE_ENV) $(PY) -m PyInstaller --noconfirm --clean --log-level WARN parlor.spec
	$(MAKE) bundle-selftest

bundle-selftest:      ## the built bundle answers --version and renders its home screen
	dist/parlor/parlor --version
	env -u DISPLAY SDL_VIDEODRIVER=offscreen dist/parlor/parlor --selftest

# Not in `make test` or CI: root, the package registries, and about half an hour emulated.
pi-check:             ## install and check Parlor on an emulated Debian bookworm arm64 (docs/raspberry-pi.md)
	./scripts/pi_check.sh

clean:
	rm -rf $(VENV) build dist .pytest_cache
