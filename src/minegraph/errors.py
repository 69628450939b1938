"""The project's exceptions: one family under :class:`MinegraphError`.

User mistakes (malformed input, an unknown engine, a board beyond a limit) raise a
:class:`UserError` subclass, which is also a :class:`ValueError`; its message names where the
problem is (line and column, or a JSON path) and what was expected. Two errors are not the
user's fault: :class:`QueryTimeout` (a :class:`TimeoutError`: the time limit ran out) and
:class:`AnswerUnavailable` (the engine used does not give that answer). An inconsistent board
is *not* an error: it is an answer (``Analysis.consistent is False``).
"""

from __future__ import annotations

__all__ = ["MinegraphError", "UserError", "FormatError", "BoardError", "EngineError", "LimitError", "GameError",
           "QueryTimeout", "QueryCancelled", "AnswerUnavailable"]


class MinegraphError(Exception):
    """Base class of every error this package raises."""


class UserError(MinegraphError, ValueError):
    """Bad input or a bad request: the message says what was expected (CLI exit status 2)."""


class FormatError(UserError):
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


class BoardError(UserError):
    """A board whose states do not fit its graph (e.g. a 9 on the square grid)."""


class EngineError(UserError):
    """An unknown engine or solver name, or an option an engine does not take."""


class GameError(UserError):
    """An illegal move or game setting (a move after the game ended, an unknown rule)."""


class LimitError(UserError):
    """Input beyond a documented size limit."""


#: How a timeout message names each question an engine can answer.
_QUESTION_TEXT = {"consistency": "consistency (does any completion exist?)",
                  "completion": "completion (one way to place the mines)",
                  "forced": "forced cells (which cells are safe or mines in every completion)",
                  "count": "count (how many completions)",
                  "probabilities": "probabilities (the mine probability of each cell)",
                  "no-guess layout": "the no-guess layout (a layout solvable from this first "
                                     "click without a guess)",
                  "solver": "the solver's next decision",
                  "puzzle": "the puzzle",
                  "structure": "the decomposition"}


class AnswerUnavailable(MinegraphError, LookupError):
    """An answer the engine used did not compute (e.g. a probability from ``sat``); the
    message says why and which engine would give it."""


class QueryTimeout(MinegraphError, TimeoutError):
    """A query that ran out of the time given by ``timeout=`` (the CLI's ``--timeout``).

    Not an answer about the board: it says which question was left unanswered.

    Attributes
    ----------
    question
        The first question not answered (``"consistency"``, ``"completion"``, ``"forced"``,
        ``"count"`` or ``"probabilities"``).
    seconds
        The time limit that expired.
    answered
        Questions answered before the limit, with their answers (e.g. ``{"consistency": True}``).

    Examples
    --------
    >>> str(QueryTimeout("forced", 2.0, {"consistency": True}))
    'no answer within 2 s to forced cells (which cells are safe or mines in every completion); answered: consistency = True'
    """

    def __init__(self, question: str, seconds: float | None = None,
                 answered: dict[str, object] | None = None) -> None:
        self.question = question
        self.seconds = seconds
        self.answered = dict(answered or {})
        within = f" within {seconds:g} s" if seconds is not None else ""
        text = f"no answer{within} to {_QUESTION_TEXT.get(question, question)}"
        if self.answered:
            text += "; answered: " + ", ".join(f"{k} = {v}" for k, v in self.answered.items())
        super().__init__(text)


class QueryCancelled(MinegraphError):
    """A query stopped from outside (:meth:`minegraph.deadline.Deadline.cancel`) before it
    answered ``question``."""

    def __init__(self, question: str, answered: dict[str, object] | None = None) -> None:
        self.question = question
        self.answered = dict(answered or {})
        super().__init__(f"cancelled before answering {_QUESTION_TEXT.get(question, question)}")
