"""Games kept on the server: a bounded store that protects the games being played.

A client (an address; an IPv6 address counted by its /64 network, see
:func:`~minegraph.web.limits.client_key`) may create :attr:`GameStore.per_minute` games a
minute (past it :class:`TooManyGames`, answered 429) and keeps at most
:attr:`GameStore.per_client` games: its next new game drops its own least recently used one.
When the store holds :attr:`GameStore.max_games` games, a new game takes the place of

1. the least recently used game unused for :attr:`GameStore.idle_seconds`, else
2. the least recently used game of the client holding the most games, if it holds more than
   one (a client's most recently used game, the one it plays, stays);

and when neither exists every game is in play: the new game is refused with :class:`StoreFull`
(answered 503). So one client creating games as fast as it may drops only its own games, and
no other client drops a game played within :attr:`GameStore.idle_seconds` unless its player
keeps more than one. A dropped game's id answers 404. Ids are random (not guessable from
another game's). Time is read from :attr:`GameStore.clock`, which tests replace.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable

from minegraph.errors import UserError
from minegraph.play.game import Game
from minegraph.present import shorten

__all__ = ["GameStore", "StoredGame", "UnknownGame", "TooManyGames", "StoreFull"]


class UnknownGame(UserError):
    """A game id the store does not hold (never created, or dropped)."""


class TooManyGames(UserError):
    """A client creating games faster than it may: answered 429 with ``Retry-After``."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class StoreFull(UserError):
    """Every game in the store is in play: a new game is answered 503 with ``Retry-After``."""

    def __init__(self, message: str, retry_after: int = 60) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class StoredGame:
    """A game and what was asked to make it.

    The seed rebuilds the layout, so it is shown only when ``shared`` (the client chose it
    and knows it already) or once the game is over.

    Parameters
    ----------
    id : str
        The game's id.
    game : Game
        The game.
    seed : int
        Its seed.
    size : str or None
        The size's name, if one was asked for.
    shared : bool
        Whether the client chose the seed (and so may see it).
    practice : bool
        A practice game: moves may be taken back.
    busy : threading.Lock
        Held while the solver plays the game in a worker thread.
    client : str
        The client that made it.
    used : float
        When it was last created, read or played (the store's clock).
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
    #: The client that created the game (:func:`~minegraph.web.limits.client_key`).
    client: str = ""
    #: When the game was last created, read or played (:attr:`GameStore.clock`).
    used: float = 0.0


class GameStore:
    """At most ``max_games`` games, dropped by the policy of the module docstring.

    Thread-safe: every operation holds one lock.

    Parameters
    ----------
    max_games
        The most games kept.
    per_client
        The most games one client keeps (``None``: no such limit).
    per_minute
        Games one client may create a minute: a burst of this many, then one every
        ``60 / per_minute`` seconds (``None``: no such limit).
    idle_seconds
        A game unused this long is the first dropped when the store is full.
    clock
        The time in seconds (monotonic): :func:`time.monotonic` unless a test injects one.

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

    A client at its quota drops its own games, never another client's:

    >>> store = GameStore(10, per_client=2)
    >>> mine = store.add(Game("beginner", seed=0), 0, "beginner", client="10.0.0.1")
    >>> theirs = [store.add(Game("beginner", seed=k), k, "beginner", client="10.0.0.2")
    ...           for k in range(50)]
    >>> mine.id in store, len(store)
    (True, 3)
    """

    def __init__(self, max_games: int, *, per_client: int | None = None,
                 per_minute: float | None = None, idle_seconds: float = 600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_games = max_games
        self.per_client = per_client
        self.per_minute = per_minute
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._games: OrderedDict[str, StoredGame] = OrderedDict()       # least recent first
        self._by_client: dict[str, OrderedDict[str, None]] = {}          # the same, per client
        self._tokens: dict[str, tuple[float, float]] = {}                # client: (tokens, at)
        self._lock = threading.Lock()

    # -- creation rate
    def admit(self, client: str) -> None:
        """Count one game creation by ``client`` against :attr:`per_minute`.

        Raises
        ------
        TooManyGames
            when the client has created its share of games for now.
        """
        if self.per_minute is None:
            return
        rate = self.per_minute / 60.0                     # tokens a second
        with self._lock:
            now = self.clock()
            tokens, at = self._tokens.get(client, (self.per_minute, now))
            tokens = min(self.per_minute, tokens + (now - at) * rate)
            if tokens < 1:
                self._tokens[client] = (tokens, now)
                wait = max(1, math.ceil((1 - tokens) / rate))
                raise TooManyGames(f"too many new games from this client (at most "
                                   f"{self.per_minute:g} a minute); try again in {wait} s",
                                   retry_after=wait)
            self._tokens[client] = (tokens - 1, now)
            if len(self._tokens) > 4096:                  # forget clients back to a full share
                full = [c for c, (t, a) in self._tokens.items()
                        if t + (now - a) * rate >= self.per_minute]
                for c in full:
                    del self._tokens[c]

    # -- games
    def add(self, game: Game, seed: int, size: str | None, *, shared: bool = False,
            practice: bool = False, client: str = "") -> StoredGame:
        """Keep ``game`` under a new random id for ``client`` (dropping games as the module
        docstring says) and return its entry.

        Raises
        ------
        StoreFull
            when the store is full and every game in it is in play.
        """
        with self._lock:
            now = self.clock()
            own = self._by_client.get(client)
            if self.per_client is not None and own is not None and len(own) >= self.per_client:
                self._drop(next(iter(own)))
            while len(self._games) >= self.max_games:
                victim = self._victim(now)
                if victim is None:
                    raise StoreFull(f"the server holds {self.max_games} games, all in play; "
                                    f"try again in a minute")
                self._drop(victim)
            game_id = secrets.token_urlsafe(12)
            while game_id in self._games:
                game_id = secrets.token_urlsafe(12)
            entry = StoredGame(game_id, game, seed, size, shared, practice, client=client,
                               used=now)
            self._games[game_id] = entry
            self._by_client.setdefault(client, OrderedDict())[game_id] = None
            return entry

    def _victim(self, now: float) -> str | None:
        """The game a new one replaces in a full store, or ``None`` (all in play)."""
        oldest = next(iter(self._games.values()), None)
        if oldest is None:
            return None
        if now - oldest.used >= self.idle_seconds:
            return oldest.id
        heaviest: tuple[int, float] | None = None
        found = None
        for games in self._by_client.values():
            if len(games) < 2:
                continue
            first = next(iter(games))
            key = (len(games), -self._games[first].used)
            if heaviest is None or key > heaviest:
                heaviest, found = key, first
        return found

    def _drop(self, game_id: str) -> None:
        entry = self._games.pop(game_id)
        own = self._by_client[entry.client]
        del own[game_id]
        if not own:
            del self._by_client[entry.client]

    def get(self, game_id: str) -> StoredGame:
        """The game of ``game_id`` (now its client's most recently used).

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
                                  f"dropped (unused for a while, or its player started many "
                                  f"newer games; GET /api/limits)")
            entry.used = self.clock()
            self._games.move_to_end(game_id)
            self._by_client[entry.client].move_to_end(game_id)
            return entry

    def __contains__(self, game_id: object) -> bool:
        with self._lock:
            return game_id in self._games

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)
