"""The true state of a table and the Move value. Both are immutable.

``State`` holds every card, face-down ones included; it is what the rules and the solver work
on and never what a player is shown (see observe.py). Columns and piles list their cards
bottom first, top (exposed, playable) last. Immutability makes undo a matter of keeping the
previous state: a move builds a new State sharing every pile it did not touch.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import Card

Pile = tuple[Card, ...]

STOCK = "d"
WASTE = "w"
FOUNDATION = "f"


@dataclass(frozen=True, slots=True)
class State:
    """Every card on the table, plus the counters the rules and the score need.

    - ``columns[i]``: column i+1, bottom card first; its bottom ``down[i]`` cards are face down.
    - ``stock``: bottom first, top (the next card drawn or dealt) last.
    - ``waste``: Klondike's waste, bottom first, top (the playable card) last; empty in Spider.
    - ``foundations``: Klondike: one pile per foundation (f1..f4 = S H D C, f5..f8 again in
      Double Klondike), Ace first. Spider family: the removed King-to-Ace runs, in the order
      they were removed, each King first.
    - ``passes_used``: Klondike: how many times the waste has been turned back into the stock.
    - ``score``: the score after the moves that led here.
    """

    columns: tuple[Pile, ...]
    down: tuple[int, ...]
    stock: Pile
    waste: Pile
    foundations: tuple[Pile, ...]
    passes_used: int = 0
    score: int = 0

    def all_cards(self) -> list[Card]:
        """Every card in the state, wherever it lies (for conservation checks)."""
        cards: list[Card] = [*self.stock, *self.waste]
        for pile in (*self.columns, *self.foundations):
            cards.extend(pile)
        return cards


#: ``Place.column`` of a stock place
IN_STOCK = -1


@dataclass(frozen=True, slots=True)
class Place:
    """Where one card of a deal lands: ``column`` (0-based; IN_STOCK for the stock) and
    ``index`` in that pile, counted from its bottom (0)."""

    column: int
    index: int


def lay_out(places: Sequence[Place], deck: Sequence[Card],
            n_columns: int) -> tuple[tuple[Pile, ...], Pile]:
    """The columns and the stock (bottom first) after dealing ``deck[i]`` to ``places[i]``
    (the places of each pile must be 0, 1, 2, ... in some order)."""
    at = dict(zip(places, deck, strict=True))
    sizes = Counter(place.column for place in places)
    columns = tuple(tuple(at[Place(col, i)] for i in range(sizes[col]))
                    for col in range(n_columns))
    return columns, tuple(at[Place(IN_STOCK, i)] for i in range(sizes[IN_STOCK]))


@dataclass(frozen=True, slots=True)
class Move:
    """One move in kabale notation, without reference to a position.

    - ``source``: a column "1".."N", the waste "w", a foundation "f1".."f8", or "d" for the
      stock action (draw / turn the waste back / deal a row).
    - ``target``: a column "1".."N", "f" (a Klondike foundation: the first one of the card's
      suit that takes it), or "" for the stock action.
    - ``count``: how many cards move (column to column may move several).

    Moves from ``Game.legal_moves()`` print in canonical notation for their position
    (``text``); a Move made by hand prints the explicit form, with the count on every
    column-to-column move (``3:1>7``), which parses back to the same move in any position.
    """

    source: str
    target: str = ""
    count: int = 1
    text: str = field(default="", compare=False, repr=False)

    @property
    def is_stock(self) -> bool:
        """True for the stock action ``d``."""
        return self.source == STOCK

    def explicit(self) -> str:
        """The notation with every part written out; unambiguous in any position."""
        if self.source == STOCK:
            return STOCK
        if self.source.isdigit() and self.target.isdigit():
            return f"{self.source}:{self.count}>{self.target}"
        return f"{self.source}>{self.target}"

    def __str__(self) -> str:
        return self.text or self.explicit()
