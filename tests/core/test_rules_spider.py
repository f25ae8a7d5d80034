"""One test per Spider and Spiderette rule of RULES.md §1-§2, on constructed positions.

Positions are built with ``Game.from_position``: the cards a test names are placed where it
says; of the cards left, every complete King-to-Ace run of one suit counts as already removed
(``runs=True``) and the rest lie under the named stock.
"""

from __future__ import annotations

from collections import Counter

import pytest

from kabale import Card, Game, IllegalMoveError, State, Suit
from kabale.core.deal import fresh_deck
from kabale.core.variants import parse_variant

SPADE_RUN = "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated codes, bottom first."""
    return tuple(Card.parse(code) for code in text.split())


def sgame(variant: str = "spider", cols: tuple[str, ...] = (), down: tuple[int, ...] = (),
          stock: str = "", runs: bool = True, score: int | None = None) -> Game:
    """A Spider-family game from a constructed position (see the module docstring)."""
    parsed = parse_variant(variant)
    n = 10 if parsed.family == "spider" else 7
    columns = [cards(c) for c in cols] + [()] * (n - len(cols))
    downs = tuple(down) + (0,) * (n - len(down))
    left = Counter(fresh_deck(parsed)) - Counter([c for col in columns for c in col]
                                                 + list(cards(stock)))
    removed: list[tuple[Card, ...]] = []
    for suit in Suit:
        run = tuple(Card(rank, suit) for rank in range(13, 0, -1))
        while runs and all(left[c] > 0 for c in run):
            left.subtract(run)
            removed.append(run)
    under: list[Card] = []
    for card in fresh_deck(parsed):
        if left[card] > 0:
            left[card] -= 1
            under.append(card)
    if score is None:
        score = 500 if parsed.family == "spider" else 0
    state = State(columns=tuple(columns), down=downs, stock=tuple(under) + cards(stock),
                  waste=(), foundations=tuple(removed), score=score)
    return Game.from_position(variant, state)


