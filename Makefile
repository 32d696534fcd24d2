# Two commands do everything on a fresh machine with Python 3.11:
#   make serve   build .venv, install the package, serve on 127.0.0.1:$(PORT)
#   make test    build .venv, install the package with its dev extra, run the suite
# The package is installed non-editable, so the tests exercise what `pip install .` gives.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
PORT   ?= 8080
HOST   ?= 127.0.0.1
BIN    := $(VENV)/bin
SOURCES := pyproject.toml $(shell find notation service -name '*.py' -o -name '*.yaml' -o -name 'py.typed' 2>/dev/null)

.PHONY: test serve install bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python $(SOURCES)
	$(BIN)/python -m pip install --quiet '.[dev]'
	@touch $@

install: $(VENV)/.installed

test: $(VENV)/.installed
	cd tests && NOTATION_INSTALLED_TEST=1 ../$(BIN)/pytest -q --rootdir=.. -c ../pyproject.toml

serve: $(VENV)/.installed
	$(BIN)/notation serve --host $(HOST) --port $(PORT)

bench: $(VENV)/.installed
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info
