"""Baseline agents behind one interface: ``agent.act(observation, info) -> action number``.

- :class:`RandomAgent`: a uniformly random legal action.
- :class:`GreedyAgent`: the best legal action by a fixed one-move rule (below), random ties.
- :class:`BotAgent`: the advisor's bot (``kabale.advisor.Bot``), fed the env's game; the bot
  itself works only from what the player has seen (DESIGN.md §2b).

Random and greedy read only the observation and ``info``; none of them sees a hidden card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..core.state import FOUNDATION, STOCK, WASTE, Move
from .environment import KabaleEnv
from .view import UNSEEN

if TYPE_CHECKING:
    from ..advisor import Bot


class Agent(Protocol):
    """Anything that picks a legal action from what the env shows."""

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        """The action to play (one whose ``info["action_mask"]`` entry is True)."""
        ...


class RandomAgent:
    """A uniformly random legal action, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        """Any legal action, each as likely."""
        legal = np.flatnonzero(info["action_mask"])
        return int(legal[self.rng.randrange(len(legal))])


class GreedyAgent:
    """The legal move the rule below rates highest; ties broken at random (seeded).

    Ratings, from what the observation shows:
    5. a card to a foundation (Klondike);
    4. a column move that turns a face-down card up (it takes every face-up card above it);
    3. Klondike: waste to a column; Spider: a run onto a card of its own suit;
    2. Spider: a move that empties a column onto a non-empty one;
    1. the stock action ``d``;
    0. any other move;
    -1. a whole column with nothing face down moved onto an empty column (changes nothing).
    The one-move look never plans; random ties and the stock action keep it from freezing,
    and the env's ``max_moves`` ends the games where it shuffles cards back and forth.
    """

    def __init__(self, env: KabaleEnv, seed: int | None = None) -> None:
        self.moves = env.actions.moves
        self.rng = random.Random(seed)

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        """The best-rated legal action."""
        legal = np.flatnonzero(info["action_mask"])
        rated = [(self.rate(self.moves[a], observation), a) for a in legal]
        best = max(rating for rating, _ in rated)
        return int(self.rng.choice([a for rating, a in rated if rating == best]))

    def rate(self, move: Move, observation: dict[str, np.ndarray]) -> int:
        """The rating of one legal move (see the class docstring)."""
        if move.source == STOCK:
            return 1
        if move.target == FOUNDATION:
            return 5
        if move.source == WASTE:
            return 3
        if not move.source.isdigit():
            return 0  # a card back from a foundation
        columns, down = observation["columns"], observation["down"]
        source, target = int(move.source) - 1, int(move.target) - 1
        size = int(np.count_nonzero(columns[source]))
        up = size - int(down[source])
        if move.count == up and down[source] > 0:
            return 4
        below = int(np.count_nonzero(columns[target]))
        if below == 0:
            return -1 if move.count == size else 0
        if "waste" in observation:
            return 0
        head = int(columns[source][size - move.count])
        top = int(columns[target][below - 1])
        if top != UNSEEN and (head - 1) // 13 == (top - 1) // 13:
            return 3
        return 2 if move.count == size else 0


class BotAgent:
    """The advisor's bot as an agent: asks ``Bot.choose`` about the env's game.

    ``kabale.advisor`` is imported on first use (it loads the compiled solver).
    """

    def __init__(self, env: KabaleEnv, effort: str = "normal", seed: int | None = None) -> None:
        from ..advisor import Bot

        self.env = env
        self.bot: Bot = Bot(effort=effort, seed=seed)

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        """The bot's move in the env's current game, as an action number."""
        return self.env.action_of(self.bot.choose(self.env.game))


@dataclass(frozen=True)
class Episode:
    """How one episode ended: ``outcome`` ("won", "lost" or "playing" when truncated)."""

    outcome: str
    steps: int
    reward: float


def play_episode(env: KabaleEnv, agent: Agent, seed: int | None = None) -> Episode:
    """Play one episode of deal ``seed`` with ``agent`` until it ends or is truncated."""
    observation, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        observation, reward, terminated, truncated, info = env.step(
            agent.act(observation, info))
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return Episode(info["outcome"], steps, total)
