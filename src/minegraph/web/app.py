"""The FastAPI app: the JSON API (docs/web.md) and the static page.

Endpoints (the routers of :mod:`minegraph.web.positions` and :mod:`minegraph.web.games`):

- ``POST /api/analyze``: ``{"board": TEXT, "format"?, "dialect"?, "mines"?, "timeout"?}`` ->
  the object of ``minegraph analyze --json`` (:meth:`~minegraph.analysis.Analysis.to_json`);
- ``POST /api/explain``: ``{"board": TEXT, "cell"?: [r, c], ...}`` -> the object of
  ``minegraph explain --json`` (:meth:`~minegraph.explain.Explanation.to_json`);
- ``POST /api/structure`` and ``POST /api/generate``: the decomposition of a position, and
  puzzles to print (docs/web.md);
- ``GET /api/limits``: the :class:`~minegraph.web.limits.Limits` in force;
- ``POST /api/game``, ``GET /api/game/{id}``, ``POST /api/game/{id}/move``: games held in a
  bounded :class:`~minegraph.web.store.GameStore`, created at a bounded rate per client;
- ``POST /api/game/{id}/solver``: ``{"steps"?: N | null, "policy"?: "strong" | "safest"}``
  lets the autoplayer (:mod:`minegraph.play.policies`) play some decisions or to the end;
- ``GET /api/game/{id}/replay.evf``: a finished game's replay; ``POST /api/review?name=FILE``
  (the body a replay file): its review (:mod:`minegraph.web.reviews`, docs/review.md);
- ``GET /``: the page (``static/index.html``), its files under ``/static/``.

Every error answers ``{"error": MESSAGE}`` (but 400, for a request the server cannot read as
HTTP, answered in plain text before the app): 413 for a body
or board beyond the limits (or work past its memory), 415 for a body of the wrong type
(:class:`ContentTypes`), 404 for an unknown game (or path), 409 for a game the solver is
playing, 429 for a client with too many requests under way or creating games too fast, and
503 for a full queue or a store full of games in play (all with ``Retry-After``), 422 for
any other mistake (a body that is not JSON; a :class:`~minegraph.errors.FormatError` names
its line and column) and for work that ran out of time. Every answer carries the browser headers of
:class:`SecurityHeaders`; :class:`HostCheck` (421) guards the app under ``minegraph serve``. The work runs off the event
loop in the lanes of :mod:`minegraph.web.lanes`, each request under a
:class:`~minegraph.deadline.Deadline` cancelled if its client goes away. No endpoint reads
or writes files: boards come as text in the request, games live in memory.
"""

from __future__ import annotations

import atexit
import weakref
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from minegraph.errors import MinegraphError, UserError
from minegraph.web import games, positions, reviews
from minegraph.web.games import GameRequest, MoveRequest, SolverRequest
from minegraph.web.lanes import Busy, TooManyRequests, http_status
from minegraph.web.limits import Limits
from minegraph.web.positions import AnalyzeRequest, ExplainRequest, GenerateRequest, StructureRequest
from minegraph.web.runner import Runner
from minegraph.web.store import GameStore, StoreFull, TooManyGames

__all__ = ["create_app", "STATIC", "BodyLimit", "ContentTypes", "SecurityHeaders", "HostCheck",
           "CSP", "AnalyzeRequest", "ExplainRequest", "GameRequest", "MoveRequest",
           "SolverRequest", "StructureRequest", "GenerateRequest"]

#: The page's files, served under ``/static/`` (and ``/`` for ``index.html``).
STATIC = Path(__file__).resolve().parent / "static"


