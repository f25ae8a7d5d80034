"""Game equality (issue 46 item 9: Game had no __eq__, so a game and its own copy or pickle
compared unequal): equal when variant, deal and moves played are equal."""

from __future__ import annotations

import pickle

import pytest

from kabale import Game


def test_a_game_equals_its_copy_and_its_pickle_and_the_same_deal_played_alike() -> None:
    game = Game.new("klondike:draw=3", 3)
    other = Game.new("klondike:draw=3", 3)
    assert game == other
    game.play(game.legal_moves()[0])
    assert game != other  # one move more
    other.play(other.legal_moves()[0])
    assert game == other
    assert game == game.copy() == pickle.loads(pickle.dumps(game))


def test_games_differ_in_variant_deal_or_moves_but_not_in_the_redo_stack() -> None:
    game = Game.new("spiderette", 5)
    assert game != Game.new("spiderette", 6)
    assert game != Game.new("spiderette:suits=1", 5)
    assert game != "spiderette#5"
    played = Game.new("spiderette", 5)
    played.play(played.legal_moves()[0])
    played.undo()  # the same moves played as a fresh game: only the redo stack differs
    assert played == game


def test_a_game_is_not_hashable_as_it_changes_when_played() -> None:
    with pytest.raises(TypeError):
        hash(Game.new("klondike", 1))
