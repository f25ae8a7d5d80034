"""The Spider family's ``foundations=cards`` rule (RULES.md §1): cards go one at a time to
foundations built up by suit from the Ace, never come back, and no run is removed.

Positions are built with ``Game.from_position``: the columns a test names, foundations
filled up to the ranks it gives, and every other card under the named stock.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from kabale import Card, Game, IllegalMoveError, InvalidDealError, State
from kabale.core.deal import fresh_deck
from kabale.core.persist import state_from_dict, state_to_dict
from kabale.core.variants import parse_variant

SPADE_RUN = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def cgame(variant: str = "spiderette:foundations=cards", cols: tuple[str, ...] = (),
          down: tuple[int, ...] = (), heights: tuple[int, ...] = (), stock: str = "",
          score: int = 0) -> Game:
    """A position of ``variant`` (foundations=cards): foundation i holds its suit's Ace up
    to rank ``heights[i]``; the cards named nowhere lie under the named stock."""
    parsed = parse_variant(variant)
    n = 10 if parsed.family == "spider" else 7
    piles = 8 if parsed.family == "spider" else 4
    suits = int(parsed["suits"])
    columns = [cards(c) for c in cols] + [()] * (n - len(cols))
    founds = [tuple(Card(r, i % suits) for r in range(1, h + 1))
              for i, h in enumerate(tuple(heights) + (0,) * (piles - len(heights)))]
    used = Counter([c for col in columns for c in col] + list(cards(stock))
                   + [c for pile in founds for c in pile])
    left = Counter(fresh_deck(parsed)) - used
    under = [c for c in fresh_deck(parsed) if left[c] > 0 and not left.subtract([c])]
    state = State(tuple(columns), tuple(down) + (0,) * (n - len(down)),
                  tuple(under) + cards(stock), (), tuple(founds), score=score)
    return Game.from_position(variant, state)


def legal(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def assert_refused(game: Game, move: str, *words: str) -> None:
    before, obs = game.state, game.observe()
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert game.state is before and game.observe() == obs


@pytest.mark.parametrize(("variant", "suits"), [
    ("spider:foundations=cards", "SHDCSHDC"), ("spider:foundations=cards,suits=2", "SHSHSHSH"),
    ("spider:foundations=cards,suits=1", "SSSSSSSS"), ("spiderette:foundations=cards", "SHDC"),
    ("spiderette:foundations=cards,suits=2", "SHSH"),
    ("spiderette:foundations=cards,suits=1", "SSSS")])
def test_the_deal_is_the_runs_deal_with_empty_foundations_of_fixed_suits(
        variant: str, suits: str) -> None:
    game = Game.new(variant, 5)
    runs = Game.new(variant.replace("foundations=cards", "foundations=runs"), 5)
    assert game.state.columns == runs.state.columns and game.state.stock == runs.state.stock
    assert game.state.foundations == ((),) * len(suits)
    assert game.rules.foundation_suits == tuple("SHDC".index(s) for s in suits)
    # an Ace of each suit goes to the first foundation of its suit, the next Ace to the next
    state = game.state
    for suit in sorted(set(suits)):
        ace = Card.parse("A" + suit)
        first = game.rules.foundation_for(state, ace)
        assert first == suits.index(suit)
        state = State(state.columns, state.down, state.stock, (), tuple(
            (ace,) if i == first else pile for i, pile in enumerate(state.foundations)))
        assert game.rules.foundation_for(state, ace) == suits.find(suit, first + 1)


def test_a_top_card_goes_alone_to_its_foundation_and_turns_the_card_under_it() -> None:
    game = cgame(cols=("5D AS", "2S", "3S"), down=(1,), heights=(0, 3))
    assert legal(game)[:2] == ["1>f", "1>2"]  # foundation moves first
    assert "2>f" not in legal(game) and "3>f" not in legal(game)
    game.play("1>f")
    assert legal(game)[:1] == ["2>f"]
    assert game.state.foundations[0] == cards("AS")
    assert game.state.columns[0] == cards("5D") and game.state.down[0] == 0
    game.play("2>f1")  # f1 spelt out: the foundation the card goes to
    game.play("3>f")
    assert game.state.foundations[0] == cards("AS 2S 3S") and game.moves_made == 3
    game.undo()
    assert game.state.foundations[0] == cards("AS 2S") and game.state.columns[2] == cards("3S")


def test_only_the_top_card_of_its_suit_and_next_rank_goes_up() -> None:
    game = cgame(cols=("2S", "AS 4H", "3H", "9C"), heights=(0, 2))
    assert legal(game)[:1] == ["3>f"]
    assert_refused(game, "1>f", "2S", "needs the AS")
    assert_refused(game, "2>f", "4H", "needs the 3H")
    assert_refused(game, "3>f1", "3H goes to f2")
    assert_refused(game, "5>f", "column 5 is empty")
    assert_refused(game, "f2>4", "never come back")
    assert_refused(game, "3>f9", "no foundation f9")


def test_no_run_is_removed_and_the_game_is_won_with_every_card_up() -> None:
    game = cgame("spiderette:foundations=cards,suits=1", cols=(SPADE_RUN,),
                 heights=(13, 13, 13))
    assert game.state.stock == () and game.outcome == "playing"
    for _ in range(13):
        game.play("1>f")
    assert game.outcome == "won" and game.legal_moves() == []
    assert game.score == 10  # the fourth suit completed


def test_a_complete_run_built_in_a_column_stays_there() -> None:
    game = cgame("spiderette:foundations=cards,suits=1",
                 cols=("KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"), heights=(13, 13, 13))
    game.play("2>1")
    assert len(game.state.columns[0]) == 13 and game.state.foundations[3] == ()
    assert game.outcome == "playing" and legal(game)[0] == "1>f"


def test_spider_scores_a_foundation_filled_to_its_king_as_a_removed_run() -> None:
    game = cgame("spider:foundations=cards,suits=1", cols=("KS", "QS"),
                 heights=(11, 13, 13, 13, 13, 13, 13, 13), score=500)
    game.play("2>f")
    assert game.score == 499
    game.play("1>f")
    assert game.score == 598 and game.outcome == "won"


def test_the_strict_rule_still_holds_and_lifts_with_strict_false() -> None:
    tops = ("AS", "KH", "KD", "KC", "QH", "QD", "QC")
    game = cgame(cols=tops)
    game.play("1>f")
    assert game.state.columns[0] == () and "d" not in legal(game)
    loose = cgame("spiderette:foundations=cards,strict=false", cols=tops)
    loose.play("1>f")
    assert "d" in legal(loose)


def test_a_game_is_lost_when_no_move_is_left() -> None:
    # two suits, one of each complete on f1 and f2: no two tops a rank apart, no Ace on top
    cols = ("AS AH 2S 2H KS", "3S 3H KH", "4S 4H JS", "5S 5H JH", "6S 6H 9S", "7H 8S 8H 9H",
            "TS TH QS QH 7S")
    game = cgame("spiderette:foundations=cards,suits=2", cols=cols, down=(4, 2, 2, 2, 2, 3, 4),
                 heights=(13, 13))
    assert game.state.stock == () and legal(game) == [] and game.outcome == "lost"


def test_saves_and_hand_made_positions_keep_and_check_the_foundations() -> None:
    game = cgame(cols=("2S", "AS"), heights=(0, 5, 3, 1))
    game.play("2>f")
    game.play("1>f")
    again = Game.from_json(game.to_json())
    assert again.state == game.state and again.history == game.history
    assert state_from_dict(json.loads(json.dumps(state_to_dict(game.state)))) == game.state
    bad = State(game.state.columns, game.state.down, game.state.stock, (),
                (cards("AH"),) + game.state.foundations[1:])
    with pytest.raises(InvalidDealError, match="foundation f1 must build S up from the Ace"):
        Game.from_position("spiderette:foundations=cards", bad)
    with pytest.raises(InvalidDealError, match="has 4 foundations"):
        Game.from_position("spiderette:foundations=cards",
                           State(bad.columns, bad.down, bad.stock, (), bad.foundations[:3]))


def test_the_observation_and_the_table_show_the_foundations() -> None:
    game = cgame(cols=("2S", "AS"), heights=(0, 5))
    game.play("2>f")
    obs = game.observe()
    assert obs["foundations"][:2] == [["AS"], ["AH", "2H", "3H", "4H", "5H"]]
    assert "foundations: f1:AS f2:5H f3:-- f4:--" in str(game)
    assert "removed runs" not in str(game)
