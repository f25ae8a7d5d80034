"""What a review costs (issue 49; docs/review-log-2026-12-07.md): CPU seconds (process time)
and solver positions of one review per game, for the bot's, the greedy agent's and the random
agent's games of the deals asked (the games as bench/review_paired.py plays them).

    python bench/review_cost.py --variant spider:suits=1 --seeds 105 --players random

One line per game: moves, the move of the last deal (Spider), the review's accuracy and
graded decisions, the positions its solves searched, and its CPU seconds.
"""

from __future__ import annotations

import argparse
import time

import kabale.advisor.value as value_module
from kabale.advisor.cli import parse_seeds
from kabale.advisor.review import DEFAULT_EFFORT, review
from kabale.solver.batch import Verdict
from review_paired import game_of

SPENT = [0]
_solve = value_module.solve_states


def counted(*args: object, **kwargs: object) -> list[Verdict]:
    """solve_states, adding the positions its verdicts searched to SPENT."""
    got = _solve(*args, **kwargs)  # type: ignore[arg-type]
    SPENT[0] += sum(v.nodes for v in got)
    return got


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="klondike:draw=3")
    parser.add_argument("--seeds", default="109")
    parser.add_argument("--effort", default=DEFAULT_EFFORT)
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--players", default="bot,greedy,random")
    args = parser.parse_args()
    value_module.solve_states = counted  # type: ignore[assignment]
    for seed in parse_seeds(args.seeds):
        for who in args.players.split(","):
            game = game_of(args.variant, seed, who, args.effort, args.max_moves)
            deals = [i for i, m in enumerate(game.history) if m.is_stock]
            SPENT[0] = 0
            start = time.process_time()
            found = review(game, args.effort, seed)
            spent = time.process_time() - start
            graded = sum(n for g, n in found.counts.items() if g != "forced")
            bad = found.counts["mistake"] + found.counts["blunder"]
            print(f"{args.variant}#{seed} {who:>6} {game.outcome:>7} {game.moves_made:4d} moves "
                  f"last deal {deals[-1] if deals else '-'} acc {found.accuracy:5.1f} graded "
                  f"{graded:3d} m+b {bad:3d} positions {SPENT[0]:>11,} review {spent:6.1f} s",
                  flush=True)


if __name__ == "__main__":
    main()
