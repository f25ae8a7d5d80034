"""Probe the one-server-per-database rule and kill -9 through links to the database file.

First a hard link is made to the database: a server on either name must be refused (each
name would have a write-ahead log of its own). Then, the hard link removed, each round starts
a `kabale play` server on one name of the database (the file itself, a symlink to it, or
another spelling of its path), tries a second server on another name (it must be refused),
plays a burst of moves in a few games, kills the first server with SIGKILL in the
middle of the burst, starts a server on yet another name and counts the acknowledged moves
that are missing. Prints the counts as JSON; exit 1 on a second server let in or a lost move.
Loopback only; bounded by --rounds.

    python tools/probe_links.py --rounds 6
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: every server this probe started: killed at the end, however the probe ends
STARTED: list[subprocess.Popen[bytes]] = []


def start(db: Path) -> tuple[subprocess.Popen[bytes], httpx.Client | None]:
    """A server on ``db``; its client once it answers, or None when it stopped (refused)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "kabale", "play", "--no-browser", "--port",
                             str(port), "--db", str(db), "--effort", "quick"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    STARTED.append(proc)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30.0,
                          headers={"Origin": f"http://127.0.0.1:{port}"})
    for _ in range(300):
        if proc.poll() is not None:
            return proc, None
        try:
            client.get("/api/variants")
            return proc, client
        except httpx.TransportError:
            time.sleep(0.05)
    raise RuntimeError("the server did not start")


def burst(client: httpx.Client, gids: list[str], acked: dict[str, int],
          stop: threading.Event) -> None:
    """Play random legal moves until ``stop``; record each game's acknowledged move count."""
    rng = random.Random()
    while not stop.is_set():
        gid = rng.choice(gids)
        try:
            legal = client.get(f"/api/games/{gid}").json()["observation"]["legal"]
            moves = [m for m in legal if m != "d"] or legal
            if not moves:
                continue
            res = client.post(f"/api/games/{gid}/moves", json={"move": rng.choice(moves)})
        except (httpx.TransportError, KeyError, ValueError):
            return
        if res.status_code == 200:
            made = res.json()["observation"]["moves_made"]
            acked[gid] = max(acked.get(gid, 0), made)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    args = ap.parse_args()
    counts = {"rounds": 0, "second_refused": 0, "second_let_in": 0, "acked_moves": 0,
              "lost_moves": 0, "hard_linked_refused": 0, "hard_linked_let_in": 0}
    with tempfile.TemporaryDirectory() as tmp:
        real = Path(tmp) / "games.db"
        (Path(tmp) / "sub").mkdir()
        names = [real, Path(tmp) / "sym.db", Path(tmp) / "sub" / ".." / "games.db"]
        first, client = start(real)  # creates the file, so the links can point at it
        assert client is not None
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=30)
        names[1].symlink_to(real)
        # A hard link gives the file a second write-ahead log: no server opens it then.
        hard = Path(tmp) / "hard.db"
        os.link(real, hard)
        for name in (real, hard):
            server, client = start(name)
            counts["hard_linked_refused" if client is None else "hard_linked_let_in"] += 1
            if client is not None:
                server.kill()
        hard.unlink()
        for r in range(args.rounds):
            a_name, b_name, c_name = names[r % 3], names[(r + 1) % 3], names[(r + 2) % 3]
            server, client = start(a_name)
            assert client is not None, f"round {r}: the first server would not start"
            second, other = start(b_name)
            if other is None:
                counts["second_refused"] += 1
            else:
                counts["second_let_in"] += 1
                second.kill()
            made = [client.post("/api/games", json={"variant": "spider:suits=1",
                                                    "seed": r * 10 + i}) for i in range(3)]
            assert all(res.status_code == 201 for res in made), made[0].text
            gids = [res.json()["id"] for res in made]
            acked: dict[str, int] = {}
            stop = threading.Event()
            threads = [threading.Thread(target=burst, args=(client, gids, acked, stop))
                       for _ in range(3)]
            for t in threads:
                t.start()
            time.sleep(1.5)
            server.kill()  # SIGKILL mid-burst: no clean-up code runs
            stop.set()
            for t in threads:
                t.join()
            server.wait()
            after, check = start(c_name)
            assert check is not None, f"round {r}: no server after the kill"
            for gid, n in acked.items():
                made = check.get(f"/api/games/{gid}").json()["observation"]["moves_made"]
                counts["acked_moves"] += n
                counts["lost_moves"] += max(0, n - made)
            after.send_signal(signal.SIGTERM)
            after.wait(timeout=30)
            counts["rounds"] += 1
    print(json.dumps(counts))
    bad = counts["second_let_in"] + counts["lost_moves"] + counts["hard_linked_let_in"]
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        for server in STARTED:  # no server outlives the probe, whatever stopped it
            server.kill()
            server.wait()
