"""An attacker's probes of the hosted server's new surface (issues 44-45: players, daily
deals, leaderboards, help as jobs): what one player can learn of a card they have not seen,
or of another player's game, from the answers, their headers and the shared cache."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from kabale import Game
from kabale.advisor import knowledge
from kabale.core.deal import deck_for
from kabale.core.game import deck_text
from kabale.server.app import create_app
from kabale.server.site import Site

BASE = "http://cards.test"


@pytest.fixture
def site_app(tmp_path: Path) -> Iterator[Starlette]:
    app = create_app(str(tmp_path / "site.db"), effort="quick", search_seconds=60.0,
                     site=Site(allowed_hosts=("cards.test",)))
    yield app
    if app.state.advisor is not None:
        app.state.advisor.close()


def browser(app: Starlette) -> TestClient:
    return TestClient(app, base_url=BASE, raise_server_exceptions=False,
                      headers={"Content-Type": "application/json"})


def new_game(client: TestClient, **spec: Any) -> dict[str, Any]:
    res = client.post("/api/games", json=spec)
    assert res.status_code == 201, res.text
    body: dict[str, Any] = res.json()
    return body


def jobs_done(client: TestClient) -> int:
    """What any player reads of the engine: how many jobs it has run."""
    done: int = client.get("/api/help").json()["engine"]["done"]
    return done


def test_the_shared_cache_cannot_test_a_guess_at_another_players_card(
        site_app: Starlette) -> None:
    # Alice plays today's daily deal: she draws a stock card and asks for a hint there.
    # Bob, who plays the same daily deal and so sees the same first seven cards, wants the
    # card she drew without drawing it himself (his daily game would show it). He deals a
    # deck of his own (`klondike#=CARDS`) with those seven cards face up and his guess at
    # the drawn card, draws, and asks for a hint: were the cache shared between deals, a
    # right guess would be answered from Alice's entry (no job run, at once) and a wrong
    # one by a job, so each guess would cost him one request.
    with browser(site_app) as alice, browser(site_app) as bob:
        daily = new_game(alice, variant="klondike", daily=True)
        assert alice.post(f"/api/games/{daily['id']}/moves", json={"move": "d"}
                          ).status_code == 200
        assert alice.post(f"/api/games/{daily['id']}/hint").status_code == 200
        shown = alice.post(f"/api/games/{daily['id']}/resign").json()
        seed = int(shown["observation"]["deal_id"].split("#")[1])  # the test's oracle
        deck = deck_for(Game.new("klondike").variant, seed)
        before_draw = Game.from_deck("klondike", deck)
        hidden = [i for i, card in enumerate(knowledge(before_draw).deal) if card is None]
        before_draw.play("d")
        drawn, = [i for i in hidden if knowledge(before_draw).deal[i] is not None]
        right = list(deck)  # the drawn card guessed, two cards still face down traded
        right[hidden[0]], right[hidden[1]] = right[hidden[1]], right[hidden[0]]
        wrong = list(deck)
        wrong[drawn], wrong[hidden[0]] = wrong[hidden[0]], wrong[drawn]  # another card drawn
        new_game(bob, variant="klondike", daily=True)
        answers = {}
        for name, guess in (("right", right), ("wrong", wrong)):
            game = new_game(bob, deal_id=f"klondike#={deck_text(guess)}")
            assert bob.post(f"/api/games/{game['id']}/moves", json={"move": "d"}
                            ).status_code == 200
            before = jobs_done(bob)
            hint = bob.post(f"/api/games/{game['id']}/hint")
            assert hint.status_code == 200, hint.text
            answers[name] = jobs_done(bob) - before
        assert answers == {"right": 1, "wrong": 1}, answers  # a job each: nothing told
