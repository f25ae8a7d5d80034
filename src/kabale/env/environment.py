"""KabaleEnv: one game of any variant as a Gymnasium environment (docs/env.md).

The env keeps the true game (a core ``Game``, hidden cards included) and shows the learner only
the player's view (view.py). It steps with the rules' unchecked ``apply``, which is sound
because it only ever plays a move from the rules' own legal list; the core ``Game`` behind
:attr:`KabaleEnv.game` replays the same moves through the checked ``Game.play`` when it is
asked for, so the two can never disagree silently.
"""

from __future__ import annotations

import operator
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np

from ..core.deal import MAX_SEED
from ..core.errors import KabaleError
from ..core.game import Game, rules_for
from ..core.state import Move, State
from ..core.variants import Variant, parse_variant
from .actions import ActionTable
from .view import View

DEFAULT_MAX_MOVES = 1000


def variant_with(variant: str | Variant, options: dict[str, Any]) -> Variant:
    """``variant`` with keyword options on top: ``variant_with("klondike", {"draw": 3})``.

    Values may be Python values (3, True, "any") or their notation ("3", "true"); a bad name
    or value raises NotationError naming it and the valid choices.
    """
    base = parse_variant(variant)
    if not options:
        return base
    text = ",".join(f"{name}={_notation(value)}" for name, value in options.items())
    changed = dict(parse_variant(f"{base.family}:{text}").options)
    merged = dict(base.options)
    merged.update({name: changed[name] for name in options})
    return Variant(base.family, merged)


def _action_number(action: Any, size: int) -> int:
    """``action`` as an int of the space 0..size-1, else KabaleError."""
    try:
        number = operator.index(action)
    except TypeError:
        number = -1
    if not 0 <= number < size:
        raise KabaleError(f"bad action {action!r}: an integer 0..{size - 1}")
    return number


