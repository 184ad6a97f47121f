# Parlor — one command to run, one to test. Everything lives in .venv at the repository root.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test fuzz setup test-setup system-deps test-deps lint bench bench-ui ai-targets ai-policy screenshots bundle bundle-selftest pi-check boot-check clean

run: setup            ## set up and run Parlor on this desktop (hardware mocked)
	GPIOZERO_PIN_FACTORY=mock $(VENV)/bin/parlor

test: test-setup      ## set up and run every test (UI tests on a virtual screen)
	xvfb-run -a -s "-screen 0 1280x1280x24" $(PY) -m pytest -q -n auto --dist loadfile
	$(VENV)/bin/ruff check engine ui hardware device tests

FUZZ_EXAMPLES ?= 3000
fuzz: test-setup      ## the property-based tests, long: FUZZ_EXAMPLES examples per target
	HYPOTHESIS_PROFILE=fuzz FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) xvfb-run -a -s "-screen 0 1280x1280x24" \
		$(PY) -m pytest -q -p no:cacheprovider -m fuzz --hypothesis-show-statistics tests

setup: system-deps $(STAMP)

test-setup: test-deps $(STAMP)

system-deps:          ## the system packages running Parlor needs
	@./scripts/system-deps.sh

test-deps:            ## those, plus what the tests, screenshots and the bundle need (Xvfb, sox, chromium…)
	@./scripts/system-deps.sh --test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,bundle]'
	touch $(STAMP)

lint: setup
	$(VENV)/bin/ruff check engine ui hardware device tests

XVFB := xvfb-run -a -s "-screen 0 1280x1280x24"
JOBS ?= 2

bench: setup          ## engine speed and memory, then each search level's work rate, every game
	$(PY) -m engine bench
	$(PY) -m engine bench --decisions normal --deals 3
	$(PY) -m engine bench --decisions hard --deals 2

bench-ui: test-setup  ## start-up, RSS, frame gaps and Python ms per frame of every table at 800x480
	xvfb-run -a -s "-screen 0 800x480x24" $(PY) -m scripts.bench.ui_bench --size 800x480

# Search levels are amounts of work, so the strength figures do not depend on the machine or its
# load (the safety net counts CPU time here, so not even it can); the arenas' decision times are
# wall-clock, the bench's one core's CPU time (what a level's time budget is stated in).
AI_LOGS ?= build/ai-targets
ai-targets: setup     ## AI strength targets (normal vs heuristic, hard vs normal, every game; Chắn's hard also against the heuristic, paired deal by deal with normal), then decision times against the budgets at the machine's measured speed; hours on 2 cores (rerun resumes: deals logged in $(AI_LOGS))
	mkdir -p $(AI_LOGS)
	PARLOR_SEARCH_CLOCK=cpu $(PY) -m engine arena meri --a normal --b heuristic --deals 300 --seed 1 --jobs $(JOBS) --out $(AI_LOGS)/meri-normal-heuristic.jsonl
	PARLOR_SEARCH_CLOCK=cpu $(PY) -m engine arena tractor --a normal --b heuristic --deals 500 --seed 1 --jobs $(JOBS) --out $(AI_LOGS)/tractor-normal-heuristic.jsonl
	PARLOR_SEARCH_CLOCK=cpu $(PY) -m engine arena chan --a normal --b heuristic --deals 1000 --seed 1 --jobs $(JOBS) --out $(AI_LOGS)/chan-normal-heuristic.jsonl
	PARLOR_SEARCH_CLOCK=cpu $(PY) -m engine arena meri --a hard --b normal --deals 200 --seed 1 --jobs $(JOBS) --out $(AI_LOGS)/meri-hard-normal.jsonl
	PARLOR_SEARCH_CLOCK=cpu $(PY) -m engine arena tractor --a hard --b normal --deals 200 --seed 1 --jobs $(JOBS) --out $(AI_LOGS)/tractor-hard-normal.jsonl
	PARLOR_SEARCH_CLOCK=cpu $(PY) -m engine arena chan --a hard --b normal --deals 500 --seed 1 --jobs $(JOBS) --out $(AI_LOGS)/chan-hard-normal.jsonl
	PARLOR_SEARCH_CLOCK=cpu $(PY) -m engine arena chan --a hard --b heuristic --deals 1000 --seed 1 --jobs $(JOBS) --out $(AI_LOGS)/chan-hard-heuristic.jsonl
	$(PY) -m engine arena --paired $(AI_LOGS)/chan-hard-heuristic.jsonl $(AI_LOGS)/chan-normal-heuristic.jsonl
	$(PY) scripts/decision_budget.py --deals 4 --seed 1

POLICY_LOGS ?= build/ai-policy
ai-policy: setup      ## expert iteration: the shipped move policies again (engine/ai/weights/<game>-policy.json): Chắn fitted to the normal search's moves, Meri to the truth teacher's values; about 25 min on one core (rerun resumes: labels kept in $(POLICY_LOGS))
	mkdir -p $(POLICY_LOGS)
	$(PY) -m engine.ai.tools.imitate chan --deals 300 --every 2 --seed 1 --jobs $(JOBS) --samples $(POLICY_LOGS)/chan-normal-pilot.jsonl
	$(PY) -m engine.ai.tools.imitate meri --teacher truth --deals 800 --seed 1 --mix 1.0 --temperature 4.0 --jobs $(JOBS) --samples $(POLICY_LOGS)/meri-truth.jsonl

screenshots: test-setup ## PNGs of every screen and of each table mid-play and its summary, in screenshots/
	$(XVFB) $(PY) scripts/screenshots.py
	$(XVFB) $(PY) scripts/table_screenshots.py --out screenshots
	$(XVFB) $(PY) scripts/coach_screenshots.py --out screenshots
	$(PY) scripts/phone_screenshots.py --out screenshots
	$(XVFB) $(PY) scripts/tutorial_screenshots.py --out screenshots --lang en --lang vi
	$(XVFB) $(PY) scripts/motion_frames.py --out screenshots/motion --size 800x480 --size 720x1280
	$(XVFB) $(PY) scripts/seating_screenshots.py --out screenshots
	$(XVFB) $(PY) scripts/match_length_screenshots.py --out screenshots --lang en
	$(XVFB) $(PY) scripts/match_length_screenshots.py --out screenshots --lang vi
	$(XVFB) $(PY) scripts/why_screenshots.py --out screenshots

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

# Not in `make test` or CI: root, the package registries, and an hour or more of virtual machines.
boot-check:           ## boot the appliance in a virtual machine and check it (ARCH=arm64: the smoke subset)
	$(PYTHON) scripts/boot_check.py

clean:
	rm -rf $(VENV) build dist .pytest_cache
