"""talon_key: two Klondike talons (unlimited passes) have the same key exactly when presses
alone lead each to the other's reach, so plans that differ only there are one plan."""

from __future__ import annotations

import random

import pytest

from kabale import Game
from kabale.advisor.knowledge import talon_key
from kabale.core import State


def press_reach(game: Game, state: State) -> frozenset:
    """Every (stock, waste) that presses alone lead ``state`` to (itself included)."""
    seen: set = set()
    while state is not None and (state.stock, state.waste) not in seen:
        seen.add((state.stock, state.waste))
        state = game.rules.stock_actions(state, 1)
    return frozenset(seen)


def talons(variant: str, seed: int) -> list[State]:
    """Positions of a random game with many talons: after every few random moves, every
    position presses lead to."""
    game = Game.new(variant, seed)
    rng = random.Random(seed)
    out = []
    for _ in range(60):
        state = game.state
        for _ in range(len(state.stock) + len(state.waste) + 1):
            out.append(state)
            if not game.rules.stock_action_possible(state):
                break
            state = game.rules.stock_actions(state, 1)
        legal = game.legal_moves()
        if not legal:
            break
        plays = [m for m in legal if not m.is_stock]
        game.play(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal))
    return out


@pytest.mark.parametrize("variant", ["klondike", "klondike:draw=3", "klondike:draw=3,decks=2"])
@pytest.mark.parametrize("seed", [1, 5, 9])
def test_same_key_exactly_when_presses_reach_the_same(variant: str, seed: int) -> None:
    game = Game.new(variant, seed)
    states = [s for s in talons(variant, seed) if s.stock or s.waste]
    by_cards: dict = {}
    for state in states:  # compare talons over the same cards only (a play changes both)
        by_cards.setdefault(state.waste + state.stock[::-1], []).append(state)
    merged = split = 0
    for group in by_cards.values():
        group = list({(s.stock, s.waste): s for s in group}.values())
        reach = [press_reach(game, s) for s in group]
        keys = [talon_key(s, game.rules.draw) for s in group]
        for i, a in enumerate(group):
            for j, b in enumerate(group):
                same_key = keys[i] == keys[j]
                same_reach = reach[i] == reach[j]
                assert same_key == same_reach, (a.stock, a.waste, b.stock, b.waste)
                merged += same_key and i != j
                split += not same_key
    assert merged  # talons told apart by presses alone were keyed alike
    # at draw 1 a press reaches every point; at draw 3 a point after a play may reach more
    assert split if game.rules.draw > 1 else not split
