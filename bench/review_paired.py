"""Do the review's grades tell players apart? (issue 49; docs/review-log-2026-12-07.md)

For each deal the bot's game, the greedy agent's and the random agent's (kabale.env, cut at
--max-moves), each reviewed at the review's default effort (or --effort) with the deal
number as the review's seed. One line per game, then for each weaker player against the bot
a paired comparison over the deals where both had a graded decision: mean accuracy, the
mean per-deal difference, the deals where the bot's accuracy is higher and lower, and the
two-sided sign test's p; mistakes and blunders per game. With --json every review is kept
(one JSON object a line) for a look afterwards.

    python bench/review_paired.py --variant klondike:draw=3 --seeds 101-130
"""

from __future__ import annotations

import argparse
import json
import math
import time

from kabale.advisor import Bot, autoplay
from kabale.advisor.cli import parse_seeds
from kabale.advisor.review import DEFAULT_EFFORT, review
from kabale.core import Game
from review_grades import agent_game

PLAYERS = ("bot", "greedy", "random")


def sign_test(wins: int, losses: int) -> float:
    """The two-sided sign test's p for ``wins`` against ``losses`` (ties left out)."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def game_of(variant: str, seed: int, who: str, effort: str, max_moves: int) -> Game:
    if who == "bot":
        return autoplay(variant, seed, Bot(effort, seed=seed))
    return agent_game(variant, seed, who, max_moves)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="klondike:draw=3")
    parser.add_argument("--seeds", default="101-130")
    parser.add_argument("--effort", default=DEFAULT_EFFORT)
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--players", default=",".join(PLAYERS))
    parser.add_argument("--json", help="a file for every review, one JSON object a line")
    args = parser.parse_args()
    players = args.players.split(",")
    rows: dict[str, dict[int, tuple[float | None, int]]] = {who: {} for who in players}
    out = open(args.json, "w") if args.json else None  # noqa: SIM115
    seconds: dict[str, float] = {who: 0.0 for who in players}
    most: dict[str, float] = {who: 0.0 for who in players}
    for seed in parse_seeds(args.seeds):
        for who in players:
            game = game_of(args.variant, seed, who, args.effort, args.max_moves)
            start = time.process_time()
            found = review(game, args.effort, seed)
            spent = time.process_time() - start
            seconds[who] += spent
            most[who] = max(most[who], spent)
            graded = sum(n for g, n in found.counts.items() if g != "forced")
            bad = found.counts["mistake"] + found.counts["blunder"]
            rows[who][seed] = (found.accuracy if graded else None, bad)
            print(f"{args.variant}#{seed} {who:>6} {game.outcome:>7} {game.moves_made:4d} "
                  f"moves acc {found.accuracy:5.1f} graded {graded:3d} "
                  f"mistakes+blunders {bad:3d} given {found.given_away_total:.2f} "
                  f"review {spent:.1f} s", flush=True)
            if out:
                out.write(json.dumps({"seed": seed, "who": who, "moves": game.moves_made,
                                      **found.to_dict()}) + "\n")
    for who in players:
        accs = [a for a, _ in rows[who].values() if a is not None]
        bads = [b for _, b in rows[who].values()]
        print(f"{who}: mean accuracy {sum(accs) / max(1, len(accs)):.1f} over {len(accs)} "
              f"games with a graded decision; mistakes+blunders {sum(bads) / len(bads):.2f} "
              f"a game; review CPU {seconds[who] / len(bads):.1f} s a game, at most "
              f"{most[who]:.1f} s")
    for who in players[1:]:
        pairs = [(rows["bot"][s][0], rows[who][s][0]) for s in rows["bot"]
                 if rows["bot"][s][0] is not None and rows[who][s][0] is not None]
        diffs = [a - b for a, b in pairs if a is not None and b is not None]
        higher, lower = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
        more = sum(rows[who][s][1] > rows["bot"][s][1] for s in rows["bot"])
        fewer = sum(rows[who][s][1] < rows["bot"][s][1] for s in rows["bot"])
        print(f"bot - {who}: accuracy difference {sum(diffs) / max(1, len(diffs)):+.1f} "
              f"over {len(diffs)} deals, bot higher in {higher}, lower in {lower} "
              f"(sign test p = {sign_test(higher, lower):.3g}); {who} more mistakes+blunders "
              f"in {more} deals, fewer in {fewer} (p = {sign_test(more, fewer):.3g})")


if __name__ == "__main__":
    main()
