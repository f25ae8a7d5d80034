"""Help as jobs on the local engine (server.jobservice over server.jobs' worker processes):
a cache safe between players, each player's bound, shared jobs, the jobs of a position left
cancelled with their workers killed, the lane's bound with Retry-After, a killed worker's
job retried once and then reported."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import Future
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from local import PORT, gone, local_client, run_async, wait_for
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale import Game
from kabale.advisor import knowledge
from kabale.server.advice import position_key, position_seed, view_key
from kabale.server.app import create_app
from kabale.server.jobdask import DaskBackend
from kabale.server.jobs import BusyError, JobLostError
from kabale.server.jobservice import (
    JobCancelledError,
    JobService,
    Owner,
    engine_setting,
)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "advisor"))
from advice_games import played, twins  # noqa: E402


def new(client: TestClient, **spec: Any) -> dict[str, Any]:
    res = client.post("/api/games", json=spec)
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body



def sleeper(client: TestClient, app: Starlette, owner: Owner | None, seconds: float = 60,
            kind: str = "hint", key: Any = None) -> Future[Any]:
    """A job of ``kind`` that sleeps ``seconds`` in a worker, for ``owner``."""
    portal = client.portal
    assert portal is not None
    return portal.start_task_soon(partial(app.state.advisor.jobs.run, kind, time.sleep,
                                          seconds, seconds=120, owner=owner, key=key))



# ------------------------------------------------------------------------- the cache

def test_what_the_player_has_seen_alone_makes_the_seed_and_the_key() -> None:
    game = played("spider:suits=2", 6, 40)
    pairs = twins(game, limit=3)
    assert pairs
    for twin in pairs:  # a different deal: two unseen cards traded places
        assert twin.state != game.state and knowledge(twin).deal == knowledge(game).deal
        assert view_key(twin) == view_key(game) and position_seed(twin) == position_seed(game)
    other = played("spider:suits=2", 7, 40)  # another deal, other cards seen
    assert view_key(other) != view_key(game)
    fewer = game.copy()
    fewer.undo()
    assert view_key(fewer) != view_key(game)


def test_two_games_of_one_deal_at_one_position_share_one_answer(app: Starlette,
                                                                client: TestClient) -> None:
    game = played("klondike", 6, 30)
    games = app.state.games
    first, second = games.start(game), games.start(game.copy())
    jobs = app.state.advisor.jobs
    got = client.post(f"/api/games/{first.id}/hint")
    assert got.status_code == 200, got.text
    done = jobs.done
    again = client.post(f"/api/games/{second.id}/hint")
    assert again.status_code == 200
    assert again.json()["hint"] == got.json()["hint"]
    assert jobs.done == done  # from the cache: no job ran for the second player


def test_two_deals_at_the_same_seen_position_get_one_answer_from_jobs_of_their_own(
        app: Starlette, client: TestClient) -> None:
    # the same answer (its seed is the view's), but a hit in another deal's entry would
    # confirm a guess at a card (tests/server/test_probes.py), so each deal runs its own job
    game = played("klondike", 6, 30)
    twin = twins(game, limit=1)[0]
    games = app.state.games
    first, second = games.start(game), games.start(twin)
    jobs = app.state.advisor.jobs
    got = client.post(f"/api/games/{first.id}/hint")
    assert got.status_code == 200, got.text
    done = jobs.done
    again = client.post(f"/api/games/{second.id}/hint")
    assert again.status_code == 200
    assert again.json()["hint"] == got.json()["hint"]
    wait_for(client, lambda: jobs.done == done + 1, "a job of the twin's own")


# ------------------------------------------------------------------------- fairness

def test_a_player_has_at_most_three_jobs_and_can_cancel_them(app: Starlette,
                                                             client: TestClient) -> None:
    gid = new(client, variant="klondike", seed=4)["id"]
    jobs, lane = app.state.advisor.jobs, app.state.advisor.play
    waiting = [sleeper(client, app, Owner("local", gid, f"p{i}")) for i in range(3)]
    wait_for(client, lambda: jobs.in_flight("local") == 3 and len(lane.busy()) == 2,
             "three jobs in flight, two running")
    running = lane.busy()
    res = client.post(f"/api/games/{gid}/hint")
    assert res.status_code == 429 and res.json()["code"] == "too_many"
    assert res.headers["Retry-After"] == "1" and res.json()["retry_after"] == 1
    listed = client.get("/api/help").json()
    assert len(listed["jobs"]) == 3 and listed["engine"]["engine"] == "local"
    res = client.delete(f"/api/games/{gid}/help")
    assert res.status_code == 200 and res.json()["cancelled"] == 3
    for job in waiting:
        with pytest.raises(JobCancelledError, match="the player cancelled it"):
            job.result(timeout=30)
    wait_for(client, lambda: all(gone(pid) for pid in running), "the workers killed")
    wait_for(client, lambda: lane.jobs == 0, "the lane empty")
    assert client.post(f"/api/games/{gid}/hint").status_code == 200  # fresh workers


def test_a_move_cancels_the_help_for_the_position_it_left(app: Starlette,
                                                          client: TestClient) -> None:
    body = new(client, variant="klondike", seed=4)
    gid, lane = body["id"], app.state.advisor.play
    here = position_key(app.state.games.get(gid).game)
    stale = sleeper(client, app, Owner("local", gid, here))
    wait_for(client, lambda: len(lane.busy()) == 1, "the job running")
    pid = lane.busy()[0]
    assert client.post(f"/api/games/{gid}/moves", json={"move": "d"}).status_code == 200
    with pytest.raises(JobCancelledError, match="the position changed"):
        stale.result(timeout=30)
    wait_for(client, lambda: gone(pid), "its worker killed")
    # a new game cancels the help of the player's game in play, too
    there = position_key(app.state.games.get(gid).game)
    stale = sleeper(client, app, Owner("local", gid, there))
    wait_for(client, lambda: app.state.advisor.jobs.in_flight("local") == 1, "in flight")
    new(client, variant="spider", seed=1)
    with pytest.raises(JobCancelledError, match="a new game"):
        stale.result(timeout=30)


def test_the_bots_move_cancels_the_help_for_the_position_it_left(
        app: Starlette, client: TestClient) -> None:
    gid = new(client, variant="klondike", seed=4)["id"]
    here = position_key(app.state.games.get(gid).game)
    stale = sleeper(client, app, Owner("local", gid, here), kind="chance")
    wait_for(client, lambda: app.state.advisor.jobs.in_flight("local") == 1, "in flight")
    res = client.post(f"/api/games/{gid}/bot")
    assert res.status_code == 200 and res.json()["bot"]["move"] is not None
    with pytest.raises(JobCancelledError, match="the position changed"):
        stale.result(timeout=30)


def test_a_request_whose_client_went_stops_its_job(app: Starlette,
                                                  client: TestClient) -> None:
    gid = new(client, variant="klondike", seed=4)["id"]
    advisor, lane = app.state.advisor, app.state.advisor.play
    key = advisor._seen("hint", app.state.games.get(gid).game)  # the hint's job's key
    path = f"/api/games/{gid}/hint"
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 50000),
             "server": ("127.0.0.1", PORT),
             "headers": [(b"host", f"127.0.0.1:{PORT}".encode()),
                         (b"content-type", b"application/json")]}

    async def scenario() -> list[Any]:
        jobs, sent, went = advisor.jobs, [], asyncio.Event()
        messages = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop(0)
            await went.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        # another request's job under the hint's key, which the hint request then shares
        holder = asyncio.ensure_future(jobs.run("hint", time.sleep, 60, seconds=120,
                                                owner=Owner("x", "other", ""), key=key))
        while len(lane.busy()) != 1:
            await asyncio.sleep(0.05)
        pid = lane.busy()[0]
        request = asyncio.ensure_future(app(scope, receive, send))
        while jobs.in_flight("local") != 1:
            await asyncio.sleep(0.05)
        holder.cancel()  # the first asker goes: the hint request still wants the job
        await asyncio.gather(holder, return_exceptions=True)
        assert lane.busy() == [pid]
        went.set()  # and now its client goes too
        await request
        for _ in range(1200):
            if gone(pid):
                break
            await asyncio.sleep(0.05)
        assert gone(pid) and jobs.in_flight("local") == 0
        return sent

    portal = client.portal
    assert portal is not None
    sent = portal.call(scenario)
    assert sent[0]["status"] == 499


def test_asking_again_for_a_position_waits_for_the_job_in_flight(app: Starlette,
                                                                 client: TestClient) -> None:
    jobs = app.state.advisor.jobs
    one = sleeper(client, app, Owner("a", "g1", ""), seconds=1, key=("hint", "same"))
    two = sleeper(client, app, Owner("b", "g2", ""), seconds=1, key=("hint", "same"))
    wait_for(client, lambda: jobs.in_flight("a") == 1 and jobs.in_flight("b") == 1, "both")
    assert jobs.lane_jobs("play") == 1  # one job for both players
    assert one.result(timeout=30) is None and two.result(timeout=30) is None
    # a player who stops waiting leaves it to the other, who still gets it
    three = sleeper(client, app, Owner("a", "g1", ""), seconds=1, key=("hint", "again"))
    four = sleeper(client, app, Owner("b", "g2", ""), seconds=1, key=("hint", "again"))
    wait_for(client, lambda: jobs.in_flight("b") == 1, "shared")
    three.cancel()
    assert four.result(timeout=30) is None


def test_a_full_lane_answers_503_with_retry_after(app: Starlette, client: TestClient) -> None:
    gid = new(client, variant="klondike", seed=5)["id"]
    jobs = app.state.advisor.jobs
    background = [sleeper(client, app, None) for _ in range(jobs.limits["play"])]
    wait_for(client, lambda: jobs.lane_jobs("play") == jobs.limits["play"], "lane full")
    res = client.post(f"/api/games/{gid}/hint")
    assert res.status_code == 503 and res.json()["code"] == "busy"
    assert res.headers["Retry-After"] == "2"
    app.state.advisor.close()
    for job in background:
        # ended by the close (a worker killed, a job refused), not run out: a job whose
        # worker was still starting at the close ran its whole minute past it
        with pytest.raises(BusyError):
            job.result(timeout=30)


# ------------------------------------------------------------------------- lost workers

def test_a_killed_workers_job_is_run_again_once_then_reported(app: Starlette,
                                                              client: TestClient) -> None:
    lane = app.state.advisor.play
    other = sleeper(client, app, Owner("b", "g2", ""), seconds=2)
    wait_for(client, lambda: len(lane.busy()) == 1, "the other job running")
    bystander = lane.busy()[0]
    job = sleeper(client, app, Owner("a", "g1", ""), seconds=3)
    wait_for(client, lambda: len(lane.busy()) == 2, "the job running")
    victim = next(pid for pid in lane.busy() if pid != bystander)
    os.kill(victim, signal.SIGKILL)
    assert job.result(timeout=60) is None  # run again in a fresh worker
    assert other.result(timeout=60) is None  # the other player carried on
    twice = sleeper(client, app, Owner("a", "g1", "x"), seconds=60)
    for _ in range(2):
        wait_for(client, lambda: len(lane.busy()) == 1, "running")
        pid = lane.busy()[0]
        os.kill(pid, signal.SIGKILL)
        wait_for(client, lambda p=pid: p not in lane.busy(), "the worker gone")
    with pytest.raises(JobLostError):
        twice.result(timeout=60)


# ------------------------------------------------------------------------- settings

def test_the_engine_setting_is_checked() -> None:
    assert engine_setting(env={}) == ("local", None)
    assert engine_setting(env={"KABALE_ADVICE_SCHEDULER": "tcp://h:8786"}) == (
        "dask", "tcp://h:8786")
    assert engine_setting("local", env={"KABALE_ADVICE_SCHEDULER": "tcp://h:8786"}) == (
        "local", None)
    with pytest.raises(Exception, match="valid: local, dask"):
        engine_setting("ray", env={})
    with pytest.raises(Exception, match="needs the scheduler's address"):
        engine_setting("dask", env={})


def test_an_unfinished_game_and_a_fresh_one_share_nothing_of_their_hidden_cards() -> None:
    # the same moves of two different deals whose seen cards differ never share a key
    a, b = Game.new("spiderette", 1), Game.new("spiderette", 2)
    assert view_key(a) != view_key(b)


def test_a_scheduler_that_cannot_be_reached_is_busy_not_a_crash() -> None:
    port = socket.socket()
    port.bind(("127.0.0.1", 0))  # bound, never listening: nobody answers there
    address = f"tcp://127.0.0.1:{port.getsockname()[1]}"

    async def ask() -> None:
        jobs = JobService(DaskBackend(address, timeout=1.0), {"play": 4, "heavy": 4})
        with pytest.raises(BusyError, match="cannot be reached"):
            await jobs.run("hint", abs, -1, seconds=30, owner=Owner("a", "g", ""))
        await jobs.aclose()

    try:
        run_async(ask())
    finally:
        port.close()


def test_kabale_play_refuses_dask_without_a_scheduler_before_making_a_file(
        tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    done = subprocess.run([sys.executable, "-m", "kabale", "play", "--advice-engine", "dask",
                           "--no-browser", "--port", "0", "--db", str(db)],
                          capture_output=True, text=True, timeout=60,
                          env={k: v for k, v in os.environ.items()
                               if not k.startswith("KABALE_ADVICE")})
    assert done.returncode == 2 and "needs the scheduler's address" in done.stderr
    assert not db.exists()


def test_a_restarted_server_gives_the_hint_it_gave(tmp_path: Path) -> None:
    # the cache is in memory, but an answer is a function of the seen position and effort
    # alone, so a result already delivered is the one the restarted server gives
    db = str(tmp_path / "games.db")
    with local_client(create_app(db, effort="quick")) as first:
        gid = new(first, variant="spider:suits=2", seed=8)["id"]
        assert first.post(f"/api/games/{gid}/moves", json={"move": "d"}).status_code == 200
        before = first.post(f"/api/games/{gid}/hint").json()["hint"]
    with local_client(create_app(db, effort="quick")) as second:
        assert second.post(f"/api/games/{gid}/hint").json()["hint"] == before
