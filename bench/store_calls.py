"""What one store call costs, one caller at a time: a rate limit's take (storage.limits:
an address's and a player's bucket), a move's write (GameStore.save at a revision) and the
owner read every game request makes, on SQLite and, given a URL, on PostgreSQL.

    python bench/store_calls.py [--pg postgresql://USER@HOST/DATABASE] [--calls 2000]

The PostgreSQL database should be a scratch one: a game "bench" is written there.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import kabale
from kabale.storage.db import GameStore
from kabale.storage.limits import take


def measure(store: GameStore, calls: int) -> dict[str, float]:
    """Milliseconds per call of each kind, over ``calls`` calls (a quarter for writes)."""
    start = time.perf_counter()
    for i in range(calls):
        take(store, [("a:127.0.0.1", 10**6), (f"p:token{i % 500}", 10**6)])
    limit = (time.perf_counter() - start) / calls * 1e3
    game = kabale.Game.new("klondike", seed=1)
    store.add("bench", game)
    rev, writes = 0, max(1, calls // 4)
    start = time.perf_counter()
    for _ in range(writes):
        rev = store.save("bench", game, "playing", 1.0, rev=rev)
    save = (time.perf_counter() - start) / writes * 1e3
    start = time.perf_counter()
    for _ in range(calls):
        store.owner("bench")
    owner = (time.perf_counter() - start) / calls * 1e3
    return {"limit take": limit, "save": save, "owner read": owner}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", help="a scratch PostgreSQL database's URL")
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    calls = max(1, min(args.calls, 100_000))
    stores: list[tuple[str, GameStore]] = [
        ("SQLite", GameStore(os.path.join(tempfile.mkdtemp(prefix="kabale-calls-"), "k.db")))]
    if args.pg:
        from kabale.storage.pg import PgStore

        stores.append(("PostgreSQL", PgStore(args.pg)))
    for name, store in stores:
        try:
            found = measure(store, calls)
        finally:
            store.close()
        print(f"{name}: " + ", ".join(f"{kind} {ms:.3f} ms" for kind, ms in found.items()))


if __name__ == "__main__":
    main()
