# One command each on a fresh machine: `make demo`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: demo test bench lint clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# A small quick scenario per game (each under a minute on 2 cores), then one report of all four.
DEMO_RUNS := eight-bit-invaders:quick alien-attack:quick_alien_attack oh-no-invasion:quick_oh_no space-alert:quick_space_alert

demo: $(STAMP)
	rm -rf reports/demo-data reports/demo
	@set -e; for run in $(DEMO_RUNS); do \
	  game=$${run%%:*}; file=$${run#*:}; \
	  echo "== $$game: scenarios/$$file.toml"; \
	  $(BIN)/simkit run scenarios/$$file.toml --jobs $(JOBS) --out reports/demo-data/$$game; \
	done
	$(BIN)/simkit report $(foreach run,$(DEMO_RUNS),reports/demo-data/$(firstword $(subst :, ,$(run)))) --out reports/demo
	@echo "Report: $(CURDIR)/reports/demo/index.html"

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) reports/demo reports/demo-data bench.json
