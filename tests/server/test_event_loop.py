"""Work that held the event loop (issue 43 item 8): reloading a game of 10,000 moves (0.44 s),
a replay of it (0.72 s) and /api/stats over 50,000 games (0.56 s) blocked every other
request meanwhile. Loads and statistics now run in a thread, and a replay replays nothing.
(How long the loop is held is measured by bench/loop_stall.py; these check where the work
runs.)"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale import Game
from kabale.storage.db import GameStore


def _long_game(moves: int = 300) -> Game:
    game = Game.new("klondike", 1)
    for _ in range(moves):
        game.play("d")
    return game


def _spy(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    """Record the thread of each call of ``owner.name`` (which still runs as ever)."""
    threads: list[int] = []
    real: Callable[..., Any] = getattr(owner, name)

    def spied(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, spied)
    return threads


def _loop_thread(client: TestClient) -> int:
    assert client.portal is not None
    ident: int = client.portal.call(threading.get_ident)
    return ident


def test_a_game_is_loaded_off_the_event_loop(app: Starlette, client: TestClient,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    store: GameStore = app.state.games.store
    store.add("long", _long_game())
    loads = _spy(monkeypatch, store, "load")
    for path in ("", "/chance"):
        app.state.games._cache.clear()
        assert client.get(f"/api/games/long{path}").status_code == 200
    assert client.post("/api/games/long/moves", json={"move": "d"}).status_code == 200
    assert len(loads) == 2 and _loop_thread(client) not in loads


def test_statistics_are_worked_out_off_the_event_loop(app: Starlette, client: TestClient,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    store: GameStore = app.state.games.store
    store.add("g", Game.new("klondike", 2))
    store.save("g", Game.new("klondike", 2), "lost", 3.0)
    calls = _spy(monkeypatch, store, "_finished")
    assert client.get("/api/stats").json()["all"]["played"] == 1
    assert client.get("/api/stats", params={"variant": "klondike"}).status_code == 200
    assert len(calls) == 3 and _loop_thread(client) not in calls


def test_requests_for_a_game_being_loaded_share_one_load(app: Starlette, client: TestClient,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    store: GameStore = app.state.games.store
    store.add("long", _long_game())
    loads = _spy(monkeypatch, store, "load")
    games = app.state.games

    async def both() -> tuple[Any, Any]:
        return await asyncio.gather(games.fetch("long"), games.fetch("long"))

    assert client.portal is not None
    first, second = client.portal.call(both)
    assert first is second and len(loads) == 1  # one live copy takes the moves


def test_a_replay_replays_no_moves(app: Starlette, client: TestClient,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    store: GameStore = app.state.games.store
    game = _long_game()
    store.add("long", game)
    store.save("long", game, "lost", 5.0)
    client.get("/api/games/long")  # loaded (that replays the save once)
    played = _spy(monkeypatch, Game, "play")
    res = client.post("/api/games/long/replay", json={"at": 250})
    assert res.status_code == 201 and played == []
    fresh = res.json()
    assert fresh["observation"]["moves_made"] == 250 and fresh["can_redo"] is False
    again = Game.from_deal_id("klondike#1")
    for _ in range(250):
        again.play("d")
    assert fresh["observation"] == {**again.observe(), "deal_id": "klondike#1"}


def test_a_remote_stores_writes_are_made_off_the_event_loop(
        app: Starlette, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a remote store (PostgreSQL) a new game, a move, undo, redo, the deal's number
    revealed and giving up write from a thread; SQLite's stay on the loop (cheaper)."""
    store: GameStore = app.state.games.store
    monkeypatch.setattr(store, "remote", True)
    writes = {name: _spy(monkeypatch, store, name) for name in ("add", "save",
                                                                 "mark_assisted")}
    game = client.post("/api/games", json={"variant": "klondike"}).json()
    url = f"/api/games/{game['id']}"
    for path, body in (("/moves", {"move": "d"}), ("/undo", None), ("/redo", None),
                       ("/reveal", None), ("/resign", None)):
        assert client.post(url + path, json=body).status_code == 200, path
    assert [len(calls) for calls in writes.values()] == [1, 5, 1]
    assert _loop_thread(client) not in sum(writes.values(), [])


def test_a_move_waiting_on_a_remote_write_holds_up_nobody(
        app: Starlette, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a move's write to a remote store waits, the server answers other requests;
    a second move of the same game waits for the first one's write and starts from it (no
    409, both kept)."""
    from concurrent.futures import ThreadPoolExecutor

    store: GameStore = app.state.games.store
    monkeypatch.setattr(store, "remote", True)
    game = client.post("/api/games", json={"variant": "klondike", "seed": 3}).json()
    url = f"/api/games/{game['id']}"
    entered, release, written = threading.Event(), threading.Event(), []
    real = store.save

    def slow_save(*args: Any, **kwargs: Any) -> int:
        entered.set()
        release.wait(10)
        written.append(args[0])
        rev: int = real(*args, **kwargs)
        return rev

    monkeypatch.setattr(store, "save", slow_save)
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(client.post, url + "/moves", json={"move": "d"})
        assert entered.wait(30)
        second = pool.submit(client.post, url + "/moves", json={"move": "d"})
        assert client.get("/api/variants").status_code == 200
        assert written == []  # answered while the first write still waited
        release.set()
        assert (first.result().status_code, second.result().status_code) == (200, 200)
    assert client.get(url).json()["observation"]["moves_made"] == 2
    assert len(written) == 2
