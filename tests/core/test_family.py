"""The family interface (core/family.py): every family answers the same calls, and the facts
callers ask for (and the observation's ``rules`` block) agree with the variant's options."""

from __future__ import annotations

import pytest

from kabale.core import Game, IllegalMoveError, parse_variant
from kabale.core.family import FAMILIES, rules_for
from kabale.core.refusal import REASONS
from kabale.core.state import STOCK, Move
from kabale.core.variants import OPTIONS

#: variant -> (shows_every_card, has_waste, foundation_rule, build_rule, interchangeable,
#: draw, empty_column, foundation_to_column)
FACTS = {
    "klondike": (False, True, "cards", "alternate_colours", True, 1, "king", True),
    "thoughtful": (True, True, "cards", "alternate_colours", True, 1, "king", True),
    "klondike:draw=3,empty=any,back=false": (False, True, "cards", "alternate_colours",
                                             True, 3, "any", False),
    "spider:suits=2": (False, False, "runs", "any_suit", False, None, "any", False),
    "spiderette:foundations=cards": (False, False, "cards", "any_suit", False, None, "any",
                                     False),
}


def test_every_family_of_the_variant_registry_has_rules() -> None:
    assert set(FAMILIES) == set(OPTIONS)


@pytest.mark.parametrize("variant", sorted(FACTS))
def test_facts_follow_the_options(variant: str) -> None:
    rules = rules_for(parse_variant(variant))
    facts = rules.facts()
    want = FACTS[variant]
    assert (rules.shows_every_card, rules.has_waste, rules.foundation_rule, rules.build_rule,
            rules.columns_interchangeable) == want[:5]
    assert (facts["shows_every_card"], facts["has_waste"], facts["foundation_rule"],
            facts["build_rule"], facts["columns_interchangeable"], facts["draw"],
            facts["empty_column"], facts["foundation_to_column"]) == want
    obs = Game.new(variant, 3).observe()
    assert obs["rules"] == {"version": 1, **facts}
    assert obs["rules"]["family"] == parse_variant(variant).family


@pytest.mark.parametrize("variant", ["klondike:draw=3", "spider:suits=1", "spiderette"])
def test_a_line_and_single_moves_agree_in_every_family(variant: str) -> None:
    """play_line, legal_move, apply and stock_actions answer as legal_moves does."""
    game = Game.new(variant, 11)
    rules = game.rules
    state = game.state
    line = []
    for _ in range(40):
        legal = rules.legal_moves(state)
        if not legal:
            break
        move = legal[len(line) * 7 % len(legal)]
        assert rules.legal_move(state, Move(move.source, move.target, move.count)) == move
        line.append(move)
        state = rules.apply(state, move)
    after, texts, bad = rules.play_line(game.state, line)
    assert (after, texts, bad) == (state, [str(m) for m in line], -1)
    assert rules.legal_move(game.state, Move("9", "9", 1)) is None
    two = rules.stock_actions(game.state, 2)
    press = Move(STOCK, "", 1, STOCK)
    assert two == rules.apply(rules.apply(game.state, press), press)


@pytest.mark.parametrize(("variant", "move", "key"), [
    ("klondike", "d", None),
    ("spider:suits=2", "1:5>2", "face_down"),
    ("spiderette:foundations=cards", "1>f", "foundation_needs_card"),
    ("klondike", "w>3", "waste_empty"),
    ("klondike", "f1>3", "foundation_empty"),
])
def test_a_refusal_is_a_reason_key_whose_words_are_the_error(variant: str, move: str,
                                                             key: str | None) -> None:
    """Game.play's IllegalMoveError carries the rules' refusal (core/refusal.py); its message
    is the refusal's English words, looked up in REASONS."""
    game = Game.new(variant, 2)
    if key is None:
        assert game.refusal(move) is None  # legal: no refusal
        assert game.play(move).text == "d"
        return
    game_before = game.observe()
    asked = game.refusal(move)             # asked without playing: the game is unchanged
    assert game.observe() == game_before
    with pytest.raises(IllegalMoveError) as error:
        game.play(move)
    refusal = error.value.refusal
    assert refusal is not None and refusal.key == key and key in REASONS
    assert asked == refusal
    assert str(error.value) == f"illegal move {move!r}: {refusal.text()}"
    assert refusal.text() == game.rules.explain(game.state, game.parse_move(move))
    assert game.observe() == game_before
