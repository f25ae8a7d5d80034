"""The game review as a job on the local engine (server.review_api over server.jobservice): it
runs in the review lane's niced worker process with its progress reported to the page, after
the hints, at most one per player and a bounded number in all, and it is cancelled, its worker
killed, when its player leaves it: stops asking, asks for another game's review, starts a new
game, cancels, or deletes their data (test_players.py's site app: a cookie's player)."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from local import finished, gone, local_client, wait_for
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale.core.game import Game
from kabale.server import advice
from kabale.server.app import create_app
from kabale.server.jobs import BusyError
from kabale.server.jobservice import (
    PRIORITY,
    REVIEW_NICE,
    JobCancelledError,
    Owner,
    TooManyJobsError,
)
from kabale.server.review_api import Reviews
from kabale.server.site import Site

BASE = "http://cards.test"


def gated_review(gate: str, game: Game, level: Any, seed: int, progress: Any
                 ) -> dict[str, Any]:
    """A stand-in for the review (run in the worker): writes its process id beside
    ``gate``, reports one position done, then waits for ``gate`` to exist and reports
    the rest."""
    total = game.moves_made + 1
    with open(gate + ".pid", "a") as out:
        out.write(f"{os.getpid()}\n")
    progress(1, total)
    while not os.path.exists(gate):
        time.sleep(0.02)
    progress(total, total)
    return {"pid": os.getpid(), "moves": game.moves_made}


@pytest.fixture
def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The reviews of this test are gated_review, opened by creating the returned path."""
    path = tmp_path / "gate"
    monkeypatch.setattr(advice, "_review", partial(gated_review, str(path)))
    return path


def pids(gate: Path) -> list[int]:
    marks = Path(str(gate) + ".pid")
    return [int(line) for line in marks.read_text().split()] if marks.exists() else []




def poll(client: TestClient, gid: str) -> dict[str, Any]:
    res = client.get(f"/api/games/{gid}/analysis")
    assert res.status_code == 200, res.text
    body: dict[str, Any] = res.json()
    return body


def test_a_review_is_a_niced_job_whose_progress_reaches_the_page_and_hints_go_first(
        app: Starlette, client: TestClient, gate: Path) -> None:
    advisor = app.state.advisor
    # a game in play (made first: a new game leaves the look back, and so its review)
    playing = client.post("/api/games", json={"variant": "klondike", "seed": 5}).json()["id"]
    gid = finished(client, moves=3)
    res = client.post(f"/api/games/{gid}/analysis")
    assert res.status_code == 202 and res.json()["state"] == "running", res.text
    # the worker reported its first position: the page's poll shows it
    wait_for(client, lambda: poll(client, gid)["done"] == 1, "the first position reported")
    body = poll(client, gid)
    assert body["state"] == "running" and body["total"] == 4
    (pid,) = pids(gate)
    assert pid != os.getpid() and advisor.reviews.busy() == [pid]
    # low priority: its worker is niced, and it is the lowest of the kinds on Dask
    assert os.getpriority(os.PRIO_PROCESS, pid) - os.getpriority(os.PRIO_PROCESS, 0) \
        == REVIEW_NICE
    assert PRIORITY["review"] < min(v for k, v in PRIORITY.items() if k != "review")
    listed = client.get("/api/help").json()["jobs"]
    assert [(j["kind"], j["game_id"]) for j in listed] == [("review", gid)]
    # a hint of the same player is not held by the review
    hint = client.post(f"/api/games/{playing}/hint")
    assert hint.status_code == 200, hint.text
    assert advisor.reviews.busy() == [pid] and poll(client, gid)["state"] == "running"
    gate.touch()
    wait_for(client, lambda: poll(client, gid)["state"] == "done", "the review done")
    body = poll(client, gid)
    assert body["review"] == {"pid": pid, "moves": 3} and body["done"] == body["total"] == 4
    assert client.post(f"/api/games/{gid}/analysis").json()["review"] == body["review"]
    assert len(pids(gate)) == 1  # asked again: answered, not run again


