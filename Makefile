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

# The running table on its own: simulated throws in real time, four demo players, mock lights,
# a fresh journal in a temporary folder; the dashboard on http://127.0.0.1:$(PORT)/. Ctrl-C stops it.
demo: $(VENV)/.installed-run
	$(VENV)/bin/tablectl demo --port $(PORT)

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check tablectl vision web tests bench tools

test: lint
	$(PY) -m pytest

bench: $(VENV)/.installed-bench
	$(PY) bench/rules.py

clean:
	rm -rf $(VENV) build *.egg-info
