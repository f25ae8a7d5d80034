"""Help control shared by the web processes of one database (server.helpshare): two apps on
one SQLite file stand for two web workers of `kabale serve --workers 2` (each its own job
service and worker processes). A review started through one is polled to done through the
other; a review or a hint started through one is stopped by a cancel, a move or deleting
the player sent to the other, its worker freed, while another player's job carries on.
test_help_shared_processes.py does the same with real server processes, on SQLite and on
PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import gatedhelp
import pytest
from local import finished, gone, wait_for
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale.server import advice
from kabale.server.app import create_app
from kabale.server.site import COOKIE, Limits, Site
from kabale.storage import helpstate

BASE = "http://cards.test"
MANY = 10**6
SITE = Site(allowed_hosts=("cards.test", "127.0.0.1"),
            limits=Limits(games=MANY, moves=MANY, help=MANY, transfer=MANY))
TOKEN = "operator-token-for-the-tests-0123"


@pytest.fixture
def gates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The hints and reviews of this test wait for their gate (tests/server/gatedhelp)."""
    folder = tmp_path / "gates"
    folder.mkdir()
    for name, stand_in in gatedhelp.stand_ins(folder).items():
        monkeypatch.setattr(advice, name, stand_in)
    return folder


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Starlette, Starlette]]:
    """Two web processes' apps on one database, sharing the help's control."""
    apps = tuple(create_app(str(tmp_path / "site.db"), effort="quick", site=SITE,
                            shared_help=True) for _ in range(2))
    for app in apps:
        app.state.help_control.poll = 0.2
    yield apps  # type: ignore[misc]
    for app in apps:
        if app.state.advisor is not None:
            app.state.advisor.close()


def served(app: Starlette) -> TestClient:
    """The app's one in-process client (one event loop per app, as in a process)."""
    return TestClient(app, base_url=BASE, raise_server_exceptions=False,
                      headers={"Content-Type": "application/json"})


class Browser:
    """One player's browser on a process's client: its cookie sent with each request (the
    client's own jar left empty, for the client serves several players)."""

    def __init__(self, client: TestClient, token: str | None = None) -> None:
        self.client, self.token = client, token
        self.portal = client.portal

    def to(self, client: TestClient) -> Browser:
        """The same player, through another process."""
        return Browser(client, self.token)

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        headers = {"Cookie": f"{COOKIE}={self.token}"} if self.token else {}
        res = self.client.request(method, path, headers=headers, **kwargs)
        if self.token is None and COOKIE in self.client.cookies:
            self.token = self.client.cookies[COOKIE]
        self.client.cookies.clear()
        return res

    def get(self, path: str) -> Any:
        return self._call("GET", path)

    def post(self, path: str, json: Any = None) -> Any:
        return self._call("POST", path, json=json)

    def delete(self, path: str) -> Any:
        return self._call("DELETE", path)


def in_flight(app: Starlette) -> int:
    """The jobs in flight in ``app``'s job service, every lane."""
    jobs = app.state.advisor.jobs
    return sum(jobs.lane_jobs(lane) for lane in jobs.limits)


