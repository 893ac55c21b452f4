# Every target sets itself up: a fresh Debian with Python 3.11 needs nothing else.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench lint venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,train]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/tableref demo

lint: $(STAMP)
	$(VENV)/bin/ruff check host vision tests bench firmware
	$(VENV)/bin/ruff format --check host vision tests bench firmware
	$(VENV)/bin/mypy
	$(PY) -m host.link.tools typecheck  # firmware/ as MicroPython: rp2 stubs, own typeshed

# One worker a core, at most four (each loads the models); a file's tests stay on one
# worker, so the readers and enrolments its module fixtures make are made once.
test: $(STAMP) lint
	$(PY) -m pytest -q -n auto --maxprocesses 4 --dist loadfile

bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) build *.egg-info
