# Two commands set everything up on a fresh machine with Python 3.11+ and make:
#   make demo   - create .venv, install the locked dependencies, build the example graph, show answers
#   make test   - the same set-up, then the whole test suite (what CI runs)
#   make test-fast - the tests without kills, worker pools, the benchmark harness or servers
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip --disable-pip-version-check --no-input

.PHONY: demo test test-fast install clean

install: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --require-hashes --no-deps -r requirements.lock
	$(PIP) check >/dev/null
	$(PIP) install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -c "import kg.cli, spacy, pyoxigraph, oxrdflib, pyshacl"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/kg build examples/articles
	@echo; echo "== Who is allied with whom"; $(BIN)/kg query allies
	@echo; echo "== Who captured what or whom"; $(BIN)/kg query captures
	@echo; echo "== Who was evacuated where"; $(BIN)/kg query evacuations

test: $(STAMP)
	$(BIN)/python -m pytest -q

# the inner loop: everything but the tests marked slow (tests/conftest.py, pyproject's markers)
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

clean:
	rm -rf $(VENV) .pytest_cache
