"""Effort levels: budgets in positions and samples, never in seconds, so that the same game,
effort and seed give the same answer on any machine at any load."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..core import KabaleError, Variant

LEVELS = ("quick", "normal", "strong")


@dataclass(frozen=True)
class Effort:
    """The budgets of one effort level for one family.

    - ``worlds``: worlds sampled to choose a move (the most any plan is tried on);
      ``solves``: world solves in all for one choice; ``nodes``: positions per world solve.
    - ``closure``: positions of the plan search (the moves that reveal nothing, plans.py);
      ``proposals``: worlds solved from the position itself (``chance_nodes`` each) whose
      winning lines propose plans too; ``reach``: positions a Spider world's worth looks at
      after a plan (value.py).
    - ``chance_samples`` and ``chance_nodes``: win_chance's worlds and positions per world.
    - ``exact_nodes``: positions for a position whose every card is known.
    """

    name: str
    worlds: int
    solves: int
    nodes: int
    closure: int
    proposals: int
    reach: int
    chance_samples: int
    chance_nodes: int
    exact_nodes: int


EFFORTS: dict[str, dict[str, Effort]] = {
    "klondike": {
        "quick": Effort("quick", 24, 120, 600, 400, 4, 10, 32, 2_000, 200_000),
        "normal": Effort("normal", 64, 400, 1_000, 1_500, 8, 30, 64, 5_000, 1_000_000),
        "strong": Effort("strong", 512, 4_000, 1_000, 4_000, 16, 100, 128, 20_000, 5_000_000),
    },
    "spiderette": {
        "quick": Effort("quick", 12, 60, 4_000, 300, 4, 10, 32, 20_000, 1_000_000),
        "normal": Effort("normal", 24, 150, 10_000, 1_000, 8, 30, 64, 50_000, 5_000_000),
        "strong": Effort("strong", 48, 500, 40_000, 3_000, 16, 100, 128, 200_000, 20_000_000),
    },
    "spider": {
        "quick": Effort("quick", 8, 40, 8_000, 300, 4, 10, 16, 50_000, 2_000_000),
        "normal": Effort("normal", 16, 100, 20_000, 1_000, 8, 30, 32, 100_000, 10_000_000),
        "strong": Effort("strong", 32, 300, 60_000, 3_000, 16, 100, 64, 400_000, 40_000_000),
    },
}


def effort_for(variant: Variant, effort: str | Effort) -> Effort:
    """The budgets of ``effort`` (a level's name, or an Effort as it is) for the variant."""
    if isinstance(effort, Effort):
        return effort
    levels = EFFORTS[variant.family]
    if effort not in levels:
        raise KabaleError(f"unknown effort {effort!r}; valid: {', '.join(LEVELS)}")
    return levels[effort]


def scaled(effort: Effort, **budgets: int) -> Effort:
    """A copy of ``effort`` with some budgets changed (benchmarks and tests)."""
    return replace(effort, **budgets)
