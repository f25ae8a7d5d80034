"""What one request costs the hosted server when nothing else runs: new games (each a new
player) and moves ("d", the stock), one after another through Starlette's in-process
client, on a SQLite file or a PostgreSQL database, with `kabale serve`'s limits counted
(set too high to refuse); ``--shared-help`` as a web process of several on one database
(server.helpshare: `kabale serve --workers N`, or PostgreSQL). Each is given in wall and in
CPU milliseconds (this process's time, the threads' included), and on SQLite with the SQL
statements each sends to the database (the round trips it would make on PostgreSQL, less
the BEGIN and COMMIT of a transaction).

    python bench/request_cost.py [--db postgresql://USER@HOST/SCRATCH] [--games 200]
        [--moves 300] [--shared-help]

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
    parser.add_argument("--shared-help", action="store_true",
                        help="share the help's control, as one of several web processes")
    args = parser.parse_args()
    games, moves = max(1, min(args.games, 5000)), max(1, min(args.moves, 5000))
    db = args.db or os.path.join(tempfile.mkdtemp(prefix="kabale-cost-"), "k.db")
    many = 10**6
    app = create_app(db, site=Site(allowed_hosts=("cards.test",), limits=Limits(
        games=many, moves=many, help=many, per_address=1)),
        **({"shared_help": True} if args.shared_help else {}))
    headers = {"Content-Type": "application/json"}
    statements = [0]
    conn = getattr(app.state.games.store, "_conn", None)
    if conn is not None:  # SQLite: count what reaches the database
        conn.set_trace_callback(lambda sql: statements.__setitem__(0, statements[0] + 1))
    try:
        with TestClient(app, base_url="http://cards.test", headers=headers) as client:
            client.post("/api/games", json={"variant": "klondike"})  # warm up
            start, cpu, sent = time.perf_counter(), time.process_time(), statements[0]
            for _ in range(games):  # a client of its own each: no cookie, a new player
                TestClient(app, base_url="http://cards.test", headers=headers).post(
                    "/api/games", json={"variant": "klondike"})
            new = (time.perf_counter() - start) / games * 1e3
            new_cpu = (time.process_time() - cpu) / games * 1e3
            new_sql = (statements[0] - sent) / games
            game = client.post("/api/games", json={"variant": "klondike"}).json()
            start, cpu, sent = time.perf_counter(), time.process_time(), statements[0]
            for _ in range(moves):
                client.post(f"/api/games/{game['id']}/moves", json={"move": "d"})
            move = (time.perf_counter() - start) / moves * 1e3
            move_cpu = (time.process_time() - cpu) / moves * 1e3
            move_sql = (statements[0] - sent) / moves
    finally:
        if app.state.advisor is not None:
            app.state.advisor.close()
    where = kabale.__file__.rsplit("/src/", 1)[0]
    sql = ((f", {new_sql:.1f} SQL statements", f", {move_sql:.1f} SQL statements")
           if conn is not None else ("", ""))
    print(f"{where}{' (shared help)' if args.shared_help else ''}: new game {new:.2f} ms"
          f" ({new_cpu:.2f} ms CPU{sql[0]}), move {move:.2f} ms ({move_cpu:.2f} ms CPU"
          f"{sql[1]})")


if __name__ == "__main__":
    main()
