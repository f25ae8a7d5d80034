"""Golden perft-like counts (tests/data/perft.json, written by tests/data/make_perft.py).

The count of legal move sequences of depth 1..4 from fixed deals pins down move generation,
play and undo together: any change in what is legal, in how a move changes the table, or in
what undo restores changes some number. Depth 1 and 2 of four deals were checked by hand from
the printed deals (the lists below); the rest is recounted here two ways: through the Game
API and through the rules object on bare states.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kabale import Game, State
from kabale.core.deal import DEAL_FORMAT

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "perft.json").read_text())
DEALS = [(deal["deal_id"], deal["counts"]) for deal in GOLDEN["deals"]]


def perft_game(game: Game, depth: int) -> int:
    """Sequences of ``depth`` moves, counted with legal_moves/play/undo."""
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves():
        game.play(move)
        total += perft_game(game, depth - 1)
        game.undo()
    return total


def perft_rules(game: Game, state: State, depth: int) -> int:
    """The same count on bare states with the rules object (no Game bookkeeping)."""
    moves = game.rules.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft_rules(game, game.rules.apply(state, move), depth - 1) for move in moves)


def test_golden_file_matches_the_deal_format_and_covers_every_family() -> None:
    assert GOLDEN["deal_format"] == DEAL_FORMAT
    ids = {deal_id for deal_id, _ in DEALS}
    for wanted in ("klondike#1", "klondike:draw=3#2", "klondike:decks=2#3", "spider:suits=1#4",
                   "spider:suits=2#5", "spider#6", "spiderette#7",
                   "spiderette:foundations=cards#7", "spider:foundations=cards,suits=2#3"):
        assert wanted in ids
    assert all(len(counts) == len(GOLDEN["depths"]) >= 3 for _, counts in DEALS)


@pytest.mark.parametrize(("deal_id", "counts"), DEALS)
def test_perft_counts_through_the_game_api(deal_id: str, counts: list[int]) -> None:
    game = Game.from_deal_id(deal_id)
    start = game.observe()
    assert [perft_game(game, depth) for depth in GOLDEN["depths"]] == counts
    assert game.observe() == start and game.moves_made == 0


@pytest.mark.parametrize(("deal_id", "counts"), DEALS)
def test_perft_counts_through_the_rules_on_states(deal_id: str, counts: list[int]) -> None:
    game = Game.from_deal_id(deal_id)
    assert perft_rules(game, game.state, 3) == counts[2]


# Hand-checked from `kabale deal VARIANT --seed N` (each list: tops of the columns, then the
# moves they allow, in the family's fixed order).
HAND_DEPTH_1 = {
    # tops TC 2H 7C 7S 8C 8H AC: AC up; 7C and 7S on 8H; AC on 2H; draw
    "klondike#1": ["7>f", "3>6", "4>6", "7>2", "d"],
    # tops KS 7H 7S 2C QS 6D AH: AH up; 6D on 7S; AH on 2C; draw
    "klondike:draw=3#2": ["7>f", "6>3", "7>4", "d"],
    # tops 7D 4D 4S 6S AC 4D 4C 5H 2D 3C: every card on any suit one rank higher
    "spider#6": ["2>8", "3>8", "4>1", "5>9", "6>8", "7>8", "8>4", "9>10", "10>2", "10>3",
                 "10>6", "10>7", "d"],
    # tops AH JS TC 2C 8H 9S AD
    "spiderette#7": ["1>4", "3>2", "5>6", "6>3", "7>4", "d"],
    # the same deal with foundations=cards: AH and AD go up first, then the moves above
    "spiderette:foundations=cards#7": ["1>f", "7>f", "1>4", "3>2", "5>6", "6>3", "7>4", "d"],
}
# klondike#1: after 7>f 4 (3>6 4>6 f4>2 d), 3>6 3, 4>6 3, 7>2 4, d 6 (w>f: AD) = 20.
# spiderette#7: after 1>4 9 (six onto the empty column 1, 3>2 5>6 6>3; no deal), 3>2 5,
# 5>6 5, 6>3 6, 7>4 5, d 4 (7C on 8C or 8S, 6C on 7C, deal) = 34.
HAND_DEPTH_2 = {"klondike#1": 20, "spiderette#7": 34}


@pytest.mark.parametrize("deal_id", sorted(HAND_DEPTH_1))
def test_perft_depth_1_agrees_with_the_hand_count(deal_id: str) -> None:
    game = Game.from_deal_id(deal_id)
    assert [str(m) for m in game.legal_moves()] == HAND_DEPTH_1[deal_id]
    assert dict(DEALS)[deal_id][0] == len(HAND_DEPTH_1[deal_id])


@pytest.mark.parametrize("deal_id", sorted(HAND_DEPTH_2))
def test_perft_depth_2_agrees_with_the_hand_count(deal_id: str) -> None:
    assert dict(DEALS)[deal_id][1] == HAND_DEPTH_2[deal_id]
    assert perft_game(Game.from_deal_id(deal_id), 2) == HAND_DEPTH_2[deal_id]
