"""Spider family: pack a core State for the Cython kernel and read its line back."""

from __future__ import annotations

from ..core import Game
from ._spider import SpiderKernel
from .driver import drive
from .klondike import code


def run_spider(game: Game, max_seconds: float, max_nodes: int,
               table_mb: int) -> tuple[str, list[str], int]:
    """(status, line in notation, nodes searched) for the game's current position."""
    s = game.state
    total = 52 if game.variant.family == "spiderette" else 104
    kernel = SpiderKernel(
        bool(game.variant["strict"]), total, [[code(c) for c in col] for col in s.columns],
        list(s.down), [code(c) for c in s.stock], len(s.foundations), table_mb,
    )
    status, ops = drive(kernel, max_seconds, max_nodes)
    moves = ["d" if kind == 1 else f"{a + 1}:{n}>{b + 1}" for kind, a, b, n in ops]
    return status, moves, kernel.nodes
