"""The game review as a job (server.review_api over server.jobservice): what running it in a
worker process costs against running it in-process, and how much a review running at the
same time slows the hints, with the review lane's worker niced (the default) and not.

    python bench/review_jobs.py [--variant spider:suits=2] [--moves 120] [--players 10]
                                [--rounds 3] [--effort quick]

The review: a game of ``--moves`` seeded random moves (the stock less often), given up,
reviewed with the true deal at ``--effort``; once in this process (``kabale.review``) and
as a job of the local engine (``Advisor.start_review``) in a review lane not niced and niced
(the default), with the progress reports counted. The hints: ``--players`` players each ask
a hint for a position of their own at once (bench/help_jobs.py's positions), on the local
engine's two play workers; the wall
time of them all, with no review running, with a review running in the niced review lane,
and with one running in a review lane not niced, each ``--rounds`` times, interleaved.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

import kabale
from help_jobs import position, quantile
from kabale import Game
from kabale.advisor.effort import effort_for
from kabale.server import jobservice
from kabale.server.advice import Advisor, position_seed


def reviewed(variant: str, moves: int) -> Game:
    """Deal 7 after ``moves`` seeded random moves, its deal shown (given up)."""
    game = position(variant, 7, moves)
    game.reveal()
    return game


async def _review_job(game: Game, effort: str, nice: int) -> tuple[float, int]:
    """The seconds of the review as a job in a review lane niced by ``nice``, and how many
    progress reports came."""
    jobservice.REVIEW_NICE = nice
    advisor = Advisor(effort)
    reports: list[int] = []
    try:
        start = time.perf_counter()
        job, owner = advisor.start_review("g", game, "p", lambda d, t: reports.append(d))
        await advisor.jobs.wait(job, owner)
        return time.perf_counter() - start, len(reports)
    finally:
        await advisor.aclose()


async def _hints(games: list[Game], effort: str, review: Game | None, nice: int) -> float:
    """The wall time of every game's hint asked at once (two play workers, started first),
    with ``review`` being reviewed meanwhile in a review lane niced by ``nice``."""
    jobservice.REVIEW_NICE = nice
    advisor = Advisor(effort, workers=2, queue=max(len(games), 6))
    try:
        await asyncio.gather(*(advisor.jobs.run("hint", time.sleep, 0.3, seconds=60)
                               for _ in range(2)))
        if review is not None:
            started = asyncio.Event()
            job, owner = advisor.start_review("r", review, "reviewer",
                                              lambda d, t: started.set())
            waiting = asyncio.ensure_future(advisor.jobs.wait(job, owner))
            await started.wait()  # the review is under way
        start = time.perf_counter()
        await asyncio.gather(*(advisor.hint(f"g{i}", g, player=f"p{i}")
                               for i, g in enumerate(games)))
        wall = time.perf_counter() - start
        if review is not None:
            if waiting.done():
                print("  (the review ended before the hints did: a longer --moves)",
                      flush=True)
            advisor.jobs.gone("reviewer")
            await asyncio.gather(waiting, return_exceptions=True)
        return wall
    finally:
        await advisor.aclose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="spider:suits=2")
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--effort", default="quick")
    args = parser.parse_args()
    default_nice = jobservice.REVIEW_NICE
    game = reviewed(args.variant, args.moves)
    start = time.perf_counter()
    kabale.review(game, effort_for(game.variant, args.effort), position_seed(game),
                  with_deal=True)
    inline = time.perf_counter() - start
    plain, reports = asyncio.run(_review_job(game, args.effort, 0))
    niced, _ = asyncio.run(_review_job(game, args.effort, default_nice))
    print(f"review of {args.variant} ({game.moves_made} moves): in-process {inline:.2f} s, "
          f"as a local job {plain:.2f} s not niced, {niced:.2f} s niced {default_nice} "
          f"({reports} progress reports)", flush=True)
    games = [position(args.variant, 1000 + i) for i in range(args.players)]
    walls: dict[str, list[float]] = {"no review": [], f"review niced {default_nice}": [],
                                     "review not niced": []}
    for _ in range(args.rounds):
        for label, review, nice in (("no review", None, default_nice),
                                    (f"review niced {default_nice}", game, default_nice),
                                    ("review not niced", game, 0)):
            walls[label].append(asyncio.run(_hints(games, args.effort, review, nice)))
    jobservice.REVIEW_NICE = default_nice
    for label, values in walls.items():
        print(f"{args.players} hints at once, {label:16}: wall median "
              f"{statistics.median(values):5.2f} s  (p90 {quantile(values, 0.9):5.2f} s; "
              f"{', '.join(f'{v:.2f}' for v in values)})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
