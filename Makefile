# Two entry points: `make demo` (the main job) and `make test` (the suite).
# Both bootstrap .venv from pyproject.toml on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench venv native clean typecheck browser

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip 'setuptools>=77' wheel
	$(BIN)/pip install --quiet -e '.[dev,bench,cluster,plot]'
	touch $(STAMP)

# The native parts, built in place after the dependencies: the C kernel (minegraph/_kernel.c,
# which every pip install builds too) and the mypyc modules (src/minegraph/native.py), with
# the venv's own mypy. Needs a C compiler (gcc). MINEGRAPH_COMPILE=0 make ... keeps pure
# Python. Rebuilt whenever a source changes; until then minegraph notices the change and
# imports the sources.
NATIVE := src/minegraph/native.json
NATIVE_INPUTS := setup.py src/minegraph/_kernel.c $(wildcard src/minegraph/*.py src/minegraph/*/*.py)
MINEGRAPH_COMPILE ?= 1

$(NATIVE): $(STAMP) $(NATIVE_INPUTS)
	@if [ "$(MINEGRAPH_COMPILE)" = "0" ]; then echo "pure Python (MINEGRAPH_COMPILE=0)"; else \
		echo "compiling the native kernel and the hot modules (mypyc; about a minute)"; \
		MINEGRAPH_MYPYC=1 $(BIN)/pip install --quiet --no-build-isolation --no-deps -e . && \
		test -f $(NATIVE); fi

venv: $(STAMP)

native: $(NATIVE)

demo: $(NATIVE)
	$(BIN)/minegraph demo

# The browser tests (tests/web/test_browser.py) drive Debian's chromium.
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The suite on every core (pytest-xdist), then the tests that measure time or drive a UI
# alone (marker "serial"), then the engines again in pure Python (MINEGRAPH_PURE=1: no kernel,
# no compiled module), the reference the native code is held to (and whose doctests pytest
# cannot collect from an extension module).
test: $(NATIVE) browser
	$(BIN)/python -m mypy src/minegraph
	$(BIN)/python -m pytest -n auto --dist worksteal -m "not serial" src tests
	$(BIN)/python -m pytest -m serial tests
	MINEGRAPH_PURE=1 $(BIN)/python -m pytest -q -n auto --dist worksteal -m "not serial" \
		src/minegraph/constraints.py src/minegraph/engines src/minegraph/generate \
		tests/engines tests/generate tests/test_constraints.py \
		tests/test_constraints_update.py tests/test_analysis.py

typecheck: $(STAMP)
	$(BIN)/python -m mypy src/minegraph

bench: $(NATIVE)
	$(BIN)/python bench/bench_analyze.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info $(NATIVE)
	find src -name "*.so" -delete
