"""Help as jobs on Dask distributed, the engine a site grows with: a real LocalCluster of two
worker processes (one thread each, with nannies, as ``dask worker`` runs them). Jobs run
there, a cancelled job stops (its worker restarted), a killed worker's job is run again once
and then reported, and the advisor's hint from a Dask worker is the local one. The game review
runs there too, its progress coming back as Dask events, and it stops when its player deletes
their data."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import cloudpickle
import dask
import pytest
from distributed import LocalCluster
from local import gone, run_async

import kabale
from kabale import Game
from kabale.advisor import hint as advisor_hint
from kabale.advisor.effort import effort_for
from kabale.server import advice
from kabale.server.advice import Advisor, position_seed
from kabale.server.jobdask import DaskBackend
from kabale.server.jobs import JobLostError, JobTimeoutError
from kabale.server.jobservice import JobCancelledError, JobService, Owner
from kabale.server.moved import with_facts

# the workers cannot import this file: its functions travel by value
cloudpickle.register_pickle_by_value(sys.modules[__name__])

pytestmark = pytest.mark.slow  # a cluster of two processes takes seconds to start


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    # A worker's death fails its task at once (KilledWorker); the job service runs it once
    # more itself, so that both engines retry the same way.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                         dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def pid_then_sleep(path: str, seconds: float) -> int:
    """Write this worker's process id to ``path`` (a new line each time), then sleep."""
    with open(path, "a") as out:
        out.write(f"{os.getpid()}\n")
    time.sleep(seconds)
    return os.getpid()


