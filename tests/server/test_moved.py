"""What each move of a finished game moved (server.moved), for the page to say in words, and
the post-mortem and the review answering with it (issue 48: the look-back spoke notation)."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

import kabale
from kabale.server.moved import game_facts, line_facts, with_facts


def test_the_facts_of_klondike_moves() -> None:
    # klondike#7: column 1 is the ace of hearts, column 6 ends in the nine of spades and
    # column 5 in the eight of hearts
    game = kabale.Game.from_deal_id("klondike#7")
    for move in ["1>f", "5>6", "d"]:
        game.play(move)
    facts = game_facts(game)
    assert facts[0] == {"card": "AH", "count": 1, "from": "1", "to": "f", "onto": None}
    assert facts[1] == {"card": "8H", "count": 1, "from": "5", "to": "6", "onto": "9S"}
    assert facts[2] == {"stock": "draw", "cards": [str(game.state.waste[-1])]}
    # f2>4 takes the ace of hearts back off its foundation onto column 4's two of clubs
    assert line_facts(game.opening(1), 1, ["f2>4"]) == [
        {"card": "AH", "count": 1, "from": "f2", "to": "4", "onto": "2C"}]


def test_three_cards_drawn_and_the_waste_turned_back() -> None:
    game = kabale.Game.from_deal_id("klondike:draw=3,passes=1#12")
    for _ in range(8):
        game.play("d")
    facts = game_facts(game)
    assert [f["stock"] for f in facts] == ["draw"] * 8
    assert all(len(f["cards"]) == 3 for f in facts)
    # the cards drawn are the waste, the playable one last of each draw
    assert [c for f in facts for c in f["cards"]] == [str(c) for c in game.state.waste]
    unlimited = kabale.Game.from_deal_id("klondike:draw=3#12")
    for _ in range(9):
        unlimited.play("d")
    assert game_facts(unlimited)[-1] == {"stock": "turn"}


def test_a_spider_run_and_a_deal() -> None:
    game = kabale.Game.new("spider:suits=1", seed=4)
    runs = [m for m in game.legal_moves() if m.source.isdigit()]
    game.play(runs[0])
    game.play("d")
    first, deal = game_facts(game)
    before = kabale.Game.new("spider:suits=1", seed=4).state
    source, target = int(runs[0].source) - 1, int(runs[0].target) - 1
    assert first == {"card": str(before.columns[source][-runs[0].count]),
                     "count": runs[0].count, "from": runs[0].source, "to": runs[0].target,
                     "onto": str(before.columns[target][-1])}
    assert deal == {"stock": "deal"}


def test_a_review_s_better_moves_get_their_facts() -> None:
    game = kabale.Game.from_deal_id("klondike#7")
    game.play("5>6")
    decisions: list[dict[str, Any]] = [{"index": 0, "move": "5>6", "best": "1>f"},
                                       {"index": 0, "move": "5>6", "best": None}]
    with_facts(game, decisions)
    assert decisions[0]["best_facts"] == {"card": "AH", "count": 1, "from": "1", "to": "f",
                                          "onto": None}
    assert decisions[0]["move_facts"]["onto"] == "9S"
    assert decisions[1]["best_facts"] is None


def test_the_post_mortem_and_the_review_answer_with_the_facts(client: TestClient) -> None:
    gid = client.post("/api/games", json={"variant": "klondike", "seed": 7}).json()["id"]
    for move in ["1>f", "5>6"]:
        assert client.post(f"/api/games/{gid}/moves", json={"move": move}).status_code == 200
    assert client.post(f"/api/games/{gid}/resign").status_code == 200
    data = client.get(f"/api/games/{gid}/postmortem").json()
    assert data["facts"][1] == {"card": "8H", "count": 1, "from": "5", "to": "6", "onto": "9S"}
    line = data["postmortem"]["line_before"]
    assert line and len(data["line_facts"]) == len(line)
    game = kabale.Game.from_deal_id("klondike#7")
    for move in data["moves"]:
        game.play(move)
    assert data["line_facts"] == line_facts(game, 2, line)
    client.post(f"/api/games/{gid}/analysis")
    for _ in range(6000):
        body = client.get(f"/api/games/{gid}/analysis").json()
        if body["state"] != "running":
            break
        time.sleep(0.05)
    decisions = body["review"]["decisions"]
    assert [d["move_facts"] for d in decisions] == data["facts"]
    assert all("best_facts" in d for d in decisions)
