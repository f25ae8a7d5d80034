"""Hand-built positions for the browser tests: the longest columns each family can show.

Every position holds exactly its variant's cards (``Game.from_position`` checks that), dealt
from a seeded shuffle where the exact cards do not matter.
"""

from __future__ import annotations

import random
from collections import Counter

import kabale
from kabale.core.cards import Card
from kabale.core.deal import fresh_deck
from kabale.core.state import State
from kabale.core.variants import parse_variant
from kabale.storage.db import GameStore

RANKS = "KQJT98765432A"


def _take(pool: Counter[Card], codes: list[str]) -> list[Card]:
    cards = [Card.parse(code) for code in codes]
    pool.subtract(cards)
    assert min(pool.values()) >= 0, codes
    return cards


def _rest(pool: Counter[Card], seed: int) -> list[Card]:
    cards = sorted(pool.elements(), key=str)
    random.Random(seed).shuffle(cards)
    return cards


def spider_after_four_deals(suits: int = 2, seed: int = 1) -> kabale.Game:
    """Spider with one deal left and long columns: column 1 holds 5 face-down cards, 4 dealt
    ones and a King-to-Ace run of two suits (22 cards), column 2 a Queen-to-Ace run."""
    variant = parse_variant(f"spider:suits={suits}")
    pool = Counter(fresh_deck(variant))
    a, b = ("S", "H") if suits > 1 else ("S", "S")
    run1 = _take(pool, [r + (a if i % 2 == 0 else b) for i, r in enumerate(RANKS)])
    run2 = _take(pool, [r + (b if i % 2 == 0 else a) for i, r in enumerate(RANKS[1:])])
    rest = _rest(pool, seed)
    stock = [rest.pop() for _ in range(10)]
    columns: list[list[Card]] = [[rest.pop() for _ in range(9)] + run1,
                                 [rest.pop() for _ in range(5)] + run2,
                                 [rest.pop() for _ in range(13)],
                                 [rest.pop() for _ in range(11)]]
    down = [5, 5, 5, 5]
    for i in range(6):
        take = len(rest) // (6 - i)
        columns.append([rest.pop() for _ in range(take)])
        down.append(4)
    state = State(columns=tuple(tuple(c) for c in columns), down=tuple(down), stock=tuple(stock),
                  waste=(), foundations=())
    return kabale.Game.from_position(variant, state)


def klondike_longest(variant_text: str = "klondike:draw=3", seed: int = 1) -> kabale.Game:
    """Klondike (or Double Klondike, or Thoughtful) with the longest column the game allows:
    every face-down card under a King-to-Ace run in the last column; a waste of five cards."""
    variant = parse_variant(variant_text)
    n = 9 if variant["decks"] == 2 else 7
    pool = Counter(fresh_deck(variant))
    run = _take(pool, [r + ("S" if i % 2 == 0 else "H") for i, r in enumerate(RANKS)])
    rest = _rest(pool, seed)
    columns = [[rest.pop() for _ in range(i + 1)] for i in range(n - 1)]
    columns.append([rest.pop() for _ in range(n - 1)] + run)
    down = [i for i in range(n - 1)] + [n - 1]
    waste = [rest.pop() for _ in range(5)]
    state = State(columns=tuple(tuple(c) for c in columns), down=tuple(down),
                  stock=tuple(rest), waste=tuple(waste),
                  foundations=((),) * (4 * int(variant["decks"])))
    return kabale.Game.from_position(variant, state)


def store_game(db: object, game_id: str, game: kabale.Game) -> str:
    """Put `game` in the server's database under the new id `game_id`."""
    store = GameStore(db)  # type: ignore[arg-type]
    try:
        store.add(game_id, game)
    finally:
        store.close()
    return game_id
