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
#: the port a plain ``kabale play`` asks for, so the address stays the same between runs
#: (a bookmark works); when another program has it, a free port is used and said
DEFAULT_PORT = 8765


def check_port(port: int | None) -> None:
    """Raise KabaleError unless ``port`` is None or a port number (0: any free one)."""
    if port is not None and (isinstance(port, bool) or not isinstance(port, int)
                             or not 0 <= port <= 65535):
        raise KabaleError(f"bad --port {port!r}: a port number 1..65535 (0: any free port)")


def bind(port: int | None) -> socket.socket:
    """A listening socket on 127.0.0.1:port (None: DEFAULT_PORT), or on a free port if that
    one is taken (said on stderr) or 0. A port outside 0..65535 raises KabaleError."""
    check_port(port)
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY on accepted sockets only then, and
    # without it every answer waits ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    if sys.platform != "win32":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    wanted = DEFAULT_PORT if port is None else port
    try:
        sock.bind((HOST, wanted))
    except OSError as exc:
        if not wanted or exc.errno not in (errno.EADDRINUSE, errno.EACCES):
            sock.close()
            raise KabaleError(f"cannot listen on {HOST}:{wanted}: {exc.strerror}") from None
        print(f"port {wanted} is taken; using a free one", file=sys.stderr)
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
         db: str | None, effort: str = "quick", engine: str | None = None,
         scheduler: str | None = None) -> int:
    """Serve the web game until interrupted; returns the exit code. ``effort``: the
    advisor's level for hints, win chance, the bot and post-mortems; ``engine`` and
    ``scheduler``: where that help runs (server.jobservice.engine_setting).

    A bad variant, seed or port, a database in use by another server, or one that cannot be
    opened raises KabaleError before anything is served.
    """
    from kabale.server.app import NO_SOLVER, create_app
    from kabale.server.jobservice import engine_setting

    engine_setting(engine, scheduler)  # a bad setting stops before any file is made
    check_port(port)
    query = start_query(variant, seed)
    db_path = default_db_path(db)
    lock = ServerLock(db_path)
    lock.acquire()  # one server per database: a second one names the first and stops
    try:
        app = create_app(str(db_path), effort=effort, engine=engine, scheduler=scheduler)
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

    from kabale.server.connections import server_config

    server = uvicorn.Server(server_config(app))
    try:
        # The socket already listens, so the URL works as soon as it is printed.
        print(f"kabale is being served at {url}  (database {db_path}; Ctrl+C stops)",
              flush=True)
        if open_browser:
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        # uvicorn shuts down on Ctrl+C or SIGTERM, then raises the signal again: the command
        # says it stopped and exits 130 or 143 (kabale.cli), not 0 in silence
        print(f"kabale play: the games are saved in {db_path}", file=sys.stderr, flush=True)
        raise
    finally:
        sock.close()
        if app.state.advisor is not None:
            app.state.advisor.close()
        if getattr(app.state, "reviews", None) is not None:
            app.state.reviews.close()  # the review lane's worker is stopped with the advisor
        app.state.games.store.close()
