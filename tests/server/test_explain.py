"""GET /api/games/{id}/explain: why a move is refused, asked without playing it (the page's
words for a refused move are a lookup of its reason key). It answers what a POST of the move
would answer, changes nothing, counts against no limit, and names no card the player has
not seen: games that differ only in unseen cards get the same answer, word for word."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from local import door_app, local_client
from starlette.applications import Starlette
from starlette.testclient import TestClient

import kabale
from kabale import Game
from kabale.core.errors import NotationError
from kabale.core.refusal import REASONS
from kabale.server.site import kind_of

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "advisor"))
from advice_games import played, twins  # noqa: E402

VARIANTS = ["klondike", "klondike:draw=3", "klondike:passes=1,back=false",
            "klondike:empty=any", "klondike:decks=2", "klondike:open=true", "spider:suits=2",
            "spiderette", "spider:foundations=cards"]


def tries(game: Game) -> list[str]:
    """Moves a player might try here: every pile to every pile, counts, piles that are not."""
    n, f = game.rules.n_columns, len(game.state.foundations)
    out = ["d", "w>f", f"{n + 1}>1", f"1>f{f + 1}"]
    for i in range(1, n + 1):
        out += [f"{i}>f", f"w>{i}", f"{i}>f1", *(f"f{k}>{i}" for k in range(1, f + 1))]
        for j in range(1, n + 1):
            if i != j:
                out += [f"{i}>{j}", *(f"{i}:{c}>{j}" for c in (1, 2, 3, 6, 13))]
    return out


def explain(client: TestClient, gid: str, text: str) -> tuple[int, dict[str, Any]]:
    res = client.get(f"/api/games/{gid}/explain", params={"move": text})
    return res.status_code, res.json()


@pytest.fixture
def client(app: Starlette) -> Any:
    with local_client(app) as c:
        yield c


@pytest.mark.parametrize("variant", VARIANTS)
def test_explain_answers_as_the_move_would_and_changes_nothing(app: Starlette,
                                                                 client: TestClient,
                                                                 variant: str) -> None:
    game = played(variant, 3, 40)
    service = app.state.games
    gid = service.start(game.copy()).id
    entry = service.get(gid)
    before = client.get(f"/api/games/{gid}").json()
    clock, rev = entry.last_active, entry.rev
    keys = set()
    for text in tries(game):
        status, body = explain(client, gid, text)
        if status == 422:                      # not a move at all: as the POST says
            posted = client.post(f"/api/games/{gid}/moves", json={"move": text})
            assert posted.status_code == 422 and "reason" not in posted.json()
            continue
        assert status == 200, body
        refusal = game.refusal(text)
        if refusal is None:
            assert body == {"move": text, "legal": True, "reason": None, "words": None}
            continue
        keys.add(refusal.key)
        assert body == {"move": text, "legal": False, "reason": refusal.to_dict(),
                        "words": refusal.text()}
        assert refusal.key in REASONS
        posted = client.post(f"/api/games/{gid}/moves", json={"move": text})
        assert posted.status_code == 422 and posted.json()["reason"] == body["reason"]
    assert len(keys) >= 3, keys
    assert client.get(f"/api/games/{gid}").json() == before
    assert (entry.last_active, entry.rev) == (clock, rev)
    assert kind_of("GET", f"/api/games/{gid}/explain") is None   # no limit counts it


def refused(game: Game, text: str) -> Any:
    """``game``'s refusal of ``text`` as data (None when legal), or the error for text that
    is not a move."""
    try:
        found = game.refusal(text)
    except NotationError as exc:
        return str(exc)
    return None if found is None else (found.to_dict(), found.text())


#: every how many tried moves the swap test also asks the route (and the 422) of each twin;
#: the route's answer is Game.refusal's, word for word, on every try (the test above)
THROUGH_THE_ROUTE = 5


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "klondike:open=true"])
def test_an_explanation_never_depends_on_unseen_cards(app: Starlette, client: TestClient,
                                                      variant: str) -> None:
    """The swap test: twins that differ only in two cards the player has not seen get the
    same refusal of every move tried, and through the route the same answer and the same
    422 reason for a refused move."""
    game = played(variant, 5, 30)
    others = twins(game, 3)
    assert others, "no two unseen cards to swap"
    for text in tries(game):
        answers = [refused(g, text) for g in (game, *others)]
        assert all(a == answers[0] for a in answers[1:]), (text, answers)
    service = app.state.games
    ids = [service.start(g.copy()).id for g in (game, *others)]
    for text in tries(game)[::THROUGH_THE_ROUTE]:
        answers = [explain(client, gid, text) for gid in ids]
        assert all(a == answers[0] for a in answers[1:]), (text, answers)
        if answers[0][0] == 200 and not answers[0][1]["legal"]:
            posted = [client.post(f"/api/games/{gid}/moves", json={"move": text}).json()
                      for gid in ids]
            assert all(p == posted[0] for p in posted[1:]), (text, posted)


def test_explain_refuses_bad_input_in_words(client: TestClient) -> None:
    gid = client.post("/api/games", json={"variant": "klondike", "seed": 7}).json()["id"]
    for query in ({}, {"move": ""}, {"move": "d" * 41}, {"move": "zz"}):
        res = client.get(f"/api/games/{gid}/explain", params=query)
        assert res.status_code == 422 and res.json()["error"]
    assert client.get("/api/games/nope/explain", params={"move": "d"}).status_code == 404
    client.post(f"/api/games/{gid}/resign")
    assert client.get(f"/api/games/{gid}/explain", params={"move": "d"}).status_code == 409


def test_explain_is_a_players_own(tmp_path: Any) -> None:
    """Under `kabale serve`, another player's game is unknown here as everywhere."""
    app = door_app(tmp_path, "serve")
    with local_client(app) as alice, local_client(app) as bob:
        gid = alice.post("/api/games", json={"variant": "klondike", "seed": 7}).json()["id"]
        assert alice.get(f"/api/games/{gid}/explain", params={"move": "1>2"}).status_code == 200
        assert bob.get(f"/api/games/{gid}/explain", params={"move": "1>2"}).status_code == 404


