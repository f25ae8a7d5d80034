"""kabale: Spider, Spiderette and Klondike patience. Play, solve and measure.

>>> import kabale
>>> g = kabale.Game.new("klondike", seed=7)
>>> g.deal_id
'klondike#7'
"""

from typing import Any

from .core import (
    Card,
    Game,
    IllegalMoveError,
    InvalidDealError,
    InvalidSaveError,
    KabaleError,
    Move,
    NotationError,
    State,
    Suit,
    Variant,
    parse_variant,
)

__version__ = "0.1.0"

__all__ = [
    "Card", "Game", "IllegalMoveError", "InvalidDealError", "InvalidSaveError", "KabaleError",
    "Move", "NotationError", "State", "Suit", "Variant", "parse_variant", "solve",
]


def solve(game: Game, *args: Any, **kwargs: Any) -> Any:
    """Decide a game with full information; see :func:`kabale.solver.solve`."""
    from .solver import solve as _solve

    return _solve(game, *args, **kwargs)
