"""Environment steps per second with a random agent, per family (kabale.env).

For each variant, figures from the same run: the raw rules (``rules.legal_moves`` and
``rules.apply`` on states, random legal moves: the floor any env built on them pays), the env
itself (``KabaleEnv.step`` with a uniformly random legal action taken from
``info["action_mask"]``), the env through ``gymnasium.make`` (its wrappers included), and
for the Klondike family the compiled ``KlondikeVectorEnv`` over ``--batch`` games, each
game's random legal action drawn in numpy (the largest of random keys over the mask).
Every episode runs until it ends or reaches ``--max-moves``; deals 1, 2, ... in turn.
Usage: ``python bench/env_speed.py [--seconds S] [--variants klondike,spider]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import gymnasium as gym
import numpy as np

import kabale.env
from kabale import Game
from kabale.env import KabaleEnv, KlondikeVectorEnv, RandomAgent

VARIANTS = ["klondike", "klondike:draw=3", "double-klondike", "spider:suits=1", "spider:suits=4",
            "spiderette"]
IDS = {"klondike": "kabale/Klondike-v0", "spider": "kabale/Spider-v0",
       "spiderette": "kabale/Spiderette-v0"}


def raw_steps(variant: str, max_moves: int) -> Callable[[int], int]:
    """One playout of the raw rules on deal ``seed``; returns the moves made."""
    rng = random.Random(1)

    def playout(seed: int) -> int:
        game = Game.new(variant, seed)
        rules, state = game.rules, game.state
        for played in range(max_moves):
            legal = rules.legal_moves(state)
            if not legal or rules.is_won(state) or rules.is_lost(state, legal):
                return played
            state = rules.apply(state, rng.choice(legal))
        return max_moves

    return playout


def env_steps(env: gym.Env) -> Callable[[int], int]:  # type: ignore[type-arg]
    """One random episode of ``env`` on deal ``seed``; returns the steps taken."""
    agent = RandomAgent(seed=1)

    def episode(seed: int) -> int:
        observation, info = env.reset(seed=seed)
        steps = 0
        while True:
            observation, _, terminated, truncated, info = env.step(agent.act(observation, info))
            steps += 1
            if terminated or truncated:
                return steps

    return episode


def vector_steps(variant: str, batch: int, max_moves: int) -> Callable[[int], int]:
    """``batch`` games of a Klondike variant stepped together; each call steps them 100 times
    (autoresets included) and returns the game steps taken."""
    env = KlondikeVectorEnv(batch, variant, max_moves=max_moves)
    rng = np.random.default_rng(1)
    masks = env.reset(seed=1)[1]["action_mask"]

    def hundred(_: int) -> int:
        nonlocal masks
        for _ in range(100):
            actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
            masks = env.step(actions)[4]["action_mask"]
        return 100 * batch

    return hundred


def rate(run: Callable[[int], int], seconds: float) -> float:
    """Steps per second of ``run`` over deals 1, 2, ... for about ``seconds`` of CPU time."""
    steps, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        seed += 1
        steps += run(seed)
    return steps / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per variant and path")
    parser.add_argument("--max-moves", type=int, default=1000, help="the env's max_moves")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma separated")
    parser.add_argument("--batch", type=int, default=256, help="games in the vector env")
    args = parser.parse_args()
    assert kabale.env.ENV_IDS  # registers the ids
    print(f"{'variant':18} {'raw rules/s':>12} {'KabaleEnv/s':>12} {'gym.make/s':>12} "
          f"{'env/raw':>8} {'vector/s':>12} {'vector/raw':>10}")
    for variant in args.variants.split(","):
        env = KabaleEnv(variant, max_moves=args.max_moves)
        made = gym.make(IDS[env.variant.family], max_moves=args.max_moves,
                        **dict(env.variant.options))
        raw = rate(raw_steps(variant, args.max_moves), args.seconds)
        direct = rate(env_steps(env), args.seconds)
        wrapped = rate(env_steps(made), args.seconds)
        line = f"{variant:18} {raw:12,.0f} {direct:12,.0f} {wrapped:12,.0f} {direct / raw:8.2f}"
        if env.variant.family == "klondike":
            vector = rate(vector_steps(variant, args.batch, args.max_moves), args.seconds)
            line += f" {vector:12,.0f} {vector / raw:10.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
