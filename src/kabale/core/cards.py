"""Cards: suits, ranks and the Card value with a text round trip ("TH" <-> Card(10, HEARTS)).

Every Card is interned: ``Card.parse("TH") is Card(10, Suit.HEARTS)`` is not promised, but
equal cards compare equal and hash alike, and the rules modules use the shared instances in
``CARDS`` so identity tests are cheap where they matter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from .errors import NotationError


class Suit(IntEnum):
    """Suits in kabale's fixed order: spades, hearts, diamonds, clubs (foundations f1..f4)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """One-letter code: S H D C."""
        return "SHDC"[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red; spades and clubs black."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


RANK_LETTERS = "A23456789TJQK"
ACE, KING = 1, 13


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: rank 1 (Ace) .. 13 (King) and a suit. Immutable and hashable."""

    rank: int
    suit: Suit
    is_red: bool = field(init=False, compare=False, repr=False)
    # the hash, kept: positions are compared by keys of dozens of cards (the advisor's
    # sights, the solver's seen sets), and a generated dataclass hash builds a tuple a call
    _hash: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not ACE <= self.rank <= KING:
            raise NotationError(f"card rank {self.rank!r} is not 1 (A) .. 13 (K)")
        object.__setattr__(self, "suit", Suit(self.suit))
        object.__setattr__(self, "is_red", self.suit.is_red)
        object.__setattr__(self, "_hash", self.rank * 4 + self.suit)

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read "TH", "10H", "as", "Kc". Raises NotationError naming the text otherwise."""
        return parse_card(text)

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 1] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


CARDS: dict[tuple[int, int], Card] = {
    (rank, suit): Card(rank, Suit(suit)) for suit in range(4) for rank in range(ACE, KING + 1)
}
_BY_TEXT: dict[str, Card] = {str(card): card for card in CARDS.values()}
_BY_TEXT.update({"10" + str(card)[1]: card for card in CARDS.values() if card.rank == 10})


def parse_card(text: str) -> Card:
    """Parse one card in kabale notation; case and surrounding space do not matter."""
    card = _BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
    if card is None:
        raise NotationError(
            f"not a card: {text!r} (expected rank A 2-9 T J Q K or 10,"
            " then suit S H D C, e.g. 'TH')"
        )
    return card


def card_of(rank: int, suit: int) -> Card:
    """The shared Card instance for a rank (1..13) and suit number (0..3)."""
    return CARDS[(rank, suit)]
