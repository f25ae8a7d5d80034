"""Probe a real `kabale play` server for hidden information, as an attacker would.

Starts `kabale play --no-browser` on a free loopback port over a fresh SQLite file, then plays
games of every family through every route (new games of each kind: random, chosen, winnable,
graded, daily; moves, undo, redo, hints, win chance, the demo's bot, reveal, resign, the
look-back routes, the daily's past numbers, the statistics) with random legal moves and
junk mixed in. After every answer it reads the game's true state from the server's database
(read-only) and counts a leak when the answer carries:

- a card code more often than it lies face up, or a card that was never face up;
- the deal's number or deal id while the number is secret and the game can still change;
- the exact `measure` of a chosen deal while the game is in play.

It also counts 5xx answers. It prints one line per kind and the totals; exit 1 on any leak or
server error. Bounded in requests (--games, --moves) and in time; loopback only.

    python tools/probe_leaks.py --games 30 --moves 80 --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from kabale.core.game import Game

# The card scan of the in-process leak test (tests/server/test_hidden.py), run here against a
# real server.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
from test_hidden import CODE, hidden_codes, visible_codes  # noqa: E402

VARIANTS = ["klondike", "klondike:draw=3", "vegas", "double-klondike", "easy-klondike",
            "spider", "spider:suits=2", "spider:suits=1", "spiderette", "spiderette:suits=2"]
KINDS = ["seed", "random", "winnable", "grade", "daily"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Probe:
    """One server, its database read behind its back, and the counts."""

    def __init__(self, db: Path, port: int) -> None:
        self.db = db
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120.0,
                                 headers={"Origin": f"http://127.0.0.1:{port}"})
        self.requests = 0
        self.errors: Counter[str] = Counter()
        self.leaks: list[str] = []

    def true_game(self, gid: str) -> tuple[Game, str]:
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=30)
        try:
            save, status = conn.execute("SELECT save, status FROM games WHERE id=?",
                                        (gid,)).fetchone()
        finally:
            conn.close()
        return Game.from_json(save), status

    def call(self, method: str, path: str, **kw: Any) -> httpx.Response:
        self.requests += 1
        res = self.http.request(method, path, **kw)
        if res.status_code >= 500 and res.status_code != 503:
            self.errors[f"{res.status_code} {method} {path.split('/')[-1]}"] += 1
        return res

    def check(self, gid: str, res: httpx.Response, route: str) -> None:
        """Count what ``res`` gives away of game ``gid``'s hidden state."""
        game, status = self.true_game(gid)
        text = res.text.replace(gid, "")
        state = game.state
        visible = visible_codes(state)
        shown = Counter(CODE.findall(text))
        over = {c: n for c, n in shown.items() if n > visible[c]}
        never = (hidden_codes(state) - set(visible)) & set(shown)
        if over or never:
            self.leaks.append(f"{route}: cards {over or sorted(never)}")
        can_change = status == "playing" and not game.deal_known
        if can_change and str(game.seed) in re.findall(r"\d+", text):
            self.leaks.append(f"{route}: the deal's number in play")
        try:
            body = res.json()
        except ValueError:
            return
        deal = body.get("deal") if isinstance(body, dict) else None
        if status == "playing" and isinstance(deal, dict) and deal.get("measure") is not None:
            self.leaks.append(f"{route}: the exact measure in play")


def new_game(probe: Probe, rng: random.Random, variant: str, kind: str) -> httpx.Response:
    spec: dict[str, Any] = {"variant": variant}
    if kind == "seed":
        spec["seed"] = rng.randrange(10**6)
    elif kind == "winnable":
        spec["winnable"] = True
    elif kind == "grade":
        spec["grade"] = rng.choice(["easy", "medium"])
    elif kind == "daily":
        spec["daily"] = True
    return probe.call("POST", "/api/games", json=spec)


def play(probe: Probe, rng: random.Random, variant: str, kind: str, moves: int) -> None:
    res = new_game(probe, rng, variant, kind)
    if res.status_code not in (200, 201):
        return
    body = res.json()
    gid = body["id"]
    probe.check(gid, res, f"new {kind}")
    routes = [("POST", "hint"), ("GET", "chance"), ("POST", "bot"), ("GET", "postmortem"),
              ("GET", "review"), ("POST", "replay"), ("POST", "undo"), ("POST", "redo"),
              ("POST", "reveal"), ("GET", "")]
    for _ in range(moves):
        roll = rng.random()
        legal = body.get("observation", {}).get("legal") or []
        if roll < 0.25 or not legal:
            method, name = rng.choice(routes)
            if name == "reveal" and rng.random() < 0.7:
                continue  # keep most games secret to the end
            path = f"/api/games/{gid}" + (f"/{name}" if name else "")
            res = probe.call(method, path, **({"json": {}} if name == "replay" else {}))
        elif roll < 0.28:
            res = probe.call("POST", f"/api/games/{gid}/moves", json={"move": "1:3>2"})
        else:
            res = probe.call("POST", f"/api/games/{gid}/moves",
                             json={"move": rng.choice(legal)})
        probe.check(gid, res, name if roll < 0.25 or not legal else "move")
        if res.status_code in (200, 201) and "observation" in res.json():
            body = res.json()
        if body.get("status") in ("won", "lost"):
            break
    if rng.random() < 0.5:
        probe.check(gid, probe.call("POST", f"/api/games/{gid}/resign"), "resign")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30, help="games per probe run (default 30)")
    ap.add_argument("--moves", type=int, default=80, help="requests per game at most")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.db"
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "kabale", "play", "--no-browser", "--port", str(port),
             "--db", str(db), "--effort", "quick"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ.copy())
        try:
            probe = Probe(db, port)
            for _ in range(200):
                try:
                    probe.http.get("/api/variants")
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            started = time.monotonic()
            for i in range(args.games):
                play(probe, rng, VARIANTS[i % len(VARIANTS)], KINDS[i % len(KINDS)],
                     args.moves)
            past = probe.call("GET", "/api/daily/past",
                              params={"variant": "klondike", "date": time.strftime("%Y-%m-%d",
                                                                                 time.gmtime())})
            if past.status_code != 409:
                probe.leaks.append(f"daily/past answered {past.status_code} for today")
            probe.call("GET", "/api/stats")
            print(json.dumps({"requests": probe.requests, "games": args.games,
                              "leaks": len(probe.leaks), "server_errors": sum(
                                  probe.errors.values()),
                              "seconds": round(time.monotonic() - started, 1)}))
            for line in sorted(set(probe.leaks)) + [f"{k}: {n}" for k, n in probe.errors.items()]:
                print("  ", line)
        finally:
            server.terminate()
            server.wait(timeout=30)
    return 1 if probe.leaks or probe.errors else 0


if __name__ == "__main__":
    sys.exit(main())
