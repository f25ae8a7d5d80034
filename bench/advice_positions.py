"""Positions from real games for the advisor's benchmarks: deals played by the bot at effort
"quick", every ``step``-th position of each game (the finished ones left out)."""

from __future__ import annotations

from kabale import Game
from kabale.advisor import Bot, autoplay
from kabale.advisor.postmortem import prefix


def positions(variant: str, seeds: list[int], step: int) -> list[Game]:
    """Every ``step``-th position (from the deal) of the bot's games of ``seeds`` that is
    still being played, as games with their history."""
    out = []
    for seed in seeds:
        game = autoplay(variant, seed, Bot("quick", seed=seed))
        for moves in range(0, game.moves_made + 1, step):
            position = prefix(game, moves)
            if position.outcome == "playing":
                out.append(position)
    return out
