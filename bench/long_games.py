"""What a move costs the server as a game grows: each answered move rewrites the game's row
(its save text) in SQLite, so the cost grows with the game's length, up to the cap of
``MAX_MOVES`` moves a game holds. Prints, for games of N moves, the time of one play + save
(ms) and the size of the save; also the time to load such a game back (a replay of every
move). Usage: ``python bench/long_games.py [--repeat R]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from kabale import Game
from kabale.core.persist import MAX_MOVES
from kabale.storage.db import GameStore


def long_game(moves: int) -> Game:
    """Klondike deal 1 (unlimited passes) with ``moves`` draws: 'd' is always legal there."""
    game = Game.new("klondike", 1)
    for _ in range(moves):
        game.play("d")
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="moves timed per length")
    args = parser.parse_args()
    print(f"{'moves':>7} {'play+save ms':>13} {'save KiB':>9} {'load ms':>8}")
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(Path(folder) / "bench.db")
        for length in (100, 1000, 3000, MAX_MOVES - args.repeat):
            game = long_game(length)
            store.add(f"g{length}", game)
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                game.play("d")
                store.save(f"g{length}", game, "playing", 0.0)
                times.append(time.perf_counter() - start)
            start = time.perf_counter()
            store.load(f"g{length}")
            load = time.perf_counter() - start
            size = len(game.to_json()) / 1024
            print(f"{game.moves_made:>7} {1000 * statistics.median(times):>13.2f} {size:>9.1f}"
                  f" {1000 * load:>8.1f}")
        store.close()


if __name__ == "__main__":
    main()
