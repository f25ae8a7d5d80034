"""Start the web game: bind 127.0.0.1, print the URL, open the browser, serve until stopped."""

from __future__ import annotations

import errno
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from kabale.core.errors import KabaleError
from kabale.core.game import Game
from kabale.core.variants import parse_variant
from kabale.storage.db import default_db_path
from kabale.storage.lock import ServerLock

if TYPE_CHECKING:
    from starlette.applications import Starlette

HOST = "127.0.0.1"


def check_port(port: int | None) -> None:
    """Raise KabaleError unless ``port`` is None or a port number (0: any free one)."""
    if port is not None and (isinstance(port, bool) or not isinstance(port, int)
                             or not 0 <= port <= 65535):
        raise KabaleError(f"bad --port {port!r}: a port number 1..65535 (0: any free port)")


def bind(port: int | None) -> socket.socket:
    """A listening socket on 127.0.0.1:port, or on a free port if that one is taken or None
    (or 0). A port outside 0..65535 raises KabaleError."""
    check_port(port)
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY on accepted sockets only then, and
    # without it every answer waits ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    if sys.platform != "win32":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port or 0))
    except OSError as exc:
        if port is None or exc.errno not in (errno.EADDRINUSE, errno.EACCES):
            sock.close()
            raise KabaleError(f"cannot listen on {HOST}:{port}: {exc.strerror}") from None
        print(f"port {port} is taken; using a free one", file=sys.stderr)
        sock.bind((HOST, 0))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def start_query(variant: str | None, seed: int | None) -> str:
    """The page's query string for the requested start: a deal id, a variant, or nothing."""
    if variant is None and seed is None:
        return ""
    if seed is not None:
        game = Game.new(parse_variant(variant or "klondike"), seed)
        return "?" + urlencode({"deal": game.deal_id})
    return "?" + urlencode({"variant": str(parse_variant(variant or "klondike"))})


def main(variant: str | None, seed: int | None, port: int | None, open_browser: bool,
         db: str | None, effort: str = "quick") -> int:
    """Serve the web game until interrupted; returns the exit code. ``effort``: the
    advisor's level for hints, win chance, the bot and post-mortems.

    A bad variant, seed or port, a database in use by another server, or one that cannot be
    opened raises KabaleError before anything is served.
    """
    from kabale.server.app import NO_SOLVER, create_app

    check_port(port)
    query = start_query(variant, seed)
    db_path = default_db_path(db)
    lock = ServerLock(db_path)
    lock.acquire()  # one server per database: a second one names the first and stops
    try:
        app = create_app(str(db_path), effort=effort)
        try:
            if NO_SOLVER:
                print(f"kabale: warning: no hints, win chance, demo, chosen deals or look "
                      f"back: {NO_SOLVER}", file=sys.stderr, flush=True)
            for problem in app.state.games.store.problems:
                print(f"kabale: warning: {problem}", file=sys.stderr, flush=True)
            sock = bind(port)
        except BaseException:
            app.state.games.store.close()
            raise
        address = f"http://{HOST}:{sock.getsockname()[1]}/"
        lock.announce(address)
        _serve(app, sock, address + query, db_path, open_browser)
    finally:
        lock.release()
    return 0


def _serve(app: Starlette, sock: socket.socket, url: str, db_path: Path,
           open_browser: bool) -> None:
    """Run uvicorn on the listening socket until Ctrl+C; closes socket and store."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    # The socket already listens, so the URL works as soon as it is printed.
    print(f"kabale is being served at {url}  (database {db_path}; Ctrl+C stops)", flush=True)
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        if app.state.advisor is not None:
            app.state.advisor.close()
        if getattr(app.state, "reviews", None) is not None:
            app.state.reviews.close()  # a review in progress stops at its next position
        app.state.games.store.close()
