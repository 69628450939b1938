# Two entry points: `make demo` (the main job) and `make test` (the suite).
# Both bootstrap .venv from pyproject.toml on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench venv clean typecheck browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench,cluster,plot]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(BIN)/minegraph demo

# The browser tests (tests/web/test_browser.py) drive Debian's chromium.
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

test: $(STAMP) browser
	$(BIN)/python -m mypy src/minegraph
	$(BIN)/python -m pytest src tests

typecheck: $(STAMP)
	$(BIN)/python -m mypy src/minegraph

bench: $(STAMP)
	$(BIN)/python bench/bench_analyze.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
