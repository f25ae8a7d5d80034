"""Calibration of win_chance: the chance predicted from what the player has seen, against
whether the true position turns out winnable with every card known.

    python bench/calibration.py [--effort normal] [--games 20] [--step 10] [VARIANT ...]

win_chance estimates the share of the worlds consistent with what the player saw that the
full-information solver wins; the true position is one of those worlds, drawn from the same
posterior, so over many positions the predicted chance and the share of true positions won
should agree bin by bin (within the bins' intervals). Positions come from the bot's games
(bench/advice_positions.py); the truth is a deterministic solve of the true position with a
large budget (``--truth-nodes``); positions it leaves undecided are counted apart.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from advice_positions import positions
from kabale.advisor import Chance, wilson, win_chance
from kabale.solver.batch import solve_states

BINS = [0.0, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0001]

#: the win chance's estimates compared: its value (undecided worlds left out), the share of
#: all sampled worlds won (undecided worlds counted as lost), and undecided counted as half
ESTIMATES: dict[str, Callable[[Chance], float]] = {
    "value (undecided left out)": lambda c: c.value,
    "wins / samples (undecided lost)": lambda c: c.wins / c.samples if c.samples else 0.0,
    "(wins + undecided / 2) / samples": lambda c: (c.wins + c.undecided / 2) / c.samples
    if c.samples else 0.5,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=["klondike:draw=3"])
    parser.add_argument("--effort", default="normal")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--step", type=int, default=10)
    parser.add_argument("--truth-nodes", type=int, default=5_000_000)
    args = parser.parse_args()
    for variant in args.variants:
        games = positions(variant, list(range(1, args.games + 1)), args.step)
        rows: dict[str, list[tuple[float, bool]]] = {name: [] for name in ESTIMATES}
        undecided = 0
        for game in games:
            chance = win_chance(game, seed=0, effort=args.effort)
            (truth,) = solve_states(game.variant, [game.state], args.truth_nodes)
            if truth.status == "unknown":
                undecided += 1
                continue
            for name, estimate in ESTIMATES.items():
                rows[name].append((estimate(chance), truth.status == "solved"))
        print(f"{variant}: {len(games) - undecided} positions ({undecided} left undecided "
              f"by the truth solve)")
        for name, pairs in rows.items():
            table(name, pairs)
    return 0


def table(name: str, rows: list[tuple[float, bool]]) -> None:
    """One estimate's Brier score and its calibration bins."""
    brier = sum((p - won) ** 2 for p, won in rows) / max(1, len(rows))
    print(f" {name}: Brier score {brier:.3f}")
    for low, high in zip(BINS, BINS[1:], strict=False):
        inside = [(p, won) for p, won in rows if low <= p < high]
        if not inside:
            continue
        won = sum(w for _, w in inside)
        mean = sum(p for p, _ in inside) / len(inside)
        lo, hi = wilson(won, len(inside))
        print(f"  predicted {low:.2f}-{min(high, 1):.2f}: {len(inside):4} positions, mean "
              f"predicted {mean:.3f}, winnable {won / len(inside):.3f} "
              f"(95% {lo:.3f}-{hi:.3f})")


if __name__ == "__main__":
    sys.exit(main())
