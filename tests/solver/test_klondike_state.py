"""The Klondike kernel keeps its columns' hashes, run bits, the tops' and face-down bits and
the packed foundation heights up to date move by move (a pile moved in one pass, a card laid
or taken); after every move of random walks they must equal the same computed from scratch,
or the table would key positions wrongly and the search lose or invent positions."""

from __future__ import annotations

import random

import pytest

from kabale import Game
from kabale.solver._klondike import state_audit
from kabale.solver.klondike import kernel_for

VARIANTS = ["klondike", "klondike:draw=3", "klondike:draw=3,passes=1", "klondike:empty=any",
            "klondike:back=false", "klondike:decks=2", "klondike:decks=2,draw=3,empty=any"]


def starts(name: str, deals: int) -> list[Game]:
    """Each deal, and the same deal after random legal moves (foundation moves first half
    the time, so that foundations get built and cards come back from them)."""
    rng = random.Random(name)
    out = []
    for seed in range(1, deals + 1):
        game = Game.new(name, seed)
        out.append(game.copy())
        for _ in range(rng.randrange(10, 60)):
            legal = game.legal_moves()
            if not legal or game.outcome != "playing":
                break
            up = [m for m in legal if str(m).endswith(">f")]
            game.play(rng.choice(up if up and rng.random() < 0.5 else legal))
        out.append(game)
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_state_kept_move_by_move_equals_state_from_scratch(name: str) -> None:
    walked = 0
    for i, game in enumerate(starts(name, 40)):
        kernel = kernel_for(game, 16)
        moves, mismatches = state_audit(kernel, 300, i + 1)
        assert mismatches == 0, f"{name}, start {i}: {mismatches} mismatches in {moves} moves"
        walked += moves
    assert walked >= 150  # the walks made moves to check
