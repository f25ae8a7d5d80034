"""Input no player would type: refused with the one exception the API promises, never a
ValueError, IndexError or RecursionError from deeper down, and nothing changes."""

from __future__ import annotations

import json

import pytest

from kabale import Game, IllegalMoveError, InvalidDealError, InvalidSaveError, NotationError
from kabale.core.notation import parse_move_text
from kabale.core.persist import MAX_MOVES
from kabale.core.variants import parse_variant


@pytest.mark.parametrize("deal_id", ["klondike#³", "klondike#①", "klondike#٧", "klondike#７",
                                     "klondike#" + "9" * 4301, "klondike#" + "1" * 21,
                                     "klondike#18446744073709551616", "klondike#-1",
                                     "klondike# 7x", "#", "klondike#=A", "nope#1"])
def test_bad_deal_ids_are_invalid_deal_errors(deal_id: str) -> None:
    with pytest.raises((InvalidDealError, NotationError)) as caught:
        Game.from_deal_id(deal_id)
    assert len(str(caught.value)) < 300  # quoted, cut to a readable length


def test_leading_zeros_name_the_same_deal() -> None:
    assert Game.from_deal_id("klondike#" + "0" * 40 + "7").deal_id == "klondike#7"


@pytest.mark.parametrize("text", ["٧>٤", "７>４", "³>f", "1" * 5000 + ">2",
                                  "1:" + "9" * 5000 + ">2", "3>7\n>2", "f" + "1" * 4400 + ">3"])
def test_moves_take_ascii_digits_only(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move_text(text)
    game = Game.new("klondike", 1)
    before = game.observe()
    with pytest.raises(NotationError):
        game.play(text)
    assert game.observe() == before


def test_a_game_holds_at_most_max_moves() -> None:
    game = Game.new("klondike", 1)  # unlimited passes: "d" is always legal here
    for _ in range(MAX_MOVES):
        game.play("d")
    before = game.to_json()
    with pytest.raises(IllegalMoveError, match=f"{MAX_MOVES} moves"):
        game.play("d")
    assert game.to_json() == before
    game.undo()
    game.play("d")
    assert Game.from_json(game.to_json()).moves_made == MAX_MOVES


def _save(**changes: object) -> str:
    game = Game.new("spider", 4)
    game.play(game.legal_moves()[0])
    data = json.loads(game.to_json())
    data.update(changes)
    return json.dumps(data)


def _spider_position_with_an_empty_removed_run() -> str:
    game = Game.from_position("spider", Game.new("spider", 4).state)
    data = json.loads(game.to_json())
    data["start"]["foundations"] = [[]]
    return json.dumps(data)


@pytest.mark.parametrize("text", [
    "[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000,
    _save(moves=[[]]), _save(moves=["d"] * (MAX_MOVES + 1)),
    _save(deal_id="spider#³"), _save(deal_id="spider#" + "9" * 5000),
    _save(deal_id="spider#=" + "A"), _save(deal_id="spider#position"),
    _save(deal_id=7), _save(variant=None), _save(check=[]), _save(deal_known="yes"),
    _save(version=[1] * 10**4), _spider_position_with_an_empty_removed_run(),
    _save(moves=["٧>٤"]), b"\xff\xfe", "\udcff",
])
def test_from_json_raises_only_invalid_save_error(text: str | bytes) -> None:
    with pytest.raises(InvalidSaveError) as caught:
        Game.from_json(text)  # type: ignore[arg-type]
    assert len(str(caught.value)) < 400


def test_from_json_of_not_text_is_invalid_save_error() -> None:
    for value in (None, 5, ["x"]):
        with pytest.raises(InvalidSaveError):
            Game.from_json(value)  # type: ignore[arg-type]


def test_thousands_of_leading_zeros_name_the_same_deal() -> None:
    # int() refuses text of over 4,300 digits: a ValueError (a 500 on the server) before
    assert Game.from_deal_id("klondike#" + "0" * 5000 + "7").deal_id == "klondike#7"


def test_a_save_whose_deal_id_has_thousands_of_digits_is_an_invalid_save() -> None:
    save = json.loads(Game.new("klondike", 7).to_json())
    for number in ("0" * 5000 + "7", "9" * 5000):
        save["deal_id"] = "klondike#" + number
        try:
            Game.from_json(json.dumps(save))
        except InvalidSaveError:
            continue
        # the leading zeros name deal 7: it loads (its check block is deal 7's)
        assert number.lstrip("0") == "7"


@pytest.mark.parametrize("text", ["klondike:draw=3,draw=1", "klondike:draw=3,DRAW=3",
                                  "klondike:", "spider: ", "vegas:"])
def test_a_variant_with_an_option_twice_or_none_after_the_colon_is_refused(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_variant(text)
    assert repr(text) in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(("field", "value"), [("version", True), ("deal_format", True),
                                              ("version", 1.0), ("deal_format", 1.0)])
def test_a_save_whose_version_is_not_the_number_is_refused(field: str, value: object) -> None:
    save = json.loads(Game.new("klondike", 7).to_json())
    save[field] = value
    with pytest.raises(InvalidSaveError, match="unsupported"):
        Game.from_json(json.dumps(save))
