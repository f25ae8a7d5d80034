"""What one request costs the hosted server when nothing else runs: new games (each a new
player) and moves ("d", the stock), one after another through Starlette's in-process
client, on a SQLite file or a PostgreSQL database, with `kabale serve`'s limits counted
(set too high to refuse).

    python bench/request_cost.py [--db postgresql://USER@HOST/SCRATCH] [--games 200]
        [--moves 300]

Run it with PYTHONPATH pointing at another checkout's src to compare two versions.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from starlette.testclient import TestClient

import kabale
from kabale.server.app import create_app
from kabale.server.site import Limits, Site


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="a scratch PostgreSQL URL (default: a new SQLite file)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    games, moves = max(1, min(args.games, 5000)), max(1, min(args.moves, 5000))
    db = args.db or os.path.join(tempfile.mkdtemp(prefix="kabale-cost-"), "k.db")
    many = 10**6
    app = create_app(db, site=Site(allowed_hosts=("cards.test",), limits=Limits(
        games=many, moves=many, help=many, per_address=1)))
    headers = {"Content-Type": "application/json"}
    try:
        with TestClient(app, base_url="http://cards.test", headers=headers) as client:
            client.post("/api/games", json={"variant": "klondike"})  # warm up
            start = time.perf_counter()
            for _ in range(games):  # a client of its own each: no cookie, a new player
                TestClient(app, base_url="http://cards.test", headers=headers).post(
                    "/api/games", json={"variant": "klondike"})
            new = (time.perf_counter() - start) / games * 1e3
            game = client.post("/api/games", json={"variant": "klondike"}).json()
            start = time.perf_counter()
            for _ in range(moves):
                client.post(f"/api/games/{game['id']}/moves", json={"move": "d"})
            move = (time.perf_counter() - start) / moves * 1e3
    finally:
        if app.state.advisor is not None:
            app.state.advisor.close()
    where = kabale.__file__.rsplit("/src/", 1)[0]
    print(f"{where}: new game {new:.2f} ms, move {move:.2f} ms")


if __name__ == "__main__":
    main()
