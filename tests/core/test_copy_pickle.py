"""Games copy and pickle as games: a copy shares no history with the original, a pickled
game comes back in the same position with the same history, redo stack and secrecy."""

from __future__ import annotations

import copy
import pickle

import pytest

from kabale import Game, IllegalMoveError, parse_variant

VARIANTS = ["klondike:draw=3", "klondike:decks=2", "spider:suits=2", "spiderette",
            "spiderette:foundations=cards", "thoughtful"]


def played(variant: str) -> Game:
    game = Game.new(variant, 11)
    for _ in range(12):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[len(legal) // 2])
    game.undo()
    game.undo()  # a redo stack too
    return game


def same(a: Game, b: Game) -> bool:
    return (a.to_json() == b.to_json() and a.observe() == b.observe() and a.state == b.state
            and a.history == b.history and a.redo_moves == b.redo_moves
            and a.deal_known == b.deal_known and a.seed == b.seed)


@pytest.mark.parametrize("variant", VARIANTS)
def test_copies_are_equal_and_independent(variant: str) -> None:
    game = played(variant)
    before = game.to_json()
    for twin in (copy.copy(game), copy.deepcopy(game), game.copy()):
        assert same(twin, game)
        twin.redo()
        twin.play(twin.legal_moves()[0])
        assert game.to_json() == before and twin.moves_made == game.moves_made + 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_pickled_game_comes_back_the_same_and_plays_on(variant: str) -> None:
    game = played(variant)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(game, protocol))
        assert same(back, game)
        assert back.legal_moves() == game.legal_moves()
        back.redo()
        game.redo()
        assert same(back, game)
        game.undo()


def test_a_secret_deal_stays_secret_through_pickle() -> None:
    game = Game.new("klondike")
    back = pickle.loads(pickle.dumps(game))
    assert back.observe()["deal_id"] is None and back.deal_id == game.deal_id


def test_variants_pickle_as_themselves() -> None:
    for text in ("vegas", "spider:suits=1,strict=false", "spiderette:foundations=cards"):
        variant = parse_variant(text)
        back = pickle.loads(pickle.dumps(variant))
        assert back == variant and str(back) == str(variant) and hash(back) == hash(variant)
        assert dict(back.options) == dict(variant.options)


def test_opening_is_the_game_as_it_stood_after_its_first_moves() -> None:
    game = Game.new("klondike", 4)
    for _ in range(30):
        game.play(game.legal_moves()[0])
    game.undo()
    for at in (0, 1, 17, game.moves_made):
        opened = game.opening(at)
        replayed = Game.new("klondike", 4)
        for move in game.history[:at]:
            replayed.play(move)
        assert opened.state == replayed.state and opened.history == replayed.history
        assert not opened.can_redo and opened.legal_moves() == replayed.legal_moves()
        opened.play(opened.legal_moves()[-1])
        assert game.moves_made == 29  # the original is untouched
    for bad in (-1, game.moves_made + 1, True, "3"):
        with pytest.raises(IllegalMoveError):
            game.opening(bad)  # type: ignore[arg-type]
