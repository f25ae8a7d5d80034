"""The JSON API of DESIGN.md 3c, in-process: shapes, status codes, and that nothing changes
on a refused request."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

import kabale
from kabale.core.refusal import REASONS

OBS_KEYS = {"variant", "deal_id", "deal_hash", "columns", "down", "stock", "stock_cards", "waste",
            "foundations", "passes_left", "legal", "outcome", "score", "moves_made", "rules"}


def new(client: TestClient, **spec: Any) -> dict[str, Any]:
    res = client.post("/api/games", json=spec)
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


@pytest.mark.parametrize("variant", ["klondike", "vegas", "double-klondike", "spider:suits=2",
                                     "spiderette:suits=1"])
def test_create_deals_the_same_game_as_the_core(client: TestClient, variant: str) -> None:
    body = new(client, variant=variant, seed=42)
    assert set(body["observation"]) == OBS_KEYS
    assert body["observation"] == kabale.Game.new(variant, seed=42).observe()
    assert len(body["id"]) >= 20
    assert len(body["moves"]) == len(body["observation"]["legal"])


def test_ids_are_unguessable_and_distinct(client: TestClient) -> None:
    ids = {new(client, variant="klondike", seed=1)["id"] for _ in range(5)}
    assert len(ids) == 5
    assert all(len(i) >= 20 and i.isascii() for i in ids)


def test_create_by_deal_id_and_random_seed(client: TestClient) -> None:
    body = new(client, deal_id="spider:suits=1#9")
    assert body["observation"] == kabale.Game.from_deal_id("spider:suits=1#9").observe()
    random_deal = new(client, variant="spiderette")["observation"]
    assert random_deal["variant"] == "spiderette" and random_deal["deal_id"] is None
    assert len(random_deal["deal_hash"]) == 64


def test_get_returns_the_game(client: TestClient) -> None:
    body = new(client, variant="klondike", seed=7)
    res = client.get(f"/api/games/{body['id']}")
    assert res.status_code == 200
    assert res.json()["observation"] == body["observation"]
    assert res.json()["id"] == body["id"]


def test_move_undo_redo_round_trip(client: TestClient) -> None:
    body = new(client, variant="klondike", seed=7)
    gid, start = body["id"], body["observation"]
    first = start["legal"][0]
    moved = client.post(f"/api/games/{gid}/moves", json={"move": first})
    assert moved.status_code == 200
    after = moved.json()["observation"]
    expected = kabale.Game.new("klondike", seed=7)
    expected.play(first)
    assert after == expected.observe() and moved.json()["move"] == first
    undone = client.post(f"/api/games/{gid}/undo")
    assert undone.status_code == 200 and undone.json()["observation"] == start
    redone = client.post(f"/api/games/{gid}/redo")
    assert redone.status_code == 200 and redone.json()["observation"] == after
    assert client.post(f"/api/games/{gid}/redo").status_code == 409


def test_nothing_to_undo_is_409(client: TestClient) -> None:
    gid = new(client, variant="spider", seed=3)["id"]
    for action in ("undo", "redo"):
        res = client.post(f"/api/games/{gid}/{action}")
        assert res.status_code == 409
        assert f"nothing to {action}" in res.json()["error"]


@pytest.mark.parametrize("move", ["9>9", "zz", "1:99>2", "w>f", "f1>3"])
def test_illegal_or_malformed_move_is_422_and_changes_nothing(client: TestClient,
                                                              move: str) -> None:
    body = new(client, variant="spider:suits=2", seed=42)
    res = client.post(f"/api/games/{body['id']}/moves", json={"move": move})
    assert res.status_code == 422
    assert set(res.json()) <= {"error", "reason"} and res.json()["error"]
    assert client.get(f"/api/games/{body['id']}").json()["observation"] == body["observation"]


def test_a_refused_move_says_why_as_a_reason_key(client: TestClient) -> None:
    """The rules' refusal as data (core/refusal.py): its key and parameters, which the
    English error words."""
    body = new(client, variant="klondike", seed=1)
    game = kabale.Game.from_deal_id("klondike#1")
    refused = next(f"{i}>{j}" for i in range(1, 8) for j in range(1, 8)
                   if i != j and f"{i}>{j}" not in body["observation"]["legal"])
    res = client.post(f"/api/games/{body['id']}/moves", json={"move": refused})
    assert res.status_code == 422
    reason = res.json()["reason"]
    with pytest.raises(kabale.IllegalMoveError) as error:
        game.play(refused)
    assert error.value.refusal is not None
    assert reason == error.value.refusal.to_dict()
    assert reason["key"] in REASONS and res.json()["error"] == str(error.value)
    assert REASONS[reason["key"]].split("{")[0] in res.json()["error"]


@pytest.mark.parametrize("payload", [{}, {"move": 3}, {"move": ""}, {"move": ["d"]},
                                     {"move": "d" * 100}])
def test_malformed_move_body_is_422(client: TestClient, payload: dict[str, Any]) -> None:
    gid = new(client, variant="klondike", seed=1)["id"]
    res = client.post(f"/api/games/{gid}/moves", json=payload)
    assert res.status_code == 422 and "move" in res.json()["error"]


@pytest.mark.parametrize(("content", "status"), [
    (b"{", 400), (b"[1, 2]", 400), (b"\xff\xfe", 400), (b'{"variant": "nope"}', 400),
    (b'{"variant": "klondike:draw=2"}', 400), (b'{"variant": 5}', 400),
    (b'{"variant": "klondike", "seed": "x"}', 400), (b'{"variant": "klondike", "seed": true}', 400),
    (b'{"variant": "klondike", "seed": 1.5}', 400), (b'{"variant": "klondike", "seed": -1}', 400),
    (b'{"deal_id": "klondike"}', 400), (b'{"colour": "red"}', 400),
])
def test_bad_create_requests_are_400(client: TestClient, content: bytes, status: int) -> None:
    res = client.post("/api/games", content=content, headers={"content-type": "application/json"})
    assert res.status_code == status, res.text
    assert set(res.json()) == {"error"}


def test_oversized_bodies_are_413(client: TestClient) -> None:
    big = b'{"variant": "klondike", "pad": "' + b"x" * 20000 + b'"}'
    assert client.post("/api/games", content=big).status_code == 413
    gid = new(client, variant="klondike", seed=2)["id"]

    def chunks():  # no content-length: the limit must hold while streaming too
        for _ in range(40):
            yield b"x" * 1000

    res = client.post(f"/api/games/{gid}/moves", content=chunks())
    assert res.status_code == 413 and "too large" in res.json()["error"]


@pytest.mark.parametrize("path", ["", "/moves", "/undo", "/redo", "/resign"])
def test_unknown_game_is_404(client: TestClient, path: str) -> None:
    method = client.get if path == "" else client.post
    kwargs = {} if path == "" else {"json": {"move": "d"}}
    res = method(f"/api/games/no-such-game{path}", **kwargs)
    assert res.status_code == 404 and "no-such-game" in res.json()["error"]


def test_unknown_route_and_method_answer_json(client: TestClient) -> None:
    assert client.get("/api/nothing").json() == {"error": "Not Found"}
    res = client.delete("/api/games")
    assert res.status_code == 405 and "error" in res.json()


def test_resign_finishes_the_game_and_counts_as_lost(client: TestClient) -> None:
    gid = new(client, variant="spider-1", seed=5)["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "d"})
    res = client.post(f"/api/games/{gid}/resign")
    assert res.status_code == 200 and res.json()["status"] == "lost"
    assert client.post(f"/api/games/{gid}/moves", json={"move": "d"}).status_code == 409
    assert client.post(f"/api/games/{gid}/undo").status_code == 409
    stats = client.get("/api/stats", params={"variant": "spider-1"}).json()["variants"][0]
    assert stats["variant"] == "spider:suits=1"
    assert (stats["played"], stats["won"], stats["current_streak"]) == (1, 0, 0)
    assert stats["recent"][0]["result"] == "lost" and stats["recent"][0]["moves"] == 1


def test_stats_of_unknown_variant_is_400(client: TestClient) -> None:
    assert client.get("/api/stats", params={"variant": "golf"}).status_code == 400
    assert client.get("/api/stats").json()["variants"] == []
    assert client.get("/api/stats").json()["all"]["played"] == 0


def test_stats_summary_of_all_games_averages_and_reset(client: TestClient) -> None:
    for variant, moves in [("spider-1", 1), ("klondike", 3), ("vegas", 2)]:
        gid = new(client, variant=variant, seed=5)["id"]
        for _ in range(moves):
            client.post(f"/api/games/{gid}/moves", json={"move": "d"})
        client.post(f"/api/games/{gid}/resign")
    playing = new(client, variant="klondike", seed=6)["id"]
    data = client.get("/api/stats").json()
    assert data["all"]["variant"] is None
    assert (data["all"]["played"], data["all"]["won"]) == (3, 0)
    assert data["all"]["avg_moves"] == 2.0 and data["all"]["avg_time"] is None
    vegas = client.get("/api/stats", params={"variant": "vegas"}).json()["variants"][0]
    assert vegas["total_score"] == -52 and vegas["avg_score"] == -52.0
    res = client.post("/api/stats/reset", json={"variant": "spider-1"})
    assert res.status_code == 200 and res.json() == {"removed": 1}
    assert client.get("/api/stats").json()["all"]["played"] == 2
    assert client.post("/api/stats/reset", json={}).json() == {"removed": 2}
    assert client.get("/api/stats").json() == {"variants": [], "all": client.get(
        "/api/stats").json()["all"]} and client.get("/api/stats").json()["all"]["played"] == 0
    assert client.get(f"/api/games/{playing}").status_code == 200   # games in play are kept


def test_stats_reset_refuses_bad_input_and_changes_nothing(client: TestClient) -> None:
    gid = new(client, variant="klondike", seed=5)["id"]
    client.post(f"/api/games/{gid}/moves", json={"move": "d"})
    client.post(f"/api/games/{gid}/resign")
    for body in ({"variant": "golf"}, {"variant": 3}, {"everything": True}):
        res = client.post("/api/stats/reset", json=body)
        assert res.status_code == 400 and res.json()["error"]
    assert client.get("/api/stats").json()["all"]["played"] == 1


def test_variants_lists_every_family_with_options(client: TestClient) -> None:
    data = client.get("/api/variants").json()
    assert [f["id"] for f in data["families"]] == ["klondike", "spider", "spiderette"]
    assert data["families"][0]["options"]["draw"] == [1, 3]
    assert data["aliases"]["vegas"] == "klondike:draw=3,passes=3,scoring=vegas"


def test_page_and_static_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<main id="table"' in page.text
    for name in ("js/main.js", "js/table.js", "js/cards.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../app.py").status_code == 404


def test_the_clock_starts_at_the_first_move(app: Starlette) -> None:
    service = app.state.games
    entry = service.create("klondike", 7)
    entry.last_active -= 100.0            # the player looked at the deal for 100 s
    entry, _ = service.play(entry.id, "d")
    assert entry.elapsed < 1.0
    entry.last_active -= 30.0             # a pause after the first move counts
    entry, _ = service.play(entry.id, "d")
    assert 29.0 < entry.elapsed < 31.5
