"""Games played for the replay tests (tests/play/test_review.py, test_record.py): a simple
player that mixes safe clicks, flags, chords and guesses, and the same moves stepped through
ms_toollib's own ``BaseVideo``, its writer of .evf files."""

from __future__ import annotations

import random

from minegraph.analysis import analyze
from minegraph.play.game import Game, Move

#: The cell size of the replays written through ms_toollib.
PIX = 16


def play(game: Game, rng: random.Random, *, flags: bool = True, chords: bool = True,
         guess_rate: float = 0.0) -> Game:
    """Play ``game`` to its end: mostly safe cells, sometimes a flag, a chord or a guess."""
    if game.layout is None:
        game.reveal(rng.randrange(game.size))
    while game.status == "playing":
        a = analyze(game.board())
        mines = [game.index(m) for m in a.mines if game.index(m) not in game.flags]
        if flags and mines and rng.random() < 0.3:
            game.flag(mines[0])
            continue
        chordable = [c for c in sorted(game.uncovered) if game.is_legal(Move("chord", c))]
        if chords and chordable and rng.random() < 0.4:
            game.chord(rng.choice(chordable))
            continue
        covered = [c for c in range(game.size) if c not in game.uncovered and c not in game.flags]
        safe = [game.index(s) for s in a.safe if game.index(s) not in game.flags]
        if safe and rng.random() >= guess_rate:
            game.reveal(rng.choice(safe))
        else:
            game.reveal(rng.choice([c for c in covered if game.index(c) not in mines] or covered))
    return game


def toollib_replay(game: Game) -> bytes:
    """``game``'s moves stepped through ms_toollib's own ``BaseVideo`` (its writer: the
    independent reference), as .evf bytes."""
    assert game.layout is not None and game.cols is not None and game.rows is not None
    grid = [[-1 if r * game.cols + c in game.layout else game.number(r * game.cols + c)
             for c in range(game.cols)] for r in range(game.rows)]
    import ms_toollib
    video = ms_toollib.BaseVideo(grid, PIX)
    for move in game.moves:
        r, c = divmod(move.cell, game.cols)
        pos = (r * PIX + PIX // 2, c * PIX + PIX // 2)
        steps = {"reveal": ["lc", "lr"], "flag": ["rc", "rr"],
                 "chord": ["lc", "rc", "lr", "rr"]}[move.action]
        for step in steps:
            video.step(step, pos)
    video.generate_evf_v4_raw_data()
    return bytes(video.raw_data)


def play_to_a_fatal_chord(game: Game, rng: random.Random, tries: int = 200) -> Game | None:
    """Play ``game`` with safe clicks until, now and then, a chord on a number whose covered
    neighbours hold a mine and enough safe cells: flag safe cells wrongly to satisfy the number,
    then chord, so the chord uncovers safe cells and hits the mine. The game, lost by that
    chord; ``None`` if it ended or stalled first."""
    if game.layout is None:
        game.reveal(rng.randrange(game.size))
    assert game.layout is not None
    for _ in range(tries):
        if game.status != "playing":
            return None
        candidates = []
        for c in sorted(game.uncovered):
            n = game.number(c)
            covered = [q for q in game.neighbors[c] if q not in game.uncovered]
            safe = [q for q in covered if q not in game.layout]
            if (n and len(safe) >= n and len(covered) > n and any(q in game.layout for q in covered)
                    and not any(q in game.flags for q in covered)):
                candidates.append((c, safe))
        if candidates and rng.random() < 0.3:
            c, safe = rng.choice(candidates)
            for q in rng.sample(safe, game.number(c)):
                game.flag(q)
            if not game.is_legal(Move("chord", c)):
                return None
            game.chord(c)
            return game
        a = analyze(game.board())
        safe_now = [game.index(s) for s in a.safe]
        covered_now = [q for q in range(game.size) if q not in game.uncovered and q not in game.flags]
        game.reveal(rng.choice(safe_now) if safe_now else rng.choice(covered_now))
    return None
