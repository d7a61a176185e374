# The two commands of the README: `make demo` and `make test`.
# Each creates .venv if missing and installs what it needs (re-installing when pyproject.toml changes).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8765

.PHONY: demo test lint bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	touch $@

$(VENV)/.installed-bench: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test,bench]'
	touch $@

DEMO_DIR := $(VENV)/demo

# Until the running table exists: the example evening played through a fresh SQLite journal,
# its recall and verification, then the ten simulated fixture throws through the camera
# pipeline (tracker, reader, rulings), with annotated snapshots in $(DEMO_DIR)/snapshots.
demo: $(VENV)/.installed-run
	rm -rf $(DEMO_DIR) && mkdir -p $(DEMO_DIR)
	$(VENV)/bin/tablectl play examples/evening.jsonl --journal $(DEMO_DIR)/evening.db
	$(VENV)/bin/tablectl recall $(DEMO_DIR)/evening.db
	$(VENV)/bin/tablectl journal verify $(DEMO_DIR)/evening.db
	for clip in fixtures/clips/*/; do \
	  name=$$(basename $$clip); printf '%s: ' $$name; \
	  $(VENV)/bin/tablectl replay $$clip --snapshots $(DEMO_DIR)/snapshots/$$name | head -1; \
	done
	@echo "annotated throws: $(DEMO_DIR)/snapshots/*/throw-1.png"

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check tablectl vision web tests bench tools

test: lint
	$(PY) -m pytest

bench: $(VENV)/.installed-bench
	$(PY) bench/rules.py

clean:
	rm -rf $(VENV) build *.egg-info
