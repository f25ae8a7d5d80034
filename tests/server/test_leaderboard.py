"""The daily deal's leaderboards (issue 44 item 4): wins without help only, ranked by moves
then time, one line per player, nicknames and nothing else of another player; the route's
checks; the page."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_players import browser, hosted
from test_store import one_move_from_winning

import kabale
from kabale.server.deals import utc_today
from kabale.server.site import COOKIE
from kabale.storage.db import GameStore
from kabale.storage.leaderboard import daily_board, weekly_board
from kabale.storage.players import new_player, player_of_token, set_nickname

DAY = dt.date(2026, 12, 7)  # a Monday


def won(store: GameStore, game_id: str, player: str, day: dt.date, moves: int,
        seconds: float, assisted: bool = False) -> None:
    game = kabale.Game.new("klondike", seed=len(game_id))
    for _ in range(moves):
        game.play(game.legal_moves()[0])
    store.add(game_id, game, player=player, daily=day.isoformat(), assisted=assisted)
    store.save(game_id, game, "won", seconds)


def test_the_daily_board_ranks_each_players_best_win_without_help(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "k.db")
    (ann, _), (bob, _), (cid, _), (dan, _) = (new_player(store) for _ in range(4))
    set_nickname(store, ann, "Ann")
    set_nickname(store, bob, "Bob")
    won(store, "a1", ann, DAY, 5, 60.0)
    won(store, "a2", ann, DAY, 3, 90.0)       # ann's best: fewer moves
    won(store, "b1", bob, DAY, 3, 40.0)       # same moves, less time: ahead of ann
    won(store, "c1", cid, DAY, 3, 40.0)       # a tie with bob: the same place
    won(store, "d1", dan, DAY, 1, 5.0, assisted=True)  # helped: not on the board
    won(store, "x1", dan, DAY - dt.timedelta(days=1), 1, 5.0)  # another day
    board = daily_board(store, "klondike", DAY, ann)
    assert [(e["rank"], e["nickname"], e["moves"], e["seconds"]) for e in board["entries"]] == [
        (1, "Bob", 3, 40.0), (1, None, 3, 40.0), (3, "Ann", 3, 90.0)]
    assert board["me"] == {"rank": 3, "nickname": "Ann", "moves": 3, "seconds": 90.0}
    assert board["players"] == 3 and board["undo_counts"] is False
    assert daily_board(store, "klondike", DAY, dan)["me"] is None
    assert daily_board(store, "spider:suits=1", DAY)["entries"] == []
    text = json.dumps(board)
    assert not any(secret in text for secret in (ann, bob, cid, "a2", "klondike#"))


def test_the_weekly_board_counts_days_won_then_moves(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "k.db")
    (ann, _), (bob, _) = new_player(store), new_player(store)
    won(store, "a1", ann, DAY, 9, 60.0)
    won(store, "a2", ann, DAY + dt.timedelta(days=6), 9, 60.0)
    won(store, "b1", bob, DAY + dt.timedelta(days=2), 2, 10.0)
    won(store, "b2", bob, DAY + dt.timedelta(days=7), 2, 10.0)  # next week
    board = weekly_board(store, "klondike", DAY, bob)
    assert board["week"] == "2026-W50"
    assert [(e["days"], e["moves"]) for e in board["entries"]] == [(2, 18), (1, 2)]
    assert board["me"]["rank"] == 2


def test_the_route_answers_the_board_and_counts_the_win_chance_as_help(tmp_path: Path) -> None:
    app = hosted(tmp_path)
    today = utc_today().isoformat()
    store = app.state.games.store
    with browser(app) as ann, browser(app) as bob:
        players = []
        for name, client in (("Ann", ann), ("Bob", bob)):
            client.post("/api/games", json={"variant": "klondike"})
            players.append(player_of_token(store, client.cookies[COOKIE]))
            assert client.post("/api/player/nickname", json={"nickname": name}).status_code == 200
        for player in players:
            store.add(f"daily-{player}", one_move_from_winning(), daily=today, player=player)
        assert bob.get(f"/api/games/daily-{players[1]}/chance").status_code == 200
        for client, player in zip((ann, bob), players, strict=True):
            res = client.post(f"/api/games/daily-{player}/moves", json={"move": "1>f"})
            assert res.json()["status"] == "won"
        board = ann.get("/api/leaderboard?variant=klondike").json()
        assert [e["nickname"] for e in board["entries"]] == ["Ann"]
        assert board["date"] == today and board["me"]["rank"] == 1
        assert bob.get("/api/leaderboard").json()["me"] is None  # helped by the win chance
        assert not any(p in json.dumps(board) for p in players if p)
        app.state.advisor.close()


@pytest.mark.parametrize("query,words", [
    ("date=2999-01-01", "has not come yet"), ("week=2026-W60", "an ISO week like"),
    ("week=2999-W01", "has not come yet"), ("variant=golf", "golf"),
    ("date=2026-12-01&week=2026-W49", "not both"), ("player=x", "unknown parameter"),
    ("date=yesterday", "a date YYYY-MM-DD")])
def test_bad_board_requests_are_400(tmp_path: Path, query: str, words: str) -> None:
    with browser(hosted(tmp_path)) as client:
        res = client.get(f"/api/leaderboard?{query}")
        assert res.status_code == 400 and words in res.json()["error"]


def test_the_page_is_served_with_its_words_in_three_languages(tmp_path: Path) -> None:
    with TestClient(hosted(tmp_path), base_url="http://cards.test") as client:
        res = client.get("/leaderboard")
        assert res.status_code == 200 and "leaderboard-page.js" in res.text
        assert "script-src 'self'" in res.headers["content-security-policy"]
    static = Path(kabale.__file__).parent / "server" / "static" / "js" / "messages"
    for lang in ("en", "da", "nb"):
        text = (static / f"{lang}.js").read_text(encoding="utf-8")
        assert '"board.rule"' in text and '"board.anonymous"' in text
    assert "Undo is allowed and not counted" in (static / "en.js").read_text(encoding="utf-8")


def test_a_player_ranks_only_a_daily_game_no_other_game_of_theirs_showed(
        tmp_path: Path) -> None:
    """Today's daily deal, one player: a game of it started after another of theirs was
    given up (its number shown) or played at all (its cards partly seen) starts helped; a
    game that wins after another of the deal was played meanwhile counts as helped too.
    Games never played (a second tap on the button) take nothing from the first."""
    app = hosted(tmp_path)
    today = utc_today().isoformat()
    store = app.state.games.store
    with browser(app) as ann, browser(app) as bob:
        first = ann.post("/api/games", json={"variant": "klondike", "daily": True}).json()
        untouched = ann.post("/api/games", json={"variant": "klondike", "daily": True}).json()
        assert not first["assisted"] and not untouched["assisted"]
        move = first["moves"][0]
        assert ann.post(f"/api/games/{first['id']}/moves", json={"move": move}).status_code \
            == 200
        after_play = ann.post("/api/games", json={"variant": "klondike", "daily": True})
        assert after_play.json()["assisted"] is True  # first showed some of its cards
        assert ann.post(f"/api/games/{first['id']}/resign").status_code == 200
        after_resign = ann.post("/api/games", json={"variant": "klondike", "daily": True})
        assert after_resign.json()["assisted"] is True
        # bob: two games of the deal at the table; he tries a move in one, wins the other
        bob.post("/api/games", json={"variant": "klondike"})
        bob_id = player_of_token(store, bob.cookies[COOKIE])
        for name in ("kept", "tried"):
            store.add(f"{name}-{bob_id}", one_move_from_winning(), daily=today, player=bob_id)
        tried = bob.post(f"/api/games/tried-{bob_id}/moves", json={"move": "1>2"}).json()
        assert tried["status"] == "playing"  # nothing shown: the game goes on
        won = bob.post(f"/api/games/kept-{bob_id}/moves", json={"move": "1>f"}).json()
        assert won["status"] == "won" and won["assisted"] is True
        assert bob.get("/api/leaderboard?variant=klondike").json()["me"] is None
        app.state.advisor.close()
