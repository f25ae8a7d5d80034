"""The Klondike kernel's folded moves: a move left out because a sibling reaches the same
position (a pile laid onto the twin of a top it was already laid onto, rule 12; a talon card
played to a column from where it would go straight up, the position of its foundation
move) must lead to a position with the key of a kept move, or the search would lose it."""

from __future__ import annotations

import random

import pytest
from test_verdicts import klondike_position

from kabale import Game, parse_variant
from kabale.solver import klondike
from kabale.solver._klondike import fold_audit

VARIANTS = ["klondike", "klondike:draw=3", "klondike:draw=3,passes=3", "klondike:empty=any",
            "klondike:back=false"]


def positions(name: str, deals: int, moves: int) -> list[Game]:
    """Positions from random play (each deal played by uniformly random legal moves, the
    foundation moves taken first half the time, so that foundations get built), and
    near-end positions with random face-up cards (not always one run) and foundations high
    enough for cards to be safe to go up."""
    rng = random.Random(name)
    out = []
    for seed in range(1, deals + 1):
        game = Game.new(name, seed)
        for _ in range(moves):
            legal = game.legal_moves()
            if not legal or game.outcome != "playing":
                break
            up = [m for m in legal if str(m).endswith(">f")]
            game.play(rng.choice(up if up and rng.random() < 0.5 else legal))
            out.append(game.copy())
    variant = parse_variant(name)
    out.extend(Game.from_position(variant, klondike_position(variant, rng)) for _ in range(400))
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_folded_moves_reach_a_kept_position(name: str) -> None:
    audited = folded = 0
    for game in positions(name, 12, 80):
        for move, matched in fold_audit(klondike.kernel_for(game, 8)):
            assert matched, (name, game.state, move)
            folded += 1
        audited += 1
    # the audit must see folds, or it proves nothing
    assert audited > 500 and folded > 20, (audited, folded)
