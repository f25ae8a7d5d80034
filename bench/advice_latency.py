"""How long the page waits for a hint and for the win chance, through HTTP, per family.

    python bench/advice_latency.py [--effort quick] [--deals 8] [--at 0,10,25]
        [--variants klondike,spiderette,spider:suits=2] [--json]

Starts the real server (``kabale play --no-browser --effort E``) on a scratch database and,
for each variant and deal 1..N, plays seeded random legal moves and at each position of
``--at`` (moves from the deal) times ``POST /api/games/{id}/hint`` and ``GET
/api/games/{id}/chance`` as the page sends them (first asks: nothing cached). It prints p50,
p90 and the longest wait per variant and endpoint, and, to show that the advisor thinking
does not hold other requests up, the time of a plain ``GET /api/games/{id}`` sent while a win
chance (Spiderette's, the slowest) is being computed against the same request on an idle
server.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
from liveserver import LiveServer  # noqa: E402


class Client:
    """JSON requests to the server as the page makes them."""

    def __init__(self, url: str) -> None:
        self.url = url

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body or {}).encode() if method == "POST" else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=600) as answer:
            return json.loads(answer.read())

    def timed(self, method: str, path: str) -> float:
        start = time.perf_counter()
        self.call(method, path)
        return time.perf_counter() - start


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def positions(client: Client, variant: str, deal: int, at: list[int]) -> list[str]:
    """Game ids of deal ``deal`` after each count of random legal moves in ``at``."""
    rng = random.Random(f"{variant}#{deal}")
    script: list[str] = []
    ids = []
    for target in at:
        game = client.call("POST", "/api/games", {"variant": variant, "seed": deal})
        for move in script:
            game = client.call("POST", f"/api/games/{game['id']}/moves", {"move": move})
        while len(script) < target and game["observation"]["outcome"] == "playing":
            move = rng.choice(game["observation"]["legal"])
            script.append(move)
            game = client.call("POST", f"/api/games/{game['id']}/moves", {"move": move})
        if game["observation"]["outcome"] == "playing":
            ids.append(game["id"])
    return ids


def blocked(client: Client, game_id: str, other: str) -> tuple[list[float], list[float]]:
    """Plain GETs on an idle server, then while the win chance of ``other`` is computed."""
    idle = [client.timed("GET", f"/api/games/{game_id}") for _ in range(20)]
    busy: list[float] = []
    done = threading.Event()

    def ask() -> None:
        client.call("GET", f"/api/games/{other}/chance")
        done.set()

    threading.Thread(target=ask, daemon=True).start()
    while not done.is_set():
        busy.append(client.timed("GET", f"/api/games/{game_id}"))
    return idle, busy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--effort", default="quick", choices=["quick", "normal", "strong"])
    parser.add_argument("--deals", type=int, default=8, help="deals 1..N per variant (8)")
    parser.add_argument("--at", default="0,10,25", help="moves from the deal (0,10,25)")
    parser.add_argument("--variants", default="klondike,spiderette,spider:suits=2")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    at = [int(x) for x in args.at.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        server = LiveServer(Path(scratch) / "bench.db", None, "--effort", args.effort).start()
        try:
            client = Client(server.url)
            for variant in args.variants.split(","):
                waits: dict[str, list[float]] = {"hint": [], "chance": []}
                ids = [i for deal in range(1, args.deals + 1)
                       for i in positions(client, variant, deal, at)]
                for game_id in ids:
                    waits["hint"].append(client.timed("POST", f"/api/games/{game_id}/hint"))
                    waits["chance"].append(client.timed("GET", f"/api/games/{game_id}/chance"))
                for name, values in waits.items():
                    rows.append({"variant": variant, "endpoint": name, "n": len(values),
                                 "p50": quantile(values, 0.5), "p90": quantile(values, 0.9),
                                 "max": max(values)})
            fresh = positions(client, "spiderette", args.deals + 1, [5])
            idle, busy = blocked(client, ids[0], fresh[0])
        finally:
            server.stop()
    if args.json:
        print(json.dumps({"effort": args.effort, "rows": rows, "idle_get": idle,
                          "get_during_hint": busy}))
        return 0
    print(f"effort {args.effort}, deals 1-{args.deals}, positions after {args.at} random moves")
    print(f"{'variant':22} {'endpoint':8} {'n':>4} {'p50 s':>7} {'p90 s':>7} {'max s':>7}")
    for r in rows:
        print(f"{r['variant']:22} {r['endpoint']:8} {r['n']:4} {r['p50']:7.3f} {r['p90']:7.3f}"
              f" {r['max']:7.3f}")
    print(f"GET /api/games/ID: idle p50 {statistics.median(idle) * 1000:.1f} ms; while a chance "
          f"was computed p50 {statistics.median(busy) * 1000:.1f} ms, p90 "
          f"{quantile(busy, 0.9) * 1000:.1f} ms over {len(busy)} requests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
