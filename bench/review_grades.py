"""Do the review's grades mean something? (issue 49; docs/review-log-*.md)

For each deal: the bot's game and a weaker player's (kabale.env's random or greedy agent,
cut at --max-moves), each reviewed; then every decision graded mistake or worse has its best
and chosen moves valued again by a referee on many more worlds (another seed).

    python bench/review_grades.py --variant klondike --seeds 1-10 --effort quick

Prints one line per game and a summary: mean accuracy and mistakes+blunders per 100 graded
decisions for each player, and how often the referee finds the review's best move worse than
the chosen blunder or mistake.
"""

from __future__ import annotations

import argparse
import time

from kabale.advisor import Bot, autoplay
from kabale.advisor.bot import decision_seed
from kabale.advisor.cli import parse_seeds
from kabale.advisor.effort import effort_for, scaled
from kabale.advisor.postmortem import prefix
from kabale.advisor.review import Review, _values, review
from kabale.core import Game
from kabale.env import GreedyAgent, KabaleEnv, RandomAgent


def agent_game(variant: str, seed: int, kind: str, max_moves: int) -> Game:
    """Deal ``seed`` played by the env's random or greedy agent for at most max_moves."""
    env = KabaleEnv(variant, max_moves=max_moves)
    observation, info = env.reset(seed=seed)
    agent = RandomAgent(seed) if kind == "random" else GreedyAgent(env, seed)
    done = truncated = False
    while not (done or truncated):
        observation, _, done, truncated, info = env.step(agent.act(observation, info))
    return env.game


def referee(game: Game, found: Review, worlds: int) -> tuple[int, int]:
    """(checked, best worse than chosen) over the decisions graded mistake or worse, each
    valued again on ``worlds`` worlds of another seed."""
    level = scaled(effort_for(game.variant, found.effort), chance_samples=worlds)
    checked = worse = 0
    for d in found.decisions:
        if d.grade not in ("mistake", "blunder"):
            continue
        position = prefix(game, d.index)
        values = _values(position, level, (decision_seed(found.seed + 1, d.index) or 0))
        best, chosen = position.parse_move(d.best), position.parse_move(d.move)
        checked += 1
        worse += values.values[values.groups[best]] < values.values[values.groups[chosen]]
    return checked, worse


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="klondike")
    parser.add_argument("--seeds", default="1-10")
    parser.add_argument("--effort", default="quick")
    parser.add_argument("--weak", choices=["random", "greedy"], default="random")
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--referee", type=int, default=256, help="the referee's worlds")
    parser.add_argument("--nodes", type=int, help="positions per world (the effort's own)")
    args = parser.parse_args()
    totals: dict[str, list[float]] = {"bot": [0, 0, 0, 0], args.weak: [0, 0, 0, 0]}
    checked = worse = 0
    for seed in parse_seeds(args.seeds):
        games = {"bot": autoplay(args.variant, seed, Bot(args.effort, seed=seed)),
                 args.weak: agent_game(args.variant, seed, args.weak, args.max_moves)}
        for who, game in games.items():
            start = time.process_time()
            level = effort_for(game.variant, args.effort)
            if args.nodes:
                level = scaled(level, chance_nodes=args.nodes)
            found = review(game, level, seed)
            seconds = time.process_time() - start
            graded = sum(n for g, n in found.counts.items() if g != "forced")
            bad = found.counts["mistake"] + found.counts["blunder"]
            c, w = referee(game, found, args.referee)
            checked, worse = checked + c, worse + w
            t = totals[who]
            t[0] += found.accuracy
            t[1] += 1
            t[2] += bad
            t[3] += graded
            print(f"{game.deal_id:>14} {who:>6} {game.outcome:>7} {game.moves_made:4d} moves "
                  f"acc {found.accuracy:5.1f} graded {graded:3d} mistakes+blunders {bad:3d} "
                  f"luck {found.luck_total:+.2f} given {found.given_away_total:.2f} "
                  f"review {seconds:.1f} s", flush=True)
    for who, (acc, n, bad, graded) in totals.items():
        print(f"{who}: mean accuracy {acc / n:.1f}, mistakes+blunders "
              f"{100 * bad / max(1, graded):.1f} per 100 graded decisions "
              f"({int(bad)}/{int(graded)})")
    print(f"referee ({args.referee} worlds, another seed): best worse than the chosen move "
          f"in {worse} of {checked} mistakes or blunders")


if __name__ == "__main__":
    main()
