"""The solver's entry point and result: check the limits, run a kernel, replay the line."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from ..core import Game, KabaleError
from .replay import SolverBugError, replay, shorten
from .status import Status

__all__ = ["Result", "SolverBugError", "Status", "release_memory", "replay", "shorten", "solve"]


STATUSES = tuple(Status)


@dataclass(frozen=True)
class Result:
    """A verdict on a position: ``status`` is Status.SOLVED, UNSOLVABLE or UNKNOWN (a limit
    was hit), a StrEnum equal to "solved", "unsolvable" or "unknown"; ``moves`` is a winning
    line in notation from the position solved (empty unless solved); ``nodes`` counts
    searched positions; ``seconds`` is the wall time spent; ``found`` is the length of the
    line as the search found it, before its loops were cut, 0 unless solved. Whoever shows
    a Spider-family line to a person strips it first (lines.strip_line: kabale solve, the
    look-back), which ``solve`` leaves out to stay as fast as the search."""

    status: Status
    moves: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    found: int = 0

    def to_dict(self, deal_id: str) -> dict[str, object]:
        """The JSON object of ``kabale solve --json``."""
        return {"deal_id": deal_id, "status": str(self.status), "moves": list(self.moves),
                "nodes": self.nodes, "seconds": round(self.seconds, 6),
                "moves_found": self.found}


def _check_limits(max_seconds: float | None, max_nodes: int | None, max_memory_mb: int) -> None:
    # nan compares false with everything, so "<= 0" alone let it through as no limit at all.
    if max_seconds is not None and (isinstance(max_seconds, bool) or
                                    not isinstance(max_seconds, int | float) or
                                    not math.isfinite(max_seconds) or max_seconds <= 0):
        raise KabaleError(f"bad max_seconds {max_seconds!r}: a positive finite number of "
                          "seconds, or None for no time limit")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes <= 0):
        raise KabaleError(f"bad max_nodes {max_nodes!r}: a positive integer or None")
    if isinstance(max_memory_mb, bool) or not isinstance(max_memory_mb, int) or \
            not 16 <= max_memory_mb <= 65536:
        raise KabaleError(f"bad max_memory_mb {max_memory_mb!r}: an integer 16..65536")


def solve(game: Game, max_seconds: float | None = 10.0, max_nodes: int | None = None,
          max_memory_mb: int = 512) -> Result:
    """Decide the game's current position with every card known.

    Returns "solved" with a line that core has replayed to a win, "unsolvable" only after an
    exhaustive search under proven-safe reductions, "unknown" when a limit (time, nodes,
    memory) stopped the search first. The game is not changed. The transposition table gets
    about half of ``max_memory_mb``; the search stacks are capped by the rest. Where two
    cores are free, Klondike and Spiderette search in two threads at once (driver.race),
    which share those limits. The tables' memory is kept for the next solve (at most 1 GiB;
    release_memory hands it back).
    """
    if not isinstance(game, Game):
        raise KabaleError(f"solve needs a kabale.Game, not {type(game).__name__}")
    _check_limits(max_seconds, max_nodes, max_memory_mb)
    start = time.perf_counter()
    if game.outcome == "won":
        return Result(Status.SOLVED, [], 0, time.perf_counter() - start)
    family = game.variant.family
    if family == "klondike":
        from .klondike import run_klondike as run_kernel
    else:
        from .spider import run_spider as run_kernel
    status, moves, nodes = run_kernel(game, max_seconds or 0.0, max_nodes or 0,
                                      max(8, max_memory_mb // 2))
    found = len(moves) if status == Status.SOLVED else 0
    if status == Status.SOLVED:
        if family != "klondike":
            moves = shorten(game, moves)  # the Klondike kernel cuts its lines' loops itself
        moves = replay(game, moves)
    return Result(Status(status), moves if status == Status.SOLVED else [], nodes,
                  time.perf_counter() - start, found)


def release_memory() -> None:
    """Hand back to the system the transposition tables that finished searches keep for
    the next solve (up to 1 GiB: fresh memory costs a page clear at its first touch, a
    large share of a long search on some machines)."""
    from . import _klondike, _spider

    _klondike.release_spares()
    _spider.release_spares()
