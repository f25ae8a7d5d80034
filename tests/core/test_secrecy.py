"""Deal secrecy (DESIGN.md §3b): the deal id gives every hidden card, so a player sees it only
once they know it (they chose the deal, the game ended, or they revealed it)."""

from __future__ import annotations

import hashlib
import json

import pytest

from kabale import Game
from kabale.core.deal import MAX_SEED, random_seed
from kabale.core.observe import short_deal_id


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("variant", ["klondike", "vegas", "spider:suits=2", "spiderette"])
def test_a_random_deal_is_secret_but_committed(variant: str) -> None:
    game = Game.new(variant)
    obs = game.observe()
    assert obs["deal_id"] is None and not game.deal_known
    assert obs["deal_hash"] == sha(game.deal_id)
    number = game.deal_id.rpartition("#")[2]
    for shown in (json.dumps(obs), str(game), repr(game)):
        assert number not in shown and number[:6] not in shown
    assert "secret deal" in str(game).splitlines()[0]
    assert game.deal_id == f"{game.variant}#{game.seed}"  # the object keeps the true id


def test_a_chosen_deal_is_shown() -> None:
    deck = "".join(str(c) for c in Game.new("klondike", 3).state.all_cards())
    for game in (Game.new("klondike", seed=7), Game.from_deal_id("spider:suits=1#9"),
                 Game.from_deal_id(f"klondike#={deck}"),
                 Game.from_position("klondike", Game.new("klondike", 5).state)):
        obs = game.observe()
        assert obs["deal_id"] == game.deal_id and obs["deal_hash"] == sha(game.deal_id)
        assert game.deal_known


def test_reveal_is_recorded_and_kept_by_saves_and_copies() -> None:
    game = Game.new("klondike")
    game.play(game.legal_moves()[0])
    assert Game.from_json(game.to_json()).observe()["deal_id"] is None
    assert game.copy().observe()["deal_id"] is None
    assert game.reveal() == game.deal_id
    assert game.observe()["deal_id"] == game.deal_id
    assert Game.from_json(game.to_json()).observe()["deal_id"] == game.deal_id
    assert game.copy().deal_known
    game.undo()
    assert game.observe()["deal_id"] == game.deal_id


def secret(game: Game) -> Game:
    """The same game as if it had been dealt at random: its save says the id is secret."""
    data = json.loads(game.to_json())
    data["deal_known"] = False
    return Game.from_json(json.dumps(data))


def test_the_end_of_the_game_reveals_the_deal_for_good() -> None:
    # Deal 12 with one pass is lost after drawing through the stock: 24 draws.
    game = secret(Game.new("klondike:passes=1", 12))
    for _ in range(24):
        assert game.observe()["deal_id"] is None and game.outcome == "playing"
        game.play("d")
    assert game.outcome == "lost" and game.observe()["deal_id"] == "klondike:passes=1#12"
    game.undo()
    assert game.outcome == "playing" and game.observe()["deal_id"] == game.deal_id
    assert Game.from_json(game.to_json()).deal_known
    # A save whose redo stack holds the end: that end was played once, so the id is known.
    assert secret(game).deal_known and secret(game).can_redo


def test_old_saves_without_the_flag_load_with_the_id_known() -> None:
    game = Game.new("spider")
    data = json.loads(game.to_json())
    del data["deal_known"]
    assert Game.from_json(json.dumps(data)).observe()["deal_id"] == game.deal_id


def test_random_deal_numbers_come_from_2_to_the_64() -> None:
    seeds = [random_seed() for _ in range(64)]
    assert all(1 <= s <= MAX_SEED for s in seeds)
    # Below 2^32 with probability 2^-32 each: 64 of them never all are.
    assert sum(s >= 2**32 for s in seeds) > 48
    assert len(set(seeds)) == 64


def test_long_deal_ids_are_shortened_for_people() -> None:
    assert short_deal_id("klondike#7") == "klondike#7"
    assert short_deal_id("spider:suits=2#123456789012") == "spider:suits=2#123456789012"
    assert short_deal_id("klondike#18446744073709551615") == "klondike#18446744…"
    game = Game.from_deal_id("klondike:draw=3#18446744073709551615")
    assert str(game).splitlines()[0].startswith("klondike:draw=3#18446744…   score")
    assert game.observe()["deal_id"] == "klondike:draw=3#18446744073709551615"