def _notation(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class KabaleEnv(gym.Env[dict[str, np.ndarray], np.int64]):
    """A patience game as an environment: ``KabaleEnv("spider:suits=2")``.

    - ``variant`` and keyword ``options``: any variant string, with options on top
      (``KabaleEnv("klondike", draw=3)``).
    - ``max_moves``: the episode is truncated after this many steps (None: never); random play
      can cycle forever. A refused action counts as a step.
    - ``shaped``: add the potential-based progress reward of docs/env.md to the win reward.
    - ``render_mode``: None or "ansi" (``render()`` returns ``str(game)``).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, variant: str | Variant = "klondike", *,
                 max_moves: int | None = DEFAULT_MAX_MOVES, shaped: bool = False,
                 render_mode: str | None = None, **options: Any) -> None:
        self.variant = variant_with(variant, options)
        if max_moves is not None and (isinstance(max_moves, bool)
                                      or not isinstance(max_moves, int) or max_moves < 1):
            raise KabaleError(f"bad max_moves {max_moves!r}: a whole number >= 1, or None")
        if render_mode not in (None, "ansi"):
            raise KabaleError(f"bad render_mode {render_mode!r}: None or 'ansi'")
        self.max_moves = max_moves
        self.shaped = bool(shaped)
        self.render_mode = render_mode
        self.rules = rules_for(self.variant)
        self.actions = ActionTable.for_rules(self.rules)
        self.view = View(self.variant, self.rules)
        self.action_space = gym.spaces.Discrete(len(self.actions))
        self.observation_space = self.view.space  # type: ignore[assignment]
        self._game: Game | None = None
        self._played: list[Move] = []  # moves not yet replayed on self._game
        self._state: State | None = None
        self._legal: dict[int, Move] = {}
        self._mask = np.zeros(len(self.actions), bool)
        self._steps = 0
        self._outcome = "playing"

    # ------------------------------------------------------------------ episodes
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                             dict[str, Any]]:
        """Start an episode: deal number ``seed`` (else one drawn from the env's generator,
        itself seeded by the last ``seed`` given), or ``options={"game": game}`` to play on
        from a copy of any Game of this variant, or ``options={"deal_id": text}``."""
        super().reset(seed=seed)
        game = self._start(seed, options or {})
        self._game, self._played = game, []
        self._state = game.state
        self._steps = 0
        self.view.reset()
        self._refresh()
        return self._observation(), self._info(False)

    def _start(self, seed: int | None, options: dict[str, Any]) -> Game:
        if set(options) - {"game", "deal_id"} or len(options) > 1:
            raise KabaleError(f"bad reset options {sorted(options)!r}: give at most one of "
                              "'game' (a Game) or 'deal_id' (text)")
        if "game" in options:
            given = options["game"]
            if not isinstance(given, Game):
                raise KabaleError(f"bad reset option game={given!r}: expected a kabale Game")
            game = given.copy()
        elif "deal_id" in options:
            game = Game.from_deal_id(options["deal_id"])
        else:
            number = seed if seed is not None else int(self.np_random.integers(MAX_SEED // 2))
            if number > MAX_SEED:
                raise KabaleError(f"bad seed {number!r}: a deal number is 0..{MAX_SEED}")
            game = Game.new(self.variant, number)
        if game.variant != self.variant:
            raise KabaleError(f"the game's variant {str(game.variant)!r} is not this env's "
                              f"{str(self.variant)!r}")
        self.view.check_fits(game.state)
        return game

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool,
                                         dict[str, Any]]:
        """Play action number ``action``. A legal action plays its move; any other action of
        the space changes nothing (``info["illegal"]`` is True). Reward: 1 on the winning
        move, plus the shaped reward if asked for."""
        state = self._state
        if state is None:
            raise KabaleError("step() before reset(): call reset() first")
        if self._outcome != "playing" or self._truncated():
            raise KabaleError(f"the episode has ended ({self._outcome}); call reset()")
        number = _action_number(action, len(self.actions))
        self._steps += 1
        move = self._legal.get(number)
        reward = 0.0
        if move is not None:
            after = self.rules.apply(state, move)
            self._played.append(move)
            self._state = after
            self._refresh()
            if self._outcome == "won":
                reward = 1.0
            if self.shaped:
                reward += self._potential(after) - self._potential(state)
        return (self._observation(), reward, self._outcome != "playing", self._truncated(),
                self._info(move is None))

    def _refresh(self) -> None:
        """Legal moves, mask and outcome of the current state."""
        state = self._state
        assert state is not None
        legal = self.rules.legal_moves(state)
        key = self.actions.by_key
        self._legal = by_action = {key[m.source, m.target, m.count]: m for m in legal}
        self._mask = mask = np.zeros(len(self.actions), bool)
        mask[list(by_action)] = True
        if self.rules.is_won(state):
            self._outcome = "won"
        elif self.rules.is_lost(state, legal):
            self._outcome = "lost"
        else:
            self._outcome = "playing"

    def _truncated(self) -> bool:
        return (self._outcome == "playing" and self.max_moves is not None
                and self._steps >= self.max_moves)

    def _potential(self, state: State) -> float:
        """Cards on the foundations minus cards face down, per card of the deck."""
        home = sum(len(pile) for pile in state.foundations)
        return (home - sum(state.down)) / self.rules.n_cards

    def _observation(self) -> dict[str, np.ndarray]:
        assert self._state is not None
        return self.view.observe(self._state, self._steps)

    def _info(self, illegal: bool) -> dict[str, Any]:
        return {"action_mask": self._mask.copy(), "legal": [m.text for m in
                self._legal.values()], "outcome": self._outcome, "illegal": illegal}

    # ------------------------------------------------------------------ for agents and people
    def action_masks(self) -> np.ndarray:
        """The legal actions as a boolean array (sb3-contrib MaskablePPO's convention)."""
        return self._mask.copy()

    def action_of(self, move: Move | str) -> int:
        """The action number of a legal move (a Move, or notation such as ``"3>7"``)."""
        game = self.game
        played = game.parse_move(move) if isinstance(move, str) else move
        action = self.actions.action(played)
        if action not in self._legal:
            raise KabaleError(f"move {str(played)!r} is not legal here; legal: "
                              f"{', '.join(m.text for m in self._legal.values()) or 'none'}")
        return action

    @property
    def game(self) -> Game:
        """The env's true game (every card, for adapters such as the bot and for people; never
        an input for a learner). The env's moves are replayed on it through ``Game.play``."""
        game = self._game
        if game is None:
            raise KabaleError("no game yet: call reset() first")
        for move in self._played:
            game.play(move)
        self._played.clear()
        return game

    def render(self) -> str | None:
        """``str(game)`` when ``render_mode="ansi"``, else None."""
        if self.render_mode != "ansi":
            return None
        return str(self.game)
