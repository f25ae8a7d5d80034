"""Rule 16 of the Klondike kernel: after a move that empties the only empty column, only moves
into that column follow. Checked against the brute force on near-end positions where every
column holds cards and some Kings wait in the talon, so that a column emptied by a move must
often take a King from the talon (or a foundation) before anything else helps."""

from __future__ import annotations

import random

import pytest
from brute import brute_force, wins

from kabale import Game, State, Variant, parse_variant
from kabale.core.deal import fresh_deck
from kabale.solver import solve

# slow: run by `python -m pytest -m slow` (.ci/run), not the README's pass
pytestmark = pytest.mark.slow

CASES = 300  # decided positions per variant (fewer with empty=any, whose brute force is slow)


def king_position(variant: Variant, rng: random.Random) -> State:
    """Foundations at 7-11; some of the Kings left in the talon with a few other cards, the
    rest dealt over all seven columns, one card face up on each."""
    piles, left = [], []
    deck = fresh_deck(parse_variant("klondike"))
    for suit in range(4):
        cards = sorted((c for c in deck if c.suit == suit), key=lambda c: c.rank)
        height = rng.randint(7, 11)
        piles.append(tuple(cards[:height]))
        left.extend(cards[height:])
    kings = [c for c in left if c.rank == 13]
    others = [c for c in left if c.rank != 13]
    rng.shuffle(others)
    talon = kings[:rng.randint(1, len(kings))] + others[:rng.randint(0, 3)]
    rng.shuffle(talon)
    rest = [c for c in left if c not in talon]
    rng.shuffle(rest)
    columns: list[list] = [[] for _ in range(7)]
    for i, card in enumerate(rest):
        columns[i if i < 7 else rng.randrange(7)].append(card)
    waste = rng.randint(0, len(talon))
    return State(tuple(map(tuple, columns)), tuple(max(len(c) - 1, 0) for c in columns),
                 tuple(talon[waste:]), tuple(talon[:waste]), tuple(piles))


@pytest.mark.parametrize(("name", "cases"), [
    ("klondike:passes=1", CASES), ("klondike:draw=3,passes=1", CASES),
    ("klondike:draw=3,passes=3", CASES), ("klondike:draw=3", CASES),
    ("klondike:empty=any,passes=1", CASES // 5)])
def test_emptied_column_verdicts_match_brute_force(name: str, cases: int) -> None:
    """The solver's verdict is the brute force's. (Leaving out the fills from the talon and
    the foundations, keeping only column moves into the emptied column, fails here: a
    draw-3 one-pass position is then called lost.)"""
    variant = parse_variant(name)
    rng = random.Random(name)
    checked = 0
    while checked < cases:
        state = king_position(variant, rng)
        if not all(state.columns):
            continue  # rule 16 needs the emptied column to be the only empty one
        game = Game.from_position(variant, state)
        truth = brute_force(game)
        if truth is None:
            continue
        checked += 1
        result = solve(game, max_seconds=None)
        assert result.status == ("solved" if truth else "unsolvable"), (name, state)
        if truth:
            assert wins(game, result.moves)
