"""The review route: POST starts the review of a finished game as a job on the help engine, GET
polls it; both 409 while the game can still change (the job's own behaviour: test_review_jobs)."""

from __future__ import annotations

import json
import time
from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient

import kabale
from kabale.advisor.effort import effort_for
from kabale.advisor.review import FORCED, GRADES, grade_move
from kabale.server.advice import position_seed


def new(client: TestClient, **spec: Any) -> dict[str, Any]:
    res = client.post("/api/games", json=spec)
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


def play(client: TestClient, gid: str, moves: int) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/api/games/{gid}").json()
    for _ in range(moves):
        body = client.post(f"/api/games/{gid}/moves",
                           json={"move": body["observation"]["legal"][0]}).json()
    return body


def wait(client: TestClient, gid: str) -> dict[str, Any]:
    """Poll until the review is done (each poll is a real GET; the review runs in a worker
    process). No timing is asserted: the loop ends when the state does."""
    for _ in range(6000):
        body: dict[str, Any] = client.get(f"/api/games/{gid}/analysis").json()
        if body["state"] in ("done", "failed"):
            return body
        time.sleep(0.05)
    raise AssertionError("the review never finished")


def test_the_review_waits_for_the_end_then_grades_every_move(app: Starlette,
                                                            client: TestClient) -> None:
    gid = new(client, variant="klondike", seed=7)["id"]
    play(client, gid, 6)
    for method in ("get", "post"):
        res = getattr(client, method)(f"/api/games/{gid}/analysis")
        assert res.status_code == 409 and "still being played" in res.json()["error"]
    assert client.post(f"/api/games/{gid}/resign").status_code == 200
    res = client.get(f"/api/games/{gid}/analysis")
    assert res.status_code == 200 and res.json()["state"] == "none"
    res = client.post(f"/api/games/{gid}/analysis")
    assert res.status_code == 202 and res.json()["state"] in ("running", "done")
    body = wait(client, gid)
    assert body["state"] == "done" and body["done"] == body["total"] == 7, body
    assert body["code"] is None and body["error"] is None
    # worked out by the review lane's worker process, not by the web process
    assert app.state.advisor.reviews.pids() and app.state.advisor.jobs.done >= 1
    found = body["review"]
    assert [d["move"] for d in found["decisions"]] == \
        client.get(f"/api/games/{gid}/postmortem").json()["moves"]
    assert found["postmortem"]["winnable_at_start"] is True  # klondike#7 (test_advice_api)
    # the same review as the library's, with the server's effort and the game's seed
    stored = app.state.games.store.load(gid).game
    expected = kabale.review(stored, effort_for(stored.variant, "quick"),
                             position_seed(stored), with_deal=True).to_dict()
    # (the server adds what each move and better move moved, for the page's words)
    plain = json.loads(json.dumps(found))
    for decision in plain["decisions"]:
        assert decision.pop("move_facts")["card" if decision["move"] != "d" else "stock"]
        decision.pop("best_facts")
    assert plain == json.loads(json.dumps(expected))
    # asking again starts nothing new and answers the review
    again = client.post(f"/api/games/{gid}/analysis")
    assert again.json()["review"] == found


def test_a_position_lost_but_undoable_is_not_reviewed(client: TestClient) -> None:
    gid = new(client, variant="klondike:draw=3,passes=1", seed=12)["id"]
    for _ in range(8):
        body = client.post(f"/api/games/{gid}/moves", json={"move": "d"}).json()
    assert body["observation"]["outcome"] == "lost" and body["can_undo"]
    res = client.post(f"/api/games/{gid}/analysis")
    assert res.status_code == 409 and "resign" in res.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["assisted"] is False


def test_an_unknown_game_is_404(client: TestClient) -> None:
    assert client.get("/api/games/nope/analysis").status_code == 404
    assert client.post("/api/games/nope/analysis").status_code == 404


def test_coach_grades_a_move_from_the_player_s_view_and_counts_as_help(
        app: Starlette, client: TestClient) -> None:
    gid = new(client, variant="klondike", seed=7)["id"]
    body = play(client, gid, 3)
    move = body["observation"]["legal"][-1]
    res = client.post(f"/api/games/{gid}/coach", json={"move": move})
    assert res.status_code == 200, res.text
    got = res.json()["coach"]
    stored = app.state.games.store.load(gid)
    expected = grade_move(stored.game, move, effort_for(stored.game.variant, "quick"),
                          position_seed(stored.game)).to_dict()
    assert got == json.loads(json.dumps(expected))
    assert got["index"] == 3 and got["grade"] in (*GRADES, FORCED)
    assert stored.assisted and client.get(f"/api/games/{gid}").json()["assisted"] is True
    assert stored.game.moves_made == 3  # asking plays nothing


def test_coach_refuses_bad_moves_and_finished_games(client: TestClient) -> None:
    gid = new(client, variant="klondike", seed=7)["id"]
    for payload, status in [({"move": "9>9"}, 422), ({"move": 3}, 400), ({}, 400),
                            ({"move": "d", "x": 1}, 400)]:
        res = client.post(f"/api/games/{gid}/coach", json=payload)
        assert res.status_code == status, (payload, res.text)
    assert client.get(f"/api/games/{gid}").json()["assisted"] is False
    client.post(f"/api/games/{gid}/resign")
    assert client.post(f"/api/games/{gid}/coach", json={"move": "d"}).status_code == 409
