"""minegraph: exact Minesweeper reasoning on any graph.

The public API is deliberately small and imports nothing heavy.
"""

from minegraph.analysis import Analysis, analyze, solve
from minegraph.board import BLANK, HIDDEN, MINE, Board
from minegraph.errors import (BoardError, EngineError, FormatError, LimitError, MinegraphError,
                              QueryTimeout)

__all__ = ["Board", "Analysis", "analyze", "solve", "HIDDEN", "MINE", "BLANK", "MinegraphError", "FormatError", "BoardError",
           "EngineError", "LimitError", "QueryTimeout"]
__version__ = "0.1.0"
