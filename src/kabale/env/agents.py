"""Baseline agents behind one interface: ``agent.act(observation, info) -> action number``.

- :class:`RandomAgent`: a uniformly random legal action.
- :class:`GreedyAgent`: the best legal action by a fixed one-move rule (below), random ties.
- :class:`BotAgent`: the advisor's bot (``kabale.advisor.Bot``), fed the env's game; the bot
  itself works only from what the player has seen (docs/advisor.md).

Random and greedy read only the observation and ``info``; none of them sees a hidden card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..core.state import FOUNDATION, STOCK, WASTE, Move
from .environment import KabaleEnv

if TYPE_CHECKING:
    from ..advisor import Bot


class Agent(Protocol):
    """Anything that picks a legal action from what the env shows."""

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int | None:
        """The action to play (one whose ``info["action_mask"]`` entry is True), or None to
        give the game up."""
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
    3. Klondike: waste to a column; Spider: a run onto a card of its own suit, from a card
       that was not already its own suit's next;
    2. Spider: a move that empties a column onto a non-empty one;
    1. the stock action ``d``;
    0. any other move;
    -1. a whole column with nothing face down moved onto an empty column, or (Spider) part of
       a one-suit run moved off its own suit (neither gains anything).
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
        column = columns[source]
        size = int(np.count_nonzero(column))
        if move.count == size - int(down[source]) and down[source] > 0:
            return 4
        below = int(np.count_nonzero(columns[target]))
        if below == 0 and move.count == size:
            return -1
        if "waste" in observation:
            return 0
        head = int(column[size - move.count])
        cut = size - move.count - 1  # the card the moved cards lie on, if face up
        if cut >= down[source] and int(column[cut]) == head + 1 and head % 13:
            return -1  # it lies on its own suit's next card (head % 13 == 0: a King)
        if below == 0:
            return 0
        top = int(columns[target][below - 1])
        if (head - 1) // 13 == (top - 1) // 13:
            return 3
        return 2 if move.count == size else 0


class BotAgent:
    """The advisor's bot as an agent: asks ``Bot.choose`` about the env's game, and gives the
    game up (None) when the bot does (nothing it can do would show a card or win).

    ``kabale.advisor`` is imported when the agent is made (it loads the compiled solver).
    """

    def __init__(self, env: KabaleEnv, effort: str = "normal", seed: int | None = None) -> None:
        from ..advisor import Bot

        self.env = env
        self.bot: Bot = Bot(effort=effort, seed=seed)

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int | None:
        """The bot's move in the env's current game, as an action number (None: gives up)."""
        move = self.bot.choose(self.env.game)
        return None if move is None else self.env.action_of(move)


@dataclass(frozen=True)
class Episode:
    """How one episode ended: ``outcome`` is "won", "lost", "truncated" (``max_moves``
    reached) or "gave up" (the agent returned None)."""

    outcome: str
    steps: int
    reward: float


def play_episode(env: KabaleEnv, agent: Agent, seed: int | None = None) -> Episode:
    """Play one episode of deal ``seed`` with ``agent`` until it ends, is truncated or the
    agent gives up."""
    observation, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        action = agent.act(observation, info)
        if action is None:
            return Episode("gave up", steps, total)
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        if terminated or truncated:
            return Episode(info["outcome"] if terminated else "truncated", steps, total)
