"""Tuning the review's scale of a Spider world before the last deal (review.STANDING_CENTER,
STANDING_WIDTH; issue 49, docs/review-log-2026-12-07.md).

``capture``: the bot's, the greedy agent's and the random agent's games of the deals asked
(as bench/review_paired.py plays them), each reviewed with the raw progress score in place
of the scale (0.5 + score / 1000: the same order, and the plans after a move that shows
nothing chosen by their mean score), every decision's per-world worths kept in a pickle.
``grade``: the games' accuracy and mistakes+blunders with the scale's logistic put back for
each CENTER,WIDTH asked (the solver's worths after the last deal as they were), and the
paired comparison of bench/review_paired.py.

    python bench/review_scale.py capture --variant spider:suits=2 --seeds 1-10 --out s2.pkl
    python bench/review_scale.py grade s2.pkl --scale=-10,15 --scale=0,8
"""

from __future__ import annotations

import argparse
import importlib
import math
import pickle
from typing import Any

from kabale.advisor.cli import parse_seeds
from kabale.advisor.review import FORCED, THRESHOLDS, _decision, _Values, move_accuracy
from kabale.advisor.value import score
from kabale.core import State
from review_paired import PLAYERS, game_of, summary

RAW = 1000.0

#: the module (kabale.advisor's own name review is the function)
review_module = importlib.import_module("kabale.advisor.review")


def raw(state: State) -> float:
    """The progress score on a scale of the same order (module docstring)."""
    return 0.5 + score(state) / RAW


def capture(variant: str, seeds: list[int], effort: str, max_moves: int, out: str) -> None:
    """The reviews' decisions with raw worths (module docstring) into ``out``."""
    review_module.standing = raw  # type: ignore[assignment]
    found: list[tuple[bool, Any]] = []
    inner = review_module._values

    def kept(game: Any, *args: Any, **kwargs: Any) -> _Values:
        got = inner(game, *args, **kwargs)
        found.append((bool(game.state.stock), got))
        return got

    review_module._values = kept  # type: ignore[assignment]
    games = []
    for seed in seeds:
        for who in PLAYERS:
            game = game_of(variant, seed, who, effort, max_moves)
            found.clear()
            review_module.review(game, effort, seed, with_deal=False)
            history = game.history
            rows = [(before, history[i], values) for i, (before, values) in
                    enumerate(found[:len(history)])]
            games.append((seed, who, rows))
            print(f"{variant}#{seed} {who} {len(history)} moves", flush=True)
    with open(out, "wb") as f:
        pickle.dump(games, f)


def scaled(values: _Values, center: float, width: float) -> _Values:
    """``values`` with every raw worth put on the logistic of CENTER, WIDTH."""
    def f(x: float) -> float:
        return 1.0 / (1.0 + math.exp(-((x - 0.5) * RAW - center) / width))
    worlds = {m: [f(x) for x in got] for m, got in values.worlds.items()}
    means = {m: (sum(got) / len(got) if got else math.nan) for m, got in worlds.items()}
    if not worlds:
        means = dict(values.values)
    return _Values(means, values.groups, values.reveals, worlds, values.exact,
                   values.open_worlds)


def grade(files: list[str], scales: list[tuple[float, float]]) -> None:
    """The comparison of the captured games on each scale (module docstring)."""
    games = []
    for name in files:
        with open(name, "rb") as f:
            games += pickle.load(f)
    for center, width in scales:
        rows: dict[str, dict[int, tuple[float | None, int, list[float]]]] = {}
        for seed, who, decisions in games:
            given = []
            bad = 0
            for i, (before, move, values) in enumerate(decisions):
                v = scaled(values, center, width) if before else values
                d = _decision(i, move, v)
                if d.grade != FORCED:
                    given.append(d.given_away)
                    bad += d.given_away > THRESHOLDS[-2][1] + 1e-9
            acc = sum(map(move_accuracy, given)) / len(given) if given else None
            rows.setdefault(who, {})[seed] = (acc, bad, given)
        print(f"== center {center} width {width}")
        summary(rows, [w for w in PLAYERS if w in rows])


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("capture")
    c.add_argument("--variant", default="spider:suits=2")
    c.add_argument("--seeds", default="1-10")
    c.add_argument("--effort", default="quick")
    c.add_argument("--max-moves", type=int, default=200)
    c.add_argument("--out", required=True)
    g = sub.add_parser("grade")
    g.add_argument("files", nargs="+")
    g.add_argument("--scale", action="append", help="CENTER,WIDTH (again for more)")
    args = parser.parse_args()
    if args.what == "capture":
        capture(args.variant, parse_seeds(args.seeds), args.effort, args.max_moves, args.out)
    else:
        grade(args.files, [tuple(map(float, s.split(","))) for s in args.scale or ["-10,15"]])


if __name__ == "__main__":
    main()
