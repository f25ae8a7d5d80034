"""kabale: Spider, Spiderette and Klondike patience. Play, solve and measure.

>>> import kabale
>>> g = kabale.Game.new("klondike", seed=7)
>>> g.deal_id
'klondike#7'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "Card", "Game", "IllegalMoveError", "InvalidDealError", "InvalidSaveError", "KabaleError",
    "Move", "NotationError", "State", "Suit", "Variant", "parse_variant", "solve",
    # the advisor (docs/advisor.md), imported on first use
    "Bot", "autoplay", "hint", "knowledge", "postmortem", "review", "win_chance",
    "worlds",
]
ADVISOR = ("Bot", "autoplay", "hint", "knowledge", "postmortem", "review", "win_chance",
           "worlds")


#: the rules' names, imported from kabale.core on first use: ``import kabale`` itself costs
#: next to nothing, so the ``kabale`` command can take Ctrl-C from its first milliseconds
#: (kabale._entry)
CORE = ("Card", "Game", "IllegalMoveError", "InvalidDealError", "InvalidSaveError",
        "KabaleError", "Move", "NotationError", "State", "Suit", "Variant", "parse_variant")


if TYPE_CHECKING:
    from .advisor import Bot, autoplay, hint, knowledge, postmortem, review, win_chance, worlds
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
    from .solver import Result


def __getattr__(name: str) -> Any:
    """The rules' names and the advisor's (with the compiled solver), imported on first
    use."""
    if name in CORE:
        value = getattr(import_module(f"{__name__}.core"), name)
        globals()[name] = value
        return value
    if name in ADVISOR:
        from . import advisor

        return getattr(advisor, name)
    raise AttributeError(f"module 'kabale' has no attribute {name!r}")


def solve(game: Game, max_seconds: float | None = 10.0, max_nodes: int | None = None,
          max_memory_mb: int = 512) -> Result:
    """Decide the game's current position with every card known: "solved" (with a winning
    line that core has replayed), "unsolvable" or "unknown" (a limit was hit). The compiled
    solver is imported on first use. See :func:`kabale.solver.solve`."""
    from .solver import solve as _solve

    return _solve(game, max_seconds=max_seconds, max_nodes=max_nodes,
                  max_memory_mb=max_memory_mb)
