"""Seeded, versioned deals: the same deal id gives the same cards on any machine and Python.

The shuffle uses kabale's own PRNG, never the global ``random`` module (whose algorithms may
change between Python versions). Deal format 1 is:

1. The unshuffled deck: for each copy of the pack needed, the suits of the variant in the
   order S H D C, each Ace to King (Spider 2 suits: 4 copies of S H; 1 suit: 8 copies of S).
2. PCG32 (O'Neill's XSH-RR output, 64-bit LCG state, multiplier 6364136223846793005,
   increment ``(STREAM << 1) | 1`` with STREAM = 0x6B61626C65), seeded with the deal
   number as PCG's reference ``srandom`` does: state = 0, step, state += seed, step.
3. A Fisher-Yates shuffle from the last position down: for i = n-1 .. 1 swap position i with
   ``j = bounded(i + 1)``, where ``bounded(n)`` draws 32-bit outputs and rejects those below
   ``2**32 % n``, then returns ``output % n`` (unbiased).
4. The shuffled list is the deck in deal order (see :func:`deal_order_note`).

Changing any of this changes every deal: bump ``DEAL_FORMAT`` if it must ever change.
"""

from __future__ import annotations

import secrets

from .cards import Card, card_of
from .errors import InvalidDealError
from .variants import Variant

DEAL_FORMAT = 1
MAX_SEED = 2**64 - 1
_MASK64 = 2**64 - 1
_MULTIPLIER = 6364136223846793005
STREAM = 0x6B61626C65  # "kable" in ASCII: kabale's PCG stream


class Pcg32:
    """The PCG32 generator (XSH-RR): small, fast, documented, identical everywhere.

    ``Pcg32(seed, stream)`` matches the reference ``pcg32_srandom_r(rng, seed, stream)``.
    """

    def __init__(self, seed: int, stream: int = STREAM) -> None:
        self._increment = ((stream << 1) | 1) & _MASK64
        self._state = 0
        self.next_u32()
        self._state = (self._state + seed) & _MASK64
        self.next_u32()

    def next_u32(self) -> int:
        """The next 32-bit output."""
        old = self._state
        self._state = (old * _MULTIPLIER + self._increment) & _MASK64
        shifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rotation = old >> 59
        return ((shifted >> rotation) | (shifted << ((-rotation) & 31))) & 0xFFFFFFFF

    def bounded(self, n: int) -> int:
        """A uniform integer in [0, n) for 0 < n <= 2**32, by rejection."""
        threshold = (2**32 - n) % n
        while True:
            value = self.next_u32()
            if value >= threshold:
                return value % n


def suits_and_copies(variant: Variant) -> tuple[tuple[int, ...], int]:
    """The suits used by a variant and how many copies of those suits make its deck."""
    if variant.family == "klondike":
        return (0, 1, 2, 3), int(variant["decks"])
    packs = 2 if variant.family == "spider" else 1
    suits = {4: (0, 1, 2, 3), 2: (0, 1), 1: (0,)}[int(variant["suits"])]
    return suits, packs * 4 // len(suits)


def fresh_deck(variant: Variant) -> list[Card]:
    """The variant's unshuffled deck in deal-format order."""
    suits, copies = suits_and_copies(variant)
    return [card_of(rank, suit) for _ in range(copies) for suit in suits for rank in range(1, 14)]


def check_seed(seed: object) -> int:
    """Return the seed if it is a valid deal number, else raise InvalidDealError."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidDealError(f"bad seed {seed!r}: a deal number is an integer 0..{MAX_SEED}")
    return seed


def deck_for(variant: Variant, seed: int) -> list[Card]:
    """The shuffled deck of deal number ``seed``, in deal order."""
    deck = fresh_deck(variant)
    rng = Pcg32(check_seed(seed))
    for i in range(len(deck) - 1, 0, -1):
        j = rng.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def random_seed() -> int:
    """A fresh deal number for a game started without one, uniform on 1 .. 2**64 - 1: too
    many to find a deal by matching its face-up cards against every number."""
    return 1 + secrets.randbelow(MAX_SEED)


def check_deck(variant: Variant, deck: list[Card]) -> None:
    """Raise InvalidDealError unless ``deck`` holds exactly the variant's cards."""
    expected = sorted(fresh_deck(variant), key=lambda c: (c.suit, c.rank))
    if sorted(deck, key=lambda c: (c.suit, c.rank)) != expected:
        raise InvalidDealError(
            f"the deck of {len(deck)} cards is not the {len(expected)}-card deck of {variant}"
        )
