"""No response ever carries a face-down or stock card (DESIGN 3b), in every family.

Each game is played by random legal moves (stock actions, undo and redo mixed in, and the
player's help: hints, the win chance, the demo's bot moves) through the API; after every
response the body is compared with the server's true state: each card code may appear in the
body at most as often as it lies face up on the table. While the game is played, the
post-mortem and the review of the deal face up are refused.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from local import DOORS, door_app
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale.core.state import State


@pytest.fixture(params=DOORS)
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Starlette:
    """Every test here runs against both doors: `kabale play` and `kabale serve`."""
    return door_app(tmp_path, request.param)

CODE = re.compile(r"(?<![0-9A-Za-z])([A2-9TJQK][SHDC])(?![0-9A-Za-z])")


def visible_codes(state: State) -> Counter[str]:
    seen: Counter[str] = Counter(str(c) for c in state.waste)
    for col, down in zip(state.columns, state.down, strict=True):
        seen.update(str(c) for c in col[down:])
    for pile in state.foundations:
        seen.update(str(c) for c in pile)
    return seen


def hidden_codes(state: State) -> set[str]:
    hidden = {str(c) for c in state.stock}
    for col, down in zip(state.columns, state.down, strict=True):
        hidden.update(str(c) for c in col[:down])
    return hidden


def check_body(app: Starlette, text: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(text)
    state = app.state.games.get(body["id"]).game.state
    visible = visible_codes(state)
    # The random game id may contain something like "_6S": it is not a card, so leave it out.
    shown = Counter(CODE.findall(text.replace(body["id"], "")))
    over = {code: n for code, n in shown.items() if n > visible[code]}
    assert not over, f"hidden cards leaked: {over}"
    never_visible = hidden_codes(state) - set(visible)
    assert not never_visible & set(shown)
    return body


@pytest.mark.parametrize("variant", ["klondike", "klondike:draw=3", "vegas", "double-klondike",
                                     "easy-klondike", "spider", "spider:suits=2",
                                     "spider:suits=1", "spiderette", "spiderette:suits=2"])
def test_no_hidden_card_in_any_response(app: Starlette, client: TestClient,
                                        variant: str) -> None:
    rng = random.Random(variant)
    res = client.post("/api/games", json={"variant": variant, "seed": rng.randrange(10**6)})
    body = check_body(app, res.text)
    gid = body["id"]
    checked = 1
    helped = 0
    for _ in range(60):
        roll = rng.random()
        if roll < 0.04:
            res = client.post(f"/api/games/{gid}/hint")
            helped += 1
        elif roll < 0.06:
            res = client.get(f"/api/games/{gid}/chance")
            helped += 1
        elif roll < 0.08:
            res = client.post(f"/api/games/{gid}/bot")
            helped += 1
        elif roll < 0.1:
            for path in ("postmortem", "review"):
                refused = client.get(f"/api/games/{gid}/{path}")
                assert refused.status_code == 409 or body["observation"]["outcome"] != "playing"
            continue
        elif roll < 0.15:
            res = client.post(f"/api/games/{gid}/undo")
        elif roll < 0.18:
            res = client.post(f"/api/games/{gid}/redo")
        elif roll < 0.2:
            res = client.post(f"/api/games/{gid}/moves", json={"move": "1:3>2"})
        else:
            legal = body["observation"]["legal"]
            if not legal:
                break
            res = client.post(f"/api/games/{gid}/moves", json={"move": rng.choice(legal)})
        if res.status_code == 200:
            checked_body = check_body(app, res.text)
            if "observation" in checked_body:
                body = checked_body
        else:
            assert res.status_code in (409, 422)
            # Error messages (e.g. an illegal move's reason) must not reveal cards either.
            state = app.state.games.get(gid).game.state
            assert not set(CODE.findall(res.text)) & (hidden_codes(state)
                                                        - set(visible_codes(state)))
        checked += 1
    assert checked > 5 and helped > 0
    assert body["observation"]["moves_made"] > 0


def test_thoughtful_shows_everything_it_promises(app: Starlette, client: TestClient) -> None:
    res = client.post("/api/games", json={"variant": "thoughtful", "seed": 3})
    obs = res.json()["observation"]
    assert obs["stock_cards"] is not None and len(obs["stock_cards"]) == obs["stock"]
    assert "??" not in json.dumps(obs["columns"])
