"""``GET /api/help`` on a hosted server: a player reads their own help in flight only, in
words that tell nothing of another player sharing a job; the engine's counters (every
player's help) are the operator's, with ``KABALE_OPERATOR_TOKEN``; the route counts against
the help rate limit; under ``kabale play`` the one local player is the operator."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from local import local_client, wait_for
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale.core.errors import KabaleError
from kabale.server.app import create_app
from kabale.server.jobservice import Owner
from kabale.server.serve import settings, site_of
from kabale.server.site import COOKIE, Limits, Site
from kabale.storage.players import player_of_token

BASE = "http://cards.test"
TOKEN = "operator-secret-0123456789abcdef"


def hosted(tmp_path: Path, **site: Any) -> Starlette:
    return create_app(str(tmp_path / "site.db"), effort="quick", search_seconds=60.0,
                      site=Site(allowed_hosts=("cards.test",), **site))


@pytest.fixture
def site_app(tmp_path: Path) -> Iterator[Starlette]:
    app = hosted(tmp_path, operator_token=TOKEN)
    yield app
    app.state.advisor.close()


def browser(app: Starlette, **headers: str) -> TestClient:
    return TestClient(app, base_url=BASE, raise_server_exceptions=False,
                      headers={"Content-Type": "application/json", **headers})


def player(app: Starlette, client: TestClient) -> str:
    """The client's player (made by a first game)."""
    assert client.post("/api/games", json={"variant": "klondike", "seed": 4}).status_code == 201
    found = player_of_token(app.state.games.store, client.cookies[COOKIE])
    assert found is not None
    return found



def test_a_player_reads_their_own_help_only_and_nothing_of_whoever_shares_it(
        site_app: Starlette) -> None:
    jobs = site_app.state.advisor.jobs
    with browser(site_app) as alice, browser(site_app) as bob, browser(site_app) as carol:
        ann, ben = player(site_app, alice), player(site_app, bob)
        portal = alice.portal
        assert portal is not None
        # Alice asks; a second later Bob, at the same seen position of the same deal, gets
        # her job (one job, two owners)
        hers = portal.start_task_soon(partial(jobs.run, "hint", time.sleep, 60, seconds=120,
                                              owner=Owner(ann, "g-ann", ""), key="same"))
        wait_for(alice, lambda: jobs.in_flight(ann) == 1, "her job in flight")
        portal.call(asyncio.sleep, 1.0)
        his = portal.start_task_soon(partial(jobs.run, "hint", time.sleep, 60, seconds=120,
                                             owner=Owner(ben, "g-ben", ""), key="same"))
        wait_for(alice, lambda: jobs.in_flight(ben) == 1, "his share of it")
        assert jobs.lane_jobs("play") == 1
        (job_id,) = list(jobs._jobs)
        answers = {name: client.get("/api/help") for name, client in
                   (("alice", alice), ("bob", bob), ("carol", carol))}
        for res in answers.values():
            assert res.status_code == 200 and res.headers["cache-control"] == "no-store"
            assert res.json()["engine"] is None  # the counters are the operator's
        (a,), (b,) = answers["alice"].json()["jobs"], answers["bob"].json()["jobs"]
        assert answers["carol"].json()["jobs"] == []
        assert (a["kind"], a["game_id"]) == ("hint", "g-ann")
        assert (b["kind"], b["game_id"]) == ("hint", "g-ben")
        # each names the job in words of their own: no id to match between players ...
        assert a["id"] != b["id"] and job_id not in (a["id"], b["id"])
        assert set(a) == set(b) == {"id", "kind", "game_id", "seconds_left"}
        # ... and Bob's seconds left count from his own request, not from Alice's

        def lefts() -> tuple[float, float]:
            return jobs.jobs_of(ann)[0]["seconds_left"], jobs.jobs_of(ben)[0]["seconds_left"]

        ann_left, ben_left = portal.call(lefts)
        assert ben_left - ann_left >= 0.9 and ben_left <= 120
        assert portal.call(jobs.gone, ann) == 0  # Bob still wants it
        assert portal.call(jobs.gone, ben) == 1
        for job in (hers, his):
            with pytest.raises(Exception, match="cancelled"):
                job.result(timeout=30)


def test_the_engines_counters_are_the_operators(site_app: Starlette, tmp_path: Path) -> None:
    with browser(site_app, Authorization=f"Bearer {TOKEN}") as operator, \
            browser(site_app, Authorization="Bearer not-the-token-at-all-00000") as guess, \
            browser(site_app, Authorization=TOKEN) as no_scheme:
        res = operator.get("/api/help")
        assert res.status_code == 200, res.text
        engine = res.json()["engine"]
        assert engine["engine"] == "local" and set(engine["in_flight"]) == {
            "play", "heavy", "review"} and res.json()["jobs"] == []
        for client in (guess, no_scheme):
            refused = client.get("/api/help")
            assert refused.status_code == 403 and "operator token" in refused.json()["error"]
    # a server without a token serves the counters to nobody
    bare = hosted(tmp_path / "bare")
    try:
        with browser(bare, Authorization=f"Bearer {TOKEN}") as operator:
            refused = operator.get("/api/help")
            assert refused.status_code == 403 and "KABALE_OPERATOR_TOKEN" in refused.text
    finally:
        bare.state.advisor.close()


def test_under_kabale_play_the_local_player_is_the_operator(client: TestClient) -> None:
    body = client.get("/api/help").json()
    assert body["jobs"] == [] and body["engine"]["engine"] == "local"


def test_asking_counts_against_the_help_limit(tmp_path: Path) -> None:
    app = hosted(tmp_path, limits=Limits(help=2, per_address=1))
    try:
        with browser(app) as client:
            assert [client.get("/api/help").status_code for _ in range(2)] == [200, 200]
            res = client.get("/api/help")
            assert res.status_code == 429 and int(res.headers["Retry-After"]) >= 1
    finally:
        app.state.advisor.close()


def test_the_operator_token_comes_from_the_environment_and_is_checked() -> None:
    args = argparse.Namespace()
    config = settings(args, {"KABALE_DB": "x.db", "KABALE_OPERATOR_TOKEN": TOKEN})
    assert config.operator_token == TOKEN and site_of(config).operator_token == TOKEN
    assert TOKEN not in repr(site_of(config))  # not in a log line
    assert settings(args, {"KABALE_DB": "x.db"}).operator_token is None
    for bad in ("short", "x" * 19, "with a space in it 0123", "ü" * 30):
        with pytest.raises(KabaleError, match="KABALE_OPERATOR_TOKEN"):
            settings(args, {"KABALE_DB": "x.db", "KABALE_OPERATOR_TOKEN": bad})


def test_a_kabale_play_client_is_not_limited(tmp_path: Path) -> None:
    # the local door has no Site: no limits, the counters shown
    with local_client(create_app(str(tmp_path / "games.db"), effort="quick")) as client:
        assert all(client.get("/api/help").status_code == 200 for _ in range(5))
