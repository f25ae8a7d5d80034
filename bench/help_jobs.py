"""Help as jobs (server.jobservice): hint latency with N players asking at once, on the local
worker processes and on a Dask LocalCluster, the engine's overhead per job, and throughput
with 1 and 2 workers.

    python bench/help_jobs.py [--players 1,10,50] [--workers 1,2] [--engines local,dask]
                              [--effort quick] [--overhead 40] [VARIANT ...]

Each simulated player asks one hint for a position of their own (deal ``i``, a few seeded
random moves in), all at once, through the Advisor's job service, so no answer is shared or
cached between them; the latency of each is from its request to its answer (queueing
included). The lanes' bounds are raised to the number of players so that nobody is refused
(the page's bound of six would answer the rest 503 at once). Overhead: a job that does
nothing (``abs``), asked one after another. On Dask each worker is a process of one thread,
as ``dask worker --nthreads 1`` runs them (a stand-in for separate machines).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from kabale import Game
from kabale.server.advice import Advisor

FAMILIES = ["klondike", "spider:suits=2"]


def quantile(values: list[float], q: float) -> float:
    """The q-quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def position(variant: str, seed: int, moves: int = 12) -> Game:
    """Deal ``seed`` after up to ``moves`` seeded random moves (the stock less often)."""
    game = Game.new(variant, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.outcome != "playing":
            break
        others = [m for m in legal if not m.is_stock]
        game.play(rng.choice(others) if others and rng.random() < 0.8 else rng.choice(legal))
    return game


@contextmanager
def engine(name: str, workers: int, players: int, effort: str) -> Iterator[Advisor]:
    """An Advisor on ``name`` with ``workers`` workers taking ``players`` jobs at once."""
    queue = max(players, 6)
    if name == "local":
        advisor = Advisor(effort, workers=workers, queue=queue)
        try:
            yield advisor
        finally:
            advisor.close()
        return
    from distributed import LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        advisor = Advisor(effort, queue=queue, engine="dask",
                          scheduler=cluster.scheduler_address)
        advisor.jobs.limits = {"play": queue, "heavy": queue}
        yield advisor


async def _hints(advisor: Advisor, games: list[Game], workers: int) -> tuple[list[float], float]:
    """Each game's hint latency, all asked at once, and the wall time of them all (the
    workers started first: a sleep on each)."""
    async def one(i: int, game: Game) -> float:
        start = time.perf_counter()
        await advisor.hint(f"g{i}", game, player=f"p{i}")
        return time.perf_counter() - start

    try:
        await asyncio.gather(*(advisor.jobs.run("hint", time.sleep, 0.3, seconds=60)
                               for _ in range(workers)))
        start = time.perf_counter()
        latencies = list(await asyncio.gather(*(one(i, g) for i, g in enumerate(games))))
        return latencies, time.perf_counter() - start
    finally:
        await advisor.aclose()


async def _overhead(advisor: Advisor, jobs: int) -> float:
    try:
        await advisor.jobs.run("hint", abs, -1, seconds=60)  # start a worker first
        start = time.perf_counter()
        for _ in range(jobs):
            await advisor.jobs.run("hint", abs, -1, seconds=60)
        return (time.perf_counter() - start) / jobs
    finally:
        await advisor.aclose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=FAMILIES)
    parser.add_argument("--players", default="1,10,50")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--engines", default="local,dask")
    parser.add_argument("--effort", default="quick")
    parser.add_argument("--overhead", type=int, default=40, help="jobs for the overhead")
    args = parser.parse_args()
    players = [int(n) for n in args.players.split(",")]
    workers = [int(n) for n in args.workers.split(",")]
    engines = args.engines.split(",")
    for name in engines:
        with engine(name, 1, 1, args.effort) as advisor:
            per_job = asyncio.run(_overhead(advisor, args.overhead))
        print(f"overhead {name:5}  {per_job * 1000:7.2f} ms per empty job "
              f"({args.overhead} in a row)", flush=True)
    for variant in args.variants:
        for name in engines:
            for w in workers:
                for n in players:
                    games = [position(variant, 1000 + i) for i in range(n)]
                    with engine(name, w, n, args.effort) as advisor:
                        latencies, wall = asyncio.run(_hints(advisor, games, w))
                    print(f"{variant:16} {name:5} workers {w}  players {n:3}  "
                          f"p50 {quantile(latencies, 0.5):6.2f} s  p90 "
                          f"{quantile(latencies, 0.9):6.2f} s  p99 "
                          f"{quantile(latencies, 0.99):6.2f} s  mean "
                          f"{statistics.mean(latencies):6.2f} s  throughput "
                          f"{n / wall:6.2f} hints/s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
