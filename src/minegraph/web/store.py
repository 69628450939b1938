"""Games kept on the server: a bounded store, least recently used out first.

An abandoned game costs memory only until :attr:`GameStore.max_games` newer (or more recently
played) games push it out; its id then answers 404. Ids are random (not guessable from
another game's).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from minegraph.errors import UserError
from minegraph.play.game import Game
from minegraph.present import shorten

__all__ = ["GameStore", "StoredGame", "UnknownGame"]


class UnknownGame(UserError):
    """A game id the store does not hold (never created, or dropped as least recently used)."""


@dataclass
class StoredGame:
    """A game and what was asked to make it.

    The seed rebuilds the layout, so it is shown only when ``shared`` (the client chose it
    and knows it already) or once the game is over.
    """

    id: str
    game: Game
    seed: int
    size: str | None
    shared: bool = False
    #: A practice game: moves may be taken back (``POST /api/game/{id}/undo``).
    practice: bool = False
    #: Held while the solver plays the game in a worker thread: moves wait for nobody but
    #: are refused (409) meanwhile.
    busy: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)


class GameStore:
    """At most ``max_games`` games, the least recently used dropped first.

    Thread-safe: every operation holds one lock.

    Parameters
    ----------
    max_games
        The most games kept.

    Examples
    --------
    >>> store = GameStore(2)
    >>> ids = [store.add(Game("beginner", seed=k), k, "beginner").id for k in range(3)]
    >>> len(store), ids[0] in store, ids[2] in store
    (2, False, True)
    >>> store.get(ids[0])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    minegraph.web.store.UnknownGame: no game with id ...
    """

    def __init__(self, max_games: int) -> None:
        self.max_games = max_games
        self._games: OrderedDict[str, StoredGame] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game: Game, seed: int, size: str | None, *, shared: bool = False,
            practice: bool = False) -> StoredGame:
        """Keep ``game`` under a new random id (dropping the least recently used beyond the
        bound) and return its entry."""
        with self._lock:
            game_id = secrets.token_urlsafe(12)
            while game_id in self._games:
                game_id = secrets.token_urlsafe(12)
            entry = self._games[game_id] = StoredGame(game_id, game, seed, size, shared, practice)
            while len(self._games) > self.max_games:
                self._games.popitem(last=False)
            return entry

    def get(self, game_id: str) -> StoredGame:
        """The game of ``game_id`` (now the most recently used).

        Raises
        ------
        UnknownGame
            for an id not held.
        """
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                shown = shorten(game_id)
                raise UnknownGame(f"no game with id {shown!r}: it was never created, or it was "
                                  f"dropped (the server keeps the {self.max_games} most recently "
                                  f"used games)")
            self._games.move_to_end(game_id)
            return entry

    def __contains__(self, game_id: object) -> bool:
        with self._lock:
            return game_id in self._games

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)
