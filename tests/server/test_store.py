"""The SQLite game store: WAL mode, path choice, damaged saves, statistics."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from local import local_client

import kabale
from kabale.core.cards import Card, Suit
from kabale.core.state import State
from kabale.server.app import create_app
from kabale.storage.db import GameNotFoundError, GameStore, default_db_path, summarize


def one_move_from_winning() -> kabale.Game:
    """Klondike with every card home but the King of spades, which lies in column 1."""
    piles = [tuple(Card(rank, suit) for rank in range(1, 14)) for suit in Suit]
    piles[Suit.SPADES] = piles[Suit.SPADES][:-1]
    state = State(columns=((Card(13, Suit.SPADES),),) + ((),) * 6, down=(0,) * 7, stock=(),
                  waste=(), foundations=tuple(piles))
    return kabale.Game.from_position("klondike", state)


def test_database_is_in_wal_mode_and_round_trips(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "sub" / "k.db")
    game = kabale.Game.new("spider:suits=2", seed=8)
    game.play(game.legal_moves()[0])
    store.add("g1", game)
    store.save("g1", game, "playing", 12.5)
    store.close()
    with sqlite3.connect(tmp_path / "sub" / "k.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again = GameStore(tmp_path / "sub" / "k.db").load("g1")
    assert again.game.to_json() == game.to_json()
    assert (again.status, again.elapsed) == ("playing", 12.5)


def test_unknown_id_and_bad_status_are_refused(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "k.db")
    with pytest.raises(GameNotFoundError, match="nope"):
        store.load("nope")
    game = kabale.Game.new("klondike", seed=1)
    with pytest.raises(GameNotFoundError):
        store.save("nope", game, "playing", 0)
    store.add("g", game)
    with pytest.raises(kabale.KabaleError, match="bad game status 'paused'"):
        store.save("g", game, "paused", 0)


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "junk.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(kabale.KabaleError, match="cannot open game database"):
        GameStore(bad)


def test_db_path_choice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KABALE_DB", str(tmp_path / "env.db"))
    assert default_db_path("x.db") == Path("x.db")
    assert default_db_path(None) == tmp_path / "env.db"
    monkeypatch.delenv("KABALE_DB")
    assert default_db_path(None).name == "kabale.db"
    assert "kabale" in str(default_db_path(None).parent)


def test_damaged_save_is_refused_not_a_500(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    with local_client(create_app(str(db)), raise_server_exceptions=True) as client:
        gid = client.post("/api/games", json={"variant": "klondike", "seed": 4}).json()["id"]
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET save=? WHERE id=?", ('{"format": 1, "moves": [', gid))
    with local_client(create_app(str(db))) as client:
        for res in (client.get(f"/api/games/{gid}"),
                    client.post(f"/api/games/{gid}/moves", json={"move": "d"})):
            assert res.status_code == 409
            assert "damaged" in res.json()["error"] and gid in res.json()["error"]


def test_a_won_game_feeds_the_statistics(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "k.db"))
    app.state.games.store.add("nearly", one_move_from_winning())
    with local_client(app, raise_server_exceptions=True) as client:
        res = client.post("/api/games/nearly/moves", json={"move": "1>f"})
        assert res.status_code == 200
        assert res.json()["observation"]["outcome"] == "won" and res.json()["status"] == "won"
        assert client.post("/api/games/nearly/undo").status_code == 409
        stats = client.get("/api/stats").json()["variants"]
    assert [(s["variant"], s["played"], s["won"], s["win_pct"]) for s in stats] == [
        ("klondike", 1, 1, 100.0)]
    assert stats[0]["best_time"] is not None and stats[0]["current_streak"] == 1


def test_summarize_streaks_and_bests() -> None:
    results = [{"status": s, "score": i * 10, "moves": i, "elapsed": 100.0 - i, "finished": i,
                "deal_id": f"klondike#{i}"} for i, s in enumerate("WWLWWWLW")]
    for r in results:
        r["status"] = "won" if r["status"] == "W" else "lost"
    stats = summarize("klondike", results)
    assert (stats["played"], stats["won"]) == (8, 6)
    assert stats["win_pct"] == 75.0
    assert (stats["current_streak"], stats["best_streak"]) == (1, 3)
    assert stats["best_time"] == 93.0 and stats["best_score"] == 70
    assert [r["result"] for r in stats["recent"]][-2:] == ["lost", "won"]
    assert summarize("spider", [])["win_pct"] == 0.0
    assert stats["avg_moves"] == 3.5 and stats["avg_score"] == 35.0
    assert stats["avg_time"] == round(sum(100.0 - i for i in (0, 1, 3, 4, 5, 7)) / 6, 1)
    assert stats["total_score"] == 280
    assert summarize("spider", [])["avg_moves"] is None


def test_a_loss_counts_when_the_game_is_lost_not_when_the_next_starts(tmp_path: Path) -> None:
    # Issue 48: with no move left the game was counted only once the next game gave it up.
    app = create_app(str(tmp_path / "k.db"))
    with local_client(app, raise_server_exceptions=True) as client:
        gid = client.post("/api/games", json={"variant": "klondike:draw=3,passes=1",
                                              "seed": 12}).json()["id"]
        for _ in range(8):   # the stock drawn through once: nothing can move any more
            body = client.post(f"/api/games/{gid}/moves", json={"move": "d"}).json()
        assert body["observation"]["outcome"] == "lost" and body["can_undo"]
        stats = client.get("/api/stats").json()
        assert stats["all"]["played"] == 1 and stats["all"]["recent"][0]["result"] == "lost"
        assert [s["variant"] for s in stats["variants"]] == ["klondike:draw=3,passes=1"]
        # An undo takes the game back into play, and the loss with it; lost again, it counts
        # once, and giving it up then changes nothing in the count.
        assert client.post(f"/api/games/{gid}/undo").status_code == 200
        assert client.get("/api/stats").json()["all"]["played"] == 0
        assert client.post(f"/api/games/{gid}/redo").status_code == 200
        assert client.get("/api/stats").json()["all"]["played"] == 1
        assert client.post(f"/api/games/{gid}/resign").json()["status"] == "lost"
        stats = client.get("/api/stats").json()["all"]
        assert (stats["played"], stats["won"], stats["current_streak"]) == (1, 0, 0)


def test_a_demo_win_sets_no_record_and_no_rank(tmp_path: Path) -> None:
    # Issue 48: a demo's win in 0:02 was the best time, and the banner ranked it.
    app = create_app(str(tmp_path / "k.db"), effort="quick")
    store = app.state.games.store
    own = one_move_from_winning()
    own.play("1>f")
    store.add("own", own)
    store.save("own", own, "won", 300.0)          # won alone in five minutes
    store.add("demo", one_move_from_winning())
    with local_client(app, raise_server_exceptions=True) as client:
        before = client.get("/api/stats", params={"variant": "klondike"}).json()["variants"][0]
        demo = client.post("/api/games/demo/bot").json()
        assert demo["status"] == "won" and demo["assisted"] is True and demo["rank"] is None
        after = client.get("/api/stats", params={"variant": "klondike"}).json()["variants"][0]
    assert (after["played"], after["won"], after["won_unassisted"]) == (2, 2, 1)
    assert before["best_time"] == before["avg_time"] == 300.0
    for key in ("best_time", "best_score", "current_streak", "best_streak", "avg_time",
                "avg_moves", "avg_score"):
        assert after[key] == before[key], key
