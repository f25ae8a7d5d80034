"""What a world is worth after a plan.

Klondike: 1 if the solver wins it within the budget, 0 if it proves it lost, and
``UNDECIDED`` if it decides neither: a plan whose worlds are proved lost is worse than one
whose worlds are merely hard (lonelybot counts both as 0).

Spider and Spiderette: with every card known nearly every position of a deal is won, so
before the last deal the solver's verdicts tell plans apart only by how soon a win is
proved, which rewards dealing early (a position with fewer cards to deal is proved sooner,
not better). There a world is worth the progress of the best position it reaches by moves
that show nothing more (``progress``, a logistic of a score after the solver's beam weights:
removed runs, cards on the next rank, of their suit above all, and empty columns, against
cards on any other card and face-down cards): what a player
who has just seen the plan's card can make of it without knowing the rest. From the last deal
on, the solver's verdict decides: 1 won, 0 lost, half the progress if undecided.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from ..core import State, Variant
from ..core.game import Rules
from ..solver.batch import solve_states
from .knowledge import sight

#: weights of the progress score: per run removed, card on the next rank of its suit, on the
#: next rank of another suit, on any other card (a break), empty column, face-down card
RUN, LINK, NATURAL, BREAK, EMPTY, HIDDEN = 13.0, 1.0, 0.3, 1.0, 3.0, 0.75
SCALE = 8.0  # score units per step of the logistic

#: an undecided Klondike world's worth, between a lost world's and a won one's: a larger
#: search wins a good share of such worlds (docs/benchmarks-log-2026.md, bench/undecided_worlds.py)
UNDECIDED = 0.5


def progress(state: State) -> float:
    """A Spider position's progress in (0, 1), the logistic of its score (``score``)."""
    return 1.0 / (1.0 + math.exp(-score(state) / SCALE))


def score(state: State) -> float:
    """A Spider position's progress score (module docstring): RUN per run removed, LINK per
    card on the next rank of its suit, NATURAL per card on the next rank of another suit,
    EMPTY per empty column, less BREAK per card on any other card and HIDDEN per face-down
    card. It reads only cards in sight."""
    links = naturals = breaks = 0
    for pile, down in zip(state.columns, state.down, strict=True):
        below = None
        for above in pile[down:]:  # each face-up card on the one below it
            if below is not None:
                if below.rank != above.rank + 1:
                    breaks += 1
                elif below.suit == above.suit:
                    links += 1
                else:
                    naturals += 1
            below = above
    return RUN * len(state.foundations) + LINK * links + NATURAL * naturals - \
        BREAK * breaks + EMPTY * sum(not pile for pile in state.columns) - \
        HIDDEN * sum(state.down)


Reach = Callable[[State], list[State]]
Outlook = Callable[[State], float]


def outlook(reach: Reach, worth: Outlook = progress) -> Outlook:
    """The best progress (``worth``, progress by default; the review's scale is another
    monotone function of the score) of a Spider position and of the positions ``reach`` lists for it
    (those it reaches by moves that show nothing), worked out once for each look of a
    position: those moves read only cards in sight, so positions a player sees alike reach
    positions that look alike, and progress reads only cards in sight too. Worlds can look
    alike after a plan (its one new card is one of 13 or 26 kinds with one or two suits)."""
    best: dict[Hashable, float] = {}

    def look(state: State) -> float:
        key = sight(state, False)
        if key not in best:
            best[key] = max(worth(s) for s in [state, *reach(state)])
        return best[key]

    return look


def worths(variant: Variant, rules: Rules, finals: list[State], nodes: int,
           ahead: Outlook, spent: list[int] | None = None) -> list[tuple[bool, float]]:
    """(won, worth) of each world's position after a plan (module docstring); ``ahead``
    gives the best progress a Spider position reaches by moves that show nothing
    (``outlook``). ``spent[0]``, when given, has the positions the solves searched added."""
    if rules.has_waste:  # Klondike: the solver alone; the Spider family: progress too
        verdicts = solve_states(variant, finals, nodes)
        if spent is not None:
            spent[0] += sum(v.nodes for v in verdicts)
        worth = {"solved": 1.0, "unsolvable": 0.0, "unknown": UNDECIDED}
        return [(v.status == "solved", worth[v.status]) for v in verdicts]
    out: list[tuple[bool, float]] = [(False, 0.0)] * len(finals)
    ended = [i for i, state in enumerate(finals) if not state.stock]
    verdicts = solve_states(variant, [finals[i] for i in ended], nodes)
    if spent is not None:
        spent[0] += sum(v.nodes for v in verdicts)
    for i, verdict in zip(ended, verdicts, strict=True):
        won = verdict.status == "solved"
        out[i] = (won, 1.0 if won else 0.0 if verdict.status == "unsolvable"
                  else 0.5 * progress(finals[i]))
    for i, state in enumerate(finals):
        if state.stock:
            out[i] = (False, ahead(state))
    return out
