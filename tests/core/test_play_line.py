"""``KlondikeRules.play_line`` (a whole line checked and played on lists) against the
reference path it must equal: ``legal_move`` then ``apply``, one State per move.

Lines are mostly legal moves of random games, with moves from the whole notation space (most
of them illegal) mixed in, across every option of RULES.md §3.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kabale import Game, Move, State
from kabale.core.klondike import KlondikeRules

VARIANTS = (
    "klondike", "klondike:draw=3", "klondike:passes=1", "klondike:draw=3,passes=3",
    "klondike:empty=any", "klondike:back=false", "klondike:decks=2",
    "klondike:draw=3,empty=any,decks=2", "klondike:scoring=vegas,draw=3,passes=3",
    "klondike:scoring=none,passes=3", "klondike:scoring=vegas,decks=2",
)


def reference(rules: KlondikeRules, state: State,
              moves: list[Move]) -> tuple[State, list[str], int]:
    """What play_line must answer, the slow way."""
    texts: list[str] = []
    for index, move in enumerate(moves):
        legal = rules.legal_move(state, move)
        if legal is None:
            return state, texts, index
        texts.append(legal.text)
        state = rules.apply(state, legal)
    return state, texts, -1


def any_move(rules: KlondikeRules, draw: st.DrawFn) -> Move:
    """A move the notation can name, legal or not."""
    places = [str(i) for i in range(rules.n_columns + 2)] + ["w", "f", "f1", "f5", "d", ""]
    return Move(draw(st.sampled_from(places)), draw(st.sampled_from(places)),
                draw(st.integers(1, 14)))


@st.composite
def lines(draw: st.DrawFn) -> tuple[KlondikeRules, State, list[Move]]:
    """A variant, a position reached by legal play, and a line from it."""
    game = Game.new(draw(st.sampled_from(VARIANTS)), seed=draw(st.integers(0, 10**6)))
    rules = game.rules
    assert isinstance(rules, KlondikeRules)
    state = game.state
    for _ in range(draw(st.integers(0, 60))):  # somewhere into the game
        legal = rules.legal_moves(state)
        if not legal:
            break
        state = rules.apply(state, legal[draw(st.integers(0, len(legal) - 1))])
    start, moves = state, []
    for _ in range(draw(st.integers(0, 80))):
        legal = rules.legal_moves(state)
        if legal and draw(st.integers(0, 9)):
            move = legal[draw(st.integers(0, len(legal) - 1))]
            moves.append(Move(move.source, move.target, move.count))  # the text left out
            state = rules.apply(state, move)
        else:
            moves.append(any_move(rules, draw))
    return rules, start, moves


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines())
def test_play_line_equals_legal_move_then_apply(case: tuple[KlondikeRules, State,
                                                             list[Move]]) -> None:
    rules, state, moves = case
    assert rules.play_line(state, moves) == reference(rules, state, moves)


def near_win(variant: str) -> tuple[KlondikeRules, State]:
    """Every card on its foundation but the King of clubs, alone in column 1."""
    game = Game.new(variant, seed=1)
    rules, state = game.rules, game.state
    assert isinstance(rules, KlondikeRules)
    cards = sorted([*(card for pile in state.columns for card in pile), *state.stock],
                   key=lambda card: (card.suit, card.rank))
    piles = [tuple(card for card in cards if card.suit == suit) for suit in range(4)]
    last = piles[3][-1]
    piles[3] = piles[3][:-1]
    return rules, State(((last,),) + ((),) * 6, (0,) * 7, (), (), tuple(piles), 0, 0)


def test_play_line_refuses_any_move_once_the_game_is_won() -> None:
    """A line that wins, then plays on (a King back from its foundation, legal had the
    game not been won): the move after the win is the illegal one."""
    rules, near = near_win("klondike")
    moves = [Move("1", "f", 1), Move("f4", "2", 1)]
    after, texts, bad = rules.play_line(near, moves)
    assert (texts, bad) == (["1>f"], 1)
    assert rules.is_won(after)
    assert (after, texts, bad) == reference(rules, near, moves)


def test_play_line_takes_cards_back_from_the_foundations_only_where_allowed() -> None:
    moves = [Move("f1", "2", 1)]  # the King of spades onto an empty column
    for variant, bad in (("klondike", -1), ("klondike:back=false", 0)):
        rules, near = near_win(variant)
        assert rules.play_line(near, moves)[2] == bad
        assert rules.play_line(near, moves) == reference(rules, near, moves)
