"""The compiled path: the hot modules compiled by mypyc, and the way back to pure Python.

``make venv`` compiles the modules in :data:`NATIVE_MODULES` with mypyc (``setup.py``)
into extension modules beside their sources, and records a hash of each source in
``native.json``. Python then imports the extensions in place of the sources. The pure-Python
sources stay the reference: they are what is read, type-checked and tested, and the
extensions are built from them unchanged.

Two guards keep the two paths the same program:

- ``MINEGRAPH_PURE=1`` in the environment imports every module from its source, compiled
  or not (the suite runs the engine tests both ways);
- if any source differs from the one an extension was built from (an edit after the build),
  every module is imported from source until ``make native`` rebuilds them (``minegraph
  --version`` says which path runs).
  The extensions form one unit (mypyc links them into one shared library), so they are used
  all together or not at all.

This module imports only the standard library and is never compiled itself: ``setup.py``
reads :data:`NATIVE_MODULES` from it.

Examples
--------
>>> from minegraph import native
>>> set(native.compiled()) <= set(native.NATIVE_MODULES)
True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Sequence

__all__ = ["NATIVE_MODULES", "compiled", "mode", "modules_mode", "source_hash"]

#: The modules mypyc compiles: the Expert analysis path (constraint system, clique trees, DP,
#: combination, portfolio) and the no-guess generator's player (and its pair rule). Only internal modules: compiled code checks every annotation at
#: run time, so a public entry point given a wrong type would raise a bare TypeError before
#: its own validation could name the mistake (analysis.py and deadline.py stay pure).
NATIVE_MODULES: tuple[str, ...] = (
    "minegraph.constraints",
    "minegraph.engines.elimination",
    "minegraph.engines.dp",
    "minegraph.engines.combine",
    "minegraph.engines.portfolio",
    "minegraph.generate.pairs",
    "minegraph.generate.player",
)

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = PACKAGE_DIR / "native.json"
PURE_VARIABLE = "MINEGRAPH_PURE"


def source_path(module: str) -> Path:
    """The source file of one of the package's modules (``minegraph.a.b`` -> ``a/b.py``)."""
    parts = module.split(".")
    return PACKAGE_DIR.joinpath(*parts[1:]).with_suffix(".py")


def source_hash(module: str) -> str:
    """SHA-256 of a module's source, as the build records it in ``native.json``."""
    return hashlib.sha256(source_path(module).read_bytes()).hexdigest()


def _extension_exists(module: str) -> bool:
    stem = source_path(module).with_suffix("")
    return any(Path(str(stem) + suffix).exists()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def _stale_modules() -> list[str]:
    """The compiled modules, when any source of the package differs from the one they were
    built with (compiled code reads the other modules' classes: an edit to ``board.py`` can
    break it as surely as an edit to the module itself); else nothing."""
    try:
        built = json.loads(MANIFEST.read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return list(NATIVE_MODULES)
    now = {str(p.relative_to(PACKAGE_DIR)): hashlib.sha256(p.read_bytes()).hexdigest()
           for p in sorted(PACKAGE_DIR.rglob("*.py"))}
    return list(NATIVE_MODULES) if built != now else []


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Import the compiled modules from their ``.py`` sources even when extensions exist."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in NATIVE_MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def _choose() -> str:
    """Decide once, at package import, which path this process runs."""
    if not any(_extension_exists(m) for m in NATIVE_MODULES):
        return "pure"
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        sys.meta_path.insert(0, _SourceFirst())
        return "pure (MINEGRAPH_PURE)"
    if _stale_modules() or not all(_extension_exists(m) for m in NATIVE_MODULES):
        # Silently: the sources are the reference, and a warning on every command would
        # garble output that scripts read. `minegraph --version` and the benchmarks say it.
        sys.meta_path.insert(0, _SourceFirst())
        return "pure (stale: make native)"
    return "compiled"


# setup.py runs this file on its own only to read NATIVE_MODULES; the choice is made on import.
_MODE = _choose() if __name__ == "minegraph.native" else "pure"


def modules_mode() -> str:
    """The mypyc modules: ``"compiled"``, or ``"pure"`` with the reason in parentheses when
    extensions exist."""
    return _MODE


def mode() -> str:
    """Which path runs, as ``minegraph --version`` says it: the native kernel's status
    (:func:`minegraph.kernel.status`), and the mypyc modules' when they are compiled or stale.

    >>> mode().startswith(("native", "pure"))
    True
    """
    from minegraph.kernel import status
    modules = _MODE
    if modules == "pure" or modules.startswith(f"pure ({PURE_VARIABLE}"):
        return status()         # nothing built, or everything pure on purpose: said once
    return f"{status()}; mypyc modules {modules}"


def compiled() -> list[str]:
    """The modules of :data:`NATIVE_MODULES` that this process runs from extensions."""
    loaded = []
    for name in NATIVE_MODULES:
        module = sys.modules.get(name) or importlib.import_module(name)
        if not str(getattr(module, "__file__", "")).endswith(".py"):
            loaded.append(name)
    return loaded
