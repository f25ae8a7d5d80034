"""The routes by which a hidden card could reach a player (issue 43, items 1-4 and 11), each
tried as an attack: the daily deal's number, the deal id of a lost game that can still be
undone, a graded deal's exact measure during play, the deal id asked for mid-game, and a look
back that changed the game. Each test plays the attack and checks that it gains nothing, or
that what it gains is counted as help."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from local import DOORS, door_app, local_client, player_for
from starlette.applications import Starlette
from starlette.testclient import TestClient
from test_store import one_move_from_winning

import kabale
from kabale.core.variants import parse_variant
from kabale.server.app import create_app
from kabale.server.deals import measure, utc_today


@pytest.fixture(params=DOORS)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Starlette:
    """Every test here runs against both doors: `kabale play` and `kabale serve`."""
    return door_app(tmp_path, request.param)


def new(client: TestClient, **spec: Any) -> dict[str, Any]:
    res = client.post("/api/games", json=spec)
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


def true_game(app: Starlette, body: dict[str, Any]) -> kabale.Game:
    game: kabale.Game = app.state.games.get(body["id"]).game
    return game


def old_rule(variant: str, date: dt.date) -> int:
    """The daily rule before issue 43: public, so every player could compute it."""
    text = f"kabale daily {parse_variant(variant)} {date.isoformat()}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def secret_copy(game: kabale.Game) -> kabale.Game:
    """The same game as if its deal had been chosen by the server (its number secret)."""
    data = json.loads(game.to_json())
    data["deal_known"] = False
    return kabale.Game.from_json(json.dumps(data))


# ------------------------------------------------------------------ 1. the daily deal

def test_the_daily_deal_cannot_be_computed_from_a_public_rule(app: Starlette,
                                                               client: TestClient) -> None:
    today = utc_today()
    body = new(client, variant="klondike", daily=True)
    assert body["deal"]["daily"] == today.isoformat()
    seed = true_game(app, body).seed
    assert seed != old_rule("klondike", today)
    # Tomorrow's deal cannot be dealt today, and a past day's is played by its published id.
    for day in (today + dt.timedelta(days=1), today - dt.timedelta(days=1)):
        res = client.post("/api/games", json={"variant": "klondike", "daily": day.isoformat()})
        assert res.status_code == 400 and "daily" in res.json()["error"]


def test_the_daily_deal_is_one_per_server_and_kept_with_its_data(tmp_path: Path) -> None:
    def daily_seed_of(path: Path) -> int:
        app = create_app(str(path), search_seconds=60.0)
        with local_client(app) as client:
            body = new(client, variant="spiderette", daily=True)
            seed = true_game(app, body).seed
        assert seed is not None
        app.state.games.store.close()
        return seed

    first = daily_seed_of(tmp_path / "one.db")
    assert daily_seed_of(tmp_path / "one.db") == first            # a restart keeps it
    assert daily_seed_of(tmp_path / "two.db") != first            # another server's own
    with sqlite3.connect(tmp_path / "one.db") as src, \
            sqlite3.connect(tmp_path / "backup.db") as dst:
        src.backup(dst)
    assert daily_seed_of(tmp_path / "backup.db") == first         # a backup carries it


def test_past_daily_numbers_are_published_with_their_proof(app: Starlette,
                                                            client: TestClient) -> None:
    today = utc_today()
    played = new(client, variant="spider:suits=2", daily=True)
    for day in (today, today + dt.timedelta(days=1)):
        res = client.get("/api/daily/past", params={"variant": "spider-2", "date": str(day)})
        assert res.status_code == 409 and "not over" in res.json()["error"]
    yesterday = today - dt.timedelta(days=1)
    res = client.get("/api/daily/past", params={"variant": "spider-2", "date": str(yesterday)})
    assert res.status_code == 200, res.text
    past = res.json()
    # The proof: the day's key, published now, gives the number by the documented rule.
    text = f"kabale daily spider:suits=2 {yesterday} {past['day_key']}"
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    assert past["seed"] == seed and past["deal_id"] == f"spider:suits=2#{seed}"
    assert past["deal_hash"] == hashlib.sha256(past["deal_id"].encode()).hexdigest()
    assert kabale.Game.from_deal_id(past["deal_id"]).state.columns  # a deal anyone can play
    # The key of one day tells nothing of another's: they differ, and today's game's
    # commitment (its deal hash) is not yesterday's.
    before = client.get("/api/daily/past", params={"variant": "spider-2",
                                                   "date": str(yesterday - dt.timedelta(1))})
    assert before.json()["day_key"] != past["day_key"]
    assert played["observation"]["deal_hash"] != past["deal_hash"]
    for params in ({"variant": "spider-2"}, {"date": str(yesterday)},
                   {"variant": "golf", "date": str(yesterday)},
                   {"variant": "spider-2", "date": "yesterday"},
                   {"variant": "spider-2", "date": "1999-12-31"}):
        res = client.get("/api/daily/past", params=params)
        assert res.status_code == 400 and res.json()["error"]


def test_a_daily_deal_whose_cards_were_shown_counts_once(app: Starlette,
                                                         client: TestClient) -> None:
    first = new(client, variant="klondike", daily=True)
    assert first["assisted"] is False
    again = new(client, variant="klondike", daily=True)   # nothing shown yet: still counts
    assert again["assisted"] is False
    over = client.post(f"/api/games/{first['id']}/resign").json()
    assert over["observation"]["deal_id"] is not None     # the end shows the number...
    third = new(client, variant="klondike", daily=True)
    assert third["assisted"] is True                      # ...so a new game of it is helped
    # Forgetting the statistics does not forget that the deal was shown.
    assert client.post("/api/stats/reset", json={}).status_code == 200
    assert new(client, variant="klondike", daily=True)["assisted"] is True
    assert new(client, variant="spiderette", daily=True)["assisted"] is False


# ------------------------------------------------------------------ 2. a lost game's deal id

def test_a_lost_game_that_can_be_undone_keeps_its_number_secret(app: Starlette,
                                                                 client: TestClient) -> None:
    # Deal 12 of draw 3 with one pass: after drawing the stock through, nothing can move.
    secret = secret_copy(kabale.Game.from_deal_id("klondike:draw=3,passes=1#12"))
    app.state.games.store.add("lost", secret, player=player_for(app, client))
    gid = "lost"
    for _ in range(8):
        body = client.post(f"/api/games/{gid}/moves", json={"move": "d"}).json()
    assert body["observation"]["outcome"] == "lost" and body["status"] == "playing"
    assert body["can_undo"] and body["observation"]["deal_id"] is None
    for _ in range(8):
        body = client.post(f"/api/games/{gid}/undo").json()
        assert body["observation"]["deal_id"] is None
    assert client.get(f"/api/games/{gid}").json()["observation"]["deal_id"] is None
    # Given up, the game can no longer change: now the number shows.
    over = client.post(f"/api/games/{gid}/resign").json()
    assert over["observation"]["deal_id"] == "klondike:draw=3,passes=1#12"


# ------------------------------------------------------------------ 3. the exact measure

@pytest.mark.parametrize("spec", [{"grade": "hard"}, {"winnable": True}, {"daily": True}])
def test_the_exact_measure_shows_only_after_the_game(app: Starlette, client: TestClient,
                                                     spec: dict[str, Any]) -> None:
    body = new(client, variant="klondike", **spec)
    game = true_game(app, body)
    nodes = measure(game.variant, game.seed)  # type: ignore[arg-type]
    assert body["deal"]["measure"] is None
    if spec.get("grade"):
        low, high = body["deal"]["band"]
        assert body["deal"]["grade"] == "hard" and low <= nodes <= high
    gid = body["id"]
    assert client.get(f"/api/games/{gid}").json()["deal"]["measure"] is None
    over = client.post(f"/api/games/{gid}/resign").json()
    assert over["deal"]["measure"] == nodes


# ------------------------------------------------------------------ 4. reveal mid-game

def test_revealing_the_number_mid_game_counts_as_help(app: Starlette,
                                                      client: TestClient) -> None:
    today = utc_today().isoformat()
    store = app.state.games.store
    me = player_for(app, client)
    store.add("alone", secret_copy(one_move_from_winning()), daily=today, player=me)
    store.add("solver", secret_copy(one_move_from_winning()), daily=today, player=me)
    store.add("after", secret_copy(one_move_from_winning()), daily=today, player=me)
    alone = client.post("/api/games/alone/moves", json={"move": "1>f"}).json()
    assert alone["assisted"] is False and alone["rank"] == {"wins": 1, "time": 1, "score": 1,
                                                            "moves": 1}
    stats = client.get("/api/stats", params={"variant": "klondike"}).json()["variants"][0]
    assert stats["won_unassisted"] == 1 and stats["daily"]["days_won"] == 1
    revealed = client.post("/api/games/solver/reveal").json()
    assert revealed["observation"]["deal_id"] and revealed["assisted"] is True
    won = client.post("/api/games/solver/moves", json={"move": "1>f"}).json()
    assert won["status"] == "won" and won["assisted"] is True
    assert won["rank"] is None          # a win with help is not ranked among the wins
    # A game of the deal in play while another showed its number is won knowing every card.
    after = client.post("/api/games/after/moves", json={"move": "1>f"}).json()
    assert after["status"] == "won" and after["assisted"] is True and after["rank"] is None
    stats = client.get("/api/stats", params={"variant": "klondike"}).json()["variants"][0]
    assert (stats["won"], stats["won_unassisted"]) == (3, 1)
    assert stats["daily"]["days_won"] == 1
    # Revealing a finished game, or a deal the player chose, is no help.
    chosen = new(client, variant="klondike", seed=5)
    assert client.post(f"/api/games/{chosen['id']}/reveal").json()["assisted"] is False


# ------------------------------------------------------------------ 11. a look back

def test_looking_back_is_read_only_and_waits_for_the_end(app: Starlette,
                                                        client: TestClient) -> None:
    app.state.games.store.add("lost", secret_copy(
        kabale.Game.from_deal_id("klondike:draw=3,passes=1#12")), player=player_for(app, client))
    for _ in range(8):
        body = client.post("/api/games/lost/moves", json={"move": "d"}).json()
    assert body["observation"]["outcome"] == "lost" and body["can_undo"]
    before = app.state.games.store.load("lost")
    for path in ("postmortem", "review"):
        res = client.get(f"/api/games/lost/{path}")
        assert res.status_code == 409 and "resign" in res.json()["error"]
    assert client.post("/api/games/lost/replay", json={"at": 0}).status_code == 409
    after = app.state.games.store.load("lost")
    assert (after.assisted, after.status, after.game.to_json()) == (
        before.assisted, before.status, before.game.to_json())
    # After the game, looking back is free and changes nothing.
    over = client.post("/api/games/lost/resign").json()
    assert over["status"] == "lost"
    for path in ("postmortem", "review"):
        assert client.get(f"/api/games/lost/{path}").status_code == 200
    assert client.get("/api/games/lost").json()["assisted"] is False


# ------------------------------------------------------------------ 4. outcome's timing

def test_what_outcome_s_timing_hints_the_player_may_see_for_free(app: Starlette,
                                                                 client: TestClient) -> None:
    # The "lost" test of unlimited passes runs only while "d" is the one legal move, and
    # its time hints at the depth of the first playable stock card (core.observe). Here is
    # what the player can do in that very position instead: draw until a move shows, look,
    # and undo back, which costs nothing and is no help. Deal 12 starts so.
    app.state.games.store.add("g", secret_copy(kabale.Game.new("klondike", 12)),
                              player=player_for(app, client))
    start = client.get("/api/games/g").json()
    assert start["observation"]["legal"] == ["d"]
    stock = true_game(app, start).state.stock
    seen: list[str] = []
    body = start
    draws = 0
    while body["observation"]["stock"]:
        body = client.post("/api/games/g/moves", json={"move": "d"}).json()
        draws += 1
        seen.append(body["observation"]["waste"][-1])
    assert sorted(seen) == sorted(str(c) for c in stock)   # every stock card, in order
    for _ in range(draws):
        body = client.post("/api/games/g/undo").json()
    assert body["observation"] == start["observation"] and body["assisted"] is False
    assert body["observation"]["score"] == start["observation"]["score"]


def test_a_daily_game_won_after_its_day_was_published_counts_as_help(
        app: Starlette, client: TestClient) -> None:
    # Start today's deal before midnight (UTC), read its number from GET /api/daily/past
    # after midnight, win it: that win had every card known.
    yesterday = (utc_today() - dt.timedelta(days=1)).isoformat()
    app.state.games.store.add("late", secret_copy(one_move_from_winning()), daily=yesterday,
                              player=player_for(app, client))
    won = client.post("/api/games/late/moves", json={"move": "1>f"}).json()
    assert won["status"] == "won" and won["assisted"] is True and won["rank"] is None
    stats = client.get("/api/stats", params={"variant": "klondike"}).json()["variants"][0]
    assert stats["daily"]["days_won"] == 0 and stats["won_unassisted"] == 0
