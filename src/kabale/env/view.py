"""The player's view as fixed-shape integer arrays (field by field in docs/env.md).

Only what the player sees or has seen goes in: face-up cards, how many cards lie face down,
the stock's size, the waste, the foundations, the score and the step count. A Klondike stock
card is shown once the waste has been turned back over (every stock card then went through the
waste face up, so the player has seen the whole stock in its order); with ``open=true`` every
card is shown, as in ``Game.observe``. The deal id never appears.

Card codes: 0 no card, ``13 * suit + rank`` for a card (1 = AS .. 13 = KS, 14 = AH .. 52 = KC,
suits in kabale's order S H D C), 53 a card the player has not seen.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
from gymnasium import spaces

from ..core.cards import Card
from ..core.errors import KabaleError
from ..core.game import Rules
from ..core.state import IN_STOCK, Pile, State
from ..core.variants import Variant
from .actions import MAX_RUN

UNSEEN = 53
SCORE_LIMIT = 2**31 - 1


def card_code(card: Card) -> int:
    """The card's code in the observation arrays (1..52)."""
    return 13 * card.suit + card.rank


def column_depth(rules: Rules) -> int:
    """The most cards a column can ever hold in this variant.

    A column's face-up cards fall by one rank from card to card except where a dealt card
    landed (Spider's deals place a card whatever lies beneath; moved runs already fall by one
    and a run onto an empty column starts the column), so they form at most one stretch of 13
    plus one per deal onto that column; below them lie at most the deal's face-down cards.
    """
    sizes = Counter(place.column for place in rules.deal_places())
    stock = sizes.pop(IN_STOCK, 0)
    deals = 0 if rules.has_waste else -(-stock // rules.n_columns)
    return min(rules.n_cards, max(sizes.values()) - 1 + MAX_RUN * (deals + 1))


class View:
    """Builds the observation of one variant; reuses the rows of piles a move left alone."""

    def __init__(self, variant: Variant, rules: Rules) -> None:
        self.rules = rules
        self.waste = rules.has_waste
        self.open = rules.shows_every_card
        # foundations built card by card (Klondike, Spider's foundations=cards): their heights
        self.heights = rules.foundation_rule == "cards"
        n = rules.n_columns
        self.depth = column_depth(rules)
        self.stock_size = sum(place.column == IN_STOCK for place in rules.deal_places())
        piles = rules.n_cards // 13  # foundations built card by card, or runs removed
        fields: dict[str, spaces.Space[Any]] = {
            "columns": _box(0, UNSEEN, (n, self.depth), np.int8),
            "down": _box(0, self.depth, (n,), np.int8),
            "stock": _box(0, self.stock_size, (1,), np.int16),
            "foundations": _box(0, 13 if self.heights else 4, (piles,), np.int8),
        }
        if self.waste:
            fields["waste"] = _box(0, UNSEEN - 1, (self.stock_size,), np.int8)
            fields["stock_cards"] = _box(0, UNSEEN, (self.stock_size,), np.int8)
            fields["passes_left"] = _box(-1, 2, (1,), np.int8)
        fields["score"] = _box(-SCORE_LIMIT, SCORE_LIMIT, (1,), np.int32)
        fields["steps"] = _box(0, SCORE_LIMIT, (1,), np.int32)
        self.space = spaces.Dict(fields)
        self._arrays = {name: np.zeros(box.shape or (), box.dtype) for name, box in fields.items()}
        self._piles: list[Pile | None] = []
        self._downs: list[int] = []
        self._last: State | None = None
        self.reset()

    def check_fits(self, state: State) -> None:
        """Raise KabaleError unless ``state``'s piles fit the observation's arrays (every
        position reachable from a deal does; a hand-made one may not)."""
        for i, pile in enumerate(state.columns):
            if len(pile) > self.depth:
                raise KabaleError(f"column {i + 1} holds {len(pile)} cards; the observation "
                                  f"holds {self.depth} (as many as a dealt game can reach)")
        if len(state.stock) + len(state.waste) > self.stock_size:
            raise KabaleError(f"stock and waste hold {len(state.stock) + len(state.waste)} "
                              f"cards; the observation holds {self.stock_size}")

    def reset(self) -> None:
        """Forget the previous state: the next :meth:`observe` writes every row."""
        self._piles = [None] * self.rules.n_columns
        self._downs = [-1] * self.rules.n_columns
        self._last = None

    def observe(self, state: State, steps: int) -> dict[str, Any]:
        """The observation of ``state``: fresh arrays, safe to keep."""
        arrays = self._arrays
        columns = arrays["columns"]
        for i, (pile, down) in enumerate(zip(state.columns, state.down, strict=True)):
            if pile is self._piles[i] and down == self._downs[i]:
                continue  # states share untouched piles: this row is already right
            _write(columns[i], pile, 0 if self.open else down)
            self._piles[i], self._downs[i] = pile, down
        arrays["down"][:] = state.down
        arrays["stock"][0] = len(state.stock)
        last = self._last
        self._last = state
        if self.heights:
            arrays["foundations"][:] = [len(pile) for pile in state.foundations]
        if self.waste:
            if last is None or state.waste is not last.waste:
                _write(arrays["waste"], state.waste, 0)
            if last is None or state.stock is not last.stock:
                seen = self.rules.stock_seen(state)
                _write(arrays["stock_cards"], state.stock, 0 if seen else len(state.stock))
            left = self.rules.passes_left(state)
            arrays["passes_left"][0] = -1 if left is None else left
        elif not self.heights:
            removed = arrays["foundations"]
            removed[:] = 0
            removed[:len(state.foundations)] = [run[0].suit + 1 for run in state.foundations]
        arrays["score"][0] = state.score
        arrays["steps"][0] = steps
        return {name: array.copy() for name, array in arrays.items()}


def _write(row: np.ndarray, pile: Pile, hidden: int) -> None:
    """Row := the pile's codes, bottom first, its first ``hidden`` cards unseen, then zeros."""
    row[:hidden] = UNSEEN
    row[hidden:len(pile)] = [13 * card.suit + card.rank for card in pile[hidden:]]
    row[len(pile):] = 0


def _box(low: int, high: int, shape: tuple[int, ...], dtype: type) -> spaces.Box:
    return spaces.Box(low, high, shape, dtype)
