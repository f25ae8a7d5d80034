"""What ``kabale.solve`` costs on easy Klondike positions: the fixed cost of a solve.

    python bench/fixed_cost.py                         # draw 1, deals 1-40
    PYTHONPATH=/tmp/base/src python bench/fixed_cost.py  # the same with another build

For each of the deals that ``solve`` wins, two positions: the deal itself, and the position
ten moves before the end of its winning line (a position every card of which is known and
that is nearly won: what a hint or the advisor's exact solve meets late in a game). Each is
solved REPEAT times in a row in this process; the best of three rounds' CPU time per solve is
printed, median and mean over the positions, with the positions searched (all of the solve is
counted: threads, tables, the search, the line spelled out and replayed through core).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from kabale import Game, solve


def cost(game: Game, repeat: int) -> float:
    """The best of three rounds' CPU seconds per solve of ``game``."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(repeat):
            solve(game, max_seconds=10)
        best = min(best, (time.process_time() - start) / repeat)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="klondike:open=true")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    deals: list[tuple[float, int]] = []
    ends: list[tuple[float, int]] = []
    for seed in range(1, args.deals + 1):
        game = Game.new(args.variant, seed)
        result = solve(game, max_seconds=10)
        if result.status != "solved" or result.nodes > 2000:
            continue  # not an easy position
        deals.append((cost(game, args.repeat), result.nodes))
        for move in result.moves[:-10]:
            game.play(move)
        ends.append((cost(game, args.repeat), solve(game).nodes))
    for name, rows in (("deal", deals), ("10 moves from a win", ends)):
        times = [1e6 * t for t, _ in rows]
        print(f"{args.variant} {name:20s} {len(rows):3d} positions: CPU per solve median "
              f"{statistics.median(times):8.1f} us  mean {statistics.fmean(times):8.1f} us  "
              f"positions searched median {statistics.median(n for _, n in rows):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
