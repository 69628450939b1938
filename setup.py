"""Build of the compiled path: mypyc compiles the hot modules named in minegraph/native.py.

Everything else about the package is declared in pyproject.toml. ``make venv`` installs the
package first without compiling (``MINEGRAPH_COMPILE=0``), then runs this build with the
project's own mypy, so that mypyc sees the same dependencies and configuration as
``mypy src/minegraph``. The hash of each compiled source goes to ``native.json``; at import,
minegraph falls back to the sources when they no longer match (see minegraph/native.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import runpy
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def native_modules() -> tuple[str, ...]:
    return runpy.run_path(str(SRC / "minegraph" / "native.py"),
                          run_name="minegraph_native_list")["NATIVE_MODULES"]


def module_path(module: str) -> Path:
    return SRC.joinpath(*module.split(".")).with_suffix(".py")


def extensions() -> list:
    if os.environ.get("MINEGRAPH_COMPILE", "1") == "0":
        return []
    from mypyc.build import mypycify

    modules = native_modules()
    # Relative paths: mypyc names each module from its path (src/ holds no __init__.py).
    paths = [str(module_path(m).relative_to(HERE)) for m in modules]
    # The hashes of the sources mypyc reads now; written only once every extension is built.
    SOURCES.update({m: hashlib.sha256(module_path(m).read_bytes()).hexdigest() for m in modules})
    return mypycify(paths, opt_level="3", group_name="minegraph_native")


SOURCES: dict[str, str] = {}


class BuildAndRecord(build_ext):
    """build_ext, then the manifest of the sources the extensions were built from."""

    def run(self) -> None:
        manifest = SRC / "minegraph" / "native.json"
        manifest.unlink(missing_ok=True)     # a failed build leaves no manifest: pure Python
        super().run()
        if SOURCES:
            manifest.write_text(json.dumps({"modules": SOURCES}, indent=1) + "\n",
                                encoding="utf-8")


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildAndRecord})
