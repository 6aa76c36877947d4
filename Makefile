# One command each on a fresh machine: `make demo`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

NATIVE_SOURCES := native/Cargo.toml $(wildcard native/src/*.rs native/src/*/*.rs)
NATIVE_STAMP := $(VENV)/.native

.PHONY: demo test bench lint clean verify-native

# `pip install -e` also builds the native core (setup.py) where a Rust toolchain is found.
$(STAMP): pyproject.toml setup.py examples/dice_race/pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/pip install --quiet -e examples/dice_race
	touch $(STAMP) $(NATIVE_STAMP)

# A change to the Rust sources rebuilds the core in place (optimised), unless the built core is
# already newer than every source (as right after `pip install`); without cargo, nothing to do.
$(NATIVE_STAMP): $(STAMP) $(NATIVE_SOURCES)
	@so=$$(ls simkit/_native*.so 2>/dev/null | head -n 1); \
	if command -v cargo >/dev/null 2>&1 && { [ -z "$$so" ] || [ -n "$$(find native/src native/Cargo.toml -newer $$so)" ]; }; \
	then $(BIN)/python setup.py -q build_rust --inplace --release; fi
	touch $(NATIVE_STAMP)

# A small quick scenario per game (each under a minute on 2 cores), then one report of all four.
DEMO_RUNS := eight-bit-invaders:quick alien-attack:quick_alien_attack oh-no-invasion:quick_oh_no space-alert:quick_space_alert

demo: $(NATIVE_STAMP)
	rm -rf reports/demo-data reports/demo
	@set -e; for run in $(DEMO_RUNS); do \
	  game=$${run%%:*}; file=$${run#*:}; \
	  echo "== $$game: scenarios/$$file.toml"; \
	  $(BIN)/simkit run scenarios/$$file.toml --jobs $(JOBS) --out reports/demo-data/$$game; \
	done
	$(BIN)/simkit report $(foreach run,$(DEMO_RUNS),reports/demo-data/$(firstword $(subst :, ,$(run)))) --out reports/demo
	@echo "Report: $(CURDIR)/reports/demo/index.html"

# pytest on every core (pytest-xdist), a test file to a worker so module fixtures are made once.
test: $(NATIVE_STAMP)
	@if command -v cargo >/dev/null 2>&1; then cd native && cargo test --quiet; \
	else echo "no Rust toolchain: the native core's own tests are skipped"; fi
	$(BIN)/python -m pytest -q -n $(JOBS) --dist loadfile --durations=15

bench: $(NATIVE_STAMP)
	$(BIN)/python -m benchmarks.run

# Both engines on the same seeds, rows compared: each native game at the games per cell its issue
# set (VERIFY_GAMES=N to play N per cell for every game instead).
VERIFY_COUNTS := eight-bit-invaders:200000 alien-attack:100000 oh-no-invasion:100000 space-alert:100000
verify-native: $(NATIVE_STAMP)
	@set -e; for entry in $(VERIFY_COUNTS); do \
	  game=$${entry%%:*}; games=$${VERIFY_GAMES:-$${entry#*:}}; \
	  $(BIN)/python -m simkit.core.verify --game $$game --games $$games --jobs $(JOBS); \
	done

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@if command -v cargo >/dev/null 2>&1; then cd native && cargo clippy --release --all-targets --quiet -- -D warnings; fi

clean:
	rm -rf $(VENV) reports/demo reports/demo-data bench.json native/target simkit/_native*.so
