"""The FastAPI app: the JSON API (docs/web.md) and the static page.

Endpoints:

- ``POST /api/analyze``: ``{"board": TEXT, "format"?, "dialect"?, "mines"?, "timeout"?}`` ->
  the object of ``minegraph analyze --json`` (:meth:`~minegraph.analysis.Analysis.to_json`);
- ``POST /api/explain``: ``{"board": TEXT, "cell"?: [r, c], ...}`` -> the object of
  ``minegraph explain --json`` (:meth:`~minegraph.explain.Explanation.to_json`);
- ``GET /api/limits``: the :class:`~minegraph.web.limits.Limits` in force;
- ``POST /api/game``, ``GET /api/game/{id}``, ``POST /api/game/{id}/move``: games held in a
  bounded :class:`~minegraph.web.store.GameStore`;
- ``POST /api/structure`` and ``POST /api/generate``: the decomposition of a position, and
  puzzles to print (docs/web.md);
- ``POST /api/game/{id}/solver``: ``{"steps"?: N | null, "policy"?: "strong" | "safest"}``
  lets the autoplayer (:mod:`minegraph.play.policies`) play some decisions or to the end;
- ``GET /``: the page (``static/index.html``), its files under ``/static/``.

Every error answers ``{"error": MESSAGE}``: 413 for a body or board beyond the limits, 404
for an unknown game (or path), 422 for any other mistake (a :class:`~minegraph.errors.FormatError`
names its line and column) and for an analysis that ran out of time. Analyses and explanations
run in worker threads (at most :attr:`Limits.workers` at once), each under a
:class:`~minegraph.deadline.Deadline`, so the event loop keeps answering; a request whose
client goes away has its deadline cancelled. Requests whose board text is longer than
:attr:`Limits.big_request_bytes` run in a separate worker process instead (the *big lane*, at
most :attr:`Limits.big_workers` at once), so long analyses of big positions do not take the
interpreter lock from the small ones. No endpoint reads or writes files: boards come as
text in the request, games live in memory.
"""

from __future__ import annotations

import asyncio
import atexit
import multiprocessing
import secrets
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable, Literal, TypeVar, cast

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from minegraph.board import Board, Cell
from minegraph.deadline import Deadline
from minegraph.errors import BoardError, LimitError, MinegraphError, UserError
from minegraph.present import shown
from minegraph.formats import read_board
from minegraph.play.game import Game
from minegraph.web.limits import Limits
from minegraph.web.store import GameStore, StoredGame, UnknownGame

__all__ = ["create_app", "STATIC", "AnalyzeRequest", "ExplainRequest", "GameRequest", "MoveRequest",
           "SolverRequest", "StructureRequest", "GenerateRequest"]

#: The page's files, served under ``/static/`` (and ``/`` for ``index.html``).
STATIC = Path(__file__).resolve().parent / "static"

#: Seeds drawn for games created without one are below this (shown, so games are shareable).
SEED_RANGE = 2 ** 53

T = TypeVar("T")


# --------------------------------------------------------------------------- request bodies
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class AnalyzeRequest(_Body):
    """The body of ``POST /api/analyze``."""

    board: str = Field(description="the position as text, in any supported format (docs/formats.md)")
    format: str | None = Field(None, description="the format's name; detected when omitted")
    dialect: str | None = Field(None, description="text and JSON formats: standard, ascii or dots")
    mines: int | None = Field(None, ge=0, description="the total mine count (overrides the board's)")
    timeout: float | None = Field(None, gt=0, description="seconds, at most the server's limit")


class ExplainRequest(AnalyzeRequest):
    """The body of ``POST /api/explain``."""

    cell: list[int] | int | str | None = Field(
        None, description="[row, col] on grids, an index on graph boards, a node label on "
                          "labelled boards; omitted: why the board is inconsistent")


class StructureRequest(AnalyzeRequest):
    """The body of ``POST /api/structure``."""

    propagate: bool = Field(False, description="first take out the cells trivial propagation "
                                               "decides")


