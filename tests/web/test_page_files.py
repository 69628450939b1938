"""The wheel ships every file of the page: pyproject.toml's package-data globs match each file
under ``web/static`` (a new module, or a folder the globs miss, would be served from a source
tree but missing from an installed one), and the page's node tooling stays outside the
package (tools/check_packaging.sh builds and installs the wheel itself)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

from minegraph.web.app import STATIC

ROOT = Path(__file__).resolve().parents[2]


def test_package_data_matches_every_static_file() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["minegraph"]
    package = ROOT / "src" / "minegraph"
    files = [p for p in STATIC.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert {p.name for p in files} >= {"index.html", "app.js", "app.css", "rules.js"}
    for path in files:
        relative = path.relative_to(package).as_posix()
        # fnmatch's * crosses "/", setuptools' does not: compare folder by folder.
        assert any(fnmatch(relative, g) and relative.count("/") == g.count("/") for g in globs), \
            f"{relative} is not in pyproject.toml's package-data"


def test_node_tooling_is_outside_the_package() -> None:
    for name in ("package.json", "package-lock.json", "eslint.config.js"):
        assert (ROOT / name).is_file()
        assert not list((ROOT / "src").rglob(name)), name
    assert not (ROOT / "src" / "minegraph" / "node_modules").exists()
