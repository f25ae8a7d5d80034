"""Players of a hosted server (issue 44): the cookie, every game route's ownership check,
statistics per player, the transfer code, deleting everything, CSRF and rate limits."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from kabale.server.app import create_app
from kabale.server.site import COOKIE, Limits, Site

BASE = "http://cards.test"
SITE = Site(allowed_hosts=("cards.test",))
#: the routes that take no game id; a new one must be added here, after asking how one
#: player could reach another's data through it
NOT_GAME_ROUTES = {"/", "/api/variants", "/api/stats", "/api/stats/reset", "/api/daily/past",
                   "/api/games", "/api/player", "/api/player/nickname", "/api/player/settings",
                   "/api/player/transfer", "/api/player/redeem", "/api/player/delete",
                   "/api/leaderboard", "/leaderboard", "/static",
                   # the page's service worker; the asking player's own jobs, and the
                   # engine's counters for the operator only (jobs_api.help_status)
                   "/sw.js", "/api/help"}


def hosted(tmp_path: Path, site: Site = SITE) -> Starlette:
    return create_app(str(tmp_path / "site.db"), effort="quick", search_seconds=60.0,
                      site=site)


def browser(app: Starlette) -> TestClient:
    """A browser of its own (its own cookie jar), talking JSON to the site."""
    return TestClient(app, base_url=BASE, raise_server_exceptions=False,
                      headers={"Content-Type": "application/json"})


@pytest.fixture
def site_app(tmp_path: Path) -> Iterator[Starlette]:
    app = hosted(tmp_path)
    yield app
    if app.state.advisor is not None:
        app.state.advisor.close()


def new_game(client: TestClient, **spec: Any) -> dict[str, Any]:
    res = client.post("/api/games", json=spec or {"variant": "klondike", "seed": 3})
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


def test_the_first_post_sets_a_cookie_whose_token_is_stored_only_hashed(
        site_app: Starlette, tmp_path: Path) -> None:
    with browser(site_app) as alice:
        assert alice.get("/api/player").json()["player"] is False  # a GET makes nobody
        res = alice.post("/api/games", json={"variant": "klondike"})
        cookie = res.headers["set-cookie"]
        assert re.match(rf"{COOKIE}=[\w-]{{40,}}; Path=/; HttpOnly; SameSite=Lax;", cookie)
        assert "Secure" not in cookie  # http: the browser would not send it back
        token = alice.cookies[COOKIE]
        again = alice.post("/api/games", json={"variant": "klondike"})
        assert "set-cookie" not in again.headers  # the same player
        assert alice.get("/api/player").json()["games"] == 2
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("site.db*"))
    assert token.encode() not in raw
    assert hashlib.sha256(token.encode()).hexdigest().encode() in raw


def test_the_cookie_is_secure_behind_an_https_origin(tmp_path: Path) -> None:
    app = hosted(tmp_path, Site(allowed_hosts=("cards.test",),
                                public_origin="https://cards.test"))
    with TestClient(app, base_url="https://cards.test",
                    headers={"Content-Type": "application/json"}) as client:
        res = client.post("/api/games", json={"variant": "klondike"})
        assert res.headers["set-cookie"].endswith("; Secure")


def game_routes(app: Starlette) -> list[tuple[str, str]]:
    """(method, path) of every route of a game; asserts that every other route is known."""
    found: list[tuple[str, str]] = []
    for route in app.routes:
        path = getattr(route, "path", "")
        if "{game_id" not in path:
            assert path in NOT_GAME_ROUTES, f"new route {path}: does it check its player?"
            continue
        assert isinstance(route, Route)
        for method in sorted(route.methods or {"GET"}):
            if method != "HEAD":
                found.append((method, path))
    return found


def test_no_route_reaches_another_players_game(site_app: Starlette) -> None:
    routes = game_routes(site_app)
    assert len(routes) >= 12  # read, moves, undo, redo, resign, reveal and the six helps
    with browser(site_app) as alice, browser(site_app) as bob:
        playing = new_game(alice)
        alice.post(f"/api/games/{playing['id']}/moves", json={"move": playing["moves"][0]})
        over = new_game(alice)
        assert alice.post(f"/api/games/{over['id']}/resign").status_code == 200
        new_game(bob)  # bob is a player too, with a game of his own
        before = {g: alice.get(f"/api/games/{g}").json() for g in (playing["id"], over["id"])}
        for method, path in routes:
            for game_id in (playing["id"], over["id"]):
                url = path.replace("{game_id:str}", game_id)
                res = bob.request(method, url, json={"move": "d"} if method == "POST" else None)
                unknown = bob.request(method, path.replace("{game_id:str}", "x" + game_id[1:]),
                                      json={"move": "d"} if method == "POST" else None)
                assert res.status_code == 404, (method, url, res.text)
                assert res.json()["error"] == unknown.json()["error"].replace(
                    "x" + game_id[1:], game_id)  # the same words as for no such game
        for game_id, body in before.items():
            assert alice.get(f"/api/games/{game_id}").json() == body  # nothing changed
        stranger = TestClient(site_app, base_url=BASE, raise_server_exceptions=False)
        assert stranger.get(f"/api/games/{playing['id']}").status_code == 404


def test_statistics_are_each_players_own(site_app: Starlette) -> None:
    with browser(site_app) as alice, browser(site_app) as bob:
        game = new_game(alice)
        alice.post(f"/api/games/{game['id']}/resign")
        new_game(bob)
        mine = alice.get("/api/stats?variant=klondike").json()["variants"][0]
        theirs = bob.get("/api/stats?variant=klondike").json()["variants"][0]
        assert (mine["played"], theirs["played"]) == (1, 0)
        assert bob.post("/api/stats/reset", json={}).json() == {"removed": 0}
        assert alice.get("/api/stats").json()["all"]["played"] == 1


def test_a_transfer_code_moves_a_player_to_another_device_once(
        site_app: Starlette, tmp_path: Path) -> None:
    with browser(site_app) as phone, browser(site_app) as laptop, browser(site_app) as thief:
        game = new_game(phone)
        code = phone.post("/api/player/transfer").json()["code"]
        assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", code)
        assert laptop.get(f"/api/games/{game['id']}").status_code == 404
        res = laptop.post("/api/player/redeem", json={"code": code.lower()})
        assert res.status_code == 200, res.text
        assert res.json()["games"] == 1
        assert laptop.get(f"/api/games/{game['id']}").status_code == 200
        assert phone.get(f"/api/games/{game['id']}").status_code == 200  # both devices
        used = thief.post("/api/player/redeem", json={"code": code})
        assert used.status_code == 404 and "unknown, used already or expired" in used.text
        assert thief.post("/api/player/redeem", json={"code": "nonsense"}).status_code == 404
        assert thief.get(f"/api/games/{game['id']}").status_code == 404
    raw = b"".join(p.read_bytes() for p in tmp_path.glob("site.db*"))
    assert code.replace("-", "").encode() not in raw


def test_deleting_removes_every_row_of_the_player(site_app: Starlette, tmp_path: Path) -> None:
    with browser(site_app) as alice, browser(site_app) as bob:
        game = new_game(alice)
        alice.post("/api/player/nickname", json={"nickname": "Alice W"})
        alice.post("/api/player/transfer")
        keep = new_game(bob)
        refused = alice.post("/api/player/delete", json={})
        assert refused.status_code == 400
        res = alice.post("/api/player/delete", json={"confirm": True})
        assert res.status_code == 200 and res.json() == {"deleted": True, "games": 1}
        assert "Max-Age=0" in res.headers["set-cookie"]
        assert alice.get(f"/api/games/{game['id']}").status_code == 404
        assert bob.get(f"/api/games/{keep['id']}").status_code == 200
    with sqlite3.connect(tmp_path / "site.db") as conn:
        players = [r[0] for r in conn.execute("SELECT id FROM players")]
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
        assert conn.execute("SELECT COUNT(*) FROM transfer_codes").fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM players WHERE nickname IS NOT NULL"
                            ).fetchone()[0] == 0
        assert len(players) == 2  # the local player and bob
        tokens = {r[0] for r in conn.execute("SELECT player FROM player_tokens")}
        assert tokens == set(players) - {"local"}


@pytest.mark.parametrize("name,ok", [("Ann", True), ("  Ann   Lee ", True), ("", False),
                                     ("x" * 25, False), ("<b>", False), ("a\u0000b", False),
                                     ("Tom & Jerry", False), ("Åse Ørn", True)])
def test_nicknames_are_short_printable_and_without_markup(site_app: Starlette, name: str,
                                                          ok: bool) -> None:
    with browser(site_app) as alice:
        new_game(alice)
        res = alice.post("/api/player/nickname", json={"nickname": name})
        assert res.status_code == (200 if ok else 400), res.text
        if ok:
            assert alice.get("/api/player").json()["nickname"] == " ".join(name.split())


@pytest.mark.parametrize("headers", [{"Origin": "https://evil.test"},
                                     {"Origin": "null"},
                                     {"Sec-Fetch-Site": "cross-site"},
                                     {"Host": "evil.test"}])
def test_another_site_cannot_act_as_the_player(site_app: Starlette,
                                               headers: dict[str, str]) -> None:
    with browser(site_app) as alice:
        game = new_game(alice)
        res = alice.post(f"/api/games/{game['id']}/moves", json={"move": game["moves"][0]},
                         headers=headers)
        assert res.status_code == 403, res.text
        assert "content-security-policy" in res.headers
        assert alice.get(f"/api/games/{game['id']}").json()["observation"] == game["observation"]
        if "Origin" not in headers:  # a link or an image from another site: no GET either
            res = alice.get(f"/api/games/{game['id']}/chance", headers=headers)
            assert res.status_code == 403
            assert alice.get(f"/api/games/{game['id']}").json()["assisted"] is False
        own = alice.post(f"/api/games/{game['id']}/moves", json={"move": game["moves"][0]},
                         headers={"Origin": BASE, "Sec-Fetch-Site": "same-origin"})
        assert own.status_code == 200, own.text


def test_new_games_moves_and_help_are_rate_limited_with_retry_after(tmp_path: Path) -> None:
    app = hosted(tmp_path, Site(allowed_hosts=("cards.test",),
                                limits=Limits(games=2, moves=3, help=1, per_address=10)))
    with browser(app) as alice, browser(app) as bob:
        game = new_game(alice)  # before the cookie: counted against the address only
        new_game(alice)
        new_game(alice)
        res = alice.post("/api/games", json={"variant": "klondike"})
        assert res.status_code == 429
        assert 1 <= int(res.headers["retry-after"]) <= 30
        assert "too many requests" in res.json()["error"]
        assert "frame-ancestors 'none'" in res.headers["content-security-policy"]
        assert res.headers["x-content-type-options"] == "nosniff"
        new_game(bob)  # per player: bob still may
        codes = [alice.post(f"/api/games/{game['id']}/undo").status_code for _ in range(4)]
        assert codes == [409, 409, 409, 429]
    few = hosted(tmp_path / "b", Site(allowed_hosts=("cards.test",),
                                      limits=Limits(games=1, per_address=2)))
    with browser(few) as a, browser(few) as b, browser(few) as c:
        new_game(a)
        new_game(b)
        refused = c.post("/api/games", json={})
        assert refused.status_code == 429  # the address's limit
        assert "set-cookie" not in refused.headers  # and no new player for it
    with sqlite3.connect(tmp_path / "b" / "site.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 3  # local, a, b


def test_only_a_new_game_makes_a_player(site_app: Starlette, tmp_path: Path) -> None:
    with browser(site_app) as nobody:
        assert nobody.post("/api/player/nickname", json={"nickname": "X"}).status_code == 404
        assert nobody.post("/api/player/transfer").status_code == 404
        assert nobody.post("/api/stats/reset", json={}).json() == {"removed": 0}
        assert COOKIE not in nobody.cookies
    with sqlite3.connect(tmp_path / "site.db") as conn:
        assert conn.execute("SELECT id FROM players").fetchall() == [("local",)]


def test_local_play_has_one_player_and_no_player_routes(tmp_path: Path) -> None:
    app = create_app(str(tmp_path / "k.db"))
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    headers={"Content-Type": "application/json"}) as client:
        res = client.post("/api/games", json={"variant": "klondike"})
        assert res.status_code == 201 and "set-cookie" not in res.headers
        assert client.get(f"/api/games/{res.json()['id']}").status_code == 200
        assert client.get("/api/player").status_code == 404
        kept = client.post("/api/player/settings", json={"settings": {"lang": "nb"}})
        assert kept.status_code == 200  # the page keeps its settings for the local player
    with sqlite3.connect(tmp_path / "k.db") as conn:
        assert conn.execute("SELECT player FROM games").fetchall() == [("local",)]


def test_the_pages_settings_are_kept_and_travel_with_a_transfer_code(
        site_app: Starlette) -> None:
    with browser(site_app) as phone, browser(site_app) as laptop:
        new_game(phone)
        kept = {"lang": "da", "back": "red", "timer": False}
        res = phone.post("/api/player/settings", json={"settings": kept})
        assert res.status_code == 200 and res.json() == {"settings": kept}
        for bad in ({"x" * 21: True}, {"lang": "<" + "x" * 30}, {"a": [1]}, [1],
                    {str(n): True for n in range(31)}):
            refused = phone.post("/api/player/settings", json={"settings": bad})
            assert refused.status_code == 400, bad
        code = phone.post("/api/player/transfer").json()["code"]
        assert laptop.post("/api/player/redeem", json={"code": code}).json()["settings"] == kept
        assert laptop.get("/api/player").json()["settings"] == kept
        nobody = browser(site_app)
        assert nobody.post("/api/player/settings", json={"settings": {}}).status_code == 404
