"""Klondike family: pack a core State for the Cython kernel and read its line back."""

from __future__ import annotations

import time

from ..core import Game
from ..core.cards import Card
from ._klondike import KlondikeKernel
from .driver import RESTARTS, drive

# share of the limits for the search without foundation-to-tableau moves (back=true only;
# 0: none). On draw-3 deals 1-1000 at 22M positions, 0.3 left 19 unknown, 0.1 16 and 0 17.
WITHOUT_BACK = 0.1
# shuffled restarts of the search with those moves, after that one: none, as the first
# search had its restarts (same deals 16 unknown, 9% fewer positions in all; draw 1: 7
# unknown, not 8)
RESTARTS_WITH_BACK = 0
# kernel op kinds (see _klondike.pyx)
T2T, T2F, W2T, W2F, F2T = range(5)


def code(card: Card) -> int:
    """The kernels' card code: suit * 13 + rank - 1 (suits S H D C = 0..3)."""
    return int(card.suit) * 13 + card.rank - 1


def kernel_for(game: Game, table_mb: int) -> KlondikeKernel:
    """A kernel loaded with the game's current true state."""
    v = game.variant
    s = game.state
    return KlondikeKernel(
        int(v["draw"]), int(v["passes"]), int(v["decks"]), bool(v["back"]), v["empty"] == "any",
        [[code(c) for c in col] for col in s.columns], list(s.down),
        [code(c) for c in s.stock], [code(c) for c in s.waste],
        [len(f) for f in s.foundations], s.passes_used, table_mb,
    )


def notation(ops: list[tuple[int, int, int, int, int]]) -> list[str]:
    """The kernel's atomic operations as moves in explicit notation."""
    out: list[str] = []
    for kind, a, b, n, draws in ops:
        if kind == T2T:
            out.append(f"{a + 1}:{n}>{b + 1}")
        elif kind == T2F:
            out.append(f"{a + 1}>f")
        elif kind == F2T:
            out.append(f"f{a + 1}>{b + 1}")
        else:
            out.extend(["d"] * draws)
            out.append("w>f" if kind == W2F else f"w>{b + 1}")
    return out


def run_klondike(game: Game, max_seconds: float, max_nodes: int,
                 table_mb: int) -> tuple[str, list[str], int]:
    """(status, line in notation, nodes searched) for the game's current position.

    When cards may come back from the foundations, a share of the limits first goes to a
    search that never brings one back: far fewer positions, and a win it finds is a win of
    the real game too (core replays it), though its "unsolvable" proves nothing here."""
    kernel = kernel_for(game, table_mb)
    start = time.perf_counter()
    restarts = RESTARTS
    if kernel.back and WITHOUT_BACK > 0:
        kernel.back = False
        status, ops = drive(kernel, max_seconds * WITHOUT_BACK,
                            max(int(max_nodes * WITHOUT_BACK), 1) if max_nodes else 0)
        kernel.back = True
        if status == "solved":
            return status, notation(ops), kernel.nodes
        if max_nodes and kernel.nodes >= max_nodes:
            return "unknown", [], kernel.nodes  # drive counts the nodes spent so far
        if max_seconds:
            max_seconds = max(max_seconds - (time.perf_counter() - start), 0.001)
        restarts = RESTARTS_WITH_BACK
    status, ops = drive(kernel, max_seconds, max_nodes, restarts)
    return status, notation(ops), kernel.nodes
