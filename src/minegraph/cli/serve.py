"""``minegraph serve``: the web app (:mod:`minegraph.web`) under uvicorn.

The page is at ``http://HOST:PORT/``, the JSON API under ``/api/`` (docs/web.md) and its
OpenAPI schema at ``/openapi.json``. The server listens on the loopback interface unless
``--host`` says otherwise; Ctrl-C or SIGTERM stops it (:mod:`minegraph.web.server`).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from minegraph.cli.common import Formatter
from minegraph.errors import UserError
from minegraph.present import shown

if TYPE_CHECKING:
    from minegraph.cli.common import Subparsers

__all__ = ["register", "run", "check_address", "EXAMPLES", "HELP"]

HELP = "serve the web app: play with a probability overlay, analyse pasted positions"

#: The examples ``minegraph serve --help`` shows.
EXAMPLES = """\
examples:
  minegraph serve                        the page at http://127.0.0.1:8000/
  minegraph serve --port 8080            another port
  minegraph serve --host 0.0.0.0         listen on every interface (other machines can connect)
  minegraph serve --allow-host mines.example
                                         also answer requests for the host name
                                         mines.example (behind a reverse proxy
                                         that passes that Host)
  minegraph serve --trusted-proxy 127.0.0.1
                                         read X-Forwarded-For from a reverse
                                         proxy on this machine"""


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"expected a port number from 1 to 65535, got {shown(text)}")
    return int(text)


def check_address(host: str, port: int) -> None:
    """Check that the server can listen on ``host``:``port`` before it says it serves there:
    every address the name stands for is bound (as uvicorn binds it, with ``SO_REUSEADDR``, so
    that a port left in TIME_WAIT by an earlier run counts as free) and released at once.

    Raises
    ------
    UserError
        for a host that is not an address of this machine, or a port in use or not allowed.

    Parameters
    ----------
    host : str
        A name or address of this machine.
    port : int
        The port.

    Raises
    ------
    UserError
        when an address cannot be bound, naming it and why.
    """
    import errno
    import socket
    where = f"cannot listen on {host}:{port}"
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UserError(f"{where}: {why} (--host takes an address of this machine, such as "
                        f"127.0.0.1 or 0.0.0.0)") from None
    for family, kind, proto, _, address in dict.fromkeys((f, k, p, "", a) for f, k, p, _, a in found):
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == getattr(socket, "AF_INET6", None):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                why = exc.strerror or str(exc)
                if exc.errno == errno.EADDRINUSE:
                    why = "the port is in use (another server?); choose another with --port"
                elif exc.errno == errno.EACCES and port < 1024:
                    why += " (ports below 1024 need privileges); choose another with --port"
                elif exc.errno == errno.EADDRNOTAVAIL:
                    why += " (--host takes an address of this machine, such as 127.0.0.1)"
                raise UserError(f"{where}: {why}") from None


def register(subparsers: Subparsers) -> None:
    """Add the ``serve`` subcommand.

    Parameters
    ----------
    subparsers
        The ``add_subparsers()`` object of the program's parser.
    """
    p = subparsers.add_parser(
        "serve", formatter_class=Formatter, help=HELP, epilog=EXAMPLES,
        description="Start the web app: a page to play games with the exact mine probability of "
                    "every covered cell, and to analyse positions pasted in any supported format; "
                    "and its JSON API (POST /api/analyze, /api/explain, /api/game; GET "
                    "/api/limits), described by /openapi.json and docs/web.md.")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="the port (default: 8000)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a host name requests may name in their Host header, besides the "
                        "--host, localhost and IP addresses (repeatable; '*': any name). "
                        "Others are refused (421), so that a page on another site cannot "
                        "reach the server by pointing its own name at it (DNS rebinding)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                   help="the address (or network, 10.0.0.0/8) of a reverse proxy whose "
                        "X-Forwarded-For header names the client (repeatable). Without it the "
                        "header is ignored and every client is counted by its connection's "
                        "address, so that no client can pose as many")


def run(args: argparse.Namespace) -> int:
    """Check the address, then serve until interrupted; exit status 0.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options of ``minegraph serve``.

    Returns
    -------
    int
        The exit status, 0.

    Raises
    ------
    UserError
        when uvicorn or fastapi is not installed, or the address cannot be listened on.
    """
    try:
        import uvicorn
    except ImportError:  # pragma: no cover - a dependency, but say what to do
        raise UserError("minegraph serve needs uvicorn and fastapi: pip install fastapi uvicorn") from None
    from minegraph.web.server import proxy_networks, serve
    proxy_networks(args.trusted_proxy)          # a malformed address: an error before listening
    check_address(args.host, args.port)
    print(f"minegraph: serving on http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    serve(args.host, args.port, allowed_hosts=args.allow_host,
          trusted_proxies=args.trusted_proxy)
    return 0