def test_help_is_seen_and_stopped_through_either_process(
        two: tuple[Starlette, Starlette], gates: Path) -> None:
    one, other = two
    with served(one) as one_client, served(other) as other_client, \
            ThreadPoolExecutor(4) as pool:
        a, her_a = Browser(one_client), Browser(one_client)
        hers = her_a.post("/api/games", json={"variant": "klondike", "seed": 21}).json()
        gid = finished(a, seed=7)
        b = a.to(other_client)
        # a review started through the first process is polled through the second
        assert a.post(f"/api/games/{gid}/analysis").status_code == 202
        wait_for(one_client, lambda: b.get(f"/api/games/{gid}/analysis").json()["done"] == 1,
                 "its progress read through the other process")
        assert b.get(f"/api/games/{gid}/analysis").json()["state"] == "running"
        again = b.post(f"/api/games/{gid}/analysis")  # the one running, not a second
        assert again.status_code == 202 and again.json()["state"] == "running"
        assert in_flight(other) == 0
        # the page's cancel sent to the second process stops it in the first
        (pid, _), = gatedhelp.started(gates, "review")
        assert b.delete(f"/api/games/{gid}/help").status_code == 200
        wait_for(one_client, lambda: gone(pid) and in_flight(one) == 0, "the review stopped")
        body = b.get(f"/api/games/{gid}/analysis").json()
        assert body["state"] == "failed" and body["code"] == "cancelled", body
        # asked again through the first process, done, read through the second
        assert a.post(f"/api/games/{gid}/analysis").json()["state"] == "running"
        wait_for(one_client, lambda: len(gatedhelp.started(gates, "review")) == 2, "again")
        (gates / "review").touch()
        wait_for(one_client, lambda: b.get(f"/api/games/{gid}/analysis").json()["state"]
                 == "done", "the review done, read through the other process")
        body = b.get(f"/api/games/{gid}/analysis").json()
        assert body["done"] == body["total"] == 4
        assert body["review"] == a.get(f"/api/games/{gid}/analysis").json()["review"]
        assert len(body["review"]["decisions"]) == 3
        # her hint held in flight through the first process (within its deadline)
        her_hint = pool.submit(her_a.post, f"/api/games/{hers['id']}/hint")
        wait_for(one_client, lambda: len(gatedhelp.started(gates, "hint")) == 1,
                 "her hint running")
        (her_pid, _), = gatedhelp.started(gates, "hint")
        # a hint through the first process, a move through the second: stopped
        game = a.post("/api/games", json={"variant": "klondike", "seed": 9}).json()
        mine = pool.submit(a.post, f"/api/games/{game['id']}/hint")
        wait_for(one_client, lambda: len(gatedhelp.started(gates, "hint")) == 2, "my hint")
        pid = gatedhelp.started(gates, "hint")[1][0]
        moved = b.post(f"/api/games/{game['id']}/moves",
                       json={"move": game["observation"]["legal"][0]})
        assert moved.status_code == 200, moved.text
        assert mine.result(timeout=60).json()["code"] == "cancelled"
        wait_for(one_client, lambda: gone(pid) and in_flight(one) == 1, "my hint stopped")
        # and deleting the player through the second stops the next one
        mine = pool.submit(a.post, f"/api/games/{game['id']}/hint")
        wait_for(one_client, lambda: len(gatedhelp.started(gates, "hint")) == 3, "my hint")
        pid = gatedhelp.started(gates, "hint")[2][0]
        assert b.post("/api/player/delete", json={"confirm": True}).status_code == 200
        assert mine.result(timeout=60).json()["code"] == "cancelled"
        wait_for(one_client, lambda: gone(pid) and in_flight(one) == 1, "stopped by the delete")
        # her hint went on, and is answered
        assert not gone(her_pid) and in_flight(one) == 1
        (gates / "hint").touch()
        answered = her_hint.result(timeout=60)
        assert answered.status_code == 200 and answered.json()["hint"]["move"], answered.text
        wait_for(one_client, lambda: in_flight(one) == 0, "nothing in flight")


def test_a_move_without_help_in_flight_writes_no_mark(two: tuple[Starlette, Starlette],
                                                      gates: Path) -> None:
    """The move path stays as it was when there is nothing to cancel: no mark is written
    (the game's help_until, read with its owner, says no help is in flight)."""
    one, other = two
    store = one.state.games.store
    with served(one) as one_client, served(other) as other_client:
        a = Browser(one_client)
        game = a.post("/api/games", json={"variant": "klondike", "seed": 4}).json()
        b = a.to(other_client)
        for client in (a, b, a):
            game = client.post(f"/api/games/{game['id']}/moves",
                               json={"move": game["observation"]["legal"][0]}).json()
        with store._reading() as conn:
            scopes = [row[0] for row in conn.execute("SELECT scope FROM help_marks")]
        assert scopes == ["started"]  # the new game's only
        assert helpstate.owner_help(store, game["id"])[2] == 0.0
        # a hint answered: the help is over again, and a move after it writes nothing
        (gates / "hint").touch()
        assert a.post(f"/api/games/{game['id']}/hint").status_code == 200
        wait_for(one_client, lambda: helpstate.owner_help(store, game["id"])[2] == 0.0, "over")
        a.post(f"/api/games/{game['id']}/moves",
               json={"move": game["observation"]["legal"][0]})
        with store._reading() as conn:
            assert conn.execute("SELECT count(*) FROM help_marks").fetchone()[0] == 1


