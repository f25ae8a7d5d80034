"""Hint latency at an effort over positions from real games: p50 and p90 per family.

    python bench/hint_latency.py [--effort normal] [--games 6] [--step 15] [VARIANT ...]

The positions come from the bot's own games (bench/advice_positions.py). Each hint is timed
in this process (wall time and CPU time), cold: no answer is reused between positions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from advice_positions import positions
from kabale.advisor import hint

FAMILIES = ["klondike", "klondike:draw=3", "spiderette", "spider:suits=2"]


def quantile(values: list[float], q: float) -> float:
    """The q-quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=FAMILIES)
    parser.add_argument("--effort", default="normal")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--step", type=int, default=15)
    args = parser.parse_args()
    for variant in args.variants:
        games = positions(variant, list(range(1, args.games + 1)), args.step)
        walls, cpus = [], []
        for game in games:
            wall, cpu = time.perf_counter(), time.process_time()
            hint(game, effort=args.effort, seed=0)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(f"{variant:24} {len(games):4} positions  wall p50 {quantile(walls, 0.5):.3f} s"
              f"  p90 {quantile(walls, 0.9):.3f} s  max {max(walls):.3f} s   CPU p50 "
              f"{quantile(cpus, 0.5):.3f} s  p90 {quantile(cpus, 0.9):.3f} s  mean "
              f"{statistics.mean(cpus):.3f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
