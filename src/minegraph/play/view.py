"""What a player sees of a game, as plain data (the web app's game object).

The layout is never part of it while the game is played; the seed only when the caller says
it may be shown (a server shows a seed it drew only once the game is over: the seed rebuilds
the layout).

Examples
--------
>>> from minegraph.play.game import Game
>>> game = Game(rows=2, cols=3, mines=1, rules="classic", seed=4)
>>> view = player_view(game)
>>> view["rows"], view["cols"], view["status"], view["seed"], view["mines_at"]
(2, 3, 'playing', None, None)
"""

from __future__ import annotations

from typing import Any

from minegraph.play.game import Game

__all__ = ["player_view"]


def player_view(game: Game, *, seed: int | None = None) -> dict[str, Any]:
    """The game as its player sees it.

    Parameters
    ----------
    game
        A game on a grid.
    seed
        The seed to show, or ``None`` to keep it secret.

    Returns
    -------
    dict
        ``rows``, ``cols``, ``topology``, ``mines``, ``rules``, ``seed``, ``status``,
        ``moves`` (how many), ``states`` (rows of cell states: -1 covered, flagged or
        not, else the number), ``flags`` and ``exploded`` as ``[row, col]``, ``mines_at`` (the layout,
        once the game is over; else ``None``) and ``board`` (the position as text).
    """
    assert game.rows is not None and game.cols is not None
    cols = game.cols
    board = game.board()
    states = board.states
    over = game.status != "playing"

    def ref(index: int) -> list[int]:
        return list(divmod(index, cols))

    return {"rows": game.rows, "cols": cols, "topology": game.topology,
            "mines": game.mine_count, "rules": getattr(game, "rules_label", game.rules),
            "seed": seed, "status": game.status, "moves": len(game.moves),
            "states": [list(states[r * cols:(r + 1) * cols]) for r in range(game.rows)],
            "flags": [ref(c) for c in sorted(game.flags)],
            "exploded": None if game.exploded is None else ref(game.exploded),
            "mines_at": [ref(c) for c in sorted(game.layout)]
            if over and game.layout is not None else None,
            "bbbv": game.three_bv() if over and game.layout is not None else None,
            "board": board.to_text()}
