"""What rule 6 (Spiderette's dead ends) saves the exhaustive search (never part of the tests).

    python bench/dead_ends.py --seeds 2,49,72,160,219,313,893 [--repeat 3]

For each lost deal, the exhaustive depth-first search (SpiderKernel, no beam) runs to the end
twice in this process, with the rule and without it (``dead_ends`` switched off); it prints
the positions visited and the best time of each, and their ratios. The verdict must be the
same both ways; a deal that is not decided within --max-seconds either way is reported as such.
"""

from __future__ import annotations

import argparse
import math
import time

from kabale import Game
from kabale.solver._spider import SpiderKernel
from kabale.solver.spider import kernel_args
from solve import parse_seeds


def run(seed: int, rule: bool, max_seconds: float, repeat: int) -> tuple[int, int, float]:
    """(status, positions, best seconds) of the exhaustive search of Spiderette deal seed."""
    best = math.inf
    status = nodes = 0
    for _ in range(repeat):
        kernel = SpiderKernel(*kernel_args(Game.new("spiderette", seed)), 256)
        kernel.dead_ends = kernel.dead_ends and rule
        start = time.perf_counter()
        status, _ = kernel.run(0, max_seconds)
        best = min(best, time.perf_counter() - start)
        nodes = kernel.nodes
    return status, nodes, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="2,49,72,160,219,313,893")
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    names = {0: "unsolvable", 1: "solved", -1: "unknown", -2: "memory"}
    ratios = []
    print(f"{'deal':>6} {'verdict':>10} {'positions without':>18} {'with':>10} "
          f"{'s without':>10} {'s with':>8} {'time ratio':>10}")
    for seed in parse_seeds(args.seeds):
        off = run(seed, False, args.max_seconds, args.repeat)
        on = run(seed, True, args.max_seconds, args.repeat)
        if off[0] == -1 or on[0] == -1:
            print(f"{seed:>6} undecided within {args.max_seconds} s (without: "
                  f"{names[off[0]]}, with: {names[on[0]]})")
            continue
        if off[0] != on[0]:
            raise SystemExit(f"deal {seed}: {names[off[0]]} without the rule, "
                             f"{names[on[0]]} with it")
        ratios.append(off[2] / on[2])
        print(f"{seed:>6} {names[on[0]]:>10} {off[1]:>18,} {on[1]:>10,} "
              f"{off[2]:>10.3f} {on[2]:>8.3f} {off[2] / on[2]:>10.2f}")
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"time ratio without / with, geometric mean over {len(ratios)} deals: {geo:.2f}")


if __name__ == "__main__":
    main()
