"""Win rates of the baseline agents (kabale.env.agents) per family, with 95% Wilson intervals.

Each agent plays every deal of a fixed range through ``KabaleEnv`` (``max_moves`` 1000 by
default, the env's); a game counts as won only if the env reports the win. Random and greedy
play deals ``--deals`` (default 1-200); the advisor's bot is slower and plays its own smaller
range ``--bot-deals`` (default 1-10) at ``--effort``; ``--no-bot`` leaves it out.
Usage: ``python bench/agents.py [--variants klondike,spider:suits=1] [--deals 1-200]``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable

from kabale.advisor import wilson
from kabale.env import Agent, BotAgent, GreedyAgent, KabaleEnv, RandomAgent
from kabale.env.agents import play_episode

VARIANTS = ["klondike", "klondike:draw=3", "spider:suits=1", "spider:suits=2",
            "spiderette:suits=1", "spiderette"]


def deal_range(text: str) -> range:
    """``A-B`` (inclusive) as a range of deal numbers."""
    first, _, last = text.partition("-")
    try:
        return range(int(first), int(last or first) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad deal range {text!r}: write A-B, e.g. 1-200"
                                         ) from None


def run(env: KabaleEnv, make: Callable[[KabaleEnv], Agent],
        deals: range) -> tuple[Counter[str], float]:
    """Outcomes of one agent (a fresh one per deal) over ``deals`` and the seconds taken."""
    outcomes: Counter[str] = Counter()
    start = time.perf_counter()
    for seed in deals:
        outcomes[play_episode(env, make(env), seed).outcome] += 1
    return outcomes, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma separated")
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-200"))
    parser.add_argument("--bot-deals", type=deal_range, default=deal_range("1-10"))
    parser.add_argument("--effort", default="normal", help="the bot's effort")
    parser.add_argument("--no-bot", action="store_true", help="leave the bot out")
    parser.add_argument("--max-moves", type=int, default=1000)
    args = parser.parse_args()
    print(f"{'variant':20} {'agent':7} {'deals':>9} {'won':>5} {'rate':>6} {'95% interval':>15}"
          f" {'lost':>5} {'trunc':>5} {'gave up':>7} {'s':>6}")
    for variant in args.variants.split(","):
        env = KabaleEnv(variant, max_moves=args.max_moves)
        agents: list[tuple[str, Callable[[KabaleEnv], Agent], range]] = [
            ("random", lambda _: RandomAgent(seed=1), args.deals),
            ("greedy", lambda env: GreedyAgent(env, seed=1), args.deals),
        ]
        if not args.no_bot:
            agents.append(("bot", lambda env: BotAgent(env, effort=args.effort, seed=1),
                           args.bot_deals))
        for name, make, deals in agents:
            outcomes, seconds = run(env, make, deals)
            won, n = outcomes["won"], len(deals)
            low, high = wilson(won, n)
            print(f"{variant:20} {name:7} {deals.start:>4}-{deals.stop - 1:<4} {won:5} "
                  f"{won / n:6.1%} {f'{low:.1%}-{high:.1%}':>15} {outcomes['lost']:5} "
                  f"{outcomes['truncated']:5} {outcomes['gave up']:7} {seconds:6.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
