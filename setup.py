"""Build of minegraph's native parts; everything else about the package is in pyproject.toml.

- The native kernel ``minegraph._kernel`` (``src/minegraph/_kernel.c``, plain C against the
  CPython API) is built by every install path: ``pip install .``, the sdist, ``pip wheel .``,
  ``python -m build``. It is optional: with no working C compiler the build goes on without
  it and minegraph runs in pure Python (``minegraph --version`` says which). The extension
  embeds the package version and the hash of its source, so that minegraph refuses a kernel
  built from other sources by name (minegraph/kernel.py).
- ``MINEGRAPH_MYPYC=1`` (``make native`` sets it) also compiles the modules named in
  minegraph/native.py with mypyc, for the paths the kernel does not cover yet; it needs mypy
  in the build environment (``--no-build-isolation``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import runpy
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
PACKAGE = SRC / "minegraph"


def version() -> str:
    text = (PACKAGE / "version.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    assert found, "minegraph/version.py must define __version__"
    return found.group(1)


def kernel() -> Extension:
    source = PACKAGE / "_kernel.c"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    return Extension(
        "minegraph._kernel", [str(source.relative_to(HERE))],
        define_macros=[("KERNEL_VERSION", f'"{version()}"'), ("KERNEL_SOURCE_HASH", f'"{digest}"')],
        extra_compile_args=["-O2"] if os.name != "nt" else [],
        optional=True)


def mypyc_modules() -> list:
    if os.environ.get("MINEGRAPH_MYPYC", "0") in ("", "0"):
        return []
    from mypyc.build import mypycify

    modules = runpy.run_path(str(PACKAGE / "native.py"),
                             run_name="minegraph_native_list")["NATIVE_MODULES"]
    # Relative paths: mypyc names each module from its path (src/ holds no __init__.py).
    paths = [str(SRC.joinpath(*m.split(".")).with_suffix(".py").relative_to(HERE)) for m in modules]
    SOURCES.update(all_sources())
    return mypycify(paths, opt_level="3", group_name="minegraph_native")


def all_sources() -> dict[str, str]:
    """The hash of every module of the package: compiled modules read the others' classes
    (a change to board.py can break them), so the compiled set is as old as the oldest."""
    return {str(p.relative_to(PACKAGE)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(PACKAGE.rglob("*.py"))}


SOURCES: dict[str, str] = {}


class BuildAndRecord(build_ext):
    """build_ext, then (mypyc builds only) the manifest of the sources they were built from."""

    def run(self) -> None:
        manifest = PACKAGE / "native.json"
        manifest.unlink(missing_ok=True)     # a failed build leaves no manifest: pure Python
        super().run()
        if SOURCES:
            manifest.write_text(json.dumps({"sources": SOURCES}, indent=1) + "\n",
                                encoding="utf-8")


setup(ext_modules=[kernel(), *mypyc_modules()], cmdclass={"build_ext": BuildAndRecord})
