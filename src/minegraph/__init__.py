"""minegraph: exact Minesweeper reasoning on any graph.

The public API is deliberately small and imports nothing heavy (engines, SAT solvers and
graph libraries load on first use).
"""

from minegraph.analyser import Analyser
from minegraph.analysis import Analysis, analyze, solve
from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.deadline import Deadline
from minegraph.errors import (AnswerUnavailable, BoardError, EngineError, FormatError, LimitError,
                              MinegraphError, QueryCancelled, QueryTimeout, UserError)
from minegraph.explain import Explanation, explain

__all__ = ["Board", "Analysis", "Analyser", "Explanation", "analyze", "solve", "explain",
           "Deadline", "HIDDEN", "MINE", "BLANK", "MinegraphError", "UserError", "FormatError",
           "BoardError", "EngineError", "LimitError", "AnswerUnavailable", "QueryTimeout",
           "QueryCancelled"]
__version__ = "0.2.0"
