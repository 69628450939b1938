"""Games: ``/api/game``, ``/api/game/{id}``, ``/api/game/{id}/move``, ``/api/game/{id}/solver``,
``/api/game/{id}/undo``, ``/api/game/{id}/replay.evf``.

The game logic is :mod:`minegraph.play` (the game engine, the no-guess game, the autoplayer
and the player's view); this module only carries requests to it. A game's layout comes from
a seed the server draws in secret: the seed is shown once the game is over (it then replays
the game exactly), or at once when the client chose it. The solver plays on a copy of the
game in one of the lanes, and its moves are installed when it answers, so reading a game
while the solver plays sees the position before or after, never half of it.
"""

from __future__ import annotations

import copy
import secrets
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field
from starlette.exceptions import HTTPException

from minegraph.deadline import Deadline, time_limit
from minegraph.errors import BoardError, GameError, LimitError, QueryTimeout, UserError
from minegraph.play.autoplay import STUCK, Autoplay
from minegraph.play.game import Game, Move
from minegraph.play.noguess import NoGuessGame
from minegraph.play.view import player_view
from minegraph.rules import SIZES
from minegraph.web.limits import Limits, client_key
from minegraph.web.positions import _Body
from minegraph.web.store import StoredGame

__all__ = ["router", "GameRequest", "SolverRequest", "MoveRequest", "SEED_RANGE"]

router = APIRouter()

#: Seeds the server draws for games created without one are below this.
SEED_RANGE = 2 ** 53


class GameRequest(_Body):
    """The body of ``POST /api/game``: a size name, or ``rows``, ``cols`` and ``mines``.

    Parameters
    ----------
    size : str, optional
        ``beginner``, ``beginner-8``, ``intermediate`` or ``expert``; ``beginner`` when neither
        it nor ``rows`` and ``cols`` are given.
    rows, cols : int, optional
        The grid's size, overriding the named size's (the cells at most the server's limit).
    mines : int, optional
        The number of mines; needed without a size name.
    topology : str
        ``square`` (default), ``triangle``, ``hex`` or ``torus``.
    rules : str
        ``classic`` (default), ``modern``, ``any``, or ``noguess``: modern rules on a layout
        that the first click makes solvable without a guess.
    seed : int, optional
        The game's seed, to replay a game; omitted: the server draws a secret one.
    practice : bool
        Whether moves may be taken back (``POST /api/game/{id}/undo``).
    """

    size: Literal["beginner", "beginner-8", "intermediate", "expert"] | None = None
    rows: int | None = Field(None, ge=1, le=100_000)
    cols: int | None = Field(None, ge=1, le=100_000)
    mines: int | None = Field(None, ge=0)
    topology: Literal["square", "triangle", "hex", "torus"] = "square"
    rules: Literal["classic", "modern", "any", "noguess"] = Field(
        "classic", description="noguess: modern rules on a layout the first click makes "
                               "solvable without a guess (made at the first click)")
    seed: int | None = Field(None, ge=0, lt=2 ** 63,
                             description="replay the game of this seed (shown once a game "
                                         "is over); omitted: a secret one")
    practice: bool = Field(False, description="moves may be taken back with "
                                              "POST /api/game/{id}/undo")


class SolverRequest(_Body):
    """The body of ``POST /api/game/{id}/solver``.

    Parameters
    ----------
    steps : int, optional
        The decisions to play (1 by default; each uncovers the certain cells or makes one
        guess); ``null``: play to the end of the game.
    policy : str
        The autoplayer's policy: ``strong`` (default) or ``safest``.
    """

    steps: int | None = Field(1, ge=1, le=100_000,
                              description="decisions to play (each uncovers its certain cells "
                                          "or makes one guess); null: to the end of the game")
    policy: Literal["strong", "safest"] = "strong"


class MoveRequest(_Body):
    """The body of ``POST /api/game/{id}/move``.

    Parameters
    ----------
    action : str
        ``reveal`` (uncover), ``flag`` (put a flag on a covered cell, or take it off) or
        ``chord``.
    cell : list of int or int
        The cell: ``[row, col]`` (0-based) or its index.
    """

    action: Literal["reveal", "flag", "chord"]
    cell: list[int] | int


