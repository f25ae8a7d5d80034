"""Win chance: the share of consistent worlds that a perfect-information player wins."""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Game, KabaleError
from ..solver.batch import solve_states
from .effort import Effort, effort_for
from .interval import wilson
from .knowledge import knowledge
from .worlds import rng_for, sample_positions


@dataclass(frozen=True)
class Chance:
    """``value``: the share of the sampled worlds that are won, an undecided world counted
    as not won; ``low``..``high``: a 95% interval with the undecided worlds counted as lost
    for ``low`` and as won for ``high`` (Blake & Gent); ``samples`` worlds in all, of which
    ``wins`` won and ``undecided`` not decided within the budget.

    An undecided world counts as lost in ``value`` because within a small budget the solver
    finds a win (one line) far sooner than it proves a loss (every line): the worlds it
    leaves open are mostly lost ones, and leaving them out overstates the chance."""

    value: float
    low: float
    high: float
    samples: int
    wins: int
    undecided: int

    def to_dict(self) -> dict[str, float | int]:
        """The JSON object the HTTP API sends."""
        return {"value": round(self.value, 4), "low": round(self.low, 4),
                "high": round(self.high, 4), "samples": self.samples, "wins": self.wins,
                "undecided": self.undecided}


def chance_of(wins: int, losses: int, undecided: int) -> Chance:
    """The Chance of counted verdicts."""
    samples = wins + losses + undecided
    low = wilson(wins, samples)[0]
    high = wilson(wins + undecided, samples)[1]
    return Chance(wins / samples if samples else 0.0, low, high, samples, wins, undecided)


def certain(status: str, samples: int) -> Chance:
    """The Chance of a position whose every card is known: 1 or 0 as the solver decided it;
    value 0 in an interval 0..1 when it did not (undecided counts as not won)."""
    if status == "unknown":
        return Chance(0.0, 0.0, 1.0, samples, 0, samples)
    won = status == "solved"
    return Chance(float(won), float(won), float(won), samples, samples if won else 0, 0)


def win_chance(game: Game, samples: int | None = None, seed: int | None = None,
               effort: str | Effort = "normal") -> Chance:
    """The chance that the position can still be won, from what the player has seen: the
    share of ``samples`` consistent worlds (the effort's number when None) that the
    full-information solver wins within the effort's budget of positions per world."""
    level = effort_for(game.variant, effort)
    count = level.chance_samples if samples is None else samples
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise KabaleError(f"bad number of samples {samples!r}: a positive integer")
    outcome = game.outcome
    if outcome != "playing":
        return certain("solved" if outcome == "won" else "unsolvable", count)
    k = knowledge(game)
    if k.complete:  # one world, the true one: the solver's verdict is the answer
        (verdict,) = solve_states(game.variant, [k.position(iter(()))], level.exact_nodes)
        return certain(verdict.status, count)
    positions = sample_positions(k, count, rng_for(seed))
    verdicts = solve_states(game.variant, positions, level.chance_nodes)
    wins = sum(v.status == "solved" for v in verdicts)
    losses = sum(v.status == "unsolvable" for v in verdicts)
    return chance_of(wins, losses, count - wins - losses)
