"""knowledge(): what the player has seen, where it lies now, what is still hidden."""

from __future__ import annotations

from collections import Counter

import pytest
from advice_games import VARIANTS, played, sights, twins

from kabale import Game
from kabale.advisor import knowledge
from kabale.core.deal import fresh_deck


def hidden_now(game: Game) -> list:
    """The true cards the player cannot see now, in Knowledge.unseen's order (columns left
    to right bottom first, then the stock bottom first), for a game whose stock was never
    turned back."""
    state = game.state
    cards = [card for pile, down in zip(state.columns, state.down, strict=True)
             for card in pile[:down]]
    return cards + list(state.stock)


@pytest.mark.parametrize("variant", VARIANTS)
def test_at_the_deal_only_the_tops_are_seen(variant: str) -> None:
    game = Game.new(variant, 11)
    k = knowledge(game)
    state = game.state
    assert len(k.unseen) == sum(state.down) + len(state.stock)
    tops = Counter(pile[-1] for pile in state.columns)
    assert Counter(k.unseen_cards) + tops == Counter(fresh_deck(game.variant))
    assert k.seen == {(str(c + 1), len(pile) - 1): pile[-1]
                      for c, pile in enumerate(state.columns)}
    assert sum(card is not None for card in k.deal) == len(state.columns)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [3, 8])
def test_filled_with_the_true_cards_it_is_the_true_position(variant: str, seed: int) -> None:
    game = played(variant, seed, 60)
    k = knowledge(game)
    assert len(k.unseen) == len(k.unseen_cards)
    if game.state.passes_used == 0:
        truth = hidden_now(game)
    else:  # a turned-back stock is known: only the face-down cards are unseen
        truth = hidden_now(game)[: sum(game.state.down)]
    assert Counter(truth) == Counter(k.unseen_cards)
    assert k.position(iter(truth)) == game.state
    # what is seen lies where the true position has it
    state = game.state
    for (pile, i), card in k.seen.items():
        if pile == "d":
            assert state.stock[i] == card
        elif pile == "w":
            assert state.waste[i] == card
        elif pile.startswith("f"):
            assert state.foundations[int(pile[1:]) - 1][i] == card
        else:
            assert state.columns[int(pile) - 1][i] == card


@pytest.mark.parametrize("variant", VARIANTS)
def test_what_is_known_does_not_depend_on_unseen_cards(variant: str) -> None:
    for seed in (4, 9):
        game = played(variant, seed, 80)
        for twin in twins(game):
            assert sights(twin) == sights(game)  # the player saw the same at every step
            assert knowledge(twin) == knowledge(game)


def test_a_turned_back_stock_is_known_in_its_new_order() -> None:
    game = Game.new("klondike:draw=3", 5)
    while game.state.stock:
        game.play("d")
    waste = game.state.waste
    game.play("d")  # turn the waste back over
    k = knowledge(game)
    assert k.stock == tuple(reversed(waste))
    assert all(pile != "d" for pile, _ in k.unseen)
    game.play("d")
    assert knowledge(game).stock == tuple(reversed(waste))[:-3]


def test_a_card_seen_in_the_waste_stays_known_after_it_is_played() -> None:
    game = Game.new("klondike", 7)
    seen_stock = []
    for _ in range(10):
        game.play("d")
        seen_stock.append(game.state.waste[-1])
    k = knowledge(game)
    assert not set(seen_stock) & set(k.unseen_cards)
    assert sum(card is not None for card in k.deal) == 7 + 10


def test_thoughtful_knows_every_card() -> None:
    game = played("klondike:open=true", 2, 20)
    k = knowledge(game)
    assert k.complete and not k.unseen and None not in k.deal
    assert k.position(iter(())) == game.state


def test_a_known_stock_is_a_benchmark_peek() -> None:
    game = Game.new("klondike:draw=3", 5)
    k = knowledge(game, stock_known=True)
    assert k.stock == game.state.stock
    assert len(k.unseen) == sum(game.state.down)


def test_twin_cards_of_two_packs_are_counted_each() -> None:
    game = played("spider:suits=1", 6, 40)
    k = knowledge(game)
    counts = Counter(k.unseen_cards)
    assert sum(counts.values()) == len(k.unseen)
    assert max(counts.values()) > 1  # 8 copies of every card: duplicates are kept