def pids(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


async def until(done: Any, what: str) -> None:
    """Wait (up to a minute) for ``done()``."""
    for _ in range(1200):
        if done():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")



def service(address: str) -> JobService:
    return JobService(DaskBackend(address), {"play": 8, "heavy": 8})


def test_jobs_run_on_the_workers_and_a_hint_is_the_local_one(scheduler: str) -> None:
    async def main() -> None:
        jobs = service(scheduler)
        try:
            pid = await jobs.run("hint", os.getpid, seconds=30, owner=Owner("a", "g", ""))
            assert pid != os.getpid() and (await jobs.status())["workers"] == 2
        finally:
            await jobs.aclose()
        advisor = Advisor("quick", engine="dask", scheduler=scheduler)
        game = Game.new("klondike", 11)
        try:
            got = await advisor.hint("g1", game)
        finally:
            await advisor.aclose()
        assert got == advisor_hint(game, effort_for(game.variant, "quick"), position_seed(game))

    run_async(main())


def test_a_cancelled_job_stops_and_its_worker_is_freed(scheduler: str, tmp_path: Path) -> None:
    marks = tmp_path / "pids"

    async def main() -> None:
        jobs = service(scheduler)
        try:
            job = asyncio.ensure_future(jobs.run("hint", pid_then_sleep, str(marks), 120,
                                                 seconds=150, owner=Owner("a", "g", "p")))
            await until(lambda: pids(marks), "the job running")
            (pid,) = pids(marks)
            assert jobs.left("a", "g", "q") == 1
            with pytest.raises(JobCancelledError, match="the position changed"):
                await job
            await until(lambda: gone(pid), "the worker running it restarted")
            client = jobs.backend.client  # type: ignore[attr-defined]
            assert not any((await client.processing()).values())  # nothing left running
            assert await jobs.run("hint", os.getpid, seconds=60, owner=Owner("a", "g", "q"))
            # a job past its deadline is stopped the same way
            late = tmp_path / "late"
            with pytest.raises(JobTimeoutError, match="longer than 2 s"):
                await jobs.run("hint", pid_then_sleep, str(late), 120, seconds=2,
                               owner=Owner("a", "g", "q"))
            await until(lambda: gone(pids(late)[0]), "the late job's worker restarted")
        finally:
            await jobs.aclose()

    run_async(main())


def test_a_killed_workers_job_is_run_again_once_then_reported(scheduler: str,
                                                              tmp_path: Path) -> None:
    once, twice = tmp_path / "once", tmp_path / "twice"

    async def main() -> None:
        jobs = service(scheduler)
        try:
            job = asyncio.ensure_future(jobs.run("hint", pid_then_sleep, str(once), 3,
                                                 seconds=120, owner=Owner("a", "g", "")))
            other = asyncio.ensure_future(jobs.run("hint", pid_then_sleep, str(tmp_path / "o"),
                                                   3, seconds=120, owner=Owner("b", "h", "")))
            await until(lambda: pids(once), "the job running")
            os.kill(pids(once)[0], signal.SIGKILL)
            assert await job != pids(once)[0]  # run again, elsewhere
            assert len(pids(once)) == 2
            assert await other  # the other player's job carried on
            lost = asyncio.ensure_future(jobs.run("hint", pid_then_sleep, str(twice), 120,
                                                  seconds=150, owner=Owner("a", "g", "x")))
            for n in (1, 2):
                await until(lambda n=n: len(pids(twice)) == n, f"attempt {n} running")
                os.kill(pids(twice)[-1], signal.SIGKILL)
            with pytest.raises(JobLostError):
                await lost
        finally:
            await jobs.aclose()

    run_async(main())


def finished_game(moves: int = 6) -> Game:
    """A Klondike game of ``moves`` moves, given up (its deal shown): ready for review."""
    game = Game.new("klondike", 7)
    for _ in range(moves):
        game.play(game.legal_moves()[0])
    game.reveal()
    return game


def test_a_review_runs_on_the_workers_with_its_progress_and_is_the_local_one(
        scheduler: str) -> None:
    game = finished_game()
    expected = kabale.review(game, effort_for(game.variant, "quick"), position_seed(game),
                             with_deal=True).to_dict()
    # the job's answer: the review with what each move moved, for the page's words
    expected["decisions"] = with_facts(game, list(expected["decisions"]))  # type: ignore[call-overload]

    async def main() -> None:
        advisor = Advisor("quick", engine="dask", scheduler=scheduler)
        reported: list[tuple[int, int]] = []
        try:
            job, owner = advisor.start_review("g", game, "a",
                                              lambda d, t: reported.append((d, t)))
            assert job.priority < 0 and job.lane == "review"
            got = await advisor.jobs.wait(job, owner)
            # the events come by the scheduler, maybe after the answer: waited for
            await until(lambda: (7, 7) in reported, "the last position reported")
        finally:
            await advisor.aclose()
        assert got == expected
        done = [d for d, _ in reported]
        assert done == sorted(done) and {t for _, t in reported} == {7} and len(done) >= 7

    run_async(main())


def gated_review(gate: str, game: Game, level: Any, seed: int, progress: Any) -> int:
    """A stand-in for the review on a worker: its process id beside ``gate``, one position
    reported, then it waits for ``gate``."""
    with open(gate + ".pid", "a") as out:
        out.write(f"{os.getpid()}\n")
    progress(1, game.moves_made + 1)
    while not os.path.exists(gate):
        time.sleep(0.05)
    return os.getpid()


def test_a_review_stops_when_its_player_deletes_their_data(
        scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = tmp_path / "gate"
    monkeypatch.setattr(advice, "_review", partial(gated_review, str(gate)))

    async def main() -> None:
        advisor = Advisor("quick", engine="dask", scheduler=scheduler)
        reported: list[tuple[int, int]] = []
        try:
            job, owner = advisor.start_review("g", finished_game(3), "a",
                                              lambda d, t: reported.append((d, t)))
            waiting = asyncio.ensure_future(advisor.jobs.wait(job, owner))
            await until(lambda: reported == [(1, 4)], "the first position reported")
            (pid,) = pids(Path(str(gate) + ".pid"))
            assert advisor.jobs.gone("a") == 1
            with pytest.raises(JobCancelledError, match="deleted their data"):
                await waiting
            await until(lambda: gone(pid), "the worker running it restarted")
            client = advisor.backend.client  # type: ignore[attr-defined]
            assert not any((await client.processing()).values())  # nothing left running
        finally:
            await advisor.aclose()

    run_async(main())
