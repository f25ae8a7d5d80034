"""An attacker's probes of the hosted server's new surface (issues 44-45: players, daily
deals, leaderboards, help as jobs): what one player can learn of a card they have not seen,
or of another player's game, from the answers, their headers and the shared cache."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale import Game, solve
from kabale.advisor import knowledge
from kabale.core.deal import deck_for
from kabale.core.game import deck_text
from kabale.server.app import create_app
from kabale.server.jobservice import JobCancelledError, Owner
from kabale.server.site import COOKIE, Site

BASE = "http://cards.test"


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


def new_game(client: TestClient, **spec: Any) -> dict[str, Any]:
    res = client.post("/api/games", json=spec)
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


def jobs_done(app: Starlette) -> int:
    """How many jobs the engine has run: the operator's counter (a player no longer reads it,
    test_help_status.py), read here as the strongest probe, one who did."""
    done: int = app.state.advisor.jobs.done
    return done


def test_the_shared_cache_cannot_test_a_guess_at_another_players_card(
        site_app: Starlette) -> None:
    # Alice plays today's daily deal: she draws a stock card and asks for a hint there.
    # Bob, who plays the same daily deal and so sees the same first seven cards, wants the
    # card she drew without drawing it himself (his daily game would show it). He deals a
    # deck of his own (`klondike#=CARDS`) with those seven cards face up and his guess at
    # the drawn card, draws, and asks for a hint: were the cache shared between deals, a
    # right guess would be answered from Alice's entry (no job run, at once) and a wrong
    # one by a job, so each guess would cost him one request.
    with browser(site_app) as alice, browser(site_app) as bob:
        daily = new_game(alice, variant="klondike", daily=True)
        assert alice.post(f"/api/games/{daily['id']}/moves", json={"move": "d"}
                          ).status_code == 200
        assert alice.post(f"/api/games/{daily['id']}/hint").status_code == 200
        shown = alice.post(f"/api/games/{daily['id']}/resign").json()
        seed = int(shown["observation"]["deal_id"].split("#")[1])  # the test's oracle
        deck = deck_for(Game.new("klondike").variant, seed)
        before_draw = Game.from_deck("klondike", deck)
        hidden = [i for i, card in enumerate(knowledge(before_draw).deal) if card is None]
        before_draw.play("d")
        drawn, = [i for i in hidden if knowledge(before_draw).deal[i] is not None]
        right = list(deck)  # the drawn card guessed, two cards still face down traded
        right[hidden[0]], right[hidden[1]] = right[hidden[1]], right[hidden[0]]
        wrong = list(deck)
        wrong[drawn], wrong[hidden[0]] = wrong[hidden[0]], wrong[drawn]  # another card drawn
        new_game(bob, variant="klondike", daily=True)
        answers = {}
        for name, guess in (("right", right), ("wrong", wrong)):
            game = new_game(bob, deal_id=f"klondike#={deck_text(guess)}")
            assert bob.post(f"/api/games/{game['id']}/moves", json={"move": "d"}
                            ).status_code == 200
            before = jobs_done(site_app)
            hint = bob.post(f"/api/games/{game['id']}/hint")
            assert hint.status_code == 200, hint.text
            answers[name] = jobs_done(site_app) - before
        assert answers == {"right": 1, "wrong": 1}, answers  # a job each: nothing told


def test_another_player_can_neither_see_nor_cancel_a_players_help(
        site_app: Starlette, tmp_path: Path) -> None:
    with browser(site_app) as alice, browser(site_app) as bob:
        game = new_game(alice, variant="klondike", seed=4)
        mine = new_game(bob, variant="klondike", seed=4)  # the same deal, a game of his own
        with sqlite3.connect(tmp_path / "site.db") as conn:
            owner, = conn.execute("SELECT player FROM games WHERE id=?", (game["id"],)
                                  ).fetchone()
        jobs = site_app.state.advisor.jobs
        portal = alice.portal
        assert portal is not None
        waiting = portal.start_task_soon(partial(
            jobs.run, "hint", time.sleep, 60, seconds=120, owner=Owner(owner, game["id"], "")))
        for _ in range(1200):  # a wait, not a timed assertion
            if jobs.in_flight(owner) == 1:
                break
            portal.call(asyncio.sleep, 0.05)
        assert alice.get("/api/help").json()["jobs"][0]["game_id"] == game["id"]
        assert bob.get("/api/help").json()["jobs"] == []
        refused = bob.delete(f"/api/games/{game['id']}/help")
        assert refused.status_code == 404, refused.text
        assert bob.delete(f"/api/games/{mine['id']}/help").json()["cancelled"] == 0
        for path in ("moves", "undo", "resign"):  # his moves in his game of the same deal
            bob.post(f"/api/games/{mine['id']}/{path}", json={"move": "d"}
                     if path == "moves" else {})
        assert new_game(bob, variant="klondike")  # a new game cancels his help only
        assert jobs.in_flight(owner) == 1 and not waiting.done()
        assert alice.delete(f"/api/games/{game['id']}/help").json()["cancelled"] == 1
        with pytest.raises(JobCancelledError):
            waiting.result(timeout=60)


# ------------------------------------------------------------------- fuzzing the new routes

SITE_ROUTES = [("GET", "/api/player"), ("POST", "/api/player/settings"),
               ("POST", "/api/player/nickname"), ("POST", "/api/player/transfer"),
               ("POST", "/api/player/redeem"), ("POST", "/api/player/delete"),
               ("GET", "/api/leaderboard"), ("GET", "/api/leaderboard"),
               ("GET", "/api/leaderboard"), ("GET", "/leaderboard"),
               ("GET", "/api/daily/past"), ("GET", "/api/daily/past"), ("GET", "/api/help"),
               ("DELETE", "/api/games/{id}/help"), ("DELETE", "/api/games/nonesuch/help"),
               ("GET", "/api/stats"), ("POST", "/api/stats/reset")]
QUERY_KEYS = ["variant", "date", "week", "game", "x", ""]
QUERY_TEXTS = ["klondike", "spider:suits=2", "vegas:draw=1", "klondike:", "2026-12-06",
               "2026-12-07", "1999-01-01", "0001-01-01", "9999-12-31", "2026-02-30",
               "2026-W49", "2026-W53", "2020-W53", "0001-W01", "9999-W52", "2026-W00",
               "٢٠٢٦-١٢-٠١", "2026-1-1", "-1", "", "\x00", "%", "x" * 300]
site_json_leaf = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats()
                  | st.text(max_size=30) | st.sampled_from(QUERY_TEXTS))
site_json = st.recursive(site_json_leaf, lambda inner: st.lists(inner, max_size=3)
                         | st.dictionaries(st.text(max_size=25), inner, max_size=4),
                         max_leaves=12)
site_bodies = st.one_of(
    st.dictionaries(st.sampled_from(["settings", "nickname", "code", "confirm"])
                    | st.text(max_size=6), site_json, max_size=3).map(json.dumps),
    st.dictionaries(st.text(max_size=22), site_json_leaf, max_size=35).map(
        lambda d: json.dumps({"settings": d})),
    site_json.map(json.dumps),
    st.text(max_size=40))


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(route=st.sampled_from(SITE_ROUTES),
       other=st.sampled_from([None] * 8 + ["GET", "POST", "DELETE", "PUT"]),
       query=st.lists(st.tuples(st.sampled_from(QUERY_KEYS) | st.text(max_size=5),
                                st.sampled_from(QUERY_TEXTS) | st.text(max_size=12)),
                      max_size=3),
       body=site_bodies, json_type=st.sampled_from([True] * 6 + [False]),
       stranger=st.booleans())
def test_the_new_routes_never_answer_500(site_app: Starlette, route: tuple[str, str],
                                         other: str | None, query: list[tuple[str, str]],
                                         body: str, json_type: bool, stranger: bool) -> None:
    method, path = other or route[0], route[1]
    with browser(site_app) as alice:
        if not stranger:
            game = alice.post("/api/games", json={"variant": "klondike", "seed": 3})
            if game.status_code == 201:  # else over the address's limit: a stranger
                path = path.replace("{id}", game.json()["id"])
        url = path.replace("{id}", "x") + ("?" + urlencode(query) if query else "")
        headers = {"Content-Type": "application/json" if json_type else "text/plain"}
        res = alice.request(method, url, content=body.encode(), headers=headers)
        assert res.status_code < 500 or res.status_code == 503, (method, url, body, res.text)
        if res.status_code >= 400 and res.headers.get("content-type", "").startswith(
                "application/json"):
            error = res.json()["error"]
            assert isinstance(error, str) and error and "\n" not in error


# --------------------------------------------------------------- the daily deal's boards

def test_a_daily_game_won_after_another_of_the_deal_showed_its_number_is_assisted(
        site_app: Starlette) -> None:
    # One player, one cookie: two games of today's daily deal started together, both
    # without help. Giving one up shows the deal's number; the solver then wins the other.
    # That win had every card known, so it must not rank on the board without help.
    with browser(site_app) as alice:
        for variant in WINNABLE_MOSTLY:  # today's deal of one of them is won by the solver
            kept = new_game(alice, variant=variant, daily=True)
            given_up = new_game(alice, variant=variant, daily=True)
            assert not kept["assisted"] and not given_up["assisted"]
            deal_id = alice.post(f"/api/games/{given_up['id']}/resign").json()[
                "observation"]["deal_id"]
            line = solve(Game.from_deal_id(deal_id), max_seconds=None, max_nodes=500_000)
            if line.status == "solved":
                break
        assert line.status == "solved", "no daily deal of these variants was won today"
        for move in line.moves:
            res = alice.post(f"/api/games/{kept['id']}/moves", json={"move": move})
            assert res.status_code == 200, res.text
        won = res.json()
        assert won["status"] == "won" and won["assisted"] is True
        board = alice.get(f"/api/leaderboard?variant={variant}").json()
        assert board["entries"] == [] and board["me"] is None


#: variants whose deals the solver mostly wins (unlimited passes, any card to a space)
WINNABLE_MOSTLY = ["easy-klondike:passes=0", "thoughtful", "klondike:passes=0", "klondike",
                   "easy-klondike", "thoughtful:draw=3"]


# ------------------------------------------------------------------------- the cookie

@pytest.mark.parametrize("others", ['consent={"ads":false}', "theme=dark mode", "flag",
                                    'quoted="unterminated', "name=Åse"])
def test_another_cookie_of_the_site_does_not_hide_the_players_own(
        site_app: Starlette, others: str) -> None:
    # Another application on the same host may set cookies that a strict parser refuses
    # (JSON, spaces, no '=', non-ASCII); browsers send them all in one header, and the
    # player's cookie must still be found, or the next game makes a new player and the
    # browser loses every game and statistic of its own.
    with browser(site_app) as alice:
        game = new_game(alice, variant="klondike", seed=3)
        token = alice.cookies[COOKIE]
        stranger = TestClient(site_app, base_url=BASE, raise_server_exceptions=False)
        header = {"Cookie": f"{others}; {COOKIE}={token}".encode(),  # as a browser: UTF-8
                  "Content-Type": b"application/json"}
        assert stranger.get(f"/api/games/{game['id']}", headers=header).status_code == 200
        again = stranger.post("/api/games", json={"variant": "klondike"}, headers=header)
        assert again.status_code == 201 and "set-cookie" not in again.headers
        assert stranger.get("/api/player", headers=header).json()["games"] == 2


@pytest.mark.parametrize("body", [{"variant": "nonsense"}, {"seed": -1}, {"x": 1},
                                  {"daily": "2020-01-01"}])
def test_a_refused_new_game_makes_no_player(site_app: Starlette, tmp_path: Path,
                                            body: dict[str, Any]) -> None:
    # every error changes nothing (docs/api.md): a 400 leaves no player row and no cookie
    with browser(site_app) as stranger:
        res = stranger.post("/api/games", json=body)
        assert res.status_code == 400 and "set-cookie" not in res.headers, res.text
        assert stranger.get("/api/player").json()["player"] is False
    with sqlite3.connect(tmp_path / "site.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM players WHERE id != 'local'"
                            ).fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM player_tokens").fetchone()[0] == 0
