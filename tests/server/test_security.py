"""DESIGN.md §3b-§3c against an attacker, in-process: deal secrecy over the API, the request
rules (Host, Origin, JSON posts), the security headers, hostile bodies, and a damaged or empty
database. Every refusal is a 4xx (or 503 for the database) with one line, and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from local import PORT, local_client
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale import Game
from kabale.core.persist import MAX_MOVES
from kabale.server.app import STATIC, create_app
from kabale.storage.db import GameStore


def games_in(app: Starlette) -> list[dict[str, Any]]:
    """Every stored game row (what a refused request must leave as it was)."""
    store: GameStore = app.state.games.store
    return store.recent_games(limit=10**6)


def new(client: TestClient, **spec: Any) -> dict[str, Any]:
    res = client.post("/api/games", json=spec)
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


# --------------------------------------------------------------------------- deal secrecy
def test_a_random_deal_is_secret_until_revealed_and_the_reveal_is_kept(
        app: Starlette, client: TestClient, tmp_path: Path) -> None:
    body = new(client, variant="klondike:draw=3")
    gid, obs = body["id"], body["observation"]
    assert obs["deal_id"] is None
    true_id = app.state.games.get(gid).game.deal_id
    assert true_id.rpartition("#")[2] not in json.dumps(body)
    assert obs["deal_hash"] == hashlib.sha256(true_id.encode()).hexdigest()
    moved = client.post(f"/api/games/{gid}/moves", json={"move": obs["legal"][0]}).json()
    assert moved["observation"]["deal_id"] is None

    revealed = client.post(f"/api/games/{gid}/reveal")
    assert revealed.status_code == 200
    deal_id = revealed.json()["observation"]["deal_id"]
    assert hashlib.sha256(deal_id.encode()).hexdigest() == obs["deal_hash"]
    # The commitment holds: the revealed id deals exactly the cards that were shown.
    assert Game.from_deal_id(deal_id).observe()["columns"] == obs["columns"]
    # Recorded in the database: a new server on the same file shows it too.
    with local_client(create_app(str(tmp_path / "games.db"))) as again:
        assert again.get(f"/api/games/{gid}").json()["observation"]["deal_id"] == deal_id
    assert client.post("/api/games/nope/reveal").status_code == 404


def test_chosen_deals_are_shown_and_giving_up_reveals(client: TestClient) -> None:
    assert new(client, variant="spider", seed=3)["observation"]["deal_id"] == "spider#3"
    assert new(client, deal_id="klondike#9")["observation"]["deal_id"] == "klondike#9"
    gid = new(client, variant="spiderette")["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "d"})
    resigned = client.post(f"/api/games/{gid}/resign").json()
    assert resigned["status"] == "lost" and resigned["observation"]["deal_id"]
    recent = client.get("/api/stats", params={"variant": "spiderette"}).json()
    assert recent["variants"][0]["recent"][-1]["deal_id"] == resigned["observation"]["deal_id"]


# --------------------------------------------------------------------------- request rules
@pytest.mark.parametrize("host", ["evil.example", f"evil.example:{PORT}", "127.0.0.1",
                                  f"127.0.0.1:{PORT + 1}", f"localhost.evil.example:{PORT}",
                                  f"0.0.0.0:{PORT}", f"192.168.1.2:{PORT}", ""])
def test_a_foreign_host_is_refused(app: Starlette, client: TestClient, host: str) -> None:
    for method, path in (("GET", "/"), ("GET", "/api/variants"), ("POST", "/api/games")):
        res = client.request(method, path, headers={"Host": host}, json={"variant": "klondike"})
        assert res.status_code == 403, (host, method, path)
        assert "Host" in res.json()["error"]
        assert res.headers["x-content-type-options"] == "nosniff"
    assert games_in(app) == []


@pytest.mark.parametrize("host", [f"localhost:{PORT}", f"LocalHost:{PORT}", f"127.0.0.1:{PORT}",
                                  f"127.4.5.6:{PORT}", f"[::1]:{PORT}"])
def test_the_loopback_names_with_the_port_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/variants", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "null", f"https://127.0.0.1:{PORT}",
                                    f"http://127.0.0.1:{PORT + 1}", f"http://evil.example:{PORT}",
                                    f"http://localhost:{PORT}/x", "garbage"])
def test_a_cross_origin_request_is_refused(app: Starlette, client: TestClient,
                                           origin: str) -> None:
    gid = new(client, variant="klondike", seed=1)["id"]
    before = games_in(app)
    for method, path in (("POST", "/api/games"), ("POST", f"/api/games/{gid}/moves"),
                         ("POST", f"/api/games/{gid}/reveal"), ("GET", f"/api/games/{gid}")):
        res = client.request(method, path, headers={"Origin": origin}, json={"move": "d"})
        assert res.status_code == 403, (origin, path)
        assert "origin" in res.json()["error"]
    assert games_in(app) == before


def test_the_servers_own_origin_is_served(client: TestClient) -> None:
    for origin in (f"http://127.0.0.1:{PORT}", f"http://localhost:{PORT}"):
        res = client.post("/api/games", headers={"Origin": origin}, json={"variant": "spider"})
        assert res.status_code == 201


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonp",
                                          "text/json"])
def test_a_post_that_is_not_declared_json_is_refused(app: Starlette, content_type: str | None,
                                                     tmp_path: Path) -> None:
    headers = {} if content_type is None else {"Content-Type": content_type}
    with TestClient(app, base_url=f"http://127.0.0.1:{PORT}") as plain:  # no default type
        created = plain.post("/api/games", json={"variant": "klondike", "seed": 1})
        assert created.status_code == 201  # json= declares it
        gid = created.json()["id"]
        before = games_in(app)
        body = b'{"variant": "klondike"}'
        for path in ("/api/games", f"/api/games/{gid}/moves", f"/api/games/{gid}/undo",
                     f"/api/games/{gid}/resign", f"/api/games/{gid}/reveal"):
            res = plain.post(path, content=body, headers=headers)
            assert res.status_code == 415, (content_type, path)
            assert "application/json" in res.json()["error"]
        assert games_in(app) == before
        ok = plain.post("/api/games", content=body,
                        headers={"Content-Type": "Application/JSON; charset=utf-8"})
        assert ok.status_code == 201


CSP_NEEDS = ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'",
             "object-src 'none'", "base-uri 'none'"]


def test_security_headers_on_the_page_the_api_and_errors(client: TestClient) -> None:
    gid = new(client, variant="klondike", seed=1)["id"]
    for res in (client.get("/"), client.get("/static/js/main.js"), client.get("/api/variants"),
                client.get(f"/api/games/{gid}"), client.get("/api/games/nope"),
                client.post(f"/api/games/{gid}/moves", json={"move": "9>9"}),
                client.get("/", headers={"Host": "evil.example"})):
        csp = res.headers["content-security-policy"]
        for part in CSP_NEEDS:
            assert part in csp, (res.url, part)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert res.headers["x-content-type-options"] == "nosniff"
        assert res.headers["referrer-policy"] == "no-referrer"
        assert res.headers["x-frame-options"] == "DENY"


class _Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "script" and "src" not in names:
            self.problems.append("an inline <script>")
        self._in_script = tag == "script"
        self.problems += [f"<{tag} {name}=...>" for name in names
                          if name.startswith("on") or name == "style"]

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.problems.append("script text inside <script>")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def test_the_page_has_no_inline_script_handlers_or_styles() -> None:
    """What the CSP refuses must not be in the page (the browser tests watch the console)."""
    parser = _Markup()
    parser.feed((STATIC / "index.html").read_text())
    assert not parser.problems
    for script in (STATIC / "js").glob("*.js"):
        text = script.read_text()
        for needle in ("eval(", "new Function", 'setAttribute("style"', ".cssText", "onclick="):
            assert needle not in text, (script.name, needle)


# --------------------------------------------------------------------------- hostile bodies
DEEP = ["[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000, "[" * 5000]


@pytest.mark.parametrize("path", ["/api/games", "/moves", "/undo", "/redo", "/resign", "/reveal"])
def test_json_nested_deeply_is_400_on_every_body(app: Starlette, client: TestClient,
                                                 path: str) -> None:
    gid = new(client, variant="klondike", seed=2)["id"]
    before = games_in(app)
    url = path if path.startswith("/api") else f"/api/games/{gid}{path}"
    for text in DEEP:
        res = client.post(url, content=text.encode())
        assert res.status_code == 400, (url, res.text[:200])
        assert "nested too deeply" in res.json()["error"] or "not valid JSON" in res.json()[
            "error"]
    assert games_in(app) == before


@pytest.mark.parametrize("body", [
    {"deal_id": "klondike#³"}, {"deal_id": "klondike#①"}, {"deal_id": "klondike#" + "9" * 4301},
    {"deal_id": "klondike#" + "1" * 30}, {"variant": "klondike", "seed": 2**64},
    {"variant": "klondike", "seed": -1}, {"variant": "klondike:draw=٣"},
])
def test_bad_deal_ids_and_seeds_are_400(app: Starlette, client: TestClient,
                                        body: dict[str, Any]) -> None:
    res = client.post("/api/games", json=body)
    assert res.status_code == 400 and len(res.json()["error"]) < 400
    assert games_in(app) == []


def test_huge_numbers_in_a_body_are_400(client: TestClient) -> None:
    res = client.post("/api/games", content=b'{"variant": "klondike", "seed": ' + b"9" * 5000
                      + b"}")
    assert res.status_code == 400


@pytest.mark.parametrize("move", ["٧>٤", "７>４", "³>f", "1:٢>3"])
def test_moves_with_non_ascii_digits_are_not_moves(client: TestClient, move: str) -> None:
    body = new(client, variant="klondike", seed=1)
    res = client.post(f"/api/games/{body['id']}/moves", json={"move": move})
    assert res.status_code == 422 and res.json()["error"].startswith("not a move")
    assert client.get(f"/api/games/{body['id']}").json()["observation"] == body["observation"]


def test_a_game_at_the_move_limit_refuses_the_next_move(app: Starlette,
                                                        client: TestClient) -> None:
    game = Game.new("klondike", 1)
    for _ in range(MAX_MOVES):
        game.play("d")
    app.state.games.store.add("long", game)
    before = games_in(app)
    res = client.post("/api/games/long/moves", json={"move": "d"})
    assert res.status_code == 422 and f"{MAX_MOVES} moves" in res.json()["error"]
    assert games_in(app) == before
    assert client.post("/api/games/long/undo").status_code == 200


# --------------------------------------------------------------------------- the database
def _damaged_database(path: Path) -> list[str]:
    """A database of 60 games with one page of game rows overwritten; their ids."""
    store = GameStore(path)
    ids = []
    for i in range(60):
        game = Game.new("klondike" if i % 2 else "spider", i + 1)
        for _ in range(5):
            game.play(game.legal_moves()[0])
        store.add(f"g{i:02}", game)
        store.save(f"g{i:02}", game, "lost" if i % 3 == 0 else "playing", 1.0)
        ids.append(f"g{i:02}")
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = conn.execute("SELECT max(pageno) FROM dbstat WHERE name='games' AND "
                            "pagetype='leaf'").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    with open(path, "r+b") as handle:
        handle.seek((page - 1) * size + 200)
        handle.write(os.urandom(size - 400))
    return ids


def test_a_damaged_page_is_named_and_the_rest_is_served(tmp_path: Path) -> None:
    ids = _damaged_database(tmp_path / "k.db")
    app = create_app(str(tmp_path / "k.db"))
    problems = app.state.games.store.problems
    assert len(problems) == 1 and "is damaged" in problems[0] and "\n" not in problems[0]
    with local_client(app) as client:
        stats = client.get("/api/stats")
        assert stats.status_code == 503 and "damaged" in stats.json()["error"]
        answers = [client.get(f"/api/games/{gid}") for gid in ids]
        served = [res for res in answers if res.status_code == 200]
        refused = [res for res in answers if res.status_code != 200]
        assert served and refused
        assert {res.status_code for res in refused} == {503}
        assert all("damaged" in res.json()["error"] for res in refused)
        assert client.get("/").status_code == 200
        assert client.get("/api/variants").status_code == 200
        assert client.post("/api/games", json={"variant": "spider"}).status_code == 201
        gid = next(res.json()["id"] for res in served if res.json()["status"] == "playing")
        assert client.post(f"/api/games/{gid}/undo").status_code == 200


def test_an_empty_database_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "k.db").write_bytes(b"")
    store = GameStore(tmp_path / "k.db")
    assert len(store.problems) == 1 and "0 bytes" in store.problems[0]
    store.add("g", Game.new("klondike", 1))
    store.close()
    assert GameStore(tmp_path / "k.db").problems == []  # a database now
    assert GameStore(tmp_path / "new.db").problems == []  # a new file is no problem
