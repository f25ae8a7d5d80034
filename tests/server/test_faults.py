"""Faults and limits (issue 43, round two), in-process: numbers of thousands of digits in a
deal id or a query, damaged columns of the database, a save that cannot be decoded. Each is
a 4xx (or a 503 for the database) with one line, never a 500."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from local import local_client
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale import Game
from kabale.server.app import create_app


def new(client: TestClient, **spec: Any) -> dict[str, Any]:
    res = client.post("/api/games", json=spec)
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


def test_a_deal_id_with_thousands_of_leading_zeros_is_that_deal(client: TestClient) -> None:
    res = client.post("/api/games", json={"deal_id": "klondike#" + "0" * 5000 + "7"})
    assert res.status_code == 201, res.text[:200]
    assert res.json()["observation"]["deal_id"] == "klondike#7"


@pytest.mark.parametrize("at", ["9" * 5000, "0" * 5000 + "99999999", "1" * 7])
def test_review_at_with_thousands_of_digits_is_400(client: TestClient, at: str) -> None:
    gid = new(client, variant="klondike", seed=2)["id"]
    assert client.post(f"/api/games/{gid}/resign").status_code == 200
    res = client.get(f"/api/games/{gid}/review", params={"at": at})
    assert res.status_code == 400 and "at must be a move number" in res.json()["error"]
    res = client.get(f"/api/games/{gid}/review", params={"at": "0" * 5000})
    assert res.status_code == 200 and res.json()["at"] == 0


def _damage(db: Path, sql: str, *args: Any) -> None:
    con = sqlite3.connect(db, isolation_level=None)
    con.execute(sql, args)
    con.close()


@pytest.mark.parametrize(("column", "value"), [
    ("score", "'x'"), ("moves", "'x'"), ("elapsed", "'x'"), ("finished", "'x'"),
    ("started", "'x'"), ("daily", "'not a date'"), ("daily", "5"), ("deal_id", "7"),
    ("elapsed", "X'00'"), ("score", "1e308 * 10"),
])
def test_damaged_number_or_date_columns_do_not_break_stats(tmp_path: Path, column: str,
                                                            value: str) -> None:
    app = create_app(str(tmp_path / "g.db"))
    with local_client(app) as client:
        ids = [new(client, variant="klondike", seed=s)["id"] for s in (1, 2)]
        for gid in ids:
            assert client.post(f"/api/games/{gid}/resign").status_code == 200
        app.state.games._cache.clear()
        _damage(tmp_path / "g.db", f"UPDATE games SET {column}={value} WHERE id=?", ids[0])
        stats = client.get("/api/stats")
        assert stats.status_code == 200, stats.text[:300]
        assert stats.json()["all"]["played"] >= 1
        assert client.get("/api/stats", params={"variant": "klondike"}).status_code == 200
        for gid in ids:
            res = client.get(f"/api/games/{gid}")
            assert res.status_code == 200, res.text[:300]


def test_a_save_that_is_not_utf8_is_a_damaged_save_409(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "g.db"))
    with local_client(app) as client:
        gid = new(client, variant="klondike", seed=1)["id"]
        other = new(client, variant="klondike", seed=2)["id"]
        app.state.games._cache.clear()
        _damage(tmp_path / "g.db", "UPDATE games SET save=CAST(X'7bff22' AS TEXT) WHERE id=?",
                gid)
        res = client.get(f"/api/games/{gid}")
        assert res.status_code == 409 and "damaged" in res.json()["error"], res.text
        assert client.post(f"/api/games/{gid}/moves", json={"move": "d"}).status_code == 409
        assert client.get(f"/api/games/{other}").status_code == 200
        assert client.get("/api/stats").status_code == 200


def test_a_won_game_with_damaged_numbers_gets_its_rank(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "g.db"))
    store = app.state.games.store

    won = Game.new("klondike", 1)
    store.add("w1", won)
    store.add("w2", won)
    store.save("w1", won, "won", 10.0)
    store.save("w2", won, "won", 12.0)
    _damage(tmp_path / "g.db", "UPDATE games SET score='x', elapsed='y' WHERE id='w2'")
    assert store.rank("w1")["wins"] >= 1
    assert store.rank("w2") is None  # its own numbers are damaged: no place, no 500


@pytest.mark.parametrize("charset", ["utf-16", "latin-1", "iso-8859-1", "UTF-32", '"utf-16le"'])
def test_a_body_declared_in_another_charset_is_415(app: Starlette, client: TestClient,
                                                   charset: str) -> None:
    body = '{"variant": "klondike", "seed": 1}'.encode("utf-16" if "16" in charset else "ascii")
    res = client.post("/api/games", content=body,
                      headers={"Content-Type": f"application/json; charset={charset}"})
    assert res.status_code == 415 and "UTF-8" in res.json()["error"]
    assert app.state.games.store.recent_games() == []


def test_a_json_body_is_read_as_utf8_only(app: Starlette, client: TestClient) -> None:
    text = '{"variant": "klondike", "seed": 1}'
    for encoding in ("utf-16", "utf-32", "utf-16-le"):
        res = client.post("/api/games", content=text.encode(encoding))
        assert res.status_code == 400 and "not valid JSON" in res.json()["error"], encoding
    assert app.state.games.store.recent_games() == []
    for content_type in ('application/json; charset="UTF-8"', "application/json;charset=utf8"):
        res = client.post("/api/games", content=text.encode(),
                          headers={"Content-Type": content_type})
        assert res.status_code == 201, content_type
