"""Property-based fuzzing of the HTTP API (hypothesis), in-process over a real SQLite file.

Any method, path, headers and body: the answer is never a 500, never a traceback, an error is
always ``{"error": "<one line>"}``, and a refused request changes no stored game. A random
deal's id never appears in an answer unless the game was revealed or has ended.

The example counts keep this file to seconds; ``KABALE_FUZZ=N`` multiplies them for a longer
run outside the default suite.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from local import PORT, local_client
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale.server.app import create_app

SCALE = int(os.environ.get("KABALE_FUZZ", "1"))
FUZZ = settings(max_examples=200 * SCALE, deadline=None, derandomize=SCALE == 1,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
ACTIONS = ["moves", "undo", "redo", "resign", "reveal", "hint", "chance", "postmortem", ""]
CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "text/plain",
                 "application/x-www-form-urlencoded", "multipart/form-data", "", "APPLICATION/JSON"]
VOCABULARY = ["variant", "seed", "deal_id", "move", "winnable", "grade", "daily"]
TEXTS = ["klondike", "spider:suits=2", "vegas", "klondike#7", "klondike#³", "spider#=AS",
         "3>7", "d", "w>f", "1:2>3", "٧>٤", "f1>2", "klondike:draw=2", "", "x" * 50]

json_leaf = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats()
             | st.text(max_size=10) | st.sampled_from(TEXTS))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                          max_leaves=10)
request_object = st.dictionaries(st.sampled_from(VOCABULARY) | st.text(max_size=6),
                                 json_leaf | json_value, max_size=3)
bodies = st.one_of(
    st.sampled_from(TEXTS).map(lambda text: json.dumps({"move": text}).encode()),
    request_object.map(lambda d: json.dumps(d).encode()),
    json_value.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=40),
    st.integers(1, 3000).map(lambda depth: b"[" * depth + b"]" * depth),
    st.integers(1, 3000).map(lambda depth: b'{"move":' * depth + b"1" + b"}" * depth),
    st.just(b""),
)


@pytest.fixture
def world(tmp_path: Path) -> tuple[Starlette, TestClient, dict[str, str]]:
    """An app with a few games: chosen deals, a random (secret) one, a finished one."""
    app = create_app(str(tmp_path / "games.db"))
    client = local_client(app)
    ids = {}
    for name, spec in (("chosen", {"variant": "klondike", "seed": 7}),
                       ("spider", {"variant": "spider:suits=2", "seed": 3}),
                       ("secret", {"variant": "klondike:draw=3"}),
                       ("over", {"variant": "spiderette", "seed": 5})):
        ids[name] = client.post("/api/games", json=spec).json()["id"]
    client.post(f"/api/games/{ids['over']}/resign")
    return app, client, ids


def rows(app: Starlette) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = app.state.games.store.recent_games(limit=10**6)
    return games


@st.composite
def requests(draw: st.DrawFn, ids: list[str]) -> tuple[str, str, dict[str, str], bytes]:
    """Half of them as the page would send them (a known game, JSON declared) with a hostile
    body; the other half with anything anywhere."""
    if draw(st.booleans()):
        game, action = draw(st.sampled_from(ids)), draw(st.sampled_from(ACTIONS))
        path = draw(st.sampled_from(["/api/games", f"/api/games/{game}/{action}"]))
        return "POST", path, {"Content-Type": "application/json"}, draw(bodies)
    method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "OPTIONS"]))
    game = quote(draw(st.sampled_from(ids) | st.text(max_size=12)), safe="")
    action = draw(st.sampled_from(ACTIONS))
    path = draw(st.sampled_from([
        "/api/games", f"/api/games/{game}", f"/api/games/{game}/{action}", "/api/variants",
        "/api/stats", "/", "/static/js/main.js", "/static/../app.py", "/api/nothing"]))
    if path == "/api/stats" and draw(st.booleans()):
        path += "?variant=" + quote(draw(st.sampled_from(TEXTS) | st.text(max_size=10)), safe="")
    headers = {}
    content_type = draw(st.sampled_from(CONTENT_TYPES) | st.none())
    if content_type is not None:
        headers["Content-Type"] = content_type
    if draw(st.integers(0, 4)) == 0:
        headers["Origin"] = draw(st.sampled_from(
            ["http://evil.example", "null", f"http://127.0.0.1:{PORT}", "http://localhost:1"]))
    if draw(st.integers(0, 4)) == 0:
        headers["Host"] = draw(st.sampled_from(
            ["evil.example", f"localhost:{PORT}", f"[::1]:{PORT}", "127.0.0.1"]))
    return method, path, headers, draw(bodies)


def check(app: Starlette, client: TestClient, request: tuple[str, str, dict[str, str], bytes],
          secret: tuple[str, str]) -> int:
    """Send one request; assert the answer's promises; returns its status."""
    method, path, headers, body = request
    before = rows(app)
    res = client.request(method, path, headers=headers, content=body)
    assert res.status_code < 500, (method, path, headers, body[:80], res.text[:300])
    assert "Traceback" not in res.text
    if res.status_code >= 400:
        error = res.json()["error"]
        assert isinstance(error, str) and error and "\n" not in error
        assert rows(app) == before, (method, path, res.status_code)
    secret_id, secret_deal = secret
    if not app.state.games.get(secret_id).game.deal_known:
        assert secret_deal.rpartition("#")[2] not in res.text
    return res.status_code


def test_random_requests_never_500_and_refusals_change_nothing(
        world: tuple[Starlette, TestClient, dict[str, str]]) -> None:
    app, client, ids = world
    secret = (ids["secret"], app.state.games.get(ids["secret"]).game.deal_id)
    seen: Counter[int] = Counter()

    @FUZZ
    @given(st.lists(requests(list(ids.values())), min_size=1, max_size=3))
    def probe(batch: list[tuple[str, str, dict[str, str], bytes]]) -> None:
        for request in batch:
            seen[check(app, client, request, secret)] += 1

    with client:
        probe()
    print(f"\n{sum(seen.values())} requests, by status: {sorted(seen.items())}")
    assert {200, 400, 403, 404, 415, 422} <= set(seen)  # the probes reached past each gate
