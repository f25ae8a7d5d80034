"""What a player knows: every card seen, where it lies now, and what is still hidden.

``knowledge(game)`` replays the game's history and reads, at each step, only what the player
saw then: face-up column cards, the waste, the foundations and the sizes of piles. A card is
seen when it turns face up (a column card uncovered, a stock card drawn to the waste or dealt
onto a column) and stays known wherever it goes, a Klondike stock card included: a waste
turned back becomes a stock whose order the player has just seen. Face-down cards never move
until they are turned, so every unseen card still lies where it was dealt; that is what lets
a sampled world re-deal them (worlds.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator
from dataclasses import dataclass

from ..core import Card, Game, State, Variant
from ..core.deal import fresh_deck
from ..core.state import IN_STOCK, STOCK, Place


def sight(state: State, symmetric: bool, cycle: int = 0) -> Hashable:
    """What a player sees of a position (the score aside): equal for two positions exactly
    when they differ only in cards never shown. With ``symmetric`` (Klondike: nothing is
    ever dealt to a particular column) the columns count in any order. With ``cycle`` (the
    cards a press draws, given only when the passes are unlimited and the player knows every
    stock card) two talons count alike when presses alone lead from each to the other
    (``talon_key``)."""
    columns: Hashable = tuple((pile[down:], down)
                              for pile, down in zip(state.columns, state.down, strict=True))
    if symmetric:
        columns = tuple(sorted(columns, key=hash))  # hash: any fixed order will do
    if cycle:
        return (columns, talon_key(state, cycle), state.foundations)
    return (columns, len(state.stock), state.waste, state.foundations, state.passes_used)


def talon_key(state: State, draw: int) -> Hashable:
    """A Klondike talon under unlimited passes, up to the presses that lead back to it.

    Pressing keeps the order of the talon's cards as they come up, ``waste + reversed(stock)``
    (a turn-back makes the waste the stock again), and moves the point between waste and stock
    from p to p + draw, or to the end; from the end a turn-back leads to 0. So the points p
    reaches by presses are p, p + draw, ... and then 0, draw, ...: every point that is a
    multiple of ``draw`` (or the end) reaches exactly what 0 reaches, and counts as 0; any
    other point reaches more and is kept. Two positions whose talons have the same key reach
    the same talons, so they are won or lost alike."""
    order = state.waste + state.stock[::-1]
    point = len(state.waste)
    if point % draw == 0 or point == len(order):
        point = 0
    return (order, point)


#: a place on the table as the player names it: a column "1".."N", the stock "d", the
#: waste "w" or a foundation "f1".."f8", and the index in that pile from its bottom (0)
Spot = tuple[str, int]


@dataclass(frozen=True)
class Knowledge:
    """What the player has seen of one game, now.

    - ``deal``: the deal in deal order (as ``Game.from_deck`` takes it), None where the
      player has never seen that card.
    - ``columns`` and ``stock``: the piles now, bottom first, None for an unseen card.
    - ``waste``, ``foundations``, ``down``, ``passes_used``, ``score``: as in State, all
      in plain sight.
    - ``unseen_cards``: the multiset of cards not yet seen, sorted (by suit, then rank).
    - ``visited``: :func:`sight` of every position of the game so far (Klondike's columns
      in any order).
    """

    variant: Variant
    deal: tuple[Card | None, ...]
    columns: tuple[tuple[Card | None, ...], ...]
    stock: tuple[Card | None, ...]
    waste: tuple[Card, ...]
    foundations: tuple[tuple[Card, ...], ...]
    down: tuple[int, ...]
    passes_used: int
    score: int
    unseen_cards: tuple[Card, ...]
    visited: frozenset[Hashable]

    @property
    def unseen(self) -> tuple[Spot, ...]:
        """The places whose card the player has never seen: face-down column cards (columns
        left to right, bottom first), then stock cards (bottom first)."""
        spots = [(str(c + 1), i) for c, pile in enumerate(self.columns)
                 for i, card in enumerate(pile) if card is None]
        return (*spots, *((STOCK, i) for i, card in enumerate(self.stock) if card is None))

    @property
    def seen(self) -> dict[Spot, Card]:
        """Every card the player has seen, by the place where it lies now."""
        spots: dict[Spot, Card] = {}
        for c, pile in enumerate(self.columns):
            spots.update(((str(c + 1), i), card) for i, card in enumerate(pile) if card)
        spots.update(((STOCK, i), card) for i, card in enumerate(self.stock) if card)
        spots.update((("w", i), card) for i, card in enumerate(self.waste))
        for f, pile in enumerate(self.foundations):
            spots.update(((f"f{f + 1}", i), card) for i, card in enumerate(pile))
        return spots

    @property
    def complete(self) -> bool:
        """True when every card is known (Thoughtful, or everything uncovered)."""
        return not self.unseen_cards

    def position(self, fill: Iterator[Card]) -> State:
        """The position with the unseen cards taken from ``fill`` in the order of
        :attr:`unseen`: a world the player cannot tell from the true one."""
        columns = tuple(tuple(card or next(fill) for card in pile) for pile in self.columns)
        stock = tuple(card or next(fill) for card in self.stock)
        return State(columns, self.down, stock, self.waste, self.foundations,
                     self.passes_used, self.score)


def knowledge(game: Game, stock_known: bool = False) -> Knowledge:
    """What the player of ``game`` has seen (module docstring). ``stock_known`` lets the
    player know the stock's order from the start, as some published Klondike bots are
    measured: a benchmark setting that reads the true stock, never the page's or the CLI's."""
    variant, rules = game.variant, game.rules
    places = rules.deal_places()
    index = {place: i for i, place in enumerate(places)}
    start = game.initial_state
    open_table = rules.shows_every_card
    deal: list[Card | None] = [None] * len(places)
    for c, pile in enumerate(start.columns):
        for i in range(0 if open_table else start.down[c], len(pile)):
            deal[index[Place(c, i)]] = pile[i]
    if open_table or stock_known:
        for j, card in enumerate(start.stock):  # the true stock: seen (open) or a peek
            deal[index[Place(IN_STOCK, j)]] = card
    stock = [deal[index[Place(IN_STOCK, j)]] for j in range(len(start.stock))]
    state = start
    symmetric = rules.columns_interchangeable
    cycle = rules.talon_cycle
    visited = {sight(start, symmetric, cycle if None not in stock else 0)}
    for move in game.history:
        after = rules.apply(state, move)
        _see_uncovered(state, after, deal, index)
        if move.is_stock:
            stock = _see_stock(state, after, stock, deal, index, rules.stock_shown(state, after))
        visited.add(sight(after, symmetric, cycle if None not in stock else 0))
        state = after
    columns = tuple(tuple(deal[index[Place(c, i)]] if i < state.down[c] else pile[i]
                          for i in range(len(pile))) for c, pile in enumerate(state.columns))
    left = Counter(fresh_deck(variant))
    left.subtract(card for card in deal if card is not None)
    return Knowledge(variant, tuple(deal), columns, tuple(stock), state.waste,
                     state.foundations, state.down, state.passes_used, state.score,
                     tuple(sorted(left.elements(), key=lambda c: (c.suit, c.rank))),
                     frozenset(visited))


def _see_uncovered(before: State, after: State, deal: list[Card | None],
                   index: dict[Place, int]) -> None:
    """Record the column cards that ``after`` turned face up (they lie where they were
    dealt: a face-down card never moves)."""
    for c, pile in enumerate(after.columns):
        for i in range(after.down[c], min(before.down[c], len(pile))):
            deal[index[Place(c, i)]] = pile[i]


def _see_stock(before: State, after: State, stock: list[Card | None],
               deal: list[Card | None], index: dict[Place, int],
               shown: list[Card] | None) -> list[Card | None]:
    """The stock's known cards after the stock action from ``before`` to ``after``, which
    ``shown`` (the stock's top first; None for a turn-back) the rules say it showed,
    recording the cards it showed for the first time."""
    if shown is None:
        return list(reversed(before.waste))  # turned back: the order the player just saw
    left = len(after.stock)
    for j, card in zip(range(len(before.stock) - 1, left - 1, -1), shown, strict=True):
        if stock[j] is None:
            # never seen, so never turned back: the first pass, where the stock's positions
            # are the deal's
            deal[index[Place(IN_STOCK, j)]] = card
    return stock[:left]
