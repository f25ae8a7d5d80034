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
    - ``race``: the plans race on common worlds (Klondike's tuning), instead of successive
      halving on worlds of their own (the Spider family's, which their worth in value.py
      was tuned with: docs/advisor.md).
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
    race: bool = False


EFFORTS: dict[str, dict[str, Effort]] = {
    "klondike": {
        "quick": Effort("quick", worlds=24, solves=120, nodes=600, closure=400,
                         proposals=4, reach=10, chance_samples=32,
                         chance_nodes=2_000, exact_nodes=200_000, race=True),
        "normal": Effort("normal", worlds=64, solves=400, nodes=1_000, closure=1_500,
                         proposals=8, reach=30, chance_samples=64,
                         chance_nodes=5_000, exact_nodes=1_000_000, race=True),
        "strong": Effort("strong", worlds=512, solves=4_000, nodes=1_000, closure=4_000,
                         proposals=16, reach=100, chance_samples=128,
                         chance_nodes=20_000, exact_nodes=5_000_000, race=True),
    },
    "spiderette": {
        "quick": Effort("quick", worlds=12, solves=60, nodes=4_000, closure=300,
                         proposals=4, reach=10, chance_samples=32,
                         chance_nodes=20_000, exact_nodes=1_000_000),
        "normal": Effort("normal", worlds=24, solves=150, nodes=10_000, closure=1_000,
                         proposals=8, reach=30, chance_samples=64,
                         chance_nodes=50_000, exact_nodes=5_000_000),
        "strong": Effort("strong", worlds=48, solves=500, nodes=40_000, closure=3_000,
                         proposals=16, reach=100, chance_samples=128,
                         chance_nodes=200_000, exact_nodes=20_000_000),
    },
    "spider": {
        "quick": Effort("quick", worlds=8, solves=40, nodes=8_000, closure=300,
                         proposals=4, reach=10, chance_samples=16,
                         chance_nodes=50_000, exact_nodes=2_000_000),
        "normal": Effort("normal", worlds=16, solves=100, nodes=20_000, closure=1_000,
                         proposals=8, reach=30, chance_samples=32,
                         chance_nodes=100_000, exact_nodes=10_000_000),
        "strong": Effort("strong", worlds=32, solves=300, nodes=60_000, closure=3_000,
                         proposals=16, reach=100, chance_samples=64,
                         chance_nodes=400_000, exact_nodes=40_000_000),
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
