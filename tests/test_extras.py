"""Install hints (issue 34, item 5): ``pip install 'minegraph[replays]'`` fails wherever pip's
index lacks minegraph, so every hint names the extra's own packages, which install the same
way from a checkout, a wheel or an index, and the checkout form ``pip install '.[extra]'``.
The hints come from :func:`minegraph.extras.install_hint`; these tests hold its packages to
``pyproject.toml``'s extras and every document and message to its text."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from minegraph.extras import EXTRAS, install_hint

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SOURCES = sorted((ROOT / "src" / "minegraph").rglob("*.py"))


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_the_hint_names_the_extras_own_requirements(extra: str) -> None:
    wanted = PYPROJECT["project"]["optional-dependencies"][extra]
    assert list(EXTRAS[extra]) == wanted
    hint = install_hint(extra)
    # The packages, quoted for the shell, exactly as pyproject.toml requires them.
    named = re.fullmatch(r"pip install ((?:'[^']+' ?)+) \(from a minegraph checkout: "
                         r"pip install '\.\[(\w+)\]'\)", hint)
    assert named is not None, hint
    assert re.findall(r"'([^']+)'", named.group(1)) == wanted
    assert named.group(2) == extra


def test_every_extra_a_command_needs_has_a_hint() -> None:
    # The extras for users (not the test tools or the benchmark peer).
    assert set(EXTRAS) == set(PYPROJECT["project"]["optional-dependencies"]) - {"dev", "bench"}


def test_no_document_or_message_says_pip_install_minegraph_extra() -> None:
    # Only the explanation of why the hint reads as it does may quote the failing form.
    explained = {ROOT / "docs" / "review.md", ROOT / "src" / "minegraph" / "extras.py"}
    for path in DOCUMENTS + SOURCES:
        text = path.read_text(encoding="utf-8")
        for found in re.finditer(r"pip install '?minegraph\[", text):
            line = text.count("\n", 0, found.start()) + 1
            context = text[max(0, found.start() - 200):found.start() + 200]
            assert path in explained and "works only where" in context, f"{path}:{line}"


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_the_documents_give_the_same_packages(extra: str) -> None:
    # Wherever a page names an extra's install command, it is the hint's.
    packages = " ".join(f"'{r}'" for r in EXTRAS[extra])
    checkout = f"pip install '.[{extra}]'"
    mentioned = [p for p in DOCUMENTS if checkout in p.read_text(encoding="utf-8")]
    assert mentioned, f"no page says how to install {extra}"
    for path in mentioned:
        assert f"pip install {packages}" in path.read_text(encoding="utf-8"), path