def test_a_review_nobody_asks_about_is_cancelled_and_asking_again_starts_it_afresh(
        app: Starlette, client: TestClient, gate: Path) -> None:
    app.state.reviews = Reviews(lease=1.0)
    jobs = app.state.advisor.jobs
    gid = finished(client)
    assert client.post(f"/api/games/{gid}/analysis").status_code == 202
    wait_for(client, lambda: len(pids(gate)) == 1, "the review running")
    pid = pids(gate)[0]
    # nobody polls (the page closed the review): it is cancelled and its worker killed
    wait_for(client, lambda: jobs.in_flight("local") == 0 and gone(pid), "it stopped")
    body = poll(client, gid)
    assert body["state"] == "failed" and body["code"] == "cancelled", body
    again = client.post(f"/api/games/{gid}/analysis")
    assert again.status_code == 202 and again.json()["state"] == "running"
    wait_for(client, lambda: len(pids(gate)) == 2, "run afresh")


def test_leaving_a_review_cancels_it(app: Starlette, client: TestClient, gate: Path) -> None:
    jobs = app.state.advisor.jobs
    first, second = finished(client, seed=7), finished(client, seed=8)
    assert client.post(f"/api/games/{first}/analysis").status_code == 202
    wait_for(client, lambda: len(pids(gate)) == 1, "the first review running")
    # the review of another game: the first is left (one review per player)
    assert client.post(f"/api/games/{second}/analysis").status_code == 202
    wait_for(client, lambda: gone(pids(gate)[0]), "the first review's worker killed")
    body = poll(client, first)
    assert body["state"] == "failed" and body["code"] == "cancelled", body
    wait_for(client, lambda: len(pids(gate)) == 2, "the second review running")
    assert poll(client, second)["state"] == "running"
    # a new game leaves the look back
    assert client.post("/api/games", json={"variant": "klondike"}).status_code == 201
    wait_for(client, lambda: gone(pids(gate)[1]), "the second review's worker killed")
    assert poll(client, second)["code"] == "cancelled"
    # and the page's cancel stops one too
    assert client.post(f"/api/games/{first}/analysis").status_code == 202
    wait_for(client, lambda: len(pids(gate)) == 3, "the first review again")
    res = client.delete(f"/api/games/{first}/help")
    assert res.status_code == 200 and res.json()["cancelled"] == 1
    wait_for(client, lambda: gone(pids(gate)[2]) and jobs.in_flight("local") == 0, "stopped")


def test_reviews_are_bounded_per_player_and_in_all(app: Starlette,
                                                   client: TestClient) -> None:
    jobs = app.state.advisor.jobs
    portal = client.portal
    assert portal is not None

    def review(player: str, game: str) -> Any:
        return portal.start_task_soon(partial(jobs.run, "review", time.sleep, 60,
                                              seconds=120, owner=Owner(player, game, "")))

    running = [review(f"p{i}", "g") for i in range(jobs.limits["review"])]
    wait_for(client, lambda: jobs.lane_jobs("review") == jobs.limits["review"], "lane full")

    async def ask(player: str, game: str) -> None:
        jobs.start("review", time.sleep, 60, seconds=120, owner=Owner(player, game, ""))

    with pytest.raises(TooManyJobsError, match="1 review"):
        portal.call(ask, "p0", "another game")
    with pytest.raises(BusyError, match="busy"):
        portal.call(ask, "p9", "g")
    for i in range(len(running)):
        assert portal.call(jobs.gone, f"p{i}") == 1
    for job in running:
        with pytest.raises(JobCancelledError, match="deleted their data"):
            job.result(timeout=30)


def test_a_review_in_progress_ends_when_the_server_stops(tmp_path: Path, gate: Path) -> None:
    app = create_app(str(tmp_path / "games.db"), effort="quick")
    with local_client(app) as client:
        gid = finished(client)
        assert client.post(f"/api/games/{gid}/analysis").status_code == 202
        wait_for(client, lambda: len(pids(gate)) == 1, "the review running")
        record = app.state.reviews.get(gid)
    # the app's lifespan ended: the job cancelled, its worker stopped, the poll says so
    assert record.to_dict()["state"] == "failed" and record.code == "cancelled"
    (pid,) = pids(gate)
    for _ in range(1200):  # a wait, not a timed assertion
        if gone(pid):
            break
        time.sleep(0.05)
    assert gone(pid)


