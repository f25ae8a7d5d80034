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
from kabale.advisor.review import DEFAULT_EFFORT, THRESHOLDS, move_accuracy, review
from kabale.core import Game
from review_grades import agent_game

PLAYERS = ("bot", "greedy", "random")

#: per player, per deal: the game's accuracy (None without a graded decision), its mistakes
#: and blunders, and the chance given away at each graded decision
Rows = dict[str, dict[int, tuple[float | None, int, list[float]]]]


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


def summary(rows: Rows, players: list[str]) -> None:
    """The comparison (module docstring) of ``rows``; also every graded decision of a player
    pooled: its mean accuracy and mistakes+blunders per 100 (the games' accuracies weigh a
    game of two graded decisions as one of fifty)."""
    for who in players:
        accs = [a for a, _, _ in rows[who].values() if a is not None]
        bads = [b for _, b, _ in rows[who].values()]
        pooled = [g for _, _, given in rows[who].values() for g in given]
        bad = sum(g > THRESHOLDS[-2][1] + 1e-9 for g in pooled)
        print(f"{who}: mean accuracy {sum(accs) / max(1, len(accs)):.1f} over {len(accs)} "
              f"games with a graded decision; mistakes+blunders {sum(bads) / len(bads):.2f} "
              f"a game ({len(bads)} games); pooled over {len(pooled)} graded decisions: "
              f"accuracy {sum(map(move_accuracy, pooled)) / max(1, len(pooled)):.1f}, "
              f"mistakes+blunders {100 * bad / max(1, len(pooled)):.1f} per 100")
    for who in players[1:]:
        seeds = [s for s in rows["bot"] if s in rows[who]]
        diffs = [a - b for a, b in ((rows["bot"][s][0], rows[who][s][0]) for s in seeds)
                 if a is not None and b is not None]
        higher, lower = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
        more = sum(rows[who][s][1] > rows["bot"][s][1] for s in seeds)
        fewer = sum(rows[who][s][1] < rows["bot"][s][1] for s in seeds)
        print(f"bot - {who}: accuracy difference {sum(diffs) / max(1, len(diffs)):+.1f} "
              f"over {len(diffs)} deals, bot higher in {higher}, lower in {lower} "
              f"(sign test p = {sign_test(higher, lower):.3g}); {who} more mistakes+blunders "
              f"in {more} deals, fewer in {fewer} (p = {sign_test(more, fewer):.3g})")


def from_json(files: list[str]) -> tuple[Rows, list[str]]:
    """The rows of reviews kept with --json (several files: one run in parts)."""
    rows: Rows = {}
    for name in files:
        with open(name) as lines:
            for line in lines:
                r = json.loads(line)
                graded = sum(n for g, n in r["counts"].items() if g != "forced")
                bad = r["counts"]["mistake"] + r["counts"]["blunder"]
                given = [d["given_away"] for d in r["decisions"] if d["grade"] != "forced"]
                rows.setdefault(r["who"], {})[r["seed"]] = \
                    (r["accuracy"] if graded else None, bad, given)
    return rows, [who for who in PLAYERS if who in rows]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="klondike:draw=3")
    parser.add_argument("--seeds", default="101-130")
    parser.add_argument("--effort", default=DEFAULT_EFFORT)
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--players", default=",".join(PLAYERS))
    parser.add_argument("--json", help="a file for every review, one JSON object a line")
    parser.add_argument("--from-json", nargs="+", help="only the comparison of kept reviews")
    args = parser.parse_args()
    if args.from_json:
        summary(*from_json(args.from_json))
        return
    players = args.players.split(",")
    rows: Rows = {who: {} for who in players}
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
            rows[who][seed] = (found.accuracy if graded else None, bad,
                               [d.given_away for d in found.decisions if d.grade != "forced"])
            print(f"{args.variant}#{seed} {who:>6} {game.outcome:>7} {game.moves_made:4d} "
                  f"moves acc {found.accuracy:5.1f} graded {graded:3d} "
                  f"mistakes+blunders {bad:3d} given {found.given_away_total:.2f} "
                  f"review {spent:.1f} s", flush=True)
            if out:
                out.write(json.dumps({"seed": seed, "who": who, "moves": game.moves_made,
                                      "outcome": game.outcome, "seconds": spent,
                                      **found.to_dict()}) + "\n")
                out.flush()
    for who in players:
        print(f"{who}: review CPU {seconds[who] / len(rows[who]):.1f} s a game, at most "
              f"{most[who]:.1f} s")
    summary(rows, players)


if __name__ == "__main__":
    main()
