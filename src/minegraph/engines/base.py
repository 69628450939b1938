"""The engine interface: a typed protocol, one result type, and the registry of engines.

An engine answers questions about a position. Every engine but the brute-force oracle reads the
position's :class:`~minegraph.constraints.ConstraintSystem`; engines answer with one
:class:`EngineResult`, in which forced cells are always ``safe``/``mines`` and counts are
``count``/``mine_counts`` (counting engines fill both, from the counts).

Time limits are cooperative (:mod:`minegraph.deadline`): engines check the current deadline
inside their loops.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Protocol, runtime_checkable

from minegraph.board import Board
from minegraph.constraints import ConstraintSystem, build_system
from minegraph.errors import EngineError

#: A mine probability: an exact fraction, or a float proven to 1e-13 relative (floating-point
#: arithmetic, see :mod:`minegraph.engines.combine_float`; below the double range, where no
#: float is that close, a Fraction within 1e-13 relative).
Probability = Fraction | float

__all__ = ["Engine", "SystemEngine", "EngineResult", "ENGINES", "get_engine", "resolve_engine",
           "QUESTIONS"]

#: Questions an engine may be able to answer.
QUESTIONS = frozenset({"consistency", "completion", "forced", "count", "probabilities"})


@dataclass
class EngineResult:
    """What an engine found.

    Attributes
    ----------
    consistent
        Whether any completion exists.
    answered
        The questions this result answers (a subset of :data:`QUESTIONS`).
    count
        Exact number of completions (``None`` when not counted).
    mine_counts
        For every hidden cell, the number of completions with a mine on it (with ``count``);
        a read-only mapping (the native kernel's builds itself on first read).
    safe, mines
        Hidden cells safe / mined in every completion (complete when ``"forced"`` is answered).
    probabilities
        Mine probabilities known although the board was not counted: exact ones (e.g. the
        narrow components of a board whose other components were too wide), or every hidden
        cell's as a float when the combination ran in floating point
        (``stats["arithmetic"] == "float"``); empty when counted (the counts give them all).
    completion
        The hidden cells holding a mine in one completion (``None`` if inconsistent); engines
        may leave it to :attr:`completer`, called on first use (:meth:`get_completion`).
    stats
        Engine-specific figures (decomposition width, solver calls, ...).
    completer
        Builds :attr:`completion` on first use (``None`` when the engine gave the completion,
        or once it is built).
    best
        The recommended cell and why, ``(cell, basis)``, when the engine chose it (the native
        kernel does, per box); ``None``: :func:`~minegraph.analysis.choose_best` chooses from
        the counts.

    Examples
    --------
    >>> r = EngineResult.counted(4, {0: 4, 1: 2, 2: 0}, None)
    >>> sorted(r.safe), sorted(r.mines), sorted(r.answered)
    ([2], [0], ['completion', 'consistency', 'count', 'forced', 'probabilities'])
    """

    consistent: bool
    answered: frozenset[str] = QUESTIONS
    count: int | None = None
    mine_counts: Mapping[int, int] | None = None
    safe: frozenset[int] = frozenset()
    mines: frozenset[int] = frozenset()
    probabilities: Mapping[int, Probability] = field(default_factory=dict)
    completion: frozenset[int] | None = None
    stats: dict[str, object] = field(default_factory=dict)
    completer: Callable[[], frozenset[int]] | None = field(default=None, repr=False)
    #: The recommended cell and why, when the engine chose it (the native kernel does, per
    #: box); else :func:`~minegraph.analysis.choose_best` chooses from the counts.
    best: tuple[int | None, str | None] | None = None

    def get_completion(self) -> frozenset[int] | None:
        """One completion's mines, built now if the engine deferred it."""
        if self.completion is None and self.consistent and self.completer is not None:
            self.completion = self.completer()
            self.completer = None
        return self.completion

    @classmethod
    def counted(cls, count: int, mine_counts: Mapping[int, int], completion: frozenset[int] | None,
                stats: dict[str, object] | None = None,
                completer: Callable[[], frozenset[int]] | None = None, *,
                forced: tuple[frozenset[int], frozenset[int]] | None = None) -> "EngineResult":
        """A counting engine's answer: forced cells derived from the counts (or given as
        ``forced``, the safe and the mined cells, by an engine that knows them already)."""
        if count == 0:
            return cls.inconsistent(mine_counts, stats)
        if forced is not None:
            safe, mines = forced
        else:
            safe = frozenset(c for c, m in mine_counts.items() if m == 0)
            mines = frozenset(c for c, m in mine_counts.items() if m == count)
        return cls(True, QUESTIONS, count, mine_counts, safe, mines, {}, completion,
                   stats if stats is not None else {}, completer)

    @classmethod
    def inconsistent(cls, hidden: Any = (), stats: dict[str, object] | None = None) -> "EngineResult":
        """The answer for a board with no completion (every question answered)."""
        return cls(False, QUESTIONS, 0, dict.fromkeys(hidden, 0), frozenset(), frozenset(), {},
                   None, stats if stats is not None else {})

    @property
    def counts_known(self) -> bool:
        return self.count is not None and self.mine_counts is not None


@runtime_checkable
class Engine(Protocol):
    """One solving method.

    Attributes
    ----------
    name
        The registry name.
    answers
        The questions :meth:`run` answers.
    """

    name: str
    answers: frozenset[str]

    def run(self, board: Board) -> EngineResult:
        """Answer every question in :attr:`answers` about ``board``."""
        ...

    def complete(self, board: Board) -> EngineResult:
        """Answer consistency and one completion only (as cheaply as the method allows)."""
        ...


class SystemEngine:
    """Base of the engines that read the constraint system: :meth:`run` builds it and hands it
    to :meth:`run_system`; :meth:`complete` defaults to :meth:`run`."""

    name = "?"
    answers: frozenset[str] = QUESTIONS

    def run(self, board: Board) -> EngineResult:
        return self.run_system(build_system(board))

    def run_system(self, system: ConstraintSystem) -> EngineResult:  # pragma: no cover - abstract
        raise NotImplementedError

    def complete(self, board: Board) -> EngineResult:
        return self.run(board)


#: Engine names and the module:class implementing each; "auto" picks for you.
ENGINES: dict[str, str] = {
    "auto": "minegraph.engines.portfolio:PortfolioEngine",
    "dp": "minegraph.engines.dp:DPEngine",
    "sat": "minegraph.engines.sat:SatEngine",
    "backtrack": "minegraph.engines.backtrack:BacktrackEngine",
    "thesis": "minegraph.engines.thesis:ThesisEngine",
    "dp-thesis": "minegraph.engines.dp_thesis:PipelineDPEngine",
    "brute": "minegraph.engines.brute:BruteEngine",
}


def get_engine(name: str, **options: Any) -> Engine:
    """Return a new engine registered under ``name``, built with ``options``.

    ``"auto"`` is the portfolio (:mod:`minegraph.engines.portfolio`). Options are the engine
    class's keyword arguments (``get_engine("sat", solver="minisat")``); the short form
    ``"name:option"`` passes one positional option to engines that take one: the SAT solver
    (``"sat:minisat"``), the backtracking seed (``"backtrack:7"``), the portfolio's work
    budget (``"auto:0"`` sends every component to SAT first).

    Parameters
    ----------
    name
        A key of :data:`ENGINES`, optionally followed by ``:option``.
    **options
        Keyword arguments of the engine's class.

    Returns
    -------
    Engine
        A new instance of the engine's class.

    Raises
    ------
    EngineError
        for an unknown name (listing the known ones), or an option the engine does not take.

    Examples
    --------
    >>> get_engine("dp").name
    'dp'
    >>> get_engine("sat", solver="minisat").solver
    'minisat22'
    >>> get_engine("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minegraph.errors.EngineError: unknown engine 'nope'; expected one of auto, backtrack, ...
    """
    if not isinstance(name, str):
        raise EngineError(f"an engine is a name or an engine object, got {name!r}")
    key, has_option, option = name.partition(":")
    target = ENGINES.get(key)
    if target is None:
        known = ", ".join(sorted(ENGINES))
        raise EngineError(f"unknown engine {name!r}; expected one of {known}")
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    args: tuple[Any, ...] = ()
    if has_option:
        if not getattr(cls, "takes_option", False):
            raise EngineError(f"engine {key!r} takes no option, got {name!r}")
        args = (option,)
    try:
        engine: Engine = cls(*args, **options)
    except TypeError as exc:
        raise EngineError(f"engine {key!r}: {exc}") from None
    return engine


_SHARED: dict[str, Engine] = {}


def resolve_engine(engine: str | Engine) -> Engine:
    """An engine object from a registry name or an engine object (returned unchanged).

    Raises
    ------
    EngineError
        for an unknown name or an object that is not an engine.

    Parameters
    ----------
    engine : str or Engine
        A registry name (``name:option`` where the engine takes one) or an engine.

    Returns
    -------
    Engine
        The engine.
    """
    if isinstance(engine, str):
        if engine == "auto":
            # The default engine holds no state between runs (no cache): one instance serves
            # every call, and every thread.
            shared = _SHARED.get(engine)
            if shared is None:
                shared = _SHARED[engine] = get_engine(engine)
            return shared
        return get_engine(engine)
    if not (hasattr(engine, "run") and hasattr(engine, "name")):
        raise EngineError(f"an engine is a name or an engine object, got {engine!r}")
    return engine
