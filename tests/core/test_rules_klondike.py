"""One test per Klondike rule of RULES.md §3 (and every option), on constructed positions.

Positions are built with ``Game.from_position``: the cards a test names are placed where it
says; every other card of the variant goes onto the foundations (``found="auto"``: the longest
Ace-up run of each suit that is left) and whatever is still left lies under the named stock.
"""

from __future__ import annotations

from collections import Counter

import pytest

from kabale import Card, Game, IllegalMoveError, Move, State, Suit
from kabale.core.deal import fresh_deck
from kabale.core.klondike import KlondikeRules
from kabale.core.variants import parse_variant


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated codes, bottom first."""
    return tuple(Card.parse(code) for code in text.split())


def kgame(variant: str = "klondike", cols: tuple[str, ...] = (), down: tuple[int, ...] = (),
          waste: str = "", stock: str = "", found: str = "auto", rest: str = "stock",
          passes_used: int = 0, score: int = 0) -> Game:
    """A Klondike-family game from a constructed position (see the module docstring).

    ``rest="waste"`` puts the leftover cards under the waste instead of under the stock.
    """
    parsed = parse_variant(variant)
    decks = int(parsed["decks"])
    n = 7 if decks == 1 else 9
    columns = [cards(c) for c in cols] + [()] * (n - len(cols))
    downs = tuple(down) + (0,) * (n - len(down))
    placed = Counter([c for col in columns for c in col] + [*cards(waste), *cards(stock)])
    left = Counter(fresh_deck(parsed)) - placed
    foundations: list[tuple[Card, ...]] = [()] * (4 * decks)
    if found == "auto":
        for index in range(4 * decks):
            pile: list[Card] = []
            for rank in range(1, 14):
                card = Card(rank, Suit(index % 4))
                if left[card] <= 0:
                    break
                left[card] -= 1
                pile.append(card)
            foundations[index] = tuple(pile)
    leftovers_list: list[Card] = []
    for card in fresh_deck(parsed):
        if left[card] > 0:
            left[card] -= 1
            leftovers_list.append(card)
    leftovers = tuple(leftovers_list)
    under_stock = leftovers if rest == "stock" else ()
    under_waste = leftovers if rest == "waste" else ()
    state = State(columns=tuple(columns), down=downs, stock=under_stock + cards(stock),
                  waste=under_waste + cards(waste), foundations=tuple(foundations),
                  passes_used=passes_used, score=score)
    return Game.from_position(variant, state)


def legal(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def assert_refused(game: Game, move: str, *words: str) -> None:
    """``move`` raises IllegalMoveError whose reason holds ``words``; nothing changes."""
    before, obs, made = game.state, game.observe(), game.moves_made
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert game.state is before and game.observe() == obs and game.moves_made == made


# --------------------------------------------------------------------------- layout and deck
def test_klondike_layout_7_columns_of_1_to_7_top_face_up_24_in_stock() -> None:
    deck = fresh_deck(parse_variant("klondike"))
    state = Game.from_deck("klondike", deck).state
    # row r deals one card to each of columns r+1..7, so column c gets, from row r,
    # the card at index (7 + 6 + ... + (7 - r + 1)) + (c - r)
    for c in range(7):
        want = [deck[sum(7 - q for q in range(r)) + c - r] for r in range(c + 1)]
        assert list(state.columns[c]) == want
    assert state.down == (0, 1, 2, 3, 4, 5, 6)
    assert state.stock == tuple(reversed(deck[28:]))  # deck[28] is the stock's top
    assert state.waste == () and state.foundations == ((),) * 4
    assert state.score == 0 and state.passes_used == 0


def test_klondike_deck_is_one_ordinary_pack() -> None:
    state = Game.new("klondike", 11).state
    assert Counter(state.all_cards()) == Counter(Card(r, s) for s in Suit for r in range(1, 14))


def test_double_klondike_layout_9_columns_8_foundations_59_stock() -> None:
    game = Game.new("double-klondike", 5)
    state = game.state
    assert [len(c) for c in state.columns] == list(range(1, 10))
    assert state.down == tuple(range(9))
    assert len(state.stock) == 59 and len(state.foundations) == 8
    assert Counter(state.all_cards()) == Counter(
        Card(r, s) for _ in range(2) for s in Suit for r in range(1, 14))
    deck = fresh_deck(parse_variant("klondike:decks=2"))
    assert Game.from_deck("klondike:decks=2", deck).state.stock[-1] == deck[45]


# --------------------------------------------------------------------------- tableau
def test_klondike_build_down_alternating_colour() -> None:
    game = kgame(cols=("8S", "7H", "7C", "6H", "9D", "7D"))
    moves = legal(game)
    assert "2>1" in moves and "6>1" in moves and "1>5" in moves
    assert "3>1" not in moves and "4>1" not in moves
    assert_refused(game, "3>1", "7C", "8S")  # black on black
    assert_refused(game, "4>1", "6H", "8S")  # not rank - 1
    assert_refused(game, "1>2", "8S", "7H")  # never upwards
    game.play("2>1")
    assert game.state.columns[0] == cards("8S 7H")


def test_klondike_face_up_card_moves_with_everything_on_top() -> None:
    game = kgame(cols=("2C 9S 8H 7C", "TD", "9C"), down=(1,))
    assert "1>2" in legal(game) and "1>3" in legal(game)
    assert game.parse_move("1>2").count == 3 and game.parse_move("1>3").count == 2
    assert_refused(game, "1:2>2", "8H", "TD")
    game.play("1>3")
    assert game.state.columns[2] == cards("9C 8H 7C")
    game.play("1>2")
    assert game.state.columns[1] == cards("TD 9S") and game.state.columns[0] == cards("2C")


def test_klondike_moved_run_must_alternate_and_descend() -> None:
    game = kgame("klondike:empty=any", cols=("9S 8S", "", "9H"))
    assert [str(m) for m in game.legal_moves() if m.source == "1" and m.target == "2"] == ["1>2"]
    assert game.parse_move("1>2").count == 1
    assert_refused(game, "1:2>2", "not an alternating descending run")


def test_klondike_face_down_cards_never_move() -> None:
    game = kgame("klondike:empty=any", cols=("KH QS", ""), down=(1,))
    assert {m.count for m in game.legal_moves() if m.source == "1"} == {1}
    assert_refused(game, "1:2>2", "face-up")


def test_klondike_foundation_builds_up_by_suit_from_ace() -> None:
    game = kgame(cols=("AS", "2S", "2H", "3S", "AH"), found="")
    assert "2>f" not in legal(game) and "4>f" not in legal(game)
    assert_refused(game, "2>f", "2S", "Ace")
    game.play("1>f")
    assert game.state.foundations[0] == cards("AS")
    assert_refused(game, "3>f", "2H")  # hearts' foundation is still empty
    assert_refused(game, "4>f", "3S")  # 2S first
    game.play("2>f")
    game.play("4>f")
    game.play("5>f")
    game.play("3>f")
    assert game.state.foundations[:2] == (cards("AS 2S 3S"), cards("AH 2H"))


def test_klondike_top_waste_card_goes_to_foundation() -> None:
    game = kgame(waste="2H AH", found="")
    assert "w>f" in legal(game)
    game.play("w>f")
    game.play("w>f")
    assert game.state.foundations[1] == cards("AH 2H")


def test_klondike_only_top_waste_card_is_playable() -> None:
    game = kgame(cols=("9S",), waste="8H 2C", found="")
    assert not [m for m in legal(game) if m.startswith("w")]
    assert_refused(game, "w>1", "2C")


def test_klondike_only_top_column_card_goes_to_foundation() -> None:
    game = kgame(cols=("AS 5D",), found="")
    assert_refused(game, "1>f", "5D")


def test_klondike_foundation_back_to_tableau_allowed_by_default() -> None:
    game = kgame(cols=("3S", "3H 2H"), found="auto")
    assert game.state.foundations[1] == cards("AH")
    game.play("2>f")
    assert "f2>1" in legal(game)
    game.play("f2>1")
    assert game.state.columns[0] == cards("3S 2H") and game.state.foundations[1] == cards("AH")


def test_klondike_foundation_to_tableau_refused_when_back_false() -> None:
    game = kgame("klondike:back=false", cols=("3S", "3H 2H"))
    game.play("2>f")
    assert not [m for m in legal(game) if m.startswith("f")]
    assert_refused(game, "f2>1", "foundation")


def test_klondike_empty_column_takes_only_a_king() -> None:
    game = kgame(cols=("", "QH", "KC QD", "8S"), waste="KH")
    moves = legal(game)
    assert "2>1" not in moves and "w>1" in moves and "3>1" in moves
    assert_refused(game, "2>1", "King")
    assert game.parse_move("3>1").count == 2  # a King heading a run
    game.play("3>1")
    assert game.state.columns[0] == cards("KC QD") and game.state.columns[2] == ()


def test_easy_klondike_empty_column_takes_any_card_or_run() -> None:
    game = kgame("easy-klondike", cols=("", "QH", "9C 8D 7S"), waste="5C")
    moves = legal(game)
    assert "2>1" in moves and "w>1" in moves
    assert {"3:3>1", "3:2>1", "3:1>1"} <= set(moves)
    assert game.parse_move("3>1").count == 3
    game.play("3:2>1")
    assert game.state.columns[0] == cards("8D 7S")


# --------------------------------------------------------------------------- stock and passes
def test_klondike_draw_1_turns_one_card_onto_the_waste() -> None:
    game = kgame(cols=("KS",), stock="5H 9C")
    size = len(game.state.stock)
    game.play("d")
    assert game.state.waste[-1] == Card.parse("9C") and len(game.state.waste) == 1
    assert len(game.state.stock) == size - 1


def test_klondike_draw_3_turns_three_cards_the_third_on_top() -> None:
    game = kgame("klondike:draw=3", cols=("KS", "5D"), stock="4C 3D 2S")
    game.play("d")
    assert game.state.waste == cards("2S 3D 4C")
    assert "w>2" in legal(game)  # 4C on 5D: only the top waste card plays
    game.play("w>2")
    assert game.state.waste == cards("2S 3D")


def test_klondike_draw_3_takes_what_is_left_when_under_three() -> None:
    game = kgame("klondike:draw=3", cols=("QS KS",), stock="QH KH", found="auto")
    assert len(game.state.stock) == 2
    game.play("d")
    assert game.state.stock == () and game.state.waste == cards("KH QH")


def test_klondike_empty_stock_turns_the_waste_back_in_order() -> None:
    game = Game.new("klondike", 3)
    stock = game.state.stock
    for _ in stock:
        game.play("d")
    assert game.state.stock == () and len(game.state.waste) == 24
    game.play("d")
    assert game.state.stock == stock and game.state.waste == ()
    assert game.state.passes_used == 1


def _draw_out(game: Game) -> None:
    while game.state.stock:
        game.play("d")


def test_klondike_unlimited_passes() -> None:
    game = Game.new("klondike", 4)
    assert game.passes_left is None and game.observe()["passes_left"] is None
    for _ in range(5):
        _draw_out(game)
        game.play("d")
    assert game.state.passes_used == 5 and game.passes_left is None


def test_klondike_three_passes_allow_two_turn_backs() -> None:
    game = Game.new("klondike:passes=3", 4)
    assert game.passes_left == 2 and game.observe()["passes_left"] == 2
    for left in (1, 0):
        _draw_out(game)
        game.play("d")
        assert game.passes_left == left and game.observe()["passes_left"] == left
    _draw_out(game)
    assert "d" not in legal(game)
    assert_refused(game, "d", "no passes left")


def test_klondike_one_pass_allows_no_turn_back() -> None:
    game = Game.new("klondike:passes=1", 4)
    assert game.passes_left == 0
    _draw_out(game)
    assert "d" not in legal(game)
    assert_refused(game, "d", "no passes left")


def test_klondike_stock_action_refused_when_stock_and_waste_are_empty() -> None:
    game = kgame(cols=("KS", "KH", "KD", "KC"))
    assert game.state.stock == () and "d" not in legal(game)
    assert_refused(game, "d", "empty")


# --------------------------------------------------------------------------- outcome
def test_klondike_won_when_all_cards_are_on_the_foundations() -> None:
    game = kgame(cols=("KS",))
    assert game.outcome == "playing"
    game.play("1>f")
    assert game.outcome == "won" and game.legal_moves() == []
    assert game.observe()["outcome"] == "won"


def test_double_klondike_won_needs_all_104_cards() -> None:
    game = kgame("double-klondike", cols=("KS", "KS"))
    game.play("1>f")
    assert game.outcome == "playing"
    game.play("2>f")
    assert game.outcome == "won"


# A blocked table: every top card a King or a Jack, foundations up to the 9s, no Queen or Ten
# reachable, JD the only card left for the stock or the waste.
BLOCKED = ("TS KH", "TH KS", "TD KC", "TC KD", "QS QC JH", "QH JS", "QD JC")
BLOCKED_DOWN = (1, 1, 1, 1, 2, 1, 1)


def test_klondike_lost_when_no_legal_move_and_no_pass_left() -> None:
    game = kgame("klondike:passes=1", cols=BLOCKED, down=BLOCKED_DOWN, waste="JD")
    assert game.legal_moves() == [] and game.outcome == "lost"
    still = kgame("klondike:passes=3", cols=BLOCKED, down=BLOCKED_DOWN, waste="JD",
                  passes_used=1)
    assert legal(still) == ["d"] and still.outcome == "playing"
    still.play("d")
    still.play("d")
    assert still.passes_left == 0 and still.outcome == "lost"


def test_klondike_lost_with_unlimited_passes_only_once_the_player_has_seen_the_stock() -> None:
    # Only cycling is left and the true stock (JD) never plays, but the player has not seen
    # it: as far as they know it might be TS, which would go home (RULES.md §3).
    game = kgame(cols=BLOCKED, down=BLOCKED_DOWN, stock="JD")
    assert legal(game) == ["d"] and game.outcome == "playing"
    game.play("d")
    assert legal(game) == ["d"] and game.outcome == "lost"
    game.play("d")  # turned back over: the player knows the stock now
    assert game.state.passes_used == 1 and game.outcome == "lost"


def test_klondike_lost_with_unlimited_passes_before_the_stock_is_seen_when_nothing_unseen_plays(
) -> None:
    # Every other card lies face up (the Tens and Queens under the Kings and Jacks, unable
    # to move): whatever the unseen stock card is, it is JD, and JD goes nowhere.
    cols = ("TS KH", "TH KS", "TD KC", "TC KD", "QH QD JH", "QS JS", "QC JC")
    game = kgame(cols=cols, down=(0,) * 7, stock="JD")
    assert legal(game) == ["d"] and game.outcome == "lost"


@pytest.mark.parametrize("passes_used", [0, 1])
def test_klondike_thoughtful_shows_the_stock_so_the_loss_is_known_at_once(
        passes_used: int) -> None:
    game = kgame("thoughtful", cols=BLOCKED, down=BLOCKED_DOWN, stock="JD",
                 passes_used=passes_used)
    assert legal(game) == ["d"] and game.outcome == "lost"


def test_klondike_draw3_deal_613_is_lost_only_after_the_stock_has_been_seen() -> None:
    # The true cycle offers nothing from the deal on; the player sees that after 8 draws.
    game = Game.new("klondike:draw=3", 613)
    outcomes = []
    while game.state.stock:
        assert legal(game) == ["d"]
        outcomes.append(game.outcome)
        game.play("d")
    assert outcomes == ["playing"] * 8 and game.outcome == "lost"


def test_klondike_not_lost_with_unlimited_passes_when_a_cycle_reaches_a_playable_card() -> None:
    cols = ("TS KH", "TH KS", "TD KC", "TC KD", "QS JH", "QH JS", "QD JC")
    game = kgame(cols=cols, down=(1,) * 7, stock="QC JD")  # QC plays on KH after 2 draws
    assert legal(game) == ["d"] and game.outcome == "playing"


# --------------------------------------------------------------------------- scoring
def test_klondike_standard_scoring_foundation_plus_10() -> None:
    game = kgame(cols=("AS",), waste="AH", found="", score=100)
    game.play("1>f")
    assert game.score == 110
    game.play("w>f")
    assert game.score == 120


def test_klondike_standard_scoring_waste_to_tableau_plus_5() -> None:
    game = kgame(cols=("8S",), waste="7H", score=100)
    game.play("w>1")
    assert game.score == 105


def test_klondike_standard_scoring_flip_plus_5() -> None:
    game = kgame(cols=("2C 9S", "TD"), down=(1,), score=100)
    game.play("1>2")
    assert game.score == 105 and game.state.down[0] == 0 and game.state.columns[0] == cards("2C")


def test_klondike_standard_scoring_tableau_to_tableau_scores_nothing() -> None:
    game = kgame(cols=("9S", "TD"), score=100)
    game.play("1>2")
    assert game.score == 100


def test_klondike_standard_scoring_foundation_to_tableau_minus_15() -> None:
    game = kgame(cols=("3S", "3H 2H"), score=100)
    game.play("2>f")
    assert game.score == 110
    game.play("f2>1")
    assert game.score == 95


def test_klondike_standard_scoring_turn_back_draw1_minus_100() -> None:
    game = kgame(cols=BLOCKED, down=BLOCKED_DOWN, waste="JD", score=250)
    game.play("d")
    assert game.score == 150
    game.play("d")
    game.play("d")
    assert game.score == 50


def test_klondike_standard_scoring_turn_back_draw3_fourth_pass() -> None:
    game = kgame("klondike:draw=3", cols=BLOCKED, down=BLOCKED_DOWN, waste="JD", score=100)
    scores = []
    for _ in range(4):  # turn-backs 1..4 start passes 2..5
        game.play("d")
        assert game.state.waste == ()
        scores.append(game.score)
        game.play("d")
    assert scores == [100, 100, 80, 60]


def test_klondike_standard_score_never_goes_below_zero_and_undo_takes_points_back() -> None:
    game = kgame(cols=BLOCKED, down=BLOCKED_DOWN, waste="JD", score=30)
    game.play("d")
    assert game.score == 0
    game.undo()
    assert game.score == 30
    back = kgame(cols=("3S", "3H 2H"), score=0)
    back.play("2>f")
    back.play("f2>1")
    assert back.score == 0  # 10 - 15 clamps at 0
    back.undo()
    assert back.score == 10
    back.undo()
    assert back.score == 0


def test_klondike_standard_scoring_events_combine_in_one_move() -> None:
    game = kgame(cols=("2C AS",), down=(1,), found="", score=0)
    game.play("1>f")
    assert game.score == 15  # +10 foundation, +5 the flip of 2C


def test_klondike_vegas_scoring() -> None:
    assert Game.new("vegas", 1).score == -52
    assert Game.new("klondike:scoring=vegas", 1).score == -52
    game = kgame("vegas", cols=("2C AS", "3H 2H", "8S", "3S"), down=(1,), waste="7H",
                 score=-52)
    game.play("1>f")  # +5, the flip earns nothing
    assert game.score == -47
    game.play("w>3")  # waste to tableau earns nothing
    assert game.score == -47
    game.play("2>f")
    assert game.score == -42
    game.play("f2>4")  # a card leaving a foundation takes its 5 back
    assert game.score == -47
    game.undo()
    assert game.score == -42


def test_klondike_vegas_turn_back_costs_nothing() -> None:
    game = kgame("vegas", cols=BLOCKED, down=BLOCKED_DOWN, waste="JD", score=-52)
    game.play("d")
    assert game.score == -52 and game.state.passes_used == 1


def test_klondike_no_scoring_stays_zero() -> None:
    assert Game.new("klondike:scoring=none", 1).score == 0
    game = kgame("klondike:scoring=none", cols=("2C AS", "3H 2H", "3S"), down=(1,))
    for move in ("1>f", "2>f", "f2>3"):
        game.play(move)
        assert game.score == 0


# --------------------------------------------------------------------------- open (thoughtful)
def test_thoughtful_klondike_shows_every_card_but_rules_do_not_change() -> None:
    open_game, closed = Game.new("thoughtful", 8), Game.new("klondike", 8)
    obs = open_game.observe()
    assert all("??" not in col for col in obs["columns"])
    assert obs["columns"] == [[str(c) for c in pile] for pile in open_game.state.columns]
    assert obs["stock_cards"] == [str(c) for c in open_game.state.stock]
    assert obs["down"] == closed.observe()["down"]
    assert legal(open_game) == legal(closed)


def test_thoughtful_klondike_face_down_cards_still_unmovable() -> None:
    game = kgame("klondike:open=true,empty=any", cols=("KH QS", ""), down=(1,))
    assert game.observe()["columns"][0] == ["KH", "QS"]
    assert_refused(game, "1:2>2", "face-up")


def test_closed_klondike_hides_face_down_and_stock_cards() -> None:
    game = Game.new("klondike", 8)
    obs = game.observe()
    assert obs["stock_cards"] is None and obs["stock"] == 24
    text = str(obs)
    hidden = [c for pile, d in zip(game.state.columns, game.state.down, strict=True)
              for c in pile[:d]] + list(game.state.stock)
    assert len(hidden) == 21 + 24
    assert not [c for c in hidden if f"'{c}'" in text]
    assert sum(col.count("??") for col in obs["columns"]) == 21


# --------------------------------------------------------------------------- foundations 'f'
def test_double_klondike_f_picks_the_first_foundation_of_the_suit() -> None:
    game = kgame("double-klondike", cols=("AS", "AS", "2S", "2S"), found="")
    game.play("1>f")
    assert game.state.foundations[0] == cards("AS") and game.state.foundations[4] == ()
    game.play("2>f")
    assert game.state.foundations[4] == cards("AS")
    assert_refused(game, "3>f5", "f1")
    assert str(game.play("3>f1")) == "3>f"
    assert game.state.foundations[0] == cards("AS 2S")
    game.play("4>f")
    assert game.state.foundations[4] == cards("AS 2S")


def test_klondike_foundations_are_fixed_by_suit_s_h_d_c() -> None:
    game = kgame(cols=("AC", "AD", "AH", "AS"), found="")
    for move in ("1>f", "2>f", "3>f", "4>f"):
        game.play(move)
    assert [pile[0].suit.letter for pile in game.state.foundations] == list("SHDC")


def test_klondike_named_foundation_is_accepted_when_it_is_the_one() -> None:
    game = kgame(cols=("AH", "AD"), found="")
    assert str(game.play("1>f2")) == "1>f"
    assert_refused(game, "2>f2", "f3")
    assert game.state.foundations[1] == cards("AH")


@pytest.mark.parametrize("variant", ["klondike", "klondike:draw=3,passes=3", "klondike:empty=any",
                                     "klondike:back=false,passes=1", "klondike:decks=2",
                                     "klondike:empty=any,decks=2,draw=3"])
def test_legal_move_answers_as_the_list_of_legal_moves(variant: str) -> None:
    """``legal_move`` (one move checked alone) agrees with ``legal_moves`` on every move the
    notation can name in positions of random games: each listed move is found with its
    canonical text, and no other is. ``stock_actions`` gives the state of that many checked
    stock actions in a row (None once one is illegal)."""
    import random

    rng = random.Random(variant)
    for seed in range(4):
        game = Game.new(variant, seed=seed)
        rules = game.rules
        assert isinstance(rules, KlondikeRules)
        n = rules.n_columns
        places = [str(i) for i in range(0, n + 2)] + ["w", "f", "f1", "f5", "f9", "d", ""]
        for _ in range(40):
            state = game.state
            listed = {move: move.text for move in rules.legal_moves(state)}
            longest = max(len(col) for col in state.columns) + 1
            for source in places:
                for target in places:
                    for count in range(1, longest + 1 if source.isdigit() else 3):
                        move = Move(source, target, count)
                        found = rules.legal_move(state, move)
                        if move in listed:
                            assert found == move and found.text == listed[move], (state, move)
                        else:
                            assert found is None, (state, move, found)
            after: State | None = state
            for times in range(1, 2 * len(state.stock) + len(state.waste) + 4):
                press = rules.legal_move(after, Move("d")) if after is not None else None
                after = rules.apply(after, press) if after is not None and press else None
                assert rules.stock_actions(state, times) == after, (state, times)
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))