# --------------------------------------------------------------------------- body limit
class BodyLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` with 413: at once when the
    ``Content-Length`` says so, else (a chunked body) as soon as the bytes received pass it.

    Parameters
    ----------
    app : ASGI application
        The application wrapped.
    max_bytes : int
        The largest body accepted.
    """

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


# --------------------------------------------------------------------------- content types
def _media_type(headers: dict[bytes, bytes]) -> str | None:
    """The request's media type, lower case and without parameters (``None``: no header)."""
    value = headers.get(b"content-type")
    if value is None:
        return None
    return value.decode("latin-1").split(";", 1)[0].strip().lower()


def _has_body(headers: dict[bytes, bytes]) -> bool:
    length = headers.get(b"content-length")
    return b"transfer-encoding" in headers or (length is not None and length.strip() != b"0")


class ContentTypes:
    """ASGI middleware answering 415 to a ``POST`` under ``/api/`` whose body is not of the
    endpoint's type: ``application/octet-stream`` for ``/api/review``, JSON
    (``application/json`` or ``application/*+json``) for the others. A request without a
    body needs no type; one with a body needs the header.

    A page on another site can send a form (``text/plain``, ``application/x-www-form-urlencoded``,
    ``multipart/form-data``) or an untyped body without asking the server first; a JSON or
    binary body makes the browser ask (a CORS preflight, which this server never allows), so
    such requests never reach the endpoints.

    Parameters
    ----------
    app : ASGI application
        The application wrapped.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" \
                and scope["path"].startswith("/api/"):
            headers = dict(scope.get("headers") or [])
            kind = _media_type(headers)
            if kind is not None or _has_body(headers):
                if scope["path"] == "/api/review":
                    wanted, ok = "application/octet-stream", kind == "application/octet-stream"
                else:
                    wanted = "application/json"
                    ok = kind is not None and (kind == wanted or (kind.startswith("application/")
                                                                  and kind.endswith("+json")))
                if not ok:
                    shown = "no Content-Type" if kind is None else f"Content-Type {kind[:60]!r}"
                    response = JSONResponse({"error": f"{shown}: this endpoint takes "
                                                      f"Content-Type: {wanted}"}, status_code=415)
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


# --------------------------------------------------------------------------- browser headers
#: The page's Content-Security-Policy: its own scripts, styles and API only (the page has no
#: inline script, style or event handler), never framed, no plug-ins.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")

#: The headers :class:`SecurityHeaders` adds to every answer.
SECURITY_HEADERS = ((b"content-security-policy", CSP.encode()),
                    (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"))


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP answer: the
    Content-Security-Policy :data:`CSP`, ``X-Frame-Options: DENY`` (no other site frames the
    page), ``X-Content-Type-Options: nosniff`` (an answer is never read as another type)
    and ``Referrer-Policy: no-referrer``.

    Parameters
    ----------
    app : ASGI application
        The application wrapped.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


class HostCheck:
    """ASGI middleware answering 421 to a request whose ``Host`` names a host the server does
    not serve: a defence against DNS rebinding, where a page on another site points its own
    name at this server's address and then reads it as its own site.

    Allowed: every IP address (a rebinding page's requests carry its domain name, never an
    address), ``localhost``, and the names in ``names`` (case-insensitive, with any port;
    ``"*"`` allows every name). A request without ``Host`` (HTTP/1.0) is let through: no
    browser sends one.

    Parameters
    ----------
    app
        The ASGI app to guard.
    names
        The host names allowed besides addresses and ``localhost``.

    Examples
    --------
    >>> check = HostCheck(None, ["mines.example"])
    >>> [check.allows(h) for h in ("mines.example:8000", "127.0.0.1:80", "[::1]", "evil.example")]
    [True, True, True, False]
    """

    def __init__(self, app: ASGIApp, names: Iterable[str] = ()) -> None:
        self.app = app
        self.names = frozenset(n.lower().rstrip(".") for n in names) | {"localhost"}

    def allows(self, host: str) -> bool:
        """Whether a ``Host`` header value (a name or address, maybe with a port) is served.

        Parameters
        ----------
        host
            The header's value.

        Returns
        -------
        bool
        """
        import ipaddress
        host = host.strip().lower()
        if host.startswith("["):                           # [IPv6]:port
            name = host[1:host.find("]")] if "]" in host else host
        else:
            name, colon, port = host.rpartition(":")
            if not colon or not port.isdigit():
                name = host
        if "*" in self.names or name.rstrip(".") in self.names:
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = dict(scope.get("headers") or []).get(b"host")
            if host is not None and not self.allows(host.decode("latin-1")):
                shown = host.decode("latin-1")[:80]
                response = JSONResponse(
                    {"error": f"this server does not answer to the name {shown!r} (a page on "
                              f"another site may be trying to reach it); `minegraph serve "
                              f"--allow-host NAME` allows a name"}, status_code=421)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


# --------------------------------------------------------------------------- the app
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


def _close_all(runners: "weakref.WeakSet[Runner]") -> None:
    for runner in list(runners):
        runner.close()


#: Every app's runner, closed at exit if its server did not close it (no orphan processes).
_RUNNERS: "weakref.WeakSet[Runner]" = weakref.WeakSet()
atexit.register(_close_all, _RUNNERS)


def create_app(limits: Limits | None = None) -> FastAPI:
    """The web app with ``limits`` (default: :class:`~minegraph.web.limits.Limits` ()).

    Each app has its own game store, lanes and limits; nothing is shared between apps. The
    big lane's processes start on first use and stop when the server shuts down (the app's
    lifespan), or at the latest when the interpreter exits.

    Parameters
    ----------
    limits
        The limits to enforce.

    Returns
    -------
    FastAPI

    Raises
    ------
    UserError
        when ``limits`` is not a :class:`Limits`.

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
    runner = Runner(limits)
    _RUNNERS.add(runner)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        runner.close()

    app = FastAPI(title="minegraph", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="Exact Minesweeper reasoning: analyse and explain positions, play "
                              "games. Errors answer {\"error\": message} with a 4xx status; the "
                              "limits are at GET /api/limits (docs/web.md).")
    app.state.limits = limits
    app.state.games = GameStore(limits.max_games, per_client=limits.games_per_client,
                                per_minute=limits.games_per_minute,
                                idle_seconds=limits.game_idle_seconds)
    app.state.runner = runner
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    app.add_middleware(ContentTypes)
    app.add_middleware(SecurityHeaders)                # the outermost: on every answer

    @app.exception_handler(MinegraphError)
    async def minegraph_error(request: Request, exc: MinegraphError) -> JSONResponse:
        headers = None
        if isinstance(exc, (Busy, TooManyRequests, TooManyGames, StoreFull)):
            headers = {"Retry-After": str(exc.retry_after)}
        return JSONResponse({"error": str(exc)}, status_code=http_status(exc), headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_message(exc)}, status_code=422)

    @app.exception_handler(ClientDisconnect)
    async def client_gone(request: Request, exc: ClientDisconnect) -> JSONResponse:
        # The client went away (or the server closed a request whose body was too slow)
        # while its body was read: nobody reads this answer, but nothing is logged either.
        return JSONResponse({"error": "the client went away"}, status_code=400)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.get("/api/limits", summary="The limits in force")
    async def get_limits() -> dict[str, Any]:
        return limits.to_json()

    app.include_router(positions.router)
    app.include_router(games.router)
    app.include_router(reviews.router)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
