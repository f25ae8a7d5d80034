"""Where the bot's CPU goes: the world solves after each plan, the proposals' solves, the
reach of Spider worlds, and the rest; and what the world solves answered.

    python bench/bot_split.py spider:suits=4 --seeds 1-2 [--effort normal]

Each deal is played once by the bot (effort normal, seed = deal) in this process. The parts
are timed by wrapping the advisor's calls in place (``process_time`` around each, a few
microseconds a call), so the figures are those of the bot as it plays, not of a profiler's
slower run. The verdicts are those of ``advisor.value``'s solves: how many came back
solved, unsolvable or unknown, and the positions each kind searched on average.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from kabale import parse_variant
from kabale.advisor import Bot, autoplay
from kabale.advisor import choose as choose_module
from kabale.advisor import value as value_module
from kabale.advisor.cli import parse_seeds
from kabale.advisor.effort import effort_for
from kabale.advisor.plans import Planner

spent: Counter[str] = Counter()
verdicts: Counter[str] = Counter()
positions: Counter[str] = Counter()


def timed(part: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` with its CPU seconds added to ``spent[part]``."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[part] += time.process_time() - start
    return wrapper


def counted(function: Callable[..., Any]) -> Callable[..., Any]:
    """``value``'s solve_states, with each verdict and its positions counted."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        out = function(*args, **kwargs)
        for verdict in out:
            verdicts[verdict.status] += 1
            positions[verdict.status] += verdict.nodes
        return out
    return wrapper


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seeds", default="1-2")
    parser.add_argument("--effort", default="normal")
    args = parser.parse_args()
    value_module.solve_states = timed("world solves", counted(value_module.solve_states))
    choose_module.solve_states = timed("proposals' solves", choose_module.solve_states)
    Planner.reach = timed("reach", Planner.reach)  # type: ignore[method-assign]
    level = effort_for(parse_variant(args.variant), args.effort)
    total = 0.0
    for seed in parse_seeds(args.seeds):
        start = time.process_time()
        game = autoplay(args.variant, seed, Bot(level, seed=seed))
        cpu = time.process_time() - start
        total += cpu
        print(f"deal {seed}: {game.outcome}, {game.moves_made} moves, {cpu:.1f} s")
    parts = dict(spent)
    parts["the rest"] = total - sum(spent.values())
    print(f"CPU {total:.1f} s: " + ", ".join(
        f"{part} {seconds:.1f} s ({seconds / total:.0%})" for part, seconds in parts.items()))
    print("world solves: " + ", ".join(
        f"{status} {n} ({positions[status] // n} positions each)"
        for status, n in verdicts.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
