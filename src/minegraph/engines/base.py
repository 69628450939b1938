"""The engine interface and registry.

An engine answers questions about a :class:`~minegraph.board.Board`. Engines that count
return, for every hidden cell, the number of completions in which it holds a mine; the
analysis layer turns those into exact probabilities and forced cells.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Protocol

from minegraph.board import Board
from minegraph.errors import EngineError

__all__ = ["Engine", "EngineResult", "ENGINES", "get_engine", "QUESTIONS"]

#: Questions an engine may be able to answer.
QUESTIONS = frozenset({"consistency", "completion", "forced", "count", "probabilities"})


@dataclass
class EngineResult:
    """What an engine found.

    Attributes
    ----------
    consistent
        Whether any completion exists.
    count
        Exact number of completions (``None`` if the engine does not count).
    mine_counts
        For every hidden cell, the number of completions with a mine on it (counting engines).
    completion
        The hidden cells holding a mine in one completion (``None`` if inconsistent).
    safe, mines
        Hidden cells proved safe / mined in every completion (engines that do not count).
    stats
        Engine-specific counters (e.g. tree-decomposition width, recursive calls).
    """

    consistent: bool
    count: int | None = None
    mine_counts: dict[int, int] | None = None
    completion: frozenset[int] | None = None
    safe: frozenset[int] | None = None
    mines: frozenset[int] | None = None
    stats: dict[str, object] = field(default_factory=dict)


class Engine(Protocol):
    """One solving method. ``answers`` lists the questions it can answer."""

    name: str
    answers: frozenset[str]

    def run(self, board: Board) -> EngineResult:
        """Answer every question the engine can answer about ``board``."""
        ...


#: Engine names and the module:class implementing each; "auto" picks for you.
ENGINES: dict[str, str] = {
    "dp": "minegraph.engines.dp:DPEngine",
    "brute": "minegraph.engines.brute:BruteEngine",
}


def get_engine(name: str) -> Engine:
    """Return the engine registered under ``name`` (``"auto"`` means the default, ``dp``).

    Raises
    ------
    EngineError
        for an unknown name, listing the known ones.

    Examples
    --------
    >>> get_engine("dp").name
    'dp'
    >>> get_engine("nope")
    Traceback (most recent call last):
    ...
    minegraph.errors.EngineError: unknown engine 'nope'; expected one of auto, brute, dp
    """
    key = "dp" if name == "auto" else name
    target = ENGINES.get(key)
    if target is None:
        known = ", ".join(sorted([*ENGINES, "auto"]))
        raise EngineError(f"unknown engine {name!r}; expected one of {known}")
    module_name, _, class_name = target.partition(":")
    engine: Engine = getattr(importlib.import_module(module_name), class_name)()
    return engine
