"""Cell states and the board-size limit: the vocabulary every layer shares.

A cell's state is a small integer: ``0..12`` an uncovered cell with that many mined
neighbours, :data:`HIDDEN` a cell not yet uncovered (the thesis's ``#``), :data:`MINE` a known
mine (``M``), :data:`BLANK` an uncovered cell whose number is not given (the thesis's ``◇``).
This module imports nothing, so readers, writers and pictures can use the states without
importing :mod:`minegraph.board` (which re-exports them unchanged).

Examples
--------
>>> from minegraph.board import HIDDEN as board_hidden
>>> HIDDEN == board_hidden == -1, MINE, BLANK
(True, -2, -3)
"""

from __future__ import annotations

__all__ = ["HIDDEN", "MINE", "BLANK", "MAX_CELLS"]

HIDDEN = -1
MINE = -2
BLANK = -3

#: Largest board accepted (cells); hostile sizes are refused with a
#: :class:`~minegraph.errors.LimitError` before any neighbour table is built.
MAX_CELLS = 1_000_000
