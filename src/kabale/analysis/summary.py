"""Counts and win rates of measured rows, with 95% Wilson intervals.

Undecided deals (the solver's "unknown") are counted both ways, as Blake & Gent do: the low
end of the interval counts them lost, the high end won, so the interval holds the true rate
of the sample's population whatever they turn out to be. The point estimate is the share of
the decided deals that are won.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..advisor import wilson
from ..storage.results import Row


@dataclass(frozen=True)
class Summary:
    """The rows of one (variant, player, budget): ``deals`` in all, of which ``wins``,
    ``losses`` and ``undecided``; ``counts`` per result; ``rate`` the won share of the
    decided ones (None if none was); ``low``..``high`` the 95% interval with the undecided
    counted both ways; ``seconds`` the CPU time of all; ``seeds`` their deal numbers."""

    variant: str
    player: str
    budget: str
    deals: int
    wins: int
    losses: int
    undecided: int
    rate: float | None
    low: float
    high: float
    seconds: float
    counts: dict[str, int] = field(default_factory=dict)
    seeds: tuple[int, ...] = ()

    def line(self) -> str:
        """One line for people: counts, then the rate with its interval."""
        counts = ", ".join(f"{n} {result}" for result, n in sorted(self.counts.items()))
        rate = "no deal decided" if self.rate is None else f"won {self.rate:.2%}"
        both = ", undecided counted both ways" if self.undecided else ""
        return (f"{self.variant}  {self.player} {self.budget}  {self.deals} deals: {counts}; "
                f"{rate} (95% {self.low:.2%}-{self.high:.2%}{both}); {self.seconds:.1f} CPU s")

    def to_dict(self) -> dict[str, object]:
        """JSON-safe data (the last object of ``kabale analyze --json``)."""
        return {"variant": self.variant, "player": self.player, "budget": self.budget,
                "deals": self.deals, "wins": self.wins, "losses": self.losses,
                "undecided": self.undecided, "counts": dict(self.counts),
                "rate": None if self.rate is None else round(self.rate, 6),
                "low": round(self.low, 6), "high": round(self.high, 6),
                "seconds": round(self.seconds, 3), "seeds": seed_ranges(self.seeds)}


def interval(wins: int, undecided: int, deals: int) -> tuple[float, float]:
    """The 95% interval of the win rate with ``undecided`` deals counted lost (low end) and
    won (high end)."""
    return wilson(wins, deals)[0], wilson(wins + undecided, deals)[1]


def summarize(rows: Sequence[Row]) -> Summary:
    """The summary of rows of one (variant, player, budget)."""
    if not rows:
        raise ValueError("no rows to summarize")
    first = rows[0]
    outcomes = Counter(row.outcome for row in rows)
    wins, undecided = outcomes["win"], outcomes["undecided"]
    low, high = interval(wins, undecided, len(rows))
    decided = len(rows) - undecided
    return Summary(first.variant, first.player, first.budget, len(rows), wins,
                   outcomes["loss"], undecided, wins / decided if decided else None, low, high,
                   sum(row.seconds for row in rows), dict(Counter(row.result for row in rows)),
                   tuple(sorted(row.seed for row in rows)))


def summarize_all(rows: Iterable[Row]) -> list[Summary]:
    """One summary per (variant, player, budget) among ``rows``, in that order."""
    groups: dict[tuple[str, str, str], list[Row]] = {}
    for row in rows:
        groups.setdefault((row.variant, row.player, row.budget), []).append(row)
    return [summarize(groups[key]) for key in sorted(groups)]


def seed_ranges(seeds: Iterable[int]) -> str:
    """Deal numbers as ``--seeds`` writes them: ``1-3,5`` for 1, 2, 3, 5."""
    parts: list[str] = []
    ordered = sorted(set(seeds))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ",".join(parts)
