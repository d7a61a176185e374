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

demo: $(VENV)/.installed-run
	$(VENV)/bin/tablectl play examples/evening.jsonl

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check tablectl vision web tests bench tools

test: lint
	$(PY) -m pytest

bench: $(VENV)/.installed-bench
	$(PY) bench/rules.py

clean:
	rm -rf $(VENV) build *.egg-info