def test_the_shared_tables_name_no_player_and_hold_no_card(
        two: tuple[Starlette, Starlette], gates: Path, tmp_path: Path) -> None:
    """The marks and review rows name a player by a keyed hash and a position by a digest:
    neither the player's id nor their token, nor a move or a card, is written in clear."""
    one, _ = two
    store = one.state.games.store
    with served(one) as one_client:
        a = Browser(one_client)
        game = a.post("/api/games", json={"variant": "klondike", "seed": 4}).json()
        held = ThreadPoolExecutor(1).submit(a.post, f"/api/games/{game['id']}/hint")
        wait_for(one_client, lambda: len(gatedhelp.started(gates, "hint")) == 1,
                 "hint running")
        move = next(m for m in game["observation"]["legal"] if ">" in m)
        a.post(f"/api/games/{game['id']}/moves", json={"move": move})
        assert held.result(timeout=60).json()["code"] == "cancelled"
        token = a.token
        assert token
        with store._reading() as conn:
            player = conn.execute("SELECT player FROM games").fetchone()[0]
            rows = [tuple(r) for r in conn.execute("SELECT * FROM help_marks")]
    assert {row[3] for row in rows} == {"started", "left"}
    text = json.dumps(rows)
    assert player not in text and token not in text and move not in text


# ------------------------------------------------------------------ real server processes

def test_a_review_polled_through_another_process_keeps_going_and_one_nobody_polls_stops(
        two: tuple[Starlette, Starlette], gates: Path) -> None:
    """The review's lease counts from the last poll through any process: polled only
    through the second one, the review run by the first goes on past the lease; left
    unpolled, it is cancelled, and its row says so to both."""
    from kabale.server.review_api import Reviews

    one, other = two
    one.state.reviews = Reviews(lease=1.0, control=one.state.help_control)
    with served(one) as one_client, served(other) as other_client:
        a = Browser(one_client)
        gid = finished(a, seed=7)
        b = a.to(other_client)
        assert a.post(f"/api/games/{gid}/analysis").status_code == 202
        wait_for(one_client, lambda: len(gatedhelp.started(gates, "review")) == 1, "running")
        pid = gatedhelp.started(gates, "review")[0][0]
        for _ in range(12):  # three leases, polled through the second process only
            assert b.get(f"/api/games/{gid}/analysis").json()["state"] == "running"
            one_client.portal.call(asyncio.sleep, 0.25)  # type: ignore[union-attr]
        assert not gone(pid) and in_flight(one) == 1
        wait_for(one_client, lambda: gone(pid) and in_flight(one) == 0, "unpolled: stopped")
        for client in (a, b):
            body = client.get(f"/api/games/{gid}/analysis").json()
            assert body["state"] == "failed" and body["code"] == "cancelled", body


def test_shared_review_rows_that_cannot_be_read_answer_503_not_a_crash(
        two: tuple[Starlette, Starlette], monkeypatch: pytest.MonkeyPatch) -> None:
    from kabale.storage.db import StorageError

    def broken(*args: Any) -> None:
        raise StorageError("the game database cannot be used: disk I/O error")

    one, _ = two
    with served(one) as one_client:
        a = Browser(one_client)
        gid = finished(a, seed=7)
        monkeypatch.setattr(helpstate, "read_review", broken)
        for method in ("GET", "POST"):
            res = a._call(method, f"/api/games/{gid}/analysis")
            assert res.status_code == 503 and "disk I/O error" in res.json()["error"]


