"""Type stub of the command line's C-level Ctrl-C guard ``minegraph.cli._sigint``
(``_sigint.c``); see :mod:`minegraph.cli.interrupt`, its one user."""

from typing import Final

from typing_extensions import Buffer

VERSION: Final[str]
SOURCE_HASH: Final[str]


def guard_sigint(flag: Buffer, grace: float, status: int, /) -> bool: ...


def release_sigint() -> bool: ...
