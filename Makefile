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

# The native kernel (src/minegraph/_kernel.c, plain C; every pip install builds it too),
# built in place after the dependencies. Needs a C compiler (gcc); without one, or with
# MINEGRAPH_COMPILE=0, minegraph runs in pure Python. Rebuilt whenever its source or the
# version changes; until then minegraph notices and runs the Python path.
NATIVE := $(VENV)/.kernel
NATIVE_INPUTS := setup.py src/minegraph/_kernel.c src/minegraph/version.py
MINEGRAPH_COMPILE ?= 1

$(NATIVE): $(STAMP) $(NATIVE_INPUTS)
	@if [ "$(MINEGRAPH_COMPILE)" = "0" ]; then echo "pure Python (MINEGRAPH_COMPILE=0)"; else \
		echo "compiling the native kernel (a few seconds)"; \
		$(BIN)/python setup.py -q build_ext --inplace && touch $(NATIVE); fi

venv: $(STAMP)

native: $(NATIVE)

demo: $(NATIVE)
	$(BIN)/minegraph demo

# The browser tests (tests/web/test_browser.py) drive Debian's chromium.
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The suite on every core (pytest-xdist), then the tests that measure time or drive a UI
# alone (marker "serial"), then the engines again in pure Python (MINEGRAPH_PURE=1: no
# kernel), the path an install without a C compiler runs.
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
	rm -rf $(VENV) build *.egg-info src/*.egg-info src/minegraph/*.so
	find src -name "*.so" -delete
