"""How long one request holds the server's event loop (issue 43 item 8): while it runs, a
ticker on the same loop records its longest gap; a gap is the time every other player's
request waited. Requests: reloading a game of 10,000 moves that is not in the cache, a
replay of it from its last move, and /api/stats over 50,000 finished games.

    python bench/loop_stall.py [--games 50000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from kabale import Game
from kabale.core.persist import MAX_MOVES
from kabale.server.app import create_app

BASE = "http://127.0.0.1:8765"


def fill(app: Any, games: int) -> None:
    """A finished game of MAX_MOVES moves ("long") and ``games`` finished ones."""
    store = app.state.games.store
    game = Game.new("klondike", 1)
    for _ in range(MAX_MOVES):
        game.play("d")
    store.add("long", game)
    store.save("long", game, "lost", 100.0)
    short = Game.new("klondike", 2)
    store.add("short", short)
    store.save("short", short, "lost", 10.0)
    conn = store._conn
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO games (id, deal_id, variant, save, status, started, finished, updated,"
        " score, moves, elapsed) SELECT ?, deal_id, variant, save, ?, started, ?, updated,"
        " ?, moves, elapsed FROM games WHERE id='short'",
        [(f"g{i}", "won" if i % 3 else "lost", 1e9 + i, i % 700) for i in range(games)])
    conn.execute("COMMIT")


async def stall(client: httpx.AsyncClient, method: str, url: str, **kw: Any) -> tuple[float,
                                                                                      float]:
    """(seconds the request took, the longest gap of a 1 ms ticker meanwhile)."""
    gaps: list[float] = []
    done = asyncio.Event()

    async def tick() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0.01)
    start = time.perf_counter()
    res = await client.request(method, url, **kw)
    took = time.perf_counter() - start
    done.set()
    await ticker
    assert res.status_code < 300, res.text[:200]
    return took, max(gaps)


async def main(games: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(str(Path(folder) / "k.db"))
        fill(app, games)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=BASE,
                                     headers={"Content-Type": "application/json"}) as client:
            rows = []
            for name, method, url, kw in [
                ("reload 10,000 moves", "GET", "/api/games/long", {}),
                ("replay at 10,000", "POST", "/api/games/long/replay",
                 {"json": {"at": MAX_MOVES}}),
                (f"/api/stats, {games:,} games", "GET", "/api/stats", {}),
            ]:
                took, gap = [], []
                for _ in range(repeat):
                    app.state.games._cache.clear()
                    t, g = await stall(client, method, url, **kw)
                    took.append(t)
                    gap.append(g)
                rows.append((name, statistics.median(took), statistics.median(gap)))
        if app.state.advisor is not None:
            app.state.advisor.close()
    print(f"{'request':28} {'took s':>8} {'loop held s':>12}")
    for name, took_s, gap_s in rows:
        print(f"{name:28} {took_s:8.3f} {gap_s:12.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    asyncio.run(main(options.games, options.repeat))
    sys.exit(0)
