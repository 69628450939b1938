"""Playing Minesweeper: deterministic mine layouts, uncovering cells, mid-game positions.

Used to build reproducible corpora (benchmarks, property tests); every function takes an
explicit seed and draws randomness from nothing else.
"""

from minegraph.play.layouts import Midgame, midgame, midgame_position, random_layout, reveal

__all__ = ["random_layout", "reveal", "midgame", "midgame_position", "Midgame"]
