"""Move round-trip time against the real local server (``kabale play`` in a subprocess).

Plays random legal moves (with an undo now and then) over one keep-alive HTTP connection and
reports p50/p90/p99 of the time from sending a move to having its parsed answer. Every move is
committed to SQLite (WAL) before the server answers, so this includes the disk write.

    .venv/bin/python bench/roundtrip.py [--moves 400] [--variant spider:suits=2]
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
from liveserver import LiveServer  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def run(variant: str, moves: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "bench.db").start()
        try:
            # Browsers send each request with TCP_NODELAY; without it a small POST body can
            # wait for a delayed ACK (~40 ms) and the bench would measure the kernel, not us.
            nodelay = httpx.HTTPTransport(
                socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
            with httpx.Client(base_url=server.url, timeout=30, transport=nodelay,
                              headers={"Content-Type": "application/json"}) as client:
                body = client.post("/api/games", json={"variant": variant, "seed": seed}).json()
                while len(times) < moves:
                    legal = body["observation"]["legal"]
                    if body["observation"]["outcome"] != "playing" or not legal:
                        body = client.post("/api/games", json={"variant": variant}).json()
                        continue
                    gid = body["id"]
                    undo = body["can_undo"] and rng.random() < 0.1
                    start = time.perf_counter()
                    if undo:
                        res = client.post(f"/api/games/{gid}/undo")
                    else:
                        res = client.post(f"/api/games/{gid}/moves",
                                          json={"move": rng.choice(legal)})
                    answer = res.json()
                    times.append(time.perf_counter() - start)
                    if res.status_code != 200:
                        raise SystemExit(f"unexpected {res.status_code}: {answer}")
                    body = answer
        finally:
            server.stop()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description="move round-trip time of the web server")
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--variant", action="append")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for variant in args.variant or ["klondike", "spider:suits=2"]:
        ms = [t * 1000 for t in run(variant, args.moves, args.seed)]
        print(f"{variant:18} {len(ms)} moves: p50 {percentile(ms, 50):.2f} ms, "
              f"p90 {percentile(ms, 90):.2f} ms, p99 {percentile(ms, 99):.2f} ms, "
              f"mean {statistics.fmean(ms):.2f} ms, max {max(ms):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
