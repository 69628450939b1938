"""The project's exceptions: one family, all deriving from :class:`ValueError`.

Malformed input raises a :class:`MinegraphError` whose message names where the problem is
(line and column, or a JSON path) and what was expected. An inconsistent board is *not* an
error: it is an answer (``Analysis.consistent is False``).
"""

from __future__ import annotations

__all__ = ["MinegraphError", "FormatError", "BoardError", "EngineError", "LimitError"]


class MinegraphError(ValueError):
    """Base class of every error this package raises on bad input or bad requests."""


class FormatError(MinegraphError):
    """Text or JSON that cannot be read; the message names the line/column or JSON path."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 path: str | None = None) -> None:
        where = []
        if path is not None:
            where.append(path)
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {message}" if prefix else message)
        self.line = line
        self.column = column
        self.path = path


class BoardError(MinegraphError):
    """A board whose states do not fit its graph (e.g. a 9 on the square grid)."""


class EngineError(MinegraphError):
    """An unknown engine name, or a question an engine cannot answer."""


class LimitError(MinegraphError):
    """Input beyond a documented size limit."""
