"""kabale: Spider, Spiderette and Klondike patience. Play, solve and measure.

>>> import kabale
>>> g = kabale.Game.new("klondike", seed=7)
>>> g.deal_id
'klondike#7'
"""

from typing import TYPE_CHECKING

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


if TYPE_CHECKING:
    from .solver import Result


def solve(game: Game, max_seconds: float | None = 10.0, max_nodes: int | None = None,
          max_memory_mb: int = 512) -> "Result":
    """Decide the game's current position with every card known: "solved" (with a winning
    line that core has replayed), "unsolvable" or "unknown" (a limit was hit). The compiled
    solver is imported on first use. See :func:`kabale.solver.solve`."""
    from .solver import solve as _solve

    return _solve(game, max_seconds=max_seconds, max_nodes=max_nodes,
                  max_memory_mb=max_memory_mb)
