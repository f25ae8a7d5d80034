"""The bot: plays from what it has seen, plan by plan (choose.py), and autoplay."""

from __future__ import annotations

import weakref

from ..core import Game, KabaleError, Move, Variant
from .choose import SCHEMES, choose
from .effort import LEVELS, Effort, effort_for
from .knowledge import knowledge
from .worlds import rng_for

#: autoplay gives up after this many moves (a bot never needs as many: each plan shows a card)
MAX_MOVES = 5000

#: the bot gives up after this many choices in a row that only move on (Choice.moves_on):
#: by then the positions near the start have been searched from many places without a card
#: to show, and wandering further costs a choice's budget each time
MAX_MOVING_ON = 20


def decision_seed(seed: int | None, moves_made: int) -> int | None:
    """The seed of the choice made after ``moves_made`` moves: each choice draws fresh
    worlds, and a game's answers depend on its seed and its position only."""
    if seed is None:
        return None
    return rng_for((seed + 0x9E3779B97F4A7C15 * (moves_made + 1)) % 2**64).next_u32()


class Bot:
    """A player that sees only what a player sees. ``choose(game)`` returns its move, or
    None when it gives up (nothing it can do will show a card or win, or it has only moved
    on for ``MAX_MOVING_ON`` choices in a row). It follows the plan it chose to its last
    move (one that shows a card, or in Klondike one that cannot be undone), then chooses
    again; ``scheme`` is "plans" (the default) or "vote" (plain voting, to measure
    against); ``stock_known`` is a benchmark setting in which the Klondike stock's order is
    known from the start."""

    def __init__(self, effort: str | Effort = "normal", seed: int | None = None,
                 scheme: str = "plans", stock_known: bool = False) -> None:
        if scheme not in SCHEMES:
            raise KabaleError(f"unknown scheme {scheme!r}; valid: {', '.join(SCHEMES)}")
        if not isinstance(effort, Effort) and effort not in LEVELS:
            raise KabaleError(f"unknown effort {effort!r}; valid: {', '.join(LEVELS)}")
        self.effort = effort
        self.seed = seed
        self.scheme = scheme
        self.stock_known = stock_known
        # the rest of the plan being played: for which game, after which moves
        self._game: weakref.ref[Game] | None = None
        self._after: list[Move] = []
        self._rest: list[Move] = []
        self._moving_on = 0  # choices in a row that only moved on, in that game

    def choose(self, game: Game) -> Move | None:
        """The bot's move in ``game``'s position (None: it gives up, or the game is over)."""
        if game.outcome != "playing":
            return None
        if self._rest and self._game is not None and self._game() is game and \
                game.history == self._after:
            move = self._rest.pop(0)
        else:
            k = knowledge(game, self.stock_known)
            level = effort_for(game.variant, self.effort)
            choice = choose(game, k, level, decision_seed(self.seed, game.moves_made),
                            self.scheme)
            same_game = self._game is not None and self._game() is game
            self._moving_on = self._moving_on + 1 if choice.moves_on and same_game else \
                int(choice.moves_on)
            if choice.hopeless or not choice.ranked or self._moving_on > MAX_MOVING_ON:
                self._rest = []
                return None
            move, *self._rest = choice.ranked[0].plan.moves
        self._game = weakref.ref(game)
        self._after = [*game.history, move]
        return move


def autoplay(variant: str | Variant, seed: int | None = None, bot: Bot | None = None,
             max_moves: int = MAX_MOVES) -> Game:
    """Deal ``variant`` (deal number ``seed``) and let ``bot`` play it to the end: a won
    game, a lost one, or one the bot gave up (still "playing", see Bot)."""
    game = Game.new(variant, seed)
    bot = bot or Bot()
    while game.moves_made < max_moves:
        move = bot.choose(game)
        if move is None:
            break
        game.play(move)
    return game
