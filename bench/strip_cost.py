"""What stripping a line costs beside the search (never part of the test pass/fail).

    python bench/strip_cost.py spiderette spiderette:suits=2 --seeds 1-50 --max-nodes 1000000

For each variant and deal, in one process: the search (kabale.solver.spider.run_spider, one
lane under a budget in positions, as ``kabale solve --max-nodes``), then what kabale.solve does
with a won line (cut its loops and replay it, result.shorten + result.replay) and what
``kabale solve`` and the look-back do instead (lines.strip_line, which replays too), one after
the other on the same line. Prints the seconds of each summed over the deals, and the time of
a solve with the strip against one without it: the reason kabale.solve itself does not strip
(the tables and the advisor never show their lines).
"""

from __future__ import annotations

import argparse
import sys
import time

from kabale import Game
from kabale.advisor.cli import parse_seeds
from kabale.solver.lines import strip_line
from kabale.solver.result import replay, shorten
from kabale.solver.spider import run_spider


def main(argv: list[str] | None = None) -> int:
    """Measure each variant; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--seeds", required=True)
    parser.add_argument("--max-nodes", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    print("| variant | solved | search s | loops cut + replay s | strip s | moves before "
          "| moves shown | with strip / without |")
    print("|---|---|---|---|---|---|---|---|")
    for variant in args.variants:
        search = old = new = 0.0
        solved = before = shown = 0
        for seed in parse_seeds(args.seeds):
            game = Game.new(variant, seed)
            start = time.process_time()
            status, moves, _ = run_spider(game, 0.0, args.max_nodes, 256)
            search += time.process_time() - start
            if status != "solved":
                continue
            solved += 1
            start = time.process_time()
            before += len(replay(game, shorten(game, moves)))
            old += time.process_time() - start
            start = time.process_time()
            shown += len(strip_line(game, moves).moves)
            new += time.process_time() - start
        print(f"| {variant} | {solved} | {search:.2f} | {old:.2f} | {new:.2f} | {before} | "
              f"{shown} | {(search + new) / (search + old):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