# ------------------------------------------------------------------- deleting a player

@pytest.fixture
def site_app(tmp_path: Path) -> Iterator[Starlette]:
    app = create_app(str(tmp_path / "site.db"), effort="quick", search_seconds=60.0,
                     site=Site(allowed_hosts=("cards.test",)))
    yield app
    if app.state.advisor is not None:
        app.state.advisor.close()


def browser(app: Starlette) -> TestClient:
    return TestClient(app, base_url=BASE, raise_server_exceptions=False,
                      headers={"Content-Type": "application/json"})


def test_deleting_a_player_stops_their_jobs_and_frees_their_workers(
        site_app: Starlette, tmp_path: Path, gate: Path) -> None:
    advisor = site_app.state.advisor
    jobs = advisor.jobs
    with browser(site_app) as alice, browser(site_app) as bob:
        gid = finished(alice)
        with sqlite3.connect(tmp_path / "site.db") as conn:
            (player,) = conn.execute("SELECT player FROM games WHERE id=?", (gid,)).fetchone()
        assert alice.post(f"/api/games/{gid}/analysis").status_code == 202
        portal = alice.portal
        assert portal is not None
        # a hint of hers in another game, and a job of Bob's on the same engine
        hers = portal.start_task_soon(partial(jobs.run, "hint", time.sleep, 60, seconds=120,
                                              owner=Owner(player, "other", "")))
        bobs_game = bob.post("/api/games", json={"variant": "klondike", "seed": 3}).json()
        his = portal.start_task_soon(partial(jobs.run, "chance", time.sleep, 5, seconds=120,
                                             owner=Owner("bob", bobs_game["id"], "")))
        wait_for(alice, lambda: len(pids(gate)) == 1 and len(advisor.play.busy()) == 2,
                 "her review and both hints running")
        review_pid = pids(gate)[0]
        busy = set(advisor.play.busy())
        res = alice.post("/api/player/delete", json={"confirm": True})
        assert res.status_code == 200 and res.json()["deleted"] is True, res.text
        with pytest.raises(JobCancelledError, match="deleted their data"):
            hers.result(timeout=30)
        wait_for(alice, lambda: jobs.in_flight(player) == 0 and gone(review_pid),
                 "her review's worker killed")
        wait_for(alice, lambda: any(gone(pid) for pid in busy), "her hint's worker killed")
        assert his.result(timeout=60) is None  # Bob's job carried on, in his worker
        assert sum(gone(pid) for pid in busy) == 1
        assert site_app.state.reviews.get(gid) is None  # her review forgotten


# ------------------------------------------------------------------- coach mode

def test_coach_is_a_job_of_the_players_counted_and_cached_like_a_hint(
        app: Starlette, client: TestClient) -> None:
    jobs = app.state.advisor.jobs
    gid = client.post("/api/games", json={"variant": "klondike", "seed": 7}).json()["id"]
    first = client.post(f"/api/games/{gid}/coach", json={"move": "d"})
    assert first.status_code == 200, first.text
    done = jobs.done
    again = client.post(f"/api/games/{gid}/coach", json={"move": "d"})
    assert again.json() == first.json() and jobs.done == done  # from the cache
    portal = client.portal
    assert portal is not None
    held = [portal.start_task_soon(partial(jobs.run, "hint", time.sleep, 60, seconds=120,
                                           owner=Owner("local", gid, f"p{i}")))
            for i in range(3)]
    wait_for(client, lambda: jobs.in_flight("local") == 3, "three jobs of the player's")
    other = client.post(f"/api/games/{gid}/coach", json={"move": "1>4"})
    assert other.status_code == 429 and other.json()["code"] == "too_many", other.text
    assert client.delete(f"/api/games/{gid}/help").json()["cancelled"] == 3
    for job in held:
        with pytest.raises(JobCancelledError):
            job.result(timeout=30)