def game_json(entry: StoredGame) -> dict[str, Any]:
    """What the player sees of a stored game (the seed only when it may be shown), with
    ``seconds``: the game's time so far (:func:`~minegraph.play.record.game_seconds`, the
    time its replay records), and ``seed_chosen``: whether the client chose the seed, so
    may know the layout."""
    from minegraph.play.record import game_seconds
    game = entry.game
    show = entry.shared or game.status != "playing"
    return {"id": entry.id, "size": entry.size, "practice": entry.practice,
            "seed_chosen": entry.shared, "seconds": game_seconds(game),
            **player_view(game, seed=entry.seed if show else None)}


def _new_game(body: GameRequest, limits: Limits) -> tuple[Game, int]:
    size = body.size if body.size is not None or (body.rows, body.cols) != (None, None) else "beginner"
    base = SIZES[size] if size is not None else (None, None, None)
    rows = body.rows if body.rows is not None else base[0]
    cols = body.cols if body.cols is not None else base[1]
    if rows is None or cols is None or (body.mines is None and size is None):
        raise UserError("a new game needs a size (beginner, beginner-8, intermediate, expert) "
                        "or rows, cols and mines")
    if rows * cols > limits.max_game_cells:
        raise LimitError(f"a game of {rows}x{cols} = {rows * cols} cells exceeds the limit of "
                         f"{limits.max_game_cells} cells (GET /api/limits)")
    seed = body.seed if body.seed is not None else secrets.randbelow(SEED_RANGE)
    if body.rules == "noguess":
        game: Game = NoGuessGame(size, rows=body.rows, cols=body.cols, mines=body.mines,
                                 topology=body.topology, seed=seed)
    else:
        game = Game(size, rows=body.rows, cols=body.cols, mines=body.mines,
                    topology=body.topology, rules=body.rules, seed=seed)
    return game, seed


def _solve(game: Game, steps: int | None, policy_name: str,
           deadline: Deadline) -> tuple[dict[str, Any], Game]:
    """Play ``steps`` decisions of the policy (or to the end) on ``game`` (a copy) through the
    library's one solver loop (:class:`~minegraph.play.autoplay.Autoplay`: a player's flag on
    a cell it uncovers comes off first); what was played and the game after. Stops early,
    keeping the moves made, when the deadline passes."""
    from minegraph.play.policies import get_policy
    auto = Autoplay(game, get_policy(policy_name), steps)
    try:
        with time_limit(deadline, "solver"):
            auto.run()
    except QueryTimeout:
        auto.stopped = f"time limit of {deadline.seconds:g} s"
    cols = game.cols or 1

    def cells(action: str) -> list[list[int]]:
        return [list(divmod(m.cell, cols)) for m in auto.moves if m.action == action]
    return {"policy": policy_name, "decisions": auto.decisions, "guesses": auto.guesses,
            "moves": cells("reveal"), "unflagged": cells("flag"), "stopped": auto.stopped}, game


def _layout(game: NoGuessGame, first: int, deadline: Deadline) -> frozenset[int]:
    return game.layout_for(first, deadline)


def _claim(entry: StoredGame) -> None:
    if not entry.busy.acquire(blocking=False):
        raise HTTPException(409, "the solver is playing this game; wait for its answer")


@router.post("/api/game", summary="Start a game", status_code=201)
async def post_game(body: GameRequest, request: Request) -> JSONResponse:
    store = request.app.state.games
    client = client_key(request.client.host if request.client is not None else None)
    store.admit(client)                 # the creation rate first: a game costs work to make
    game, seed = _new_game(body, request.app.state.limits)
    entry = store.add(game, seed, body.size, shared=body.seed is not None,
                      practice=body.practice, client=client)
    return JSONResponse(game_json(entry), status_code=201)


@router.get("/api/game/{game_id}", summary="A game as the player sees it")
async def get_game(game_id: str, request: Request) -> JSONResponse:
    return JSONResponse(game_json(request.app.state.games.get(game_id)))


@router.post("/api/game/{game_id}/solver",
             summary="Let the solver play some decisions, or to the end")