class GenerateRequest(_Body):
    """The body of ``POST /api/generate``."""

    kind: Literal["paper", "unique", "noguess"] = Field(
        description="paper: a certified table of German & Lakshtanov; unique: one solution "
                    "and a minimal set of numbers; noguess: a position solvable without a guess")
    rows: int = Field(ge=1, le=1000)
    cols: int = Field(ge=1, le=1000)
    mines: int | None = Field(None, ge=0, description="unique and noguess")
    theorem: Literal[1, 2, 3] = Field(1, description="paper: the theorem (3: triangle grid)")
    topology: Literal["square", "triangle", "hex", "torus"] = "square"
    rules: Literal["classic", "modern"] = Field("modern", description="noguess")
    seed: int = Field(0, ge=0, lt=2 ** 63)


class GameRequest(_Body):
    """The body of ``POST /api/game``: a size name, or ``rows``, ``cols`` and ``mines``."""

    size: Literal["beginner", "beginner-8", "intermediate", "expert"] | None = None
    rows: int | None = Field(None, ge=1, le=100_000)
    cols: int | None = Field(None, ge=1, le=100_000)
    mines: int | None = Field(None, ge=0)
    topology: Literal["square", "triangle", "hex", "torus"] = "square"
    rules: Literal["classic", "modern", "any", "noguess"] = Field(
        "classic", description="noguess: modern rules on a layout the first click makes "
                               "solvable without a guess (made at the first click)")
    seed: int | None = Field(None, ge=0, lt=2 ** 63)


class SolverRequest(_Body):
    """The body of ``POST /api/game/{id}/solver``."""

    steps: int | None = Field(1, ge=1, le=100_000,
                              description="decisions to play (each uncovers its certain cells "
                                          "or makes one guess); null: to the end of the game")
    policy: Literal["strong", "safest"] = "strong"


class MoveRequest(_Body):
    """The body of ``POST /api/game/{id}/move``."""

    action: Literal["reveal", "flag", "chord"]
    cell: list[int] | int


