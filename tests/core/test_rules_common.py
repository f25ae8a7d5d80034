"""Rules common to every game (RULES.md §4 and the top of the rule book) and the contract of
DESIGN.md §2-§3b: automatic flips, undo/redo, refusals that change nothing, the notation and
its canonical form, variant ids, deal ids and seeds, and saves that refuse to half-load."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from kabale import (
    Card,
    Game,
    IllegalMoveError,
    InvalidDealError,
    InvalidSaveError,
    KabaleError,
    Move,
    NotationError,
    State,
    parse_variant,
)
from kabale.core.deal import MAX_SEED, fresh_deck

FAMILY_SEEDS = [("klondike", 1), ("klondike-3", 2), ("double-klondike", 3), ("spider", 4),
                ("spider-2", 5), ("spider-1", 6), ("spiderette", 7), ("vegas", 8),
                ("thoughtful", 9), ("spiderette-2", 10)]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def rest_of(variant: str, placed: str) -> list[Card]:
    """The variant's cards less the ``placed`` ones, in fresh-deck order."""
    left = Counter(fresh_deck(parse_variant(variant))) - Counter(cards(placed))
    rest: list[Card] = []
    for card in fresh_deck(parse_variant(variant)):
        if left[card] > 0:
            left[card] -= 1
            rest.append(card)
    return rest


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a refused request must leave as it was."""
    return (game.state, game.observe(), game.history, game.redo_moves, game.score,
            game.moves_made, game.outcome, [str(m) for m in game.legal_moves()])


# --------------------------------------------------------------------------- automatic flip
def test_automatic_flip_klondike() -> None:
    rest = rest_of("klondike", "2C 9S TD")
    state = State(columns=(cards("2C 9S"), cards("TD"), (), (), (), (), ()),
                  down=(1, 0, 0, 0, 0, 0, 0), stock=tuple(rest), waste=(),
                  foundations=((),) * 4)
    game = Game.from_position("klondike", state)
    assert game.observe()["columns"][0] == ["??", "9S"]
    game.play("1>2")
    assert game.state.down[0] == 0 and game.observe()["columns"][0] == ["2C"]
    game.undo()
    assert game.state.down[0] == 1 and game.observe()["columns"][0] == ["??", "9S"]


def test_automatic_flip_spider_every_family() -> None:
    for variant in ("spider", "spiderette"):
        game = Game.new(variant, 12)
        for move in list(game.legal_moves()):
            if move.is_stock:
                continue
            source = int(move.source) - 1
            pile, down = game.state.columns[source], game.state.down[source]
            game.play(move)
            if len(pile) - move.count == down and down:
                assert game.state.down[source] == down - 1
                assert game.observe()["columns"][source][-1] != "??"
            game.undo()
        assert game.state == game.initial_state


# --------------------------------------------------------------------------- undo / redo
@pytest.mark.parametrize(("variant", "seed"), FAMILY_SEEDS)
def test_undo_and_redo_replay_whole_moves(variant: str, seed: int) -> None:
    game = Game.new(variant, seed)
    start = game.observe()
    states = [game.state]
    for step in range(30):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[(step * 7) % len(moves)])
        states.append(game.state)
    played = game.history
    for state in reversed(states[:-1]):
        game.undo()
        assert game.state == state
    assert game.observe() == start and not game.can_undo and game.can_redo
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()
    for state in states[1:]:
        game.redo()
        assert game.state == state
    assert game.history == played and not game.can_redo
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        game.redo()


def test_undo_reverses_klondike_pass_count_and_score() -> None:
    game = Game.new("klondike:passes=3,draw=3", 14)
    while game.state.stock:
        game.play("d")
    before = game.state
    game.play("d")
    assert game.state.passes_used == 1 and game.passes_left == 1
    game.undo()
    assert game.state == before and game.passes_left == 2


def test_a_new_move_after_undo_clears_redo() -> None:
    game = Game.new("klondike", 1)
    first, second = game.legal_moves()[:2]
    game.play(first)
    game.undo()
    assert game.can_redo
    game.play(second)
    assert not game.can_redo and game.history == [second]


def test_copy_is_an_independent_game_with_the_same_history() -> None:
    game = Game.new("spider", 2)
    game.play(game.legal_moves()[0])
    twin = game.copy()
    assert twin.state == game.state and twin.history == game.history
    twin.play(twin.legal_moves()[-1])
    twin.undo()
    twin.undo()
    assert game.moves_made == 1 and twin.moves_made == 0 and game.can_undo


# --------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(("variant", "seed"), FAMILY_SEEDS)
def test_illegal_move_raises_with_a_reason_and_changes_nothing(variant: str, seed: int) -> None:
    game = Game.new(variant, seed)
    n = len(game.state.columns)
    legal = {(m.source, m.target) for m in game.legal_moves()}
    illegal = [f"{a}>{b}" for a in range(1, n + 1) for b in range(1, n + 1)
               if a != b and (str(a), str(b)) not in legal]
    illegal += [f"{n + 1}>1", f"1>{n + 1}", "1:9>2"]
    if game.variant.family == "klondike":
        illegal += ["w>1", "w>f", "f1>1"]  # waste and foundations are empty at the start
    else:
        illegal += ["w>1", "1>f"]
    assert len(illegal) > 10
    before = snapshot(game)
    for text in illegal:
        with pytest.raises(IllegalMoveError) as info:
            game.play(text)
        reason = str(info.value)
        assert reason.startswith("illegal move") and len(reason) > len("illegal move 'x>y': ")
        assert "\n" not in reason
        assert snapshot(game) == before


MALFORMED = ["", " ", "x", "3", "3>", ">7", "3>>7", "3->7", "0>1", "1>0", "3:0>7", "3:>7",
             "w:2>3", "3:2>f", "f1>f2", "3>3", "dd", "d 1", "3>7>1", "-1>2", "f>1", "3>w",
             "TH", "3:-1>7"]


@pytest.mark.parametrize("variant", ["klondike", "spider", "spiderette", "double-klondike"])
def test_malformed_move_raises_notation_error_and_changes_nothing(variant: str) -> None:
    game = Game.new(variant, 3)
    game.play(game.legal_moves()[0])
    before = snapshot(game)
    for text in MALFORMED:
        with pytest.raises(NotationError) as info:
            game.play(text)
        assert repr(text) in str(info.value), text
        assert snapshot(game) == before


@pytest.mark.parametrize("variant", ["klondike", "spider"])
def test_hand_made_nonsense_move_is_refused_not_crashed(variant: str) -> None:
    game = Game.new(variant, 3)
    before = snapshot(game)
    for move in (Move("1", "2", 0), Move("1", "2", -1), Move("1", "2", 99), Move("99", "1"),
                 Move("1", "99"), Move("x", "1"), Move("1", "f", 3)):
        with pytest.raises(KabaleError):
            game.play(move)
        assert snapshot(game) == before


# --------------------------------------------------------------------------- notation
def test_card_10_accepted_t_printed() -> None:
    assert Card.parse("10H") == Card.parse("TH") == Card.parse(" th ")
    assert str(Card.parse("10h")) == "TH"
    for bad in ("1H", "11S", "TX", "", "T", "AHH"):
        with pytest.raises(NotationError):
            Card.parse(bad)


def test_canonical_count_only_onto_an_empty_column_with_several_legal_counts() -> None:
    rest = rest_of("spider", "9S 8S 7S 9S TH")
    state = State(columns=(cards("9S 8S 7S"), (), cards("9S"), cards("TH"), *[()] * 6),
                  down=(0,) * 10, stock=tuple(rest), waste=(), foundations=())
    game = Game.from_position("spider", state)
    texts = {(m.source, m.target, m.count): str(m) for m in game.legal_moves()}
    assert texts[("1", "2", 3)] == "1:3>2" and texts[("1", "2", 1)] == "1:1>2"
    assert texts[("1", "4", 3)] == "1>4"  # onto a card: one count only
    assert texts[("3", "2", 1)] == "3>2"  # onto an empty column, one count only
    for move in game.legal_moves():
        assert game.parse_move(str(move)) == move
        assert game.parse_move(move.explicit()) == move


def test_unwritten_count_takes_the_longest_legal_run() -> None:
    rest = rest_of("klondike", "9C 8D 7S")
    state = State(columns=(cards("9C 8D 7S"), *[()] * 6), down=(0,) * 7, stock=tuple(rest),
                  waste=(), foundations=((),) * 4)
    game = Game.from_position("klondike:empty=any", state)
    assert game.parse_move("1>2").count == 3
    assert str(game.play("1>2")) == "1:3>2"
    assert game.state.columns[1] == cards("9C 8D 7S")


def test_notation_ignores_case_and_spaces() -> None:
    game = Game.new("klondike", 1)
    move = game.legal_moves()[0]
    assert game.parse_move(f"  {str(move).upper().replace('>', ' > ')} ") == move
    assert game.parse_move(" D ") == Move("d")


# --------------------------------------------------------------------------- variants
def test_variant_ids_aliases_and_canonical_strings() -> None:
    canonical = {
        "klondike": "klondike", "klondike-3": "klondike:draw=3",
        "easy-klondike": "klondike:empty=any", "thoughtful": "klondike:open=true",
        "vegas": "klondike:draw=3,passes=3,scoring=vegas", "double-klondike": "klondike:decks=2",
        "spider-1": "spider:suits=1", "spider-2": "spider:suits=2", "spider-4": "spider",
        "spiderette-1": "spiderette:suits=1", "spiderette-2": "spiderette:suits=2",
        "KLONDIKE:scoring=none,draw=3": "klondike:draw=3,scoring=none",
        "spider:strict=false": "spider:strict=false", "klondike:draw=1": "klondike",
    }
    for text, want in canonical.items():
        assert str(parse_variant(text)) == want
        assert str(Game.new(text, 1).variant) == want
    variant = parse_variant("klondike:draw=3,back=false,passes=1")
    assert (variant["draw"], variant["back"], variant["passes"]) == (3, False, 1)
    assert parse_variant("vegas") == parse_variant("klondike:scoring=vegas,passes=3,draw=3")


@pytest.mark.parametrize(("text", "named"), [
    ("nonsense", ["klondike", "spider", "spiderette", "vegas"]),
    ("", ["klondike"]),
    ("klondike:foo=1", ["foo", "draw", "passes", "empty", "open", "back", "decks", "scoring"]),
    ("klondike:draw=2", ["draw", "1|3"]),
    ("klondike:passes=2", ["0|1|3"]),
    ("klondike:scoring=windows", ["standard|vegas|none"]),
    ("spider:suits=3", ["4|2|1"]),
    ("spiderette:strict=maybe", ["true|false"]),
    ("spider:draw=3", ["suits", "strict"]),
    ("klondike:draw", ["key=value"]),
])
def test_unknown_variant_option_or_value_names_the_valid_ones(text: str,
                                                              named: list[str]) -> None:
    with pytest.raises(NotationError) as info:
        Game.new(text, 1)
    message = str(info.value)
    for word in named:
        assert word in message, message
    assert "\n" not in message


# --------------------------------------------------------------------------- deals
@pytest.mark.parametrize(("variant", "seed"), FAMILY_SEEDS)
def test_deals_are_reproducible_from_the_deal_id(variant: str, seed: int) -> None:
    game = Game.new(variant, seed)
    assert game.deal_id == f"{game.variant}#{seed}" and game.seed == seed
    again = Game.from_deal_id(game.deal_id)
    assert again.state == game.state and again.deal_id == game.deal_id
    assert Game.new(variant, seed + 1).state != game.state


def test_a_game_without_a_seed_records_the_one_it_picked() -> None:
    game = Game.new("spider-2")
    assert isinstance(game.seed, int) and game.deal_id == f"spider:suits=2#{game.seed}"
    assert Game.from_deal_id(game.deal_id).state == game.state


def test_a_deal_from_a_deck_has_a_deal_id_that_deals_it_again() -> None:
    deck = list(reversed(fresh_deck(parse_variant("spiderette"))))
    game = Game.from_deck("spiderette", deck)
    assert Game.from_deal_id(game.deal_id).state == game.state


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 1.5, "1", True])
def test_bad_seed_raises_invalid_deal_error(seed: object) -> None:
    with pytest.raises(InvalidDealError):
        Game.new("klondike", seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("deal_id", ["klondike", "klondike#", "klondike#x", "klondike#-3",
                                     "klondike#1.5", "klondike#=TH", "klondike#=ZZ",
                                     "klondike#=" + "AS" * 52, "spider#" + str(MAX_SEED + 1)])
def test_bad_deal_id_raises_invalid_deal_error(deal_id: str) -> None:
    with pytest.raises(InvalidDealError):
        Game.from_deal_id(deal_id)


def test_bad_deck_and_bad_position_raise_invalid_deal_error() -> None:
    deck = fresh_deck(parse_variant("klondike"))
    with pytest.raises(InvalidDealError):
        Game.from_deck("klondike", deck[:-1])
    with pytest.raises(InvalidDealError):
        Game.from_deck("spider", deck)
    good = Game.new("klondike", 1).state
    for bad in (State(good.columns[:-1], good.down[:-1], good.stock, good.waste,
                      good.foundations),
                State(good.columns, (0, 1, 2, 3, 4, 5, 7), good.stock, good.waste,
                      good.foundations),
                State(good.columns, good.down, good.stock[1:], good.waste, good.foundations),
                State(good.columns, good.down, good.stock[1:], good.waste,
                      (good.stock[:1], (), (), ()))):
        with pytest.raises(InvalidDealError):
            Game.from_position("klondike", bad)


# --------------------------------------------------------------------------- saves
def _played(variant: str, seed: int, moves: int = 12) -> Game:
    game = Game.new(variant, seed)
    for step in range(moves):
        legal = game.legal_moves()
        game.play(legal[(step * 5) % len(legal)])
    game.undo()
    game.undo()
    return game


@pytest.mark.parametrize(("variant", "seed"), FAMILY_SEEDS[:7])
def test_save_round_trip_keeps_history_and_redo(variant: str, seed: int) -> None:
    game = _played(variant, seed)
    loaded = Game.from_json(game.to_json())
    assert loaded.state == game.state and loaded.history == game.history
    assert loaded.redo_moves == game.redo_moves and loaded.deal_id == game.deal_id
    assert loaded.observe() == game.observe() and loaded.to_json() == game.to_json()


def test_save_of_a_constructed_position_round_trips() -> None:
    good = Game.new("spider", 4).state
    game = Game.from_position("spider", good)
    game.play(game.legal_moves()[0])
    assert Game.from_json(game.to_json()).state == game.state


def _tampered(edit: str) -> str:
    data = json.loads(_played("klondike", 1).to_json())
    if edit == "move":
        index = len(data["moves"]) // 2
        data["moves"][index] = "d" if data["moves"][index] != "d" else "1>2"
    elif edit == "drop_move":
        data["moves"].pop()
    elif edit == "score":
        data["check"]["score"] += 5
    elif edit == "digest":
        data["check"]["digest"] = "0" * 32
    elif edit == "outcome":
        data["check"]["outcome"] = "won"
    elif edit == "variant":
        data["variant"] = "klondike:draw=3"
    elif edit == "deal":
        data["deal_id"] = "klondike#2"
    elif edit == "redo":
        data["redo"] = ["9>1"]
    elif edit == "version":
        data["version"] = 99
    elif edit == "format":
        data["format"] = "chess"
    elif edit == "no_check":
        del data["check"]
    elif edit == "bad_moves":
        data["moves"] = "d"
    return json.dumps(data)


@pytest.mark.parametrize("edit", ["move", "drop_move", "score", "digest", "outcome", "variant",
                                  "deal", "redo", "version", "format", "no_check",
                                  "bad_moves"])
def test_tampered_or_inconsistent_save_is_refused(edit: str) -> None:
    with pytest.raises(InvalidSaveError):
        Game.from_json(_tampered(edit))


def test_truncated_or_garbage_save_is_refused() -> None:
    text = _played("spider", 4).to_json()
    for bad in (text[: len(text) // 2], text[:-1], "", "[]", "null", "{}", "not json"):
        with pytest.raises(InvalidSaveError):
            Game.from_json(bad)


# --------------------------------------------------------------------------- observation
@pytest.mark.parametrize(("variant", "seed"), FAMILY_SEEDS)
def test_observation_schema_and_hidden_cards(variant: str, seed: int) -> None:
    game = Game.new(variant, seed)
    game.play(game.legal_moves()[-1])
    obs = game.observe()
    assert set(obs) == {"variant", "deal_id", "deal_hash", "columns", "down", "stock",
                        "stock_cards", "waste", "foundations", "passes_left", "legal",
                        "outcome", "score", "moves_made", "rules"}
    assert obs["rules"]["version"] == 1 and obs["rules"]["family"] == game.variant.family
    assert json.loads(json.dumps(obs)) == obs
    assert obs["legal"] == [str(m) for m in game.legal_moves()]
    assert obs["moves_made"] == 1 and obs["stock"] == len(game.state.stock)
    shown = game.variant.family == "klondike" and game.variant["open"]
    for column, pile, down in zip(obs["columns"], game.state.columns, game.state.down,
                                  strict=True):
        assert len(column) == len(pile)
        want = [str(c) for c in pile] if shown else ["??"] * down + [str(c) for c in pile[down:]]
        assert column == want
    assert (obs["stock_cards"] is None) != bool(shown)