MESSAGES = Path(kabale.__file__).parent / "server" / "static" / "js" / "messages"
_ENTRY = re.compile(r'"((?:reason|pile)\.[\w.]+)":\s*"((?:[^"\\]|\\.)*)"')


def params_of(key: str) -> set[str]:
    """The parameters a refusal of ``key`` carries: the names in its English words."""
    return {"rank" if name == "rank_name" else name
            for name in re.findall(r"\{(\w+)\}", REASONS[key])}


def page_names(params: set[str]) -> set[str]:
    """The names the page's words of a refusal may use (reasons.js, reasonWords): the
    parameters, and what it makes of them."""
    made = set(params)
    if {"rank", "colour"} <= params:
        made.add("needs")
    if {"rank", "card"} <= params:
        made.add("prev")
    made |= {f"{name}_name" for name in ("foundation", "target") if name in params}
    if "up" in params:
        made.add("n")
    return made


@pytest.mark.parametrize("lang", ["en", "da", "nb"])
def test_the_page_has_words_for_every_refusal_in_every_language(lang: str) -> None:
    """Every reason key core/refusal.py can give has the page's words (``reason.<key>``, or
    its plural forms) in each language, using only the names the page fills in."""
    table = dict(_ENTRY.findall((MESSAGES / f"{lang}.js").read_text(encoding="utf-8")))
    assert "pile.foundation_n" in table
    missing = []
    for key in REASONS:
        forms = [table[k] for k in (f"reason.{key}", f"reason.{key}.one",
                                    f"reason.{key}.other") if k in table]
        if not forms:
            missing.append(key)
            continue
        for words in forms:
            used = set(re.findall(r"\{(\w+)\}", words))
            assert used <= page_names(params_of(key)), (lang, key, used)
    assert not missing, f"no words in {lang}.js for reason key(s) {missing}"
