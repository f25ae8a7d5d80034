"""Load on `kabale serve` with Locust (issue 44): simulated players who each open a game,
move every 2-5 s, undo now and then and ask for a hint now and then. Only against
127.0.0.1, bounded in players and time.

Run (starts `kabale serve` on a fresh database, runs Locust headless, stops the server,
prints Locust's table: requests, p50/p99 latency per request name, failures):

    python bench/site_load.py --players 500 --seconds 120 --workers 1 [--db postgresql://...]
    python bench/site_load.py --players 500 --seconds 120 --workers 2

The Locust file is this file (`locust -f bench/site_load.py --host http://127.0.0.1:PORT`
for a server you started; any other host is refused). Every simulated player comes from
127.0.0.1, so the runner lifts the per-address limits (KABALE_LIMITS) for the run.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
from typing import Any
from urllib.parse import urlsplit

try:
    from locust import HttpUser, between, events, task
except ImportError:  # the runner itself needs only the standard library
    HttpUser = None  # type: ignore[assignment,misc]

MAX_PLAYERS = 2000
MAX_SECONDS = 600

if HttpUser is not None:

    @events.test_start.add_listener
    def only_loopback(environment: Any, **_: Any) -> None:
        host = urlsplit(environment.host or "").hostname
        if host != "127.0.0.1":
            raise SystemExit(f"site_load: only http://127.0.0.1:PORT may be loaded, not {host}")

    class Player(HttpUser):  # type: ignore[misc,valid-type]
        """One player: a game, a move every 2-5 s, sometimes an undo or a hint."""

        wait_time = between(2, 5)

        def on_start(self) -> None:
            self.client.headers["Content-Type"] = "application/json"
            self.new_game()

        def new_game(self) -> None:
            res = self.client.post("/api/games", json={"variant": "klondike"}, name="new game")
            self.game = res.json() if res.status_code == 201 else None

        @task(20)
        def move(self) -> None:
            if not self.game or self.game.get("status") != "playing" or not self.game["moves"]:
                self.new_game()
                return
            res = self.client.post(f"/api/games/{self.game['id']}/moves", name="move",
                                   json={"move": random.choice(self.game["moves"])})
            if res.status_code == 200:
                self.game = res.json()

        @task(2)
        def undo(self) -> None:
            if self.game and self.game.get("can_undo"):
                res = self.client.post(f"/api/games/{self.game['id']}/undo", name="undo")
                if res.status_code == 200:
                    self.game = res.json()

        @task(1)
        def hint(self) -> None:
            if self.game and self.game.get("status") == "playing":
                with self.client.post(f"/api/games/{self.game['id']}/hint", name="hint",
                                      catch_response=True) as res:
                    if res.status_code == 503:  # the advisor's queue is full: by design
                        res.success()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--advice-workers", type=int, default=2)
    parser.add_argument("--db", help="a postgresql:// URL (default: a new SQLite file)")
    args = parser.parse_args()
    if not (1 <= args.players <= MAX_PLAYERS and 1 <= args.seconds <= MAX_SECONDS):
        parser.error(f"--players 1..{MAX_PLAYERS}, --seconds 1..{MAX_SECONDS}")
    folder = tempfile.mkdtemp(prefix="kabale-load-")
    db = args.db or os.path.join(folder, "site.db")
    env = {**os.environ, "KABALE_LIMITS": "games=100000,moves=100000,help=100000,"
                                          "per_address=1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "kabale", "serve", "--db", db, "--port", "0", "--workers",
         str(args.workers), "--advice-workers", str(args.advice_workers)],
        stdout=subprocess.PIPE, text=True, env=env, start_new_session=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    print(line, end="")
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not found:
        os.killpg(server.pid, signal.SIGTERM)
        return 1
    try:
        return subprocess.run(
            [sys.executable, "-m", "locust", "-f", __file__, "--headless", "--only-summary",
             "-u", str(args.players), "-r", str(max(1, args.players // 10)),
             "-t", f"{args.seconds}s", "--stop-timeout", "10",
             "--host", f"http://127.0.0.1:{found.group(1)}"], check=False).returncode
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)


if __name__ == "__main__":
    sys.exit(main())
