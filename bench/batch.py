"""The cost of one small solve in ``solve_states`` (the advisor's sampled worlds), per budget.

    python bench/batch.py                                   # draw 1 and draw 3, 100/1000/10000
    python bench/batch.py --variant klondike:draw=3,open=true --budgets 500,20000 --repeat 5
    python bench/batch.py --verdicts /tmp/now.json          # also write every verdict
    valgrind --tool=callgrind python bench/batch.py --budgets 1000 --repeat 1 --deals 20 ...
                                                            # instructions: less --budgets ''

Positions: Klondike deals 1..DEALS played MOVES moves into the game by a seeded random
policy (a stock press one time in three, else a random other move), then WORLDS worlds of
each, the face-down and stock cards shuffled over their places (a stand-in for the
advisor's posterior: the cost is what is measured here, not the chance). Each budget solves
every position once per repeat with one ``solve_states`` call; the best repeat's CPU time
per solve is printed (CPU time: the machine is shared), with the verdict counts, which a
change that only speeds the search up must leave alone (``--verdicts`` writes them all, to
compare two builds position by position).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from kabale import Game, State
from kabale.core.variants import parse_variant
from kabale.solver.batch import solve_states


def midgame(variant: str, seed: int, moves: int, rng: random.Random) -> Game | None:
    """Deal ``seed`` after ``moves`` moves of the random policy, or None if it ended."""
    game = Game.new(variant, seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            return None
        others = [m for m in legal if not m.is_stock]
        game.play(rng.choice(others) if others and rng.random() > 1 / 3 else
                  rng.choice(legal))
    return None if game.outcome != "playing" else game


def world(state: State, rng: random.Random) -> State:
    """``state`` with its face-down and stock cards shuffled over their places."""
    hidden = [c for col, down in zip(state.columns, state.down, strict=True) for c in col[:down]]
    hidden += state.stock
    rng.shuffle(hidden)
    cards = iter(hidden)
    columns = tuple(tuple(next(cards) if j < down else c for j, c in enumerate(col))
                    for col, down in zip(state.columns, state.down, strict=True))
    stock = tuple(next(cards) for _ in state.stock)
    return State(columns, state.down, stock, state.waste, state.foundations,
                 state.passes_used, state.score)


def positions(variant: str, deals: int, moves: int, worlds: int) -> list[State]:
    rng = random.Random(f"{variant} {deals} {moves} {worlds}")
    out: list[State] = []
    for seed in range(1, deals + 1):
        game = midgame(variant, seed, moves, rng)
        if game is not None:
            out.extend(world(game.state, rng) for _ in range(worlds))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append",
                        help="default: klondike:open=true and klondike:draw=3,open=true")
    parser.add_argument("--budgets", default="100,1000,10000")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verdicts", help="write every verdict to this JSON file")
    args = parser.parse_args(argv)
    everything: dict[str, list[tuple[str, int]]] = {}
    for name in args.variant or ["klondike:open=true", "klondike:draw=3,open=true"]:
        variant = parse_variant(name)
        states = positions(name, args.deals, args.moves, args.worlds)
        for budget in (int(b) for b in args.budgets.split(",") if b):
            best = float("inf")
            for _ in range(args.repeat):
                start = time.process_time()
                verdicts = solve_states(variant, states, budget)
                best = min(best, time.process_time() - start)
            counts = {s: sum(v.status == s for v in verdicts)
                      for s in ("solved", "unsolvable", "unknown")}
            nodes = sum(v.nodes for v in verdicts) / len(verdicts)
            print(f"{name:28s} budget {budget:6d}: {1e6 * best / len(states):9.1f} us a solve "
                  f"({len(states)} positions, {nodes:7.0f} positions searched on average)  "
                  + "  ".join(f"{k} {v}" for k, v in counts.items()), flush=True)
            everything[f"{name} {budget}"] = [(v.status, v.nodes) for v in verdicts]
    if args.verdicts:
        with open(args.verdicts, "w", encoding="utf-8") as handle:
            json.dump(everything, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