async def post_solver(game_id: str, body: SolverRequest, request: Request) -> JSONResponse:
    limits: Limits = request.app.state.limits
    runner = request.app.state.runner
    entry = request.app.state.games.get(game_id)
    if not entry.busy.acquire(blocking=False):
        raise HTTPException(409, "the solver is already playing this game")
    try:
        heavy = entry.game.size > limits.small_cells
        async with runner.request(request, limits.analyze_seconds, "solver") as deadline:
            report: dict[str, Any] | None = None
            game = copy.deepcopy(entry.game)
            if not heavy:
                # The solver catches its own time-out: it always answers, maybe stopped.
                _, (report, game) = await runner.small(_solve, (game, body.steps, body.policy),
                                                       deadline)
            if report is None or (report["stopped"] not in (None, STUCK) and not deadline.expired()):
                # Outgrew the small lane (or big from the start): the rest in a process (a
                # policy stuck on its decision would be stuck there too).
                done = report["decisions"] if report is not None else 0
                steps = None if body.steps is None else body.steps - done
                more, game = await runner.big(_solve, (game, steps, body.policy), deadline)
                if report is not None:
                    more = {**more, "decisions": done + more["decisions"],
                            "guesses": report["guesses"] + more["guesses"],
                            "moves": report["moves"] + more["moves"],
                            "unflagged": report["unflagged"] + more["unflagged"]}
                report = more
        entry.game = game
    finally:
        entry.busy.release()
    obj = game_json(entry)
    obj["solver"] = report
    return JSONResponse(obj)


@router.post("/api/game/{game_id}/move", summary="Uncover, flag (toggle) or chord a cell")
async def post_move(game_id: str, body: MoveRequest, request: Request) -> JSONResponse:
    limits: Limits = request.app.state.limits
    runner = request.app.state.runner
    entry = request.app.state.games.get(game_id)
    if entry.busy.locked():
        raise HTTPException(409, "the solver is playing this game; wait for its answer")
    game = entry.game
    if isinstance(body.cell, list) and len(body.cell) != 2:
        raise BoardError(f"cell {body.cell}: expected [row, col] (0-based)")
    cell = game.index(tuple(body.cell) if isinstance(body.cell, list) else body.cell)
    most = limits.moves_per_cell * game.size + 100
    if len(game.moves) >= most and game.status == "playing":
        raise GameError(f"this game has reached its limit of {most} moves (GET /api/limits)")
    # A no-guess layout is drawn around the first cell uncovered: only a reveal the game
    # accepts may draw it (a chord, or a reveal of a flagged cell, is refused below and must
    # leave the layout to the real first click).
    if isinstance(game, NoGuessGame) and game.layout is None and body.action == "reveal" \
            and game.is_legal(Move("reveal", cell)):
        _claim(entry)
        try:
            async with runner.request(request, limits.analyze_seconds,
                                      "no-guess layout") as deadline:
                layout = await runner.run(_layout, (game, cell), deadline,
                                          heavy=game.size > limits.small_cells)
            if game.layout is None:
                game.place(layout)
        finally:
            entry.busy.release()
    if body.action == "flag":
        game.flag(cell)
        uncovered: list[int] = []
    elif body.action == "reveal":
        uncovered = game.reveal(cell)
    else:
        uncovered = game.chord(cell)
    cols = game.cols or 1
    obj = game_json(entry)
    obj["uncovered"] = [list(divmod(c, cols)) for c in uncovered]
    return JSONResponse(obj)


@router.post("/api/game/{game_id}/undo", summary="Take back the last move (practice games)")
async def post_undo(game_id: str, request: Request) -> JSONResponse:
    entry = request.app.state.games.get(game_id)
    if not entry.practice:
        raise GameError("only a practice game takes moves back (create it with "
                        "\"practice\": true)")
    if entry.busy.locked():
        raise HTTPException(409, "the solver is playing this game; wait for its answer")
    move = entry.game.pop()
    cols = entry.game.cols or 1
    obj = game_json(entry)
    obj["undone"] = {"action": move.action, "cell": list(divmod(move.cell, cols))}
    return JSONResponse(obj)


@router.get("/api/game/{game_id}/replay.evf", summary="The replay of a finished game (.evf)",
            response_class=Response,
            responses={200: {"content": {"application/octet-stream": {}},
                             "description": "the .evf replay file"},
                       409: {"description": "the game is not over"}})
async def get_replay(game_id: str, request: Request) -> Response:
    """The game as an ``.evf`` replay (:func:`minegraph.play.record.evf_bytes`), once it is
    won or lost: the replay holds the layout, which stays secret while the game is played."""
    from minegraph.play.record import evf_bytes, replay_name
    entry = request.app.state.games.get(game_id)
    game = entry.game
    if game.status == "playing":
        raise HTTPException(409, "the game is not over: its replay holds the layout, so it is "
                                 "given once the game is won or lost")
    data = evf_bytes(game)
    return Response(data, media_type="application/octet-stream",
                    headers={"Content-Disposition": f'attachment; filename="{replay_name(game)}"'})
