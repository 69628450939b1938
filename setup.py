"""Build of minegraph's native kernel; everything else about the package is in pyproject.toml.

The native kernel ``minegraph._kernel`` (``src/minegraph/_kernel.c``, plain C against the
CPython API), and beside it the exact endgame's search ``minegraph._endgame``
(``src/minegraph/_endgame.c``), are built by every install path: ``pip install .``, the sdist, ``pip wheel .``,
``python -m build``. It is optional: with no working C compiler the build goes on without it
and minegraph runs in pure Python (``minegraph --version`` says which). The extension embeds
the package version and the hash of its source, so that minegraph refuses a kernel built from
other sources by name (minegraph/kernel.py).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "src" / "minegraph"


def version() -> str:
    text = (PACKAGE / "version.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    assert found, "minegraph/version.py must define __version__"
    return found.group(1)


def native(name: str, source: Path) -> Extension:
    """The optional extension ``name`` built from ``source``, with the version and the hash
    of its source embedded (minegraph/kernel.py refuses a stale build by them)."""
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    return Extension(
        name, [str(source.relative_to(HERE))],
        define_macros=[("KERNEL_VERSION", f'"{version()}"'), ("KERNEL_SOURCE_HASH", f'"{digest}"')],
        extra_compile_args=["-O2"] if os.name != "nt" else [],
        optional=True)


setup(ext_modules=[native("minegraph._kernel", PACKAGE / "_kernel.c"),
                   native("minegraph._endgame", PACKAGE / "_endgame.c"),
                   native("minegraph.cli._sigint", PACKAGE / "cli" / "_sigint.c")])
