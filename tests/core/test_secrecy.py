"""Deal secrecy (DESIGN.md §3b): the deal id gives every hidden card, so a player sees it only
once they know it (they chose the deal, won the game, or it was revealed)."""

from __future__ import annotations

import hashlib
import json

import pytest

from kabale import Game
from kabale.core.cards import Card, Suit
from kabale.core.deal import MAX_SEED, random_seed
from kabale.core.observe import short_deal_id
from kabale.core.state import State


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


def test_a_lost_position_keeps_the_deal_secret_and_a_win_reveals_it_for_good() -> None:
    # Deal 12 with one pass is lost after drawing through the stock: 24 draws. The loss can
    # be undone, so its deal id would show every hidden card of a game still in play.
    game = secret(Game.new("klondike:passes=1", 12))
    for _ in range(24):
        assert game.observe()["deal_id"] is None and game.outcome == "playing"
        game.play("d")
    assert game.outcome == "lost" and game.observe()["deal_id"] is None
    assert "secret deal" in str(game) and "#12" not in repr(game)
    game.undo()
    assert game.outcome == "playing" and game.observe()["deal_id"] is None
    assert not Game.from_json(game.to_json()).deal_known
    # Giving it up for good is the caller's reveal (the server's resign).
    assert game.reveal() == "klondike:passes=1#12" and game.observe()["deal_id"] == game.deal_id
    # A win shows every card: it makes the id known, also after undo and in saves.
    won = secret(one_move_from_winning())
    won.play("1>f")
    assert won.outcome == "won" and won.observe()["deal_id"] == won.deal_id
    won.undo()
    assert won.observe()["deal_id"] == won.deal_id and Game.from_json(won.to_json()).deal_known
    # A save whose redo stack holds the win: that win was played once, so the id is known.
    assert secret(won).deal_known and secret(won).can_redo


def one_move_from_winning() -> Game:
    """Klondike with every card home but the King of spades, which lies in column 1."""
    piles = [tuple(Card(rank, suit) for rank in range(1, 14)) for suit in Suit]
    piles[Suit.SPADES] = piles[Suit.SPADES][:-1]
    state = State(columns=((Card(13, Suit.SPADES),),) + ((),) * 6, down=(0,) * 7, stock=(),
                  waste=(), foundations=tuple(piles))
    return Game.from_position("klondike", state)


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
