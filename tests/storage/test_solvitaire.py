"""Solvitaire's JSON format: round trips for every family, the conventions, bad input."""

from __future__ import annotations

import json

import pytest

from kabale import Game, InvalidDealError, KabaleError, State
from kabale.storage.solvitaire import (
    VARIANT_KEY,
    card_text,
    dumps,
    from_solvitaire,
    loads,
    parse_card,
    to_solvitaire,
)

VARIANTS = ["klondike", "klondike:draw=3", "klondike:decks=2", "spider:suits=1",
            "spider:suits=2", "spider", "spiderette", "spiderette:suits=2", "spiderette:suits=1"]


def position(state: State) -> tuple[object, ...]:
    """Everything but the score (not part of the format)."""
    return (state.columns, state.down, state.stock, state.waste, state.foundations)


@pytest.mark.parametrize("variant", VARIANTS)
def test_fresh_deal_round_trip_deals_the_same_game(variant: str) -> None:
    game = Game.new(variant, seed=11)
    data = json.loads(json.dumps(to_solvitaire(game)))
    assert set(data) == {"tableau piles", "stock", VARIANT_KEY}
    assert data[VARIANT_KEY] == str(game.variant)
    back = from_solvitaire(variant, data)
    assert back.state == game.state
    assert Game.from_deal_id(back.deal_id).state == game.state  # a replayable deal id


@pytest.mark.parametrize("variant", VARIANTS)
def test_mid_game_round_trip(variant: str) -> None:
    game = Game.new(variant, seed=3)
    for _ in range(25):
        moves = game.legal_moves()
        if not moves:
            break
        # prefer moves that change the layout (foundation, waste) over the stock action
        game.play(moves[0])
    back = loads(variant, dumps(game))
    assert position(back.state) == position(game.state)
    assert [str(m) for m in back.legal_moves()] == [str(m) for m in game.legal_moves()]


def test_conventions_piles_bottom_first_stock_top_last() -> None:
    game = Game.new("spider:suits=4", seed=7)
    data = to_solvitaire(game)
    state = game.state
    assert len(data["tableau piles"]) == 10
    assert [len(p) for p in data["tableau piles"]] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    # the last element of "stock" is the next card dealt, and it goes to column 1
    game.play("d")
    assert card_text(game.state.columns[0][-1]) == data["stock"][-1]
    assert card_text(game.state.columns[1][-1]) == data["stock"][-2]
    # face-down cards are written with a lower-case suit, the top card in upper case
    pile = data["tableau piles"][0]
    assert pile[-1][-1].isupper() and all(text[-1].islower() for text in pile[:-1])
    assert [parse_card(t)[0] for t in pile] == list(state.columns[0])


def test_klondike_stock_top_is_the_next_card_drawn() -> None:
    game = Game.new("klondike", seed=9)
    data = to_solvitaire(game)
    game.play("d")
    assert card_text(game.state.waste[-1]) == data["stock"][-1]


def test_card_texts() -> None:
    assert card_text(parse_card("10H")[0]) == "10H"
    assert parse_card("th") == parse_card("10h")
    assert parse_card("Ks")[1] is False and parse_card("KS")[1] is True
    assert {card_text(parse_card(t)[0]) for t in ["AC", "JD", "QH", "KS"]} == \
        {"AC", "JD", "QH", "KS"}


def test_solvitaire_own_klondike_deal_shape_is_read() -> None:
    # a 7-pile Klondike deal written all upper case, as Solvitaire's deal presets are
    game = Game.new("klondike", seed=21)
    data = to_solvitaire(game)
    data["tableau piles"] = [[t.upper() for t in p] for p in data["tableau piles"]]
    assert from_solvitaire("klondike", data).state == game.state


@pytest.mark.parametrize("data, fragment", [
    ({"stock": []}, "tableau piles"),
    ({"tableau piles": "AS"}, "list of lists"),
    ({"tableau piles": [["ZZ"]]}, "'ZZ'"),
    ({"tableau piles": [["AS"]], "cells": []}, "cells"),
    ({"tableau piles": [["AS"]] * 7, "stock": []}, "cards"),
])
def test_bad_input_is_refused_with_a_clear_message(data: object, fragment: str) -> None:
    with pytest.raises(KabaleError, match=fragment):
        from_solvitaire("klondike", data)  # type: ignore[arg-type]


def test_face_down_card_on_a_face_up_one_is_refused() -> None:
    data = to_solvitaire(Game.new("klondike", seed=1))
    data["tableau piles"][6][3] = data["tableau piles"][6][3].upper()
    with pytest.raises(InvalidDealError, match="column 7"):
        from_solvitaire("klondike", data)


def test_loads_refuses_bad_json() -> None:
    with pytest.raises(InvalidDealError, match="not Solvitaire JSON"):
        loads("klondike", "{nope")


def test_the_deal_carries_its_variant_and_a_mismatch_is_refused() -> None:
    data = to_solvitaire(Game.new("klondike:draw=3", seed=5))
    assert from_solvitaire(None, data).variant == Game.new("klondike:draw=3", 5).variant
    assert str(from_solvitaire("klondike-3", data).variant) == "klondike:draw=3"
    for other in ("klondike", "klondike:draw=3,open=true", "spider"):
        with pytest.raises(InvalidDealError, match="klondike:draw=3"):
            from_solvitaire(other, data)
    for bad in (5, "golf", ["klondike"]):
        with pytest.raises(InvalidDealError, match=VARIANT_KEY):
            from_solvitaire(None, {**data, VARIANT_KEY: bad})


def test_without_the_variant_key_it_is_inferred_from_the_piles() -> None:
    for variant, expected in (("klondike:draw=3", "klondike"), ("spider:suits=2", None),
                              ("double-klondike", None)):
        data = to_solvitaire(Game.new(variant, seed=5))
        del data[VARIANT_KEY]
        assert str(from_solvitaire(None, data).variant) == (expected or str(
            Game.new(variant, 5).variant))


@pytest.mark.parametrize("text", ["³S", "١S", "10٣", "1" * 5000 + "S", "ＡS", "AＳ", "", "A"])
def test_cards_with_odd_characters_are_refused(text: str) -> None:
    with pytest.raises(InvalidDealError, match="not a Solvitaire card"):
        parse_card(text)
