"""An in-process client that talks as the page does: to the server's loopback address and
port (the Host rule of DESIGN.md §3c), declaring JSON on every request (the POST rule)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.testclient import TestClient

T = TypeVar("T")

#: The port the in-process client says it talks to (no socket is opened).
PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"


def local_client(app: Starlette, raise_server_exceptions: bool = False) -> TestClient:
    """A TestClient for ``app`` (use it in a ``with`` block)."""
    return TestClient(app, base_url=BASE, raise_server_exceptions=raise_server_exceptions,
                      headers={"Content-Type": "application/json"})


#: the two doors to the same game: `kabale play` (one local player) and `kabale serve`
#: (players by cookie, on the loopback name the in-process client uses, with limits too high
#: to get in a test's way)
DOORS = ("play", "serve")


def door_app(tmp_path: Path, door: str) -> Starlette:
    """The app as ``door`` serves it, over a fresh database in ``tmp_path``."""
    from kabale.server.app import create_app
    from kabale.server.site import Limits, Site

    many = 10**6
    site = (Site(allowed_hosts=("127.0.0.1",),
                 limits=Limits(games=many, moves=many, help=many, transfer=many))
            if door == "serve" else None)
    return create_app(str(tmp_path / "games.db"), effort="quick", search_seconds=60.0,
                      site=site)


def player_for(app: Starlette, client: TestClient) -> str:
    """The player ``client`` plays as (made now, by a first game, on `kabale serve`), for a
    test that puts a game straight into the store."""
    from kabale.server.site import COOKIE
    from kabale.storage.players import player_of_token

    if app.state.site is None:
        return "local"
    if COOKIE not in client.cookies:
        assert client.post("/api/games", json={"variant": "klondike"}).status_code == 201
    player = player_of_token(app.state.games.store, client.cookies[COOKIE])
    assert player is not None
    return player


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` on a thread of its own: once the browser tests have run,
    Playwright's sync API keeps an event loop running on the main thread for the rest of the
    session, and asyncio.run refuses to start there."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def wait_for(client: TestClient, done: Any, what: str) -> None:
    """Let the server's loop run until ``done()`` (a wait, not a timed assertion: it gives
    up only after a minute)."""
    portal = client.portal
    assert portal is not None
    for _ in range(1200):
        if done():
            return
        portal.call(asyncio.sleep, 0.05)
    raise AssertionError(f"never happened: {what}")


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def finished(client: Any, moves: int = 3, seed: int = 7) -> str:
    """A Klondike game of ``moves`` moves, given up: ready to be reviewed. ``client`` is a
    TestClient or anything with its ``post`` (a client of a real server process)."""
    res = client.post("/api/games", json={"variant": "klondike", "seed": seed})
    assert res.status_code == 201, res.text
    body = res.json()
    for _ in range(moves):
        body = client.post(f"/api/games/{body['id']}/moves",
                           json={"move": body["observation"]["legal"][0]}).json()
    assert client.post(f"/api/games/{body['id']}/resign").status_code == 200
    gid: str = body["id"]
    return gid
