"""Does the grade say how hard a deal is to play? The bot's wins per grade.

    python bench/grade_check.py klondike --seeds 1-40 [--playouts 2] [--effort quick]

For each deal the server's grade (``kabale.server.deals``: positions the one-lane search needs
to win it with every card known, cut at the variant's quarters) and the advisor's bot, which
plays without seeing the hidden cards as a person does, over ``--playouts`` games with
different seeds. Prints the bot's win rate per grade with its 95% interval, and Spearman's
rank correlation between the measure and the bot's wins over the winnable deals.
"""

from __future__ import annotations

import argparse
import time

from tqdm import tqdm

from kabale.advisor import Bot, autoplay, wilson
from kabale.advisor.cli import parse_seeds
from kabale.core.variants import parse_variant
from kabale.server.deals import GRADES, grade_of, measure


def ranks(values: list[float]) -> list[float]:
    """The rank of each value (1 = smallest), ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation of two samples."""
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sx = sum((a - mx) ** 2 for a in rx) ** 0.5
    sy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (sx * sy) if sx and sy else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("--seeds", default="1-40")
    parser.add_argument("--playouts", type=int, default=2)
    parser.add_argument("--effort", default="quick", choices=["quick", "normal", "strong"])
    args = parser.parse_args()
    variant = parse_variant(args.variant)
    start = time.process_time()
    rows = []
    for seed in tqdm(parse_seeds(args.seeds), desc=str(variant)):
        nodes = measure(variant, seed)
        if nodes is None:
            continue
        graded = grade_of(variant, nodes)
        wins = sum(autoplay(variant, seed, Bot(args.effort, seed=p)).outcome == "won"
                   for p in range(args.playouts))
        rows.append((seed, nodes, graded[0] if graded else None, wins))
    print(f"{variant}: {len(rows)} winnable deals of {args.seeds}, {args.playouts} bot games "
          f"each at effort {args.effort}, {time.process_time() - start:.0f} s CPU")
    for grade in GRADES:
        games = [w for _, _, g, w in rows if g == grade]
        won, played = sum(games), len(games) * args.playouts
        if played:
            low, high = wilson(won, played)
            print(f"  {grade:7} {len(games):3} deals  bot won {won}/{played} = "
                  f"{won / played:.0%} (95% {low:.0%}-{high:.0%})")
    if len(rows) > 2:
        rho = spearman([n for _, n, _, _ in rows], [w for _, _, _, w in rows])
        print(f"  Spearman rank correlation, measure vs bot wins: {rho:+.2f}")


if __name__ == "__main__":
    main()
