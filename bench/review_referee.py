"""The referee of the review's grades (issue 49; docs/review-log-2026-12-07.md): for every
decision graded mistake or blunder in reviews kept by bench/review_paired.py --json, the
move the review called best and the move played are valued again on --times as many worlds
of another seed (and --nodes times the positions per world), from the same player's view.
Prints how often the referee finds the review's best move worse than the move played.

    python bench/review_referee.py --variant klondike:draw=3 /tmp/k3.jsonl
"""

from __future__ import annotations

import argparse
import json

from kabale.advisor.bot import decision_seed
from kabale.advisor.effort import effort_for, scaled
from kabale.advisor.review import REVIEW_WORLDS, _values
from kabale.core import Game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", required=True)
    parser.add_argument("--times", type=int, default=4, help="the referee's worlds, times")
    parser.add_argument("--nodes", type=int, default=1, help="positions per world, times")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    checked = worse = 0
    gaps: list[float] = []
    for name in args.files:
        with open(name) as lines:
            for line in lines:
                r = json.loads(line)
                game = Game.new(args.variant, r["seed"])
                level = effort_for(game.variant, r["effort"])
                referee = scaled(level, chance_samples=level.chance_samples * args.times,
                                 chance_nodes=level.chance_nodes * args.nodes)
                for d in r["decisions"]:
                    if d["grade"] in ("mistake", "blunder"):
                        found = _values(game, referee, decision_seed(r["seed"] + 1, d["index"])
                                        or 0)
                        best, chosen = game.parse_move(d["best"]), game.parse_move(d["move"])
                        gap = found.values[found.groups[best]] - \
                            found.values[found.groups[chosen]]
                        checked += 1
                        worse += gap < 0
                        gaps.append(gap)
                        print(f"#{r['seed']} {r['who']:>6} move {d['index'] + 1:3d} "
                              f"{d['grade']:<8} review {d['given_away']:.3f} "
                              f"referee {gap:+.3f}", flush=True)
                    game.play(game.parse_move(d["move"]))
    family = Game.new(args.variant, 1).variant.family
    print(f"referee ({args.times} x the review's worlds "
          f"({args.times * REVIEW_WORLDS.get(family, 1)} x chance_samples), {args.nodes} x its "
          f"positions, another seed): the review's best move worse than the move played in "
          f"{worse} of {checked} mistakes and blunders; mean gap "
          f"{sum(gaps) / max(1, len(gaps)):+.3f}")


if __name__ == "__main__":
    main()
