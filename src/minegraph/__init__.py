"""minegraph: exact Minesweeper reasoning on any graph.

The public API is deliberately small and imports nothing heavy (engines, SAT solvers and
graph libraries load on first use): boards (:class:`Board`, :func:`read_board`,
:func:`write_board`), the answers (:func:`analyze`, :func:`solve`, :func:`explain`, the
reusable :class:`Analyser`, :func:`outcomes` of a guess), time limits and the error family.

Examples
--------
>>> import minegraph
>>> board = minegraph.read_board("3x1x1\\nH1H")          # detects the .mine format
>>> minegraph.analyze(board).probability((0, 0))
Fraction(1, 2)
>>> print(minegraph.write_board(minegraph.solve(board), "text"), end="")
mines: 1
M10
"""

from minegraph.version import __version__  # noqa: F401  isort: skip

from typing import TYPE_CHECKING

from minegraph.analyser import Analyser
from minegraph.analysis import Analysis, analyze, solve
from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.deadline import Deadline
from minegraph.errors import (AnswerUnavailable, BoardError, EngineError, FormatError, LimitError,
                              MinegraphError, QueryCancelled, QueryTimeout, UserError)
from minegraph.explain import Explanation, explain
from minegraph.formats import read_board, write_board
from minegraph.outcomes import Outcomes, outcomes

if TYPE_CHECKING:     # minegraph.review is imported on first use (__getattr__ below)
    from minegraph.play.review import review

__all__ = ["review", "Board", "Analysis", "Analyser", "Explanation", "analyze", "solve", "explain",
           "outcomes", "Outcomes", "read_board", "write_board",
           "Deadline", "HIDDEN", "MINE", "BLANK", "MinegraphError", "UserError", "FormatError",
           "BoardError", "EngineError", "LimitError", "AnswerUnavailable", "QueryTimeout",
           "QueryCancelled"]


def __getattr__(name: str) -> object:
    """``minegraph.review`` (:func:`minegraph.play.review.review`), imported on first use:
    ``import minegraph`` stays light."""
    if name == "review":
        from minegraph.play.review import review
        return review
    raise AttributeError(f"module 'minegraph' has no attribute {name!r}")