@pytest.mark.parametrize("workers", [1, 2])
def test_kabale_serve_shares_the_help_only_with_several_web_workers(
        workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One web worker on a SQLite file is the file's only process (its lock): it shares
    nothing, and pays nothing for it; several share the help's control."""
    from dataclasses import asdict

    from kabale.server.serve import _HANDOVER, Settings, worker_app

    config = Settings(db=str(tmp_path / "site.db"), workers=workers,
                      allowed_hosts=["127.0.0.1"])
    monkeypatch.setenv(_HANDOVER, json.dumps(asdict(config)))
    app = worker_app()
    try:
        assert (app.state.help_control is not None) == (workers > 1)
        if workers > 1:
            assert app.state.advisor.jobs.control is app.state.help_control
    finally:
        if app.state.advisor is not None:
            app.state.advisor.close()


def test_a_new_game_through_another_process_stops_the_help_of_the_others(
        two: tuple[Starlette, Starlette], gates: Path) -> None:
    one, other = two
    with served(one) as one_client, served(other) as other_client, \
            ThreadPoolExecutor(2) as pool:
        a = Browser(one_client)
        game = a.post("/api/games", json={"variant": "klondike", "seed": 9}).json()
        mine = pool.submit(a.post, f"/api/games/{game['id']}/hint")
        wait_for(one_client, lambda: len(gatedhelp.started(gates, "hint")) == 1, "my hint")
        pid = gatedhelp.started(gates, "hint")[0][0]
        fresh = a.to(other_client).post("/api/games", json={"variant": "klondike"})
        assert fresh.status_code == 201
        assert mine.result(timeout=60).json()["code"] == "cancelled"
        wait_for(one_client, lambda: gone(pid) and in_flight(one) == 0, "stopped")


def test_a_players_bound_counts_their_jobs_in_every_process(
        two: tuple[Starlette, Starlette], gates: Path) -> None:
    """Three jobs of a player in flight through the first process (a review, two hints): a
    fourth through the second is refused 429 as in one process; the same hint (the same
    seen position of the same deal) asked through the second is the same job, not a
    fourth; once the review ends, the second process takes one more."""
    one, other = two
    store = one.state.games.store

    def counted() -> int:
        with store._reading() as conn:
            return int(conn.execute("SELECT count(DISTINCT job) FROM help_jobs").fetchone()[0])

    with served(one) as one_client, served(other) as other_client, \
            ThreadPoolExecutor(4) as pool:
        a = Browser(one_client)
        gid = finished(a, seed=7)
        # two games, and a third of the first one's deal (the same seen position)
        games = [a.post("/api/games", json={"variant": "klondike", "seed": seed}).json()["id"]
                 for seed in (9, 10, 9)]
        b = a.to(other_client)
        assert a.post(f"/api/games/{gid}/analysis").status_code == 202
        hints = [pool.submit(a.post, f"/api/games/{game}/hint") for game in games[:2]]
        wait_for(one_client, lambda: len(gatedhelp.started(gates, "hint")) == 2
                 and len(gatedhelp.started(gates, "review")) == 1, "three jobs in A")
        assert counted() == 3
        with store._reading() as conn:  # the player and the positions by keyed digests
            player = conn.execute("SELECT player FROM games WHERE id=?", (gid,)).fetchone()[0]
            text = json.dumps([tuple(r) for r in conn.execute("SELECT * FROM help_jobs")])
        assert player not in text and str(a.token) not in text and "klondike" not in text
        # the same hint through the second process (the same deal at the same seen
        # position, in the third game): the same job, counted once
        hints.append(pool.submit(b.post, f"/api/games/{games[2]}/hint"))
        wait_for(other_client, lambda: len(gatedhelp.started(gates, "hint")) == 3, "in B")
        assert counted() == 3 and in_flight(other) == 1
        # a fourth job through the second process: refused as one process refuses it
        refused = b.get(f"/api/games/{gid}/chance")
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "too_many" and refused.headers["Retry-After"] == "1"
        assert "3 requests for help" in refused.json()["error"]
        assert in_flight(other) == 1
        # the review ends in the first process: the second takes one more
        (gates / "review").touch()
        wait_for(one_client, lambda: in_flight(one) == 2 and counted() == 2, "review over")
        taken = b.get(f"/api/games/{gid}/chance")  # (a finished game's: no write to it)
        assert taken.status_code == 200 and "chance" in taken.json(), taken.text
        (gates / "hint").touch()
        assert [hint.result(timeout=60).status_code for hint in hints] == [200, 200, 200]
        wait_for(one_client, lambda: counted() == 0, "nothing counted")


class _Held:
    """A backend whose jobs answer their name once released (no worker process)."""

    name = "held"

    def __init__(self) -> None:
        self.gates: dict[str, asyncio.Event] = {}

    async def run(self, job: Any, seconds: float) -> str:
        gate = self.gates.setdefault(str(job.args[0]), asyncio.Event())
        await gate.wait()
        return str(job.args[0])

    async def workers(self) -> int:
        return 0

    async def aclose(self) -> None:
        pass


class _Counting:
    """A control that records what a job service asks it to count and to free, and
    refuses a player named ``full``."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, object]] = []

    def asked(self, owner: Any, until: float) -> None:
        pass

    def released(self, owner: Any, until: float) -> None:
        pass

    async def admit(self, owner: Any, kind: str, lane: str, name: object, until: float,
                    most: int, most_of_kind: int | None) -> None:
        from kabale.server.jobservice import too_many

        if owner.player == "full":
            raise too_many(most, kind)
        self.calls.append(("admit", owner.player, name))

    def freed(self, owner: Any, name: object) -> None:
        self.calls.append(("freed", owner.player, name))


def test_a_job_service_counts_a_job_once_per_player_and_frees_it_once() -> None:
    """JobService.begin asks the control to count a job only when it does not count it
    for the player already, and frees it once the player waits for it no more."""
    from local import run_async

    from kabale.server.jobservice import JobService, Owner, TooManyJobsError

    async def main() -> list[tuple[str, str, object]]:
        backend, control = _Held(), _Counting()
        jobs = JobService(backend, {"play": 6, "heavy": 4, "review": 4})
        jobs.control = control
        started = [await jobs.begin("hint", str, "k", seconds=30, key="k",
                                    owner=Owner(player, game, "p"))
                   for player, game in (("a", "g1"), ("a", "g2"), ("b", "g3"))]
        bot = await jobs.begin("bot", str, "bot", seconds=30, owner=Owner("a", "g1", "p"))
        assert started[0] is started[1] is started[2]
        with pytest.raises(TooManyJobsError, match="3 requests"):
            await jobs.begin("hint", str, "k2", seconds=30, key="k2",
                             owner=Owner("full", "g9", "p"))
        assert jobs.lane_jobs("play") == 2
        waits = [asyncio.ensure_future(jobs.wait(started[0], Owner(player, game, "p")))
                 for player, game in (("a", "g1"), ("a", "g2"), ("b", "g3"))]
        waits.append(asyncio.ensure_future(jobs.wait(bot, Owner("a", "g1", "p"))))
        await asyncio.sleep(0)
        assert control.calls == [("admit", "a", "k"), ("admit", "b", "k"),
                                 ("admit", "a", bot.id)]
        backend.gates.setdefault("k", asyncio.Event()).set()
        backend.gates.setdefault("bot", asyncio.Event()).set()
        assert await asyncio.gather(*waits) == ["k", "k", "k", "bot"]
        # each player's job freed once, when their last request for it is answered
        assert sorted(map(str, control.calls[3:])) == sorted(map(str, [
            ("freed", "a", "k"), ("freed", "b", "k"), ("freed", "a", bot.id)]))
        return control.calls

    assert len(run_async(main())) == 6


def test_a_hint_or_chance_worked_out_through_one_process_is_read_through_another(
        two: tuple[Starlette, Starlette], gates: Path) -> None:
    """The hints and win chances are kept for every process: another player of the same
    deal at the same seen position, through the other process, is answered the same with
    no job run there; a game of another deal is not."""
    one, other = two
    store = one.state.games.store

    def kept() -> int:
        with store._reading() as conn:
            return int(conn.execute("SELECT count(*) FROM help_answers").fetchone()[0])

    (gates / "hint").touch()
    with served(one) as one_client, served(other) as other_client:
        me, her = Browser(one_client), Browser(other_client)
        mine = me.post("/api/games", json={"variant": "klondike", "seed": 4}).json()["id"]
        hers = her.post("/api/games", json={"variant": "klondike", "seed": 4}).json()["id"]
        first = me.post(f"/api/games/{mine}/hint")
        chance = me.get(f"/api/games/{mine}/chance")
        assert first.status_code == chance.status_code == 200, (first.text, chance.text)
        wait_for(one_client, lambda: kept() == 2, "the hint and the chance kept")
        jobs = other.state.advisor.jobs
        again = her.post(f"/api/games/{hers}/hint")
        assert again.status_code == 200 and again.json()["hint"] == first.json()["hint"]
        again = her.get(f"/api/games/{hers}/chance")
        assert again.status_code == 200 and again.json()["chance"] == chance.json()["chance"]
        assert jobs.done == 0 and len(gatedhelp.started(gates, "hint")) == 1
        # another deal (the same seen cards or not) is worked out afresh
        fresh = her.post("/api/games", json={"variant": "klondike", "seed": 5}).json()["id"]
        assert her.post(f"/api/games/{fresh}/hint").status_code == 200
        assert jobs.done == 1 and len(gatedhelp.started(gates, "hint")) == 2
        with store._reading() as conn:
            text = json.dumps([tuple(r) for r in conn.execute("SELECT * FROM help_answers")])
        assert mine not in text and hers not in text and str(me.token) not in text


def test_a_shared_answer_reads_back_as_it_was_worked_out() -> None:
    """Every field, unrounded; text that is not an answer of its kind reads as none."""
    import kabale
    from kabale.advisor import hint, win_chance
    from kabale.server.advice import decode_answer, encode_answer

    game = kabale.Game.new("klondike", seed=4)
    found, chance = hint(game, "quick", 1), win_chance(game, seed=1, effort="quick")
    assert decode_answer("hint", encode_answer(found)) == found
    assert decode_answer("chance", encode_answer(chance)) == chance
    for kind, text in (("hint", "{}"), ("hint", "not json"), ("chance", '{"value": 1}'),
                       ("hint", encode_answer(chance)), ("coach", encode_answer(found))):
        assert decode_answer(kind, text) is None, (kind, text)


def test_a_bound_that_cannot_be_counted_answers_503_busy_not_a_crash(
        two: tuple[Starlette, Starlette], monkeypatch: pytest.MonkeyPatch) -> None:
    from kabale.storage.db import StorageError

    def broken(*args: Any, **kwargs: Any) -> str:
        raise StorageError("the game database cannot be used: disk I/O error")

    one, _ = two
    with served(one) as one_client:
        a = Browser(one_client)
        game = a.post("/api/games", json={"variant": "klondike", "seed": 4}).json()["id"]
        monkeypatch.setattr(helpstate, "take_job", broken)
        res = a.post(f"/api/games/{game}/hint")
        assert res.status_code == 503 and res.json()["code"] == "busy", res.text
        assert "disk I/O error" in res.json()["error"] and res.headers["Retry-After"] == "2"
        assert in_flight(one) == 0
