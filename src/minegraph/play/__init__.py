"""Playing Minesweeper: the game engine (:mod:`~minegraph.play.game`), autoplayers
(:mod:`~minegraph.play.policies`, :mod:`~minegraph.play.endgame`), win-rate benchmarks
(:mod:`~minegraph.play.bench`) and the terminal game (:mod:`~minegraph.play.tui`).

Test-position recipes (mid-game corpora for tests and benchmarks) are in
:mod:`minegraph.recipes`.
"""

from minegraph.play.game import RULES, SIZES, Game, Move, flood_fill

__all__ = ["Game", "Move", "RULES", "SIZES", "flood_fill"]