def legal(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def between(game: Game, source: str, target: str) -> list[str]:
    return [str(m) for m in game.legal_moves() if m.source == source and m.target == target]


def assert_refused(game: Game, move: str, *words: str) -> None:
    """``move`` raises IllegalMoveError whose reason holds ``words``; nothing changes."""
    before, obs, made = game.state, game.observe(), game.moves_made
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert game.state is before and game.observe() == obs and game.moves_made == made


# --------------------------------------------------------------------------- decks and layout
@pytest.mark.parametrize(("family", "suits", "per_card"), [
    ("spider", 4, {s: 2 for s in "SHDC"}), ("spider", 2, {"S": 4, "H": 4}),
    ("spider", 1, {"S": 8}), ("spiderette", 4, {s: 1 for s in "SHDC"}),
    ("spiderette", 2, {"S": 2, "H": 2}), ("spiderette", 1, {"S": 4}),
])
def test_spider_family_deck_composition_by_suit_count(family: str, suits: int,
                                                       per_card: dict[str, int]) -> None:
    game = Game.new(f"{family}:suits={suits}", 21)
    want = Counter({Card(r, Suit("SHDC".index(s))): k for s, k in per_card.items()
                    for r in range(1, 14)})
    assert Counter(game.state.all_cards()) == want
    assert sum(want.values()) == (104 if family == "spider" else 52)


def test_spider_round_robin_layout_columns_1_to_4_get_6() -> None:
    deck = fresh_deck(parse_variant("spider"))
    state = Game.from_deck("spider", deck).state
    assert [len(c) for c in state.columns] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    for c in range(10):
        assert list(state.columns[c]) == deck[c:54:10]
    assert state.down == (5, 5, 5, 5, 4, 4, 4, 4, 4, 4)
    assert len(state.stock) == 50 and state.stock[-1] == deck[54]
    assert state.foundations == () and state.waste == () and state.score == 500


def test_spider_deal_puts_one_card_on_each_column_stock_top_on_column_1() -> None:
    deck = fresh_deck(parse_variant("spider:suits=2"))
    game = Game.from_deck("spider:suits=2", deck)
    downs = game.state.down
    for deal in range(5):
        assert "d" in legal(game)
        game.play("d")
        tops = [col[-1] for col in game.state.columns]
        assert tops == deck[54 + 10 * deal: 64 + 10 * deal]
        assert game.state.down == downs  # dealt cards are face up
        assert len(game.state.stock) == 40 - 10 * deal
    assert "d" not in legal(game)
    assert_refused(game, "d", "stock is empty")


# --------------------------------------------------------------------------- moves
def test_spider_single_card_goes_on_any_card_one_rank_higher_whatever_suit() -> None:
    game = sgame(cols=("8H", "9S", "9H", "7C", "TD"))
    moves = legal(game)
    assert {"1>2", "1>3", "4>1"} <= set(moves)
    assert "1>4" not in moves and "1>5" not in moves
    assert_refused(game, "1>5", "8H", "TD")
    game.play("1>2")
    assert game.state.columns[1] == cards("9S 8H")


def test_spider_run_moves_only_if_one_suit() -> None:
    game = sgame(cols=("9S 8H 7S", "TD", "8D", "9C 8C 7C"))
    assert between(game, "1", "2") == []
    assert between(game, "1", "3") == ["1>3"] and game.parse_move("1>3").count == 1
    assert_refused(game, "1:3>2", "not a run of one suit")
    assert_refused(game, "1:2>2", "not a run of one suit")
    assert game.parse_move("4>2").count == 3
    game.play("4>2")
    assert game.state.columns[1] == cards("TD 9C 8C 7C")


def test_spider_one_suit_every_descending_run_moves() -> None:
    game = sgame("spider:suits=1", cols=("9S 8S 7S", "TS"))
    assert between(game, "1", "2") == ["1>2"]
    game.play("1>2")
    assert game.state.columns[1] == cards("TS 9S 8S 7S")


def test_spider_face_down_cards_never_move() -> None:
    game = sgame(cols=("9S 8S 7S", "TD", "9D"), down=(1,))
    assert between(game, "1", "2") == []
    assert_refused(game, "1:3>2", "face-up")
    game.play("1>3")
    assert game.state.columns[0] == cards("9S") and game.state.down[0] == 0


def test_spider_empty_column_takes_any_card_or_movable_run() -> None:
    game = sgame(cols=("", "9S 8S 7S", "5H", "KH"))
    assert between(game, "2", "1") == ["2:3>1", "2:2>1", "2:1>1"]
    assert between(game, "3", "1") == ["3>1"] and between(game, "4", "1") == ["4>1"]
    assert game.parse_move("2>1").count == 3
    game.play("2:2>1")
    assert game.state.columns[0] == cards("8S 7S") and game.state.columns[1] == cards("9S")


def test_spider_king_goes_on_nothing_but_an_empty_column() -> None:
    game = sgame(cols=("KS", "KH", "AS", "QD", "5C", "5C", "5D", "5D", "5H", "5S"))
    assert [m for m in legal(game) if m.startswith(("1>", "2>"))] == []
    assert_refused(game, "1>2", "KS", "KH")
    assert "4>1" in legal(game) and "4>2" in legal(game)


def test_spider_nothing_goes_on_an_ace() -> None:
    game = sgame(cols=("AS", "KH", "AH", "2D"))
    assert [m for m in game.legal_moves() if m.target in ("1", "3")] == []
    assert_refused(game, "2>1", "Ace")


# --------------------------------------------------------------------------- deals
def test_spider_deal_refused_while_a_column_is_empty_strict() -> None:
    game = sgame(cols=("5H", "6S", "7D", "8C", "9H", "TS", "JD", "QC", "KH"),
                 stock="AD 2D 3D 4D 5D 6D 7D 8D 9D TD")
    assert game.state.columns[9] == () and game.state.stock
    assert "d" not in legal(game)
    assert_refused(game, "d", "empty")


def test_spider_deal_allowed_with_empty_column_when_not_strict() -> None:
    game = sgame("spider:strict=false", cols=("5H", "6S", "7D", "8C", "9H", "TS", "JD", "QC",
                                               "KH"), stock="AD 2D 3D 4D 5D 6D 7D 8D 9D TD")
    assert "d" in legal(game)
    game.play("d")
    assert game.state.columns[9] == cards("AD") and game.state.columns[0] == cards("5H TD")


# --------------------------------------------------------------------------- removal, outcome
def test_complete_run_removed_automatically() -> None:
    game = sgame(cols=(SPADE_RUN.removesuffix(" AS"), "5H AS"), down=(0, 1))
    game.play("2>1")
    state = game.state
    assert state.columns[0] == () and state.foundations[-1] == cards(SPADE_RUN)
    assert state.columns[1] == cards("5H") and state.down[1] == 0  # flipped after the move
    assert game.score == 500 - 1 + 100


def test_spider_run_removed_when_a_deal_completes_it() -> None:
    game = sgame(cols=(SPADE_RUN.removesuffix(" AS"), "5H", "5H", "6H", "6H", "7H",
                                                       "7H", "8D", "8D", "9C"), stock="AS")
    removed = len(game.state.foundations)
    game.play("d")
    assert len(game.state.foundations) == removed + 1 and game.state.columns[0] == ()
    assert game.score == 500 - 1 + 100


def test_spider_run_of_mixed_suits_is_not_removed() -> None:
    mixed = SPADE_RUN.replace("7S", "7H").removesuffix(" AS")
    game = sgame(cols=(mixed, "AS"))
    game.play("2>1")
    assert len(game.state.columns[0]) == 13 and game.score == 499


def test_spider_removed_runs_never_return() -> None:
    game = sgame(cols=(SPADE_RUN.removesuffix(" AS"), "AS", "3H"))
    game.play("2>1")
    assert all(m.source.isdigit() or m.source == "d" for m in game.legal_moves())
    assert game.observe()["foundations"][-1] == SPADE_RUN.split()


def test_spider_won_when_all_8_runs_removed() -> None:
    game = sgame(cols=(SPADE_RUN.removesuffix(" AS"), "AS"))
    assert len(game.state.foundations) == 7 and game.state.stock == ()
    assert game.outcome == "playing"
    game.play("2>1")
    assert game.outcome == "won" and game.legal_moves() == []
    assert game.state.columns == ((),) * 10 and game.score == 599


# Ten tops (K J 9 7 5 of spades and hearts), no top one rank below another: nothing moves.
BLOCKED = ("AS 2S KS", "3S 4S JS", "6S 8S 9S", "TS 7S", "QS 5S",
           "AH 2H KH", "3H 4H JH", "6H 8H 9H", "TH 7H", "QH 5H")
BLOCKED_DOWN = (2, 2, 2, 1, 1, 2, 2, 2, 1, 1)


def test_spider_lost_when_stock_empty_and_no_legal_move() -> None:
    game = sgame(cols=BLOCKED, down=BLOCKED_DOWN)
    assert game.state.stock == () and game.legal_moves() == []
    assert game.outcome == "lost" and game.observe()["outcome"] == "lost"


def test_spider_not_lost_while_the_stock_can_be_dealt() -> None:
    game = sgame(cols=BLOCKED, down=BLOCKED_DOWN, runs=False)
    assert legal(game) == ["d"] and game.outcome == "playing"


# --------------------------------------------------------------------------- scoring
def test_spider_score_500_minus_1_per_move_or_deal_plus_100_per_run() -> None:
    game = Game.new("spider", 6)
    assert game.score == 500
    game.play("d")
    assert game.score == 499
    game.play(game.legal_moves()[0])
    assert game.score == 498
    game.undo()
    game.undo()
    assert game.score == 500


def test_spider_undo_restores_removed_run_flip_and_score() -> None:
    game = sgame(cols=(SPADE_RUN.removesuffix(" AS"), "5H AS"), down=(0, 1))
    before = game.state
    game.play("2>1")
    game.undo()
    assert game.state == before and game.score == 500 and game.state.down[1] == 1
    game.redo()
    assert game.state.columns[0] == () and game.score == 599


# --------------------------------------------------------------------------- Spiderette
def test_spiderette_layout_7_columns_of_1_to_7_and_24_in_stock() -> None:
    deck = fresh_deck(parse_variant("spiderette"))
    state = Game.from_deck("spiderette", deck).state
    for c in range(7):
        assert list(state.columns[c]) == [deck[sum(7 - q for q in range(r)) + c - r]
                                          for r in range(c + 1)]
    assert state.down == (0, 1, 2, 3, 4, 5, 6) and len(state.stock) == 24
    assert state.stock[-1] == deck[28] and state.score == 0


def test_spiderette_last_deal_is_three_cards_onto_columns_1_to_3() -> None:
    deck = fresh_deck(parse_variant("spiderette:suits=2"))
    game = Game.from_deck("spiderette:suits=2", deck)
    for deal in range(3):
        lengths = [len(c) for c in game.state.columns]
        game.play("d")
        assert [len(c) for c in game.state.columns] == [n + 1 for n in lengths]
        assert [c[-1] for c in game.state.columns] == deck[28 + 7 * deal: 35 + 7 * deal]
    assert len(game.state.stock) == 3
    lengths = [len(c) for c in game.state.columns]
    game.play("d")
    assert [len(c) for c in game.state.columns] == [n + (i < 3) for i, n in enumerate(lengths)]
    assert [c[-1] for c in game.state.columns[:3]] == deck[49:52]
    assert game.state.stock == () and "d" not in legal(game)
    assert_refused(game, "d", "stock is empty")


def test_spiderette_deal_refused_while_a_column_is_empty_strict() -> None:
    game = sgame("spiderette", cols=("5H", "6S", "7D", "8C", "9H", "TS"), stock="2D 3D")
    assert "d" not in legal(game)
    assert_refused(game, "d", "empty")
    free = sgame("spiderette:strict=false", cols=("5H", "6S", "7D", "8C", "9H", "TS"),
                 stock="AD 2D 3D 4D 5D 6D 8D")
    free.play("d")
    assert free.state.columns[6] == cards("AD") and free.state.columns[0] == cards("5H 8D")


def test_spiderette_run_moves_as_spider() -> None:
    game = sgame("spiderette", cols=("9S 8H 7S", "TD", "8D", "", "KH"))
    assert between(game, "1", "2") == [] and between(game, "1", "3") == ["1>3"]
    assert between(game, "5", "4") == ["5>4"] and "5>2" not in legal(game)


def test_spiderette_scores_10_per_run_and_nothing_per_move() -> None:
    game = sgame("spiderette", cols=(SPADE_RUN.removesuffix(" AS"), "AS", "3H", "5D 4C"),
                 runs=False, score=0)
    game.play("3>4")
    assert game.score == 0 and game.state.columns[3] == cards("5D 4C 3H")
    game.play("2>1")
    assert game.score == 10 and game.state.foundations == (cards(SPADE_RUN),)
    game.undo()
    assert game.score == 0


def test_spiderette_won_when_4_runs_removed() -> None:
    game = sgame("spiderette", cols=(SPADE_RUN.removesuffix(" AS"), "AS"), score=30)
    assert len(game.state.foundations) == 3 and game.outcome == "playing"
    game.play("2>1")
    assert game.outcome == "won" and game.score == 40


def test_spiderette_lost_when_stock_empty_and_no_legal_move() -> None:
    game = sgame("spiderette:suits=1", cols=("AS 2S KS", "3S 4S JS", "6S 8S 9S", "TS 7S",
                                              "QS 5S", "AS 2S 3S 4S 5S 6S KS",
                                              "7S 8S 9S TS QS JS"), down=(2, 2, 2, 1, 1, 6, 5))
    assert game.state.stock == ()  # the other 26 spades count as two removed runs
    assert game.legal_moves() == [] and game.outcome == "lost"


@pytest.mark.parametrize("variant", ["spider:suits=1", "spider:suits=2", "spider",
                                     "spiderette", "spider:strict=false",
                                     "spider:foundations=cards"])
def test_legal_move_answers_as_the_list_of_legal_moves(variant: str) -> None:
    """``legal_move`` (one move checked alone, column moves decided without listing every
    move) agrees with ``legal_moves`` on every move the notation can name in positions of
    random games: each listed move is found with its canonical text, and no other is."""
    import random

    from kabale.core.state import Move

    rng = random.Random(variant)
    for seed in range(3):
        game = Game.new(variant, seed=seed)
        rules = game.rules
        n = rules.n_columns
        places = [str(i) for i in range(0, n + 2)] + ["f", "f1", "d", ""]
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
            moves = game.legal_moves()
            if not moves or game.outcome != "playing":
                break
            game.play(rng.choice(moves))