# --------------------------------------------------------------------------- body limit
class BodyLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` with 413: at once when the
    ``Content-Length`` says so, else (a chunked body) as soon as the bytes received pass it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _message(self) -> str:
        return f"the request body exceeds the limit of {self.max_bytes} bytes (GET /api/limits)"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            response = JSONResponse({"error": self._message()}, status_code=413)
            await response(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise HTTPException(413, self._message())
            return message

        await self.app(scope, limited, send)


# --------------------------------------------------------------------------- the work
def _read(body: AnalyzeRequest, limits: Limits) -> Board:
    """The board of a request, within the size limit, with its total mine count."""
    board = read_board(body.board, body.format, dialect=body.dialect)
    if board.size > limits.max_cells:
        raise LimitError(f"a board of {board.size} cells exceeds the limit of {limits.max_cells} "
                         f"cells (GET /api/limits)")
    if body.mines is not None:
        board = board.with_states(board.states, body.mines)
    return board


def _cell(value: list[int] | int | str | None, board: Board) -> Cell | None:
    """The cell a request names, checked against ``board``."""
    if value is None:
        return None
    if isinstance(value, list) and len(value) != 2:
        raise BoardError(f"cell {shown(value)}: expected [row, col] (0-based) or a cell number")
    # The board's own reading (labels included); a BoardError outside it.
    return board.cell(board.index(cast(Any, value)))


def _analyze(body: AnalyzeRequest, limits: Limits, deadline: Deadline) -> dict[str, Any]:
    from minegraph.analysis import analyze
    board = _read(body, limits)
    return analyze(board, timeout=deadline).to_json()


def _explain(body: ExplainRequest, limits: Limits, deadline: Deadline) -> dict[str, Any]:
    from minegraph.explain import explain
    board = _read(body, limits)
    return explain(board, _cell(body.cell, board), timeout=deadline).to_json()


def _big_job(kind: str, body: dict[str, Any], limits: Limits, seconds: float,
             left: float) -> tuple[int, dict[str, Any]]:
    """One analysis or explanation in the big lane's process, with ``left`` of its ``seconds``
    still to go: ``(status, object)`` (errors as ``{"error": message}``, so nothing but plain
    data crosses the process boundary)."""
    try:
        deadline = Deadline(seconds)
        deadline.expires = time.monotonic() + left     # the wait for a process counted
        request = _POSITION_REQUESTS[kind].model_validate(body)
        return 200, _POSITION_WORK[kind](request, limits, deadline)
    except MinegraphError as exc:
        return _status(exc), {"error": str(exc)}


#: The big lane's processes, one pool per size, shared by every app of this process and
#: started on first use (forkserver: the server's threads are not copied).
_BIG_POOLS: dict[int, ProcessPoolExecutor] = {}


def _big_pool(workers: int) -> ProcessPoolExecutor:
    pool = _BIG_POOLS.get(workers)
    if pool is None:
        context = multiprocessing.get_context("forkserver")
        pool = _BIG_POOLS[workers] = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        atexit.register(pool.shutdown, wait=False, cancel_futures=True)
    return pool


def _structure(body: StructureRequest, limits: Limits, deadline: Deadline) -> dict[str, Any]:
    """The thesis's decomposition pipeline on the board: its classification, verdict, summary
    and picture (:mod:`minegraph.decompose`)."""
    from minegraph.deadline import time_limit
    from minegraph.decompose import classify
    from minegraph.decompose.picture import decomposition_svg, verdict
    board = _read(body, limits)
    with time_limit(deadline, "structure"):
        found = classify(board, propagate=body.propagate)
        picture = decomposition_svg(found)
    return {**found.to_json(), "verdict": verdict(found), "summary": found.summary(),
            "svg": picture}


def _generate(body: GenerateRequest, limits: Limits, deadline: Deadline) -> dict[str, Any]:
    """A puzzle of ``body.kind`` and its answer key, as board text and printable SVG."""
    from minegraph.deadline import time_limit
    from minegraph.generate.paper import completed
    from minegraph.generate.sheet import puzzle_svg, solution_svg
    if body.rows * body.cols > limits.max_cells:
        raise LimitError(f"a puzzle of {body.rows}x{body.cols} cells exceeds the limit of "
                         f"{limits.max_cells} cells (GET /api/limits)")
    if body.kind != "paper" and body.mines is None:
        raise UserError(f"a {body.kind} puzzle needs \"mines\"")
    with time_limit(deadline, "puzzle"):
        if body.kind == "paper":
            from minegraph.generate.paper import paper_table
            table = paper_table(body.theorem, body.rows, body.cols, seed=body.seed)
            puzzle, layout = table.puzzle, table.layout
            caption = (f"Theorem {body.theorem} table, {body.rows}x{body.cols}, seed "
                       f"{body.seed}: one solution, certified by rank")
        elif body.kind == "unique":
            from minegraph.generate.unique import unique_puzzle
            assert body.mines is not None
            made = unique_puzzle(body.rows, body.cols, body.mines, seed=body.seed,
                                 topology=body.topology)
            puzzle, layout = made.puzzle, made.layout
            caption = (f"{body.rows}x{body.cols}, {body.mines} mines, seed {body.seed}: one "
                       f"solution, no number can be left out")
        else:
            from minegraph.generate.noguess import noguess_board
            assert body.mines is not None
            first = (body.rows // 2, body.cols // 2)
            board = noguess_board(body.rows, body.cols, body.mines, first=first,
                                  rules=body.rules, seed=body.seed, topology=body.topology)
            puzzle, layout = board.start, board.layout
            caption = (f"{body.rows}x{body.cols}, {body.mines} mines, seed {body.seed}: "
                       f"solvable from here without a guess")
    answer = completed(puzzle, layout)
    return {"kind": body.kind, "caption": caption, "puzzle": puzzle.to_text(),
            "answer": answer.to_text(), "puzzle_svg": puzzle_svg(puzzle, caption=caption),
            "answer_svg": solution_svg(puzzle, layout, caption="answer key: " + caption)}


#: The questions on a position, by name: the request body's class and the work done.
_POSITION_REQUESTS: dict[str, type[AnalyzeRequest]] = {
    "analyze": AnalyzeRequest, "explain": ExplainRequest, "structure": StructureRequest}
_POSITION_WORK: dict[str, Callable[[Any, Limits, Deadline], dict[str, Any]]] = {
    "analyze": _analyze, "explain": _explain, "structure": _structure}


def _seconds(asked: float | None, most: float) -> float:
    if asked is None:
        return most
    if asked > most:
        raise LimitError(f"a timeout of {asked:g} s exceeds the limit of {most:g} s (GET /api/limits)")
    return asked


# --------------------------------------------------------------------------- games
def _game_json(entry: StoredGame) -> dict[str, Any]:
    """What the player sees of a game, and how to share it."""
    game = entry.game
    assert game.rows is not None and game.cols is not None
    cols = game.cols
    board = game.board()
    states = board.states
    over = game.status != "playing"

    def ref(index: int) -> list[int]:
        return list(divmod(index, cols))

    return {"id": entry.id, "size": entry.size, "rows": game.rows, "cols": cols,
            "topology": game.topology, "mines": game.mine_count,
            "rules": getattr(game, "rules_label", game.rules),
            "seed": entry.seed, "status": game.status, "moves": len(game.moves),
            "states": [list(states[r * cols:(r + 1) * cols]) for r in range(game.rows)],
            "flags": [ref(c) for c in sorted(game.flags)],
            "exploded": None if game.exploded is None else ref(game.exploded),
            "mines_at": [ref(c) for c in sorted(game.layout)] if over and game.layout is not None else None,
            "board": board.to_text()}


def _solve(entry: StoredGame, body: SolverRequest, deadline: Deadline) -> dict[str, Any]:
    """Play ``body.steps`` decisions of the policy (or to the end) on the stored game; what
    was played. Stops early, keeping the moves made, when the deadline passes."""
    from minegraph.deadline import time_limit
    from minegraph.errors import QueryTimeout
    from minegraph.play.policies import apply, get_policy
    game = entry.game
    policy = get_policy(body.policy)
    cols = game.cols or 1
    played: list[list[int]] = []
    decisions = guesses = 0
    stopped = None
    try:
        with time_limit(deadline, "solver"):
            while game.status == "playing" and (body.steps is None or decisions < body.steps):
                decision = policy.decide(game)
                decisions += 1
                guesses += decision.guess
                played.extend(list(divmod(move.cell, cols)) for move in apply(game, decision))
    except QueryTimeout:
        stopped = f"time limit of {deadline.seconds:g} s"
    return {"policy": body.policy, "decisions": decisions, "guesses": guesses,
            "moves": played, "stopped": stopped}


class NoGuessGame(Game):
    """A game under modern rules whose layout, drawn at the first click, is solved from that
    click without a guess (:func:`~minegraph.generate.noguess.noguess_board`, same seed)."""

    rules_label = "noguess"

    def __init__(self, size: str | None, *, seed: int, **options: Any) -> None:
        super().__init__(size, rules="modern", seed=seed, **options)
        self.seed = seed

    def prepare(self, first: int, deadline: Deadline) -> None:
        """Draw the layout for the first click ``first`` (off the event loop: it may take a
        while on a dense board), within ``deadline``."""
        from minegraph.deadline import time_limit
        from minegraph.generate.noguess import noguess_board
        if self.layout is not None:
            return
        assert self.rows is not None and self.cols is not None
        with time_limit(deadline, "no-guess layout"):
            made = noguess_board(self.rows, self.cols, self.mine_count, first=first,
                                 rules="modern", seed=self.seed, topology=self.topology)
        self.layout = made.layout

    def _place_for(self, first: int) -> None:
        if self.layout is None:
            self.prepare(first, Deadline(60.0))


def _new_game(body: GameRequest, limits: Limits) -> tuple[Game, int]:
    from minegraph.play.game import SIZES
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


# --------------------------------------------------------------------------- the app
def _status(error: MinegraphError) -> int:
    if isinstance(error, LimitError):
        return 413
    if isinstance(error, UnknownGame):
        return 404
    return 422


def _validation_message(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        loc = tuple(item.get("loc", ()))
        where = ".".join(str(x) for x in loc)
        if item.get("type") == "json_invalid" and len(loc) == 2:
            where = f"body (invalid JSON at character {loc[1]})"
        text = str(item.get("msg", "invalid"))
        detail = (item.get("ctx") or {}).get("error")
        if detail is not None and str(detail) not in text:
            text += f": {detail}"
        parts.append(f"{where}: {text}" if where else text)
    return "; ".join(parts) or "invalid request"


def create_app(limits: Limits | None = None) -> FastAPI:
    """The web app with ``limits`` (default: :class:`~minegraph.web.limits.Limits` ()).

    Each app has its own game store and worker limit; nothing is shared between apps.

    Examples
    --------
    >>> app = create_app(Limits(max_games=5))
    >>> app.state.limits.max_games, app.state.games.max_games
    (5, 5)
    """
    from minegraph.version import __version__
    limits = limits if limits is not None else Limits()
    if not isinstance(limits, Limits):
        raise UserError(f"expected Limits, got {type(limits).__name__}")
    app = FastAPI(title="minegraph", version=__version__,
                  description="Exact Minesweeper reasoning: analyse and explain positions, play "
                              "games. Errors answer {\"error\": message} with a 4xx status; the "
                              "limits are at GET /api/limits (docs/web.md).")
    app.state.limits = limits
    app.state.games = GameStore(limits.max_games)
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    limiters: dict[tuple[int, str], anyio.CapacityLimiter] = {}

    def limiter(lane: str = "small") -> anyio.CapacityLimiter:
        # One per event loop and lane: a limiter belongs to the loop that first uses it.
        key = (id(asyncio.get_running_loop()), lane)
        found = limiters.get(key)
        if found is None:
            if not any(k[0] == key[0] for k in limiters):
                limiters.clear()
            size = limits.workers if lane == "small" else limits.big_workers
            found = limiters[key] = anyio.CapacityLimiter(size)
        return found

    async def in_big_lane(kind: str, body: AnalyzeRequest, seconds: float) -> JSONResponse:
        """A big request in the big lane's process; its wait for a process counts against
        its time limit."""
        start = time.monotonic()
        async with limiter("big"):
            left = seconds - (time.monotonic() - start)
            if left <= 0:
                from minegraph.errors import QueryTimeout
                raise QueryTimeout(kind if kind == "explain" else "consistency", seconds)
            loop = asyncio.get_running_loop()
            status, obj = await loop.run_in_executor(
                _big_pool(limits.big_workers), _big_job, kind, body.model_dump(), limits,
                seconds, left)
        return JSONResponse(obj, status_code=status)

    async def bounded(request: Request, seconds: float, work: Callable[[Deadline], T]) -> T:
        """``work(deadline)`` in a worker thread, the deadline cancelled if the client goes."""
        deadline = Deadline(seconds)
        outcome: list[T] = []
        failure: list[Exception] = []

        async def watch() -> None:
            while not deadline.expired():
                if await request.is_disconnected():
                    deadline.cancel()
                    return
                await anyio.sleep(0.2)

        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            try:
                outcome.append(await anyio.to_thread.run_sync(work, deadline, limiter=limiter()))
            except Exception as exc:  # re-raised below, outside the task group
                failure.append(exc)
            group.cancel_scope.cancel()
        if failure:
            raise failure[0]
        return outcome[0]

    @app.exception_handler(MinegraphError)
    async def minegraph_error(request: Request, exc: MinegraphError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=_status(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_message(exc)}, status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.get("/api/limits", summary="The limits in force")
    async def get_limits() -> dict[str, Any]:
        return limits.to_json()

    async def position_answer(kind: str, body: AnalyzeRequest, request: Request,
                              most: float) -> JSONResponse:
        """A question on a position (:data:`_POSITION_WORK`): in a worker thread, or in the
        big lane for a big board."""
        seconds = _seconds(body.timeout, most)
        if len(body.board) > limits.big_request_bytes:
            return await in_big_lane(kind, body, seconds)
        work = _POSITION_WORK[kind]
        obj = await bounded(request, seconds, lambda d: work(body, limits, d))
        return JSONResponse(obj)

    @app.post("/api/analyze", summary="Analyse a position (the object of minegraph analyze --json)")
    async def post_analyze(body: AnalyzeRequest, request: Request) -> JSONResponse:
        return await position_answer("analyze", body, request, limits.analyze_seconds)

    @app.post("/api/explain", summary="Why a cell is certainly safe or a mine "
                                      "(the object of minegraph explain --json)")
    async def post_explain(body: ExplainRequest, request: Request) -> JSONResponse:
        return await position_answer("explain", body, request, limits.explain_seconds)

    @app.post("/api/structure", summary="The thesis's decomposition and classification of a "
                                        "position, with its picture (SVG)")
    async def post_structure(body: StructureRequest, request: Request) -> JSONResponse:
        return await position_answer("structure", body, request, limits.analyze_seconds)

    @app.post("/api/generate", summary="A puzzle to print and its answer key (text and SVG)")
    async def post_generate(body: GenerateRequest, request: Request) -> JSONResponse:
        obj = await bounded(request, limits.analyze_seconds,
                            lambda d: _generate(body, limits, d))
        return JSONResponse(obj)

    @app.post("/api/game", summary="Start a game", status_code=201)
    async def post_game(body: GameRequest) -> JSONResponse:
        game, seed = _new_game(body, limits)
        entry = app.state.games.add(game, seed, body.size)
        return JSONResponse(_game_json(entry), status_code=201)

    @app.get("/api/game/{game_id}", summary="A game as the player sees it")
    async def get_game(game_id: str) -> JSONResponse:
        return JSONResponse(_game_json(app.state.games.get(game_id)))

    @app.post("/api/game/{game_id}/solver",
              summary="Let the solver play some decisions, or to the end")
    async def post_solver(game_id: str, body: SolverRequest, request: Request) -> JSONResponse:
        entry = app.state.games.get(game_id)
        if not entry.busy.acquire(blocking=False):
            raise HTTPException(409, "the solver is already playing this game")
        try:
            report = await bounded(request, limits.analyze_seconds,
                                   lambda d: _solve(entry, body, d))
        finally:
            entry.busy.release()
        obj = _game_json(entry)
        obj["solver"] = report
        return JSONResponse(obj)

    @app.post("/api/game/{game_id}/move", summary="Uncover, flag (toggle) or chord a cell")
    async def post_move(game_id: str, body: MoveRequest, request: Request) -> JSONResponse:
        entry = app.state.games.get(game_id)
        if entry.busy.locked():
            raise HTTPException(409, "the solver is playing this game; wait for its answer")
        game = entry.game
        cell = tuple(body.cell) if isinstance(body.cell, list) else body.cell
        if isinstance(body.cell, list) and len(body.cell) != 2:
            raise BoardError(f"cell {body.cell}: expected [row, col] (0-based)")
        if isinstance(game, NoGuessGame) and game.layout is None and body.action != "flag":
            first = game.index(cell)  # type: ignore[arg-type]
            if not entry.busy.acquire(blocking=False):
                raise HTTPException(409, "the solver is playing this game; wait for its answer")
            try:
                await bounded(request, limits.analyze_seconds,
                              lambda d: game.prepare(first, d))
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
        obj = _game_json(entry)
        obj["uncovered"] = [list(divmod(c, cols)) for c in uncovered]
        return JSONResponse(obj)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
