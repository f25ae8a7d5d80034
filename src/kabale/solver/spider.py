"""Spider family: pack a core State for the Cython kernel and read its line back."""

from __future__ import annotations

from ..core import Game
from ._spider import SpiderKernel
from .klondike import code

_STATUS = {1: "solved", 0: "unsolvable", -1: "unknown", -2: "unknown"}


def run_spider(game: Game, max_seconds: float, max_nodes: int,
               table_mb: int) -> tuple[str, list[str], int]:
    """(status, line in notation, nodes searched) for the game's current position."""
    s = game.state
    total = 52 if game.variant.family == "spiderette" else 104
    kernel = SpiderKernel(
        bool(game.variant["strict"]), total, [[code(c) for c in col] for col in s.columns],
        list(s.down), [code(c) for c in s.stock], len(s.foundations), table_mb,
    )
    status, ops = kernel.run(max_nodes, max_seconds)
    moves = ["d" if kind == 1 else f"{a + 1}:{n}>{b + 1}" for kind, a, b, n in ops]
    return _STATUS[status], moves, kernel.nodes
