"""What a Klondike world the bot's solves leave undecided turns out to be, given far more
positions: the argument for value.UNDECIDED.

    python bench/undecided_worlds.py klondike:draw=3 --seeds 11-16 [--stock-known]
        [--effort normal] [--sample 300] [--nodes 300000]

The bot plays each deal; every world of its choices that a solve of the effort's ``nodes``
positions leaves undecided is kept. ``--sample`` of them (drawn with a fixed seed) are solved
again within ``--nodes`` positions. Prints how many were won, proved lost and still
undecided, and the share won of those decided.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

from kabale import State, parse_variant
from kabale.advisor import Bot, autoplay
from kabale.advisor import choose as chooser
from kabale.advisor.cli import parse_seeds
from kabale.advisor.effort import effort_for
from kabale.advisor.value import UNDECIDED
from kabale.solver.batch import solve_states


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seeds", default="11-16")
    parser.add_argument("--stock-known", action="store_true")
    parser.add_argument("--effort", default="normal")
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--nodes", type=int, default=300_000)
    args = parser.parse_args()
    variant = parse_variant(args.variant)
    if variant.family != "klondike":
        parser.error("Klondike variants only")
    undecided: list[State] = []
    original = chooser.worths_of

    def keeping(variant, rules, finals, nodes, ahead):  # type: ignore[no-untyped-def]
        got = original(variant, rules, finals, nodes, ahead)
        undecided.extend(s for s, (won, worth) in zip(finals, got, strict=True)
                         if not won and worth == UNDECIDED)
        return got

    chooser.worths_of = keeping
    level = effort_for(variant, args.effort)
    for seed in parse_seeds(args.seeds):
        autoplay(variant, seed, Bot(level, seed=seed, stock_known=args.stock_known))
    chooser.worths_of = original
    picked = random.Random(1).sample(undecided, min(args.sample, len(undecided)))
    counts = Counter(v.status for v in solve_states(variant, picked, args.nodes))
    decided = counts["solved"] + counts["unsolvable"]
    print(f"{len(undecided)} worlds undecided at {level.nodes} positions; {len(picked)} "
          f"solved again at {args.nodes}: won {counts['solved']}, lost "
          f"{counts['unsolvable']}, undecided {counts['unknown']}; won of those decided "
          f"{counts['solved'] / decided if decided else float('nan'):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
