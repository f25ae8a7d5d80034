"""Random-playout speed of the rules core: moves per second for each family.

Each playout deals a seed, then plays uniformly random legal moves through the checked path
(``Game.legal_moves`` + ``Game.play``) until the game ends or ``--max-moves`` is reached.
A second figure times the raw rules (``rules.legal_moves`` + ``rules.apply`` on states) to
show what the checked path costs. Usage: ``python bench/playouts.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from kabale import Game

VARIANTS = ["klondike", "klondike:draw=3", "double-klondike", "spider:suits=4", "spider:suits=1",
            "spiderette"]


def checked_playouts(variant: str, seconds: float, max_moves: int) -> tuple[int, float]:
    """Moves played through Game.play in about ``seconds``; returns (moves, elapsed)."""

    def playout(game: Game, rng: random.Random) -> int:
        for played in range(max_moves):
            legal = game.legal_moves()
            if not legal:
                return played
            game.play(rng.choice(legal))
        return max_moves

    return _timed(variant, seconds, playout)


def raw_playouts(variant: str, seconds: float, max_moves: int) -> tuple[int, float]:
    """Moves applied with the unchecked rules functions; returns (moves, elapsed)."""

    def playout(game: Game, rng: random.Random) -> int:
        rules, state = game.rules, game.state
        for played in range(max_moves):
            legal = rules.legal_moves(state)
            if not legal:
                return played
            state = rules.apply(state, rng.choice(legal))
        return max_moves

    return _timed(variant, seconds, playout)


def _timed(variant: str, seconds: float,
           playout: Callable[[Game, random.Random], int]) -> tuple[int, float]:
    """Run playouts of deals 1, 2, ... for about ``seconds``; returns (moves, elapsed)."""
    rng = random.Random(1)
    moves, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        moves += playout(Game.new(variant, seed), rng)
    return moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per variant and path")
    parser.add_argument("--max-moves", type=int, default=500, help="moves per playout at most")
    args = parser.parse_args()
    print(f"{'variant':18} {'Game.play moves/s':>18} {'raw rules moves/s':>18} {'ratio':>6}")
    for variant in VARIANTS:
        checked, t1 = checked_playouts(variant, args.seconds, args.max_moves)
        raw, t2 = raw_playouts(variant, args.seconds, args.max_moves)
        rate, raw_rate = checked / t1, raw / t2
        print(f"{variant:18} {rate:18,.0f} {raw_rate:18,.0f} {raw_rate / rate:6.2f}")


if __name__ == "__main__":
    main()
