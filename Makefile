# Two entry points: `make demo` (the main job) and `make test` (the suite).
# Both bootstrap .venv from pyproject.toml on first use: `make demo` installs the package and
# its dependencies only; `make test` (and typecheck, bench) adds the extras: the test tools
# (pytest, mypy, playwright, ...), the benchmark peer, dask and matplotlib. Each step says
# what it is doing: the first install downloads for a minute or more.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS := $(VENV)/.installed-extras

.PHONY: demo test coverage bench venv native clean typecheck browser node page-rules mutation

$(STAMP): pyproject.toml setup.py
	@echo "make: creating the virtual environment $(VENV) with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV)
	@echo "make: upgrading pip, setuptools and wheel in $(VENV)"
	@$(BIN)/pip install --quiet --upgrade pip 'setuptools>=77' wheel
	@echo "make: installing minegraph and its dependencies (numpy, networkx, python-sat,"
	@echo "      python-flint, rich, textual, fastapi, uvicorn): a minute or two the first time"
	@$(BIN)/pip install --quiet -e .
	@touch $(STAMP)

# The extras for the suite and the benchmarks, on top of the package: their requirements as
# pyproject.toml lists them (installed by name, so the package is not built again).
EXTRA_NAMES := dev bench cluster plot replays

$(EXTRAS): $(STAMP) pyproject.toml
	@echo "make: installing the extras $(EXTRA_NAMES) (pytest, mypy, playwright, ms_toollib,"
	@echo "      dask[distributed], matplotlib, ...) for the tests: a minute or two the first time"
	@$(BIN)/python -c "$$EXTRA_REQUIREMENTS" $(EXTRA_NAMES) > $(VENV)/extras.txt
	@$(BIN)/pip install --quiet -r $(VENV)/extras.txt
	@touch $(EXTRAS)

# Prints the requirements of the extras named in its arguments, one a line.
define EXTRA_REQUIREMENTS
import sys, tomllib
extras = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]
print(*(r for name in sys.argv[1:] for r in extras[name]), sep="\n")
endef
export EXTRA_REQUIREMENTS

# The native kernel (src/minegraph/_kernel.c, plain C; every pip install builds it too),
# built in place after the dependencies. Needs a C compiler (gcc); without one, or with
# MINEGRAPH_COMPILE=0, minegraph runs in pure Python. Rebuilt whenever its source or the
# version changes; until then minegraph notices and runs the Python path.
NATIVE := $(VENV)/.kernel
NATIVE_INPUTS := setup.py src/minegraph/_kernel.c src/minegraph/_endgame.c src/minegraph/cli/_sigint.c \
	src/minegraph/version.py
MINEGRAPH_COMPILE ?= 1

$(NATIVE): $(STAMP) $(NATIVE_INPUTS)
	@if [ "$(MINEGRAPH_COMPILE)" = "0" ]; then echo "make: pure Python (MINEGRAPH_COMPILE=0)"; else \
		echo "make: compiling the native kernel (a few seconds)"; \
		$(BIN)/python setup.py -q build_ext --inplace && touch $(NATIVE); fi

venv: $(STAMP)

native: $(NATIVE)

demo: $(NATIVE)
	@echo "make: running minegraph demo"
	@$(BIN)/minegraph demo

# The browser tests (tests/web/test_browser.py) drive Debian's chromium.
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The page's lint and unit tests (ESLint, node's own test runner): nodejs and npm from apt-get
# when missing, then the exact versions of package-lock.json into node_modules (npm ci).
NODE_STAMP := node_modules/.installed

$(NODE_STAMP): package.json package-lock.json
	@{ command -v node && command -v npm; } >/dev/null 2>&1 || { \
		echo "make: installing nodejs and npm with apt-get"; apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; }
	@echo "make: installing ESLint for the page (npm ci)"
	@npm ci --no-audit --no-fund --loglevel=error
	@touch $(NODE_STAMP)

node: $(NODE_STAMP)

# The page's rules.js, generated from minegraph/present.py (a test fails when it is stale).
page-rules: $(STAMP)
	$(BIN)/python -c "from minegraph.present import page_rules_module as m; print(m(), end='')" \
		> src/minegraph/web/static/rules.js

# Branch coverage of src/minegraph (pyproject.toml's [tool.coverage.*]), added up over the
# three passes and reported at the end: `make coverage` (or `make test COVERAGE=1`). It
# costs about 1.7x the time of the CPU-bound tests (the parallel pass took 13.4 minutes
# instead of about 6 on 2 cores), which would take the suite far past its 10 minutes, so
# `make test` (and CI) runs without it.
COVERAGE ?= 0
ifeq ($(COVERAGE),0)
COVERAGE_ARGS :=
COVERAGE_START := @true
COVERAGE_REPORT := @true
else
COVERAGE_ARGS := --cov --cov-append --cov-report=
COVERAGE_START := $(BIN)/python -m coverage erase
COVERAGE_REPORT := $(BIN)/python -m coverage report
endif

# Each pass lists its slowest tests, to see where the suite's time goes.
DURATIONS := --durations=12 --durations-min=2

# The page's lint and unit tests, then the suite on every core (pytest-xdist), then the tests
# that start CPU-bound processes or drive a UI alone (marker "serial"), then the engines again
# in pure Python (MINEGRAPH_PURE=1: no kernel), the path an install without a C compiler
# runs (less the polynomial combination's tests, which never touch the kernel and already ran);
# then the coverage report.
coverage:
	$(MAKE) test COVERAGE=1

test: $(EXTRAS) $(NATIVE) browser node
	$(BIN)/python -m mypy src/minegraph
	npm run lint
	npm test
	$(COVERAGE_START)
	$(BIN)/python -m pytest -n auto --dist worksteal -m "not serial" $(DURATIONS) $(COVERAGE_ARGS) src tests
	$(BIN)/python -m pytest -m serial $(DURATIONS) $(COVERAGE_ARGS) tests
	MINEGRAPH_PURE=1 $(BIN)/python -m pytest -n auto --dist worksteal -m "not serial" $(DURATIONS) \
		--ignore=tests/engines/test_combine.py --ignore=tests/engines/test_combine_float.py \
		$(COVERAGE_ARGS) src/minegraph/constraints.py src/minegraph/engines src/minegraph/generate \
		src/minegraph/kernel.py tests/engines tests/generate tests/test_constraints.py \
		tests/test_constraints_update.py tests/test_analysis.py tests/test_kernel_examples.py \
		tests/test_outcomes.py
	$(COVERAGE_REPORT)

# Mutation testing of the five core rule modules (constraints, rules, engines/combine,
# play/game, play/review) with mutmut, one module at a time against the tests that exercise
# it, under nice and one worker: tens of minutes on a shared machine, so not part of `make
# test`. Prints each module's score and writes bench/results/mutation.json (docs/testing.md).
mutation: $(EXTRAS) $(NATIVE)
	$(BIN)/python tools/mutation.py --json bench/results/mutation.json

typecheck: $(EXTRAS)
	$(BIN)/python -m mypy src/minegraph

bench: $(EXTRAS) $(NATIVE)
	$(BIN)/python bench/bench_analyze.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info src/minegraph/*.so node_modules
	find src -name "*.so" -delete
