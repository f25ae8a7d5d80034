"""How close the bot's choices come to the best of the plans it compared, judged by a referee
with far more worlds and positions than the bot has.

    python bench/choice_regret.py klondike:draw=3 --seeds 1-5 [--stock-known]
        [--effort normal] [--worlds 200] [--nodes 5000]

The bot plays each deal; at every choice between two plans or more, each plan it compared is
played out on ``--worlds`` worlds of its own (drawn for the referee, not the bot's) and each
is solved within ``--nodes`` positions. A plan's referee value is the share it wins. Prints,
per choice, the referee's best value, the value of the plan the bot played and whether that
was the referee's best (within one world's share); then the mean regret (best minus played)
over all choices. Klondike only: the referee's value is the share of worlds won.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from kabale import parse_variant
from kabale.advisor import Bot, autoplay
from kabale.advisor import choose as chooser
from kabale.advisor.cli import parse_seeds
from kabale.advisor.effort import effort_for
from kabale.advisor.worlds import rng_for, sample_positions
from kabale.solver.batch import solve_states

#: the referee's worlds are its own: another stream of seeds than the bot's
REFEREE_SEED = 0x5EED


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seeds", default="1-5")
    parser.add_argument("--stock-known", action="store_true")
    parser.add_argument("--effort", default="normal")
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=5000)
    args = parser.parse_args()
    variant = parse_variant(args.variant)
    if variant.family != "klondike":
        parser.error("Klondike variants only")
    regrets: list[float] = []
    best_picked = 0
    original = chooser._race

    def refereed(game, planner, plans, positions, effort):  # type: ignore[no-untyped-def]
        ranked = original(game, planner, plans, positions, effort)
        worlds = sample_positions(planner.k, args.worlds,
                                  rng_for(REFEREE_SEED + game.moves_made))
        values = []
        for scored in ranked:
            finals = [chooser._play_out(game.rules, world, scored.plan) for world in worlds]
            verdicts = solve_states(game.variant, finals, args.nodes)
            values.append(sum(v.status == "solved" for v in verdicts) / len(worlds))
        best, played = max(values), values[0]
        regrets.append(best - played)
        nonlocal best_picked
        best_picked += best - played <= 1 / len(worlds)
        print(f"  move {game.moves_made:3d}: {len(plans):3d} plans, best {best:.3f}, "
              f"played {played:.3f}", flush=True)
        return ranked

    chooser._race = refereed
    level = effort_for(variant, args.effort)
    for seed in parse_seeds(args.seeds):
        game = autoplay(variant, seed, Bot(level, seed=seed, stock_known=args.stock_known))
        print(f"deal {seed}: {game.outcome} after {game.moves_made} moves", flush=True)
    if regrets:
        print(f"{len(regrets)} choices: mean regret {statistics.mean(regrets):.4f}, "
              f"the referee's best played in {best_picked} "
              f"({100 * best_picked / len(regrets):.0f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
