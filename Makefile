# Two commands do everything on a fresh machine with Python 3.11:
#   make serve   build .venv-serve, install the package with its service extra only, serve on
#                127.0.0.1:$(PORT)
#   make test    build .venv, install the package with its dev extra, run the suite;
#                then the same against the pure-Python build (.venv-pure)
#   make fuzz    the property tests with random examples, many more of them (FUZZ_ROUNDS runs)
#   make dev     build .venv-dev, an editable pure-Python install with the dev extra: an edit
#                to notation/ or service/ is what the next test run imports, with no rebuild
#   make quick   the suite but its slow tests (pytest -m "not slow") against .venv-dev
# `make test` installs the package non-editable, so the tests exercise what `pip install .` gives.
# Where a C compiler is present the hot modules are compiled with mypyc (setup.py), with GCC
# twice, profile-guided (bench/profile_workload.py; NOTATION_PGO=0 compiles once); a test
# fails if that build silently fell back to pure Python.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
PURE   ?= .venv-pure
SERVE  ?= .venv-serve
DEV    ?= .venv-dev
PORT   ?= 8080
HOST   ?= 127.0.0.1
BIN    := $(VENV)/bin
SOURCES := pyproject.toml setup.py bench/profile_workload.py README.md $(wildcard docs/*.md) $(shell find notation service -name '*.py' -o -name '*.yaml' -o -name 'py.typed' -o -name '*.txt' -o -path 'service/web/*' 2>/dev/null)
PYTEST_ARGS := -q --rootdir=.. -c ../pyproject.toml

.PHONY: test test-compiled test-pure fuzz serve install bench clean dev quick

%/bin/python:
	$(PYTHON) -m venv $*
	$*/bin/python -m pip install --quiet --upgrade pip

# setuptools keeps its build tree (build/) between runs and copies all of it into the
# wheel: a module since removed or renamed would be installed again. Each install starts clean.
$(VENV)/.installed: $(BIN)/python $(SOURCES)
	rm -rf build
	$(BIN)/python -m pip install --quiet '.[dev]'
	@touch $@

$(PURE)/.installed: $(PURE)/bin/python $(SOURCES)
	rm -rf build
	NOTATION_PURE=1 $(PURE)/bin/python -m pip install --quiet '.[dev]'
	@touch $@

# Editable and pure (NOTATION_PURE=1: setup.py compiles nothing, so no compiled module
# shadows an edited source): reinstalled only when the dependencies or the build change.
$(DEV)/.installed: $(DEV)/bin/python pyproject.toml setup.py
	NOTATION_PURE=1 $(DEV)/bin/python -m pip install --quiet -e '.[dev]'
	@touch $@

dev: $(DEV)/.installed

quick: $(DEV)/.installed
	cd tests && NOTATION_PURE=1 ../$(DEV)/bin/pytest $(PYTEST_ARGS) -m "not slow"

install: $(VENV)/.installed

test: test-compiled test-pure

test-compiled: $(VENV)/.installed
	cd tests && NOTATION_INSTALLED_TEST=1 ../$(BIN)/pytest $(PYTEST_ARGS)

test-pure: $(PURE)/.installed
	cd tests && NOTATION_INSTALLED_TEST=1 NOTATION_PURE=1 ../$(PURE)/bin/pytest $(PYTEST_ARGS)

# Property tests run derandomized under `make test` (tests/conftest.py, profile "ci");
# here with the "fuzz" profile: new random examples each round, FUZZ_FACTOR times as many.
FUZZ_TESTS  ?= pgn/test_pgn_reader.py pgn/test_normalize_properties.py fen/test_fen_properties.py validation/test_validation_properties.py \
               game/test_game_properties.py core/test_line_reader.py
FUZZ_ROUNDS ?= 1

fuzz: $(VENV)/.installed
	cd tests && for round in $$(seq $(FUZZ_ROUNDS)); do \
		HYPOTHESIS_PROFILE=fuzz ../$(BIN)/pytest $(PYTEST_ARGS) -x $(FUZZ_TESTS) || exit 1; \
	done

# Serving gets a venv of its own with the service extra only: no test or GPL oracle packages.
$(SERVE)/.installed: $(SERVE)/bin/python $(SOURCES)
	rm -rf build
	$(SERVE)/bin/python -m pip install --quiet '.[service]'
	@touch $@

serve: $(SERVE)/.installed
	$(SERVE)/bin/notation serve --host $(HOST) --port $(PORT)

bench: $(VENV)/.installed
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) $(PURE) $(SERVE) $(DEV) build *.egg-info
