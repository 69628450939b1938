"""The optional extras and the one way every message and page says how to install them.

``pip install 'minegraph[replays]'`` works only where pip can find a package named minegraph
(an index that has it); from a checkout or a downloaded wheel it fails. The extra's own
packages install the same way everywhere, so every hint names them first, then the form
that installs the extra from a checkout. :data:`EXTRAS` repeats the requirements of
``[project.optional-dependencies]`` in ``pyproject.toml`` (the package cannot read that file
once installed; ``tests/test_extras.py`` holds the two equal).

Examples
--------
>>> install_hint("replays")
"pip install 'ms_toollib>=1.5' (from a minegraph checkout: pip install '.[replays]')"
"""

from __future__ import annotations

__all__ = ["EXTRAS", "install_hint"]

#: The requirements of each extra a command may ask for, as ``pyproject.toml`` lists them.
EXTRAS: dict[str, tuple[str, ...]] = {
    "replays": ("ms_toollib>=1.5",),
    "cluster": ("dask[distributed]>=2024.1",),
    "plot": ("matplotlib>=3.8",),
}


def install_hint(extra: str) -> str:
    """The command that installs ``extra``'s packages, for a message or a page.

    Parameters
    ----------
    extra : str
        One of :data:`EXTRAS`.

    Returns
    -------
    str
        ``pip install`` with the extra's requirements (quoted for the shell), then the
        checkout form ``pip install '.[extra]'`` in parentheses.

    Raises
    ------
    KeyError
        for an extra that is not in :data:`EXTRAS` (a mistake in the package, not the user's).

    Examples
    --------
    >>> install_hint("cluster")
    "pip install 'dask[distributed]>=2024.1' (from a minegraph checkout: pip install '.[cluster]')"
    """
    packages = " ".join(f"'{requirement}'" for requirement in EXTRAS[extra])
    return f"pip install {packages} (from a minegraph checkout: pip install '.[{extra}]')"
