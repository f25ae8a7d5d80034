"""Many small solves at a fixed cost in positions: the advisor's sampled worlds.

``solve_states`` decides each position with one lane of the family's search (no threads
racing, no clock), so a verdict depends only on the variant, the position and the node
budget: the same on any machine at any load. The lines it returns are the kernels' own, in
explicit notation, not yet replayed through core; whoever shows one to a player replays it
first (``kabale.solver.result.replay``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core import Game, KabaleError, State, Variant
from .spider import kernel_args as spider_args
from .spider import lanes_for, run_lane, suits_of
from .status import Status, verdict

#: the smallest table limit (MiB) a small solve gets; a table holds about 32 bytes a position
#: (Klondike's tables start small and grow up to it: about 21 bytes a position)
MIN_TABLE_MB = 1
MAX_TABLE_MB = 256


@dataclass(frozen=True, slots=True)
class Verdict:
    """One position's verdict within its budget: ``status`` is "solved", "unsolvable" or
    "unknown"; ``nodes`` the positions searched; ``line`` a winning line (explicit notation,
    not replayed) when solved."""

    status: str
    nodes: int
    line: tuple[str, ...] = ()


def table_mb(max_nodes: int) -> int:
    """A table with room for about twice ``max_nodes`` positions (in MiB, a power of two)."""
    size = MIN_TABLE_MB
    while size < MAX_TABLE_MB and size * 1024 * 1024 < 64 * max_nodes:
        size *= 2
    return size


def solve_states(variant: Variant, states: Sequence[State], max_nodes: int,
                 lines: bool = False) -> list[Verdict]:
    """Decide each of ``states`` (positions of ``variant`` with every card known) within
    ``max_nodes`` positions each, in one lane: deterministic verdicts in the given order,
    with the winning lines if ``lines`` asks for them. Klondike's are searched in one call
    of its kernel, on one table, with no Python between them."""
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes <= 0:
        raise KabaleError(f"bad max_nodes {max_nodes!r}: a positive integer")
    size = table_mb(max_nodes)
    if variant.family == "klondike":
        return klondike_states(variant, states, max_nodes, size, lines)
    return [solve_state(Game(variant, state, f"{variant}#position"), max_nodes, size, lines)
            for state in states]


def klondike_states(variant: Variant, states: Sequence[State], max_nodes: int, size: int,
                    lines: bool) -> list[Verdict]:
    """solve_states for the Klondike family: klondike.serial's lane (the kernel's
    solve_many) on one kernel whose table grows up to ``size`` MiB."""
    from ._klondike import new_kernel, solve_many
    from .klondike import PLAN, notation

    if not states:
        return []
    kernel = new_kernel(int(variant["draw"]), int(variant["passes"]), int(variant["decks"]),
                        bool(variant["back"]), variant["empty"] == "any", states[0], size)
    return [Verdict(verdict(status), nodes, tuple(notation(line)))
            for status, nodes, line in solve_many(kernel, states, max_nodes, lines, PLAN)]


def solve_state(game: Game, max_nodes: int, size: int, lines: bool = False) -> Verdict:
    """One position of ``game`` (its current state) in one deterministic lane, with a table
    of ``size`` MiB."""
    if game.variant.family == "klondike":
        return klondike_states(game.variant, [game.state], max_nodes, size, lines)[0]
    if game.rules.is_won(game.state):
        return Verdict(Status.SOLVED, 0)
    family = game.variant.family
    lane = lanes_for(family, 1, max_nodes, suits_of(game))[0]
    from ._spider import Halt
    from .spider import notation

    status, ops, nodes = run_lane(lane, family, spider_args(game), 0.0, max_nodes, size,
                                  Halt())
    line = notation(ops)
    return Verdict(status, nodes, tuple(line) if lines and status == Status.SOLVED else ())
