"""The bot's win rate over a range of deals, with a 95% Wilson interval and CPU per game.

    python bench/bot.py klondike:draw=3 --seeds 1-500 [--effort normal] [--scheme plans]
        [--stock-known] [--jobs 2] [--log FILE]

Each game runs in one process on one core (``--jobs`` games at once); CPU seconds are the
game's own process time. With ``--log`` every finished game is appended to FILE as a JSON
line, and deals already in FILE (same variant, effort, scheme and setting) are not played
again, so a killed run resumes. ``--stock-known`` lets the bot know the Klondike stock's
order from the start, the setting some published bots are measured in.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from tqdm import tqdm

from kabale import parse_variant
from kabale.advisor import Bot, autoplay, wilson
from kabale.advisor.cli import parse_seeds
from kabale.advisor.effort import effort_for, scaled


def play(variant: str, seed: int, effort: str, scheme: str, stock_known: bool,
         budgets: dict[str, int]) -> dict:
    """One game of the bot: its result, moves and CPU seconds."""
    start = time.process_time()
    level = scaled(effort_for(parse_variant(variant), effort), **budgets)
    game = autoplay(variant, seed, Bot(level, seed=seed, scheme=scheme,
                                       stock_known=stock_known))
    return {"seed": seed, "outcome": game.outcome, "moves": game.moves_made,
            "cpu": round(time.process_time() - start, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seeds", default="1-100")
    parser.add_argument("--effort", default="normal")
    parser.add_argument("--scheme", default="plans", choices=["plans", "vote"])
    parser.add_argument("--stock-known", action="store_true")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--set", action="append", default=[], metavar="BUDGET=N",
                        help="change one of the effort's budgets (advisor/effort.py)")
    args = parser.parse_args()
    budgets = {key: int(value) for key, _, value in (b.partition("=") for b in args.set)}
    setting = {"variant": args.variant, "effort": args.effort, "scheme": args.scheme,
               "stock_known": args.stock_known, "budgets": budgets}
    done: dict[int, dict] = {}
    if args.log and args.log.exists():
        for line in args.log.read_text().splitlines():
            row = json.loads(line)
            if all(row.get(key) == value for key, value in setting.items()):
                done[row["seed"]] = row
    seeds = [s for s in parse_seeds(args.seeds) if s not in done]
    rows = [done[s] for s in parse_seeds(args.seeds) if s in done]
    with ProcessPoolExecutor(args.jobs) as pool, tqdm(total=len(seeds), unit="game") as bar:
        futures = [pool.submit(play, args.variant, s, args.effort, args.scheme,
                               args.stock_known, budgets) for s in seeds]
        for future in as_completed(futures):
            row = {**setting, **future.result()}
            rows.append(row)
            if args.log:
                with args.log.open("a") as log:
                    log.write(json.dumps(row) + "\n")
            bar.update()
    wins = sum(row["outcome"] == "won" for row in rows)
    gave_up = sum(row["outcome"] == "playing" for row in rows)
    low, high = wilson(wins, len(rows))
    cpu = [row["cpu"] for row in rows]
    stock = "stock known" if args.stock_known else "stock unseen"
    changed = "".join(f", {key}={value}" for key, value in budgets.items())
    print(f"{args.variant} ({stock}, {args.scheme}, effort {args.effort}{changed}): won {wins} of "
          f"{len(rows)} = {wins / len(rows):.1%} (95% {low:.1%}-{high:.1%}); gave up "
          f"{gave_up}; CPU per game mean {statistics.mean(cpu):.2f} s, median "
          f"{statistics.median(cpu):.2f} s; moves median "
          f"{statistics.median(row['moves'] for row in rows):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
