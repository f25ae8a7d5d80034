"""Solvitaire's JSON deal format (Blake & Gent's solver), both ways.

Layout of the object (every pile bottom card first, top card last):

- ``"tableau piles"``: one list of cards per column. A face-down card is written with a
  lower-case suit letter (``"10h"``), a face-up one in upper case (``"10H"``), as in
  Solvitaire's own Klondike test positions.
- ``"stock"``: the stock; its LAST element is the top, the next card drawn. In a Spider deal
  the top goes to column 1, the card before it to column 2, and so on.
- ``"waste"`` (Klondike, only when not empty): bottom first, the playable card last.
- ``"foundations"`` (only when not empty): Klondike: one pile per foundation in kabale's
  order f1..f4 = S H D C (f5..f8 again in Double Klondike), Ace first; so too the Spider
  family with foundations=cards, in its order (core/spider.py). Spider family otherwise: the
  removed runs, each written Ace first as Solvitaire builds its foundations.

- ``"kabale variant"``: kabale's own key (Solvitaire reads the keys it knows and ignores
  the rest), the variant the deal is of, e.g. ``"klondike:draw=3"``: a Klondike deal of draw 3
  and one of draw 1 hold the same cards, so without it the variant must be given by the
  reader, or is guessed from the piles (:func:`infer_variant`).

Cards are rank ``A 2 .. 10 J Q K`` (``T`` is accepted when reading) and suit ``C D H S``.
The pass count of a Klondike game is not part of the format (a position read back starts
with no pass used).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from ..core import Card, Game, InvalidDealError, NotationError, State, Variant, parse_variant
from ..core.cards import card_of
from ..core.errors import quoted
from ..core.family import rules_for
from ..core.state import IN_STOCK

VARIANT_KEY = "kabale variant"
KEYS = ("tableau piles", "stock", "waste", "foundations", VARIANT_KEY)

_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
_RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def card_text(card: Card, face_up: bool = True) -> str:
    """Solvitaire's text of a card: rank A 2..10 J Q K, suit letter (lower case = face down)."""
    suit = "SHDC"[card.suit]
    return _RANK_TEXT.get(card.rank, str(card.rank)) + (suit if face_up else suit.lower())


def parse_card(text: object) -> tuple[Card, bool]:
    """(card, face_up) of a Solvitaire card text; InvalidDealError naming the text if bad."""
    if not isinstance(text, str) or not 2 <= len(text.strip()) <= 3:
        raise InvalidDealError(f"not a Solvitaire card: {quoted(text)} (e.g. 'AS', '10h', 'KD')")
    text = text.strip()
    rank_text, suit = text[:-1].upper(), text[-1]
    # isdigit() alone takes '³' and '١', which int() refuses or reads as digits
    number = int(rank_text) if rank_text.isascii() and rank_text.isdigit() else 0
    rank = _RANKS.get(rank_text) or number
    if not 1 <= rank <= 13 or not suit.isascii() or suit.upper() not in "SHDC":
        raise InvalidDealError(f"not a Solvitaire card: {quoted(text)} (e.g. 'AS', '10h', 'KD')")
    return card_of(rank, "SHDC".index(suit.upper())), suit.isupper()


def to_solvitaire(game: Game) -> dict[str, Any]:
    """The game's current true position as a Solvitaire JSON object."""
    state = game.state
    data: dict[str, Any] = {
        VARIANT_KEY: str(game.variant),
        "tableau piles": [
            [card_text(card, index >= down) for index, card in enumerate(pile)]
            for pile, down in zip(state.columns, state.down, strict=True)
        ],
        "stock": [card_text(card) for card in state.stock],
    }
    if state.waste:
        data["waste"] = [card_text(card) for card in state.waste]
    if any(state.foundations):
        if _foundation_suits(game.variant):
            data["foundations"] = [[card_text(c) for c in pile] for pile in state.foundations]
        else:
            data["foundations"] = [[card_text(c) for c in reversed(pile)]
                                   for pile in state.foundations]
    return data


def _foundation_suits(variant: Variant) -> list[int]:
    """The suit of each foundation where foundations are built by suit from the Ace
    (Klondike; the Spider family with foundations=cards), else [] (removed runs)."""
    return list(rules_for(variant).foundation_suits)


def _piles(data: dict[str, Any], key: str) -> list[list[tuple[Card, bool]]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(p, list) for p in value):
        raise InvalidDealError(f"Solvitaire {key!r} must be a list of lists of cards")
    return [[parse_card(text) for text in pile] for pile in value]


def _pile(data: dict[str, Any], key: str) -> list[Card]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise InvalidDealError(f"Solvitaire {key!r} must be a list of cards")
    return [parse_card(text)[0] for text in value]


def _deal_shape(variant: Variant) -> list[int]:
    """How many cards the deal lays on each column."""
    rules = rules_for(variant)
    sizes = Counter(place.column for place in rules.deal_places())
    return [sizes[col] for col in range(rules.n_columns)]


def _deck_of_deal(variant: Variant, columns: list[list[Card]], stock: list[Card]) -> list[Card]:
    """The deck, in deal order, that kabale deals into these columns and stock."""
    deck = [columns[place.column][place.index] for place in rules_for(variant).deal_places()
            if place.column != IN_STOCK]
    return deck + list(reversed(stock))


def infer_variant(data: object) -> str:
    """The variant a Solvitaire deal without ``"kabale variant"`` most likely is: Spider by
    its 10 columns (suits counted), Double Klondike by 9, else Klondike (draw 1)."""
    piles = data.get("tableau piles") if isinstance(data, dict) else None
    if not isinstance(piles, list):
        raise InvalidDealError("a Solvitaire deal is a JSON object with a 'tableau piles' list")
    if len(piles) == 10:
        suits = {str(c)[-1:].upper() for p in piles if isinstance(p, list) for c in p}
        return f"spider:suits={len(suits) if len(suits) in (1, 2) else 4}"
    return "klondike:decks=2" if len(piles) == 9 else "klondike"


def deal_variant(variant: str | Variant | None, data: object) -> Variant:
    """The variant of a Solvitaire deal: ``variant`` if given (it must agree with the deal's
    ``"kabale variant"`` when that is there), else the deal's own, else inferred.
    InvalidDealError names a mismatch."""
    declared = data.get(VARIANT_KEY) if isinstance(data, dict) else None
    if declared is not None:
        if not isinstance(declared, str):
            raise InvalidDealError(f"{VARIANT_KEY!r} must be a variant string like "
                                   f"'klondike:draw=3', not {quoted(declared)}")
        try:
            own = parse_variant(declared)
        except NotationError as error:
            raise InvalidDealError(f"the deal's {VARIANT_KEY!r}: {error}") from None
        if variant is not None and parse_variant(variant) != own:
            raise InvalidDealError(f"the deal is of {str(own)!r} (its {VARIANT_KEY!r}), not "
                                   f"of {str(parse_variant(variant))!r}; give {str(own)!r} "
                                   "or no variant")
        return own
    return parse_variant(variant if variant is not None else infer_variant(data))


def from_solvitaire(variant: str | Variant | None, data: dict[str, Any]) -> Game:
    """A game in the position a Solvitaire object describes, of ``variant`` (None: the
    deal's ``"kabale variant"``, or a guess from its piles; see :func:`deal_variant`).

    A fresh deal (the variant's deal shape, no waste or foundations, face-down marks absent or
    exactly the deal's) becomes ``Game.from_deck`` so its deal id replays it; any other
    position becomes ``Game.from_position``. Raises InvalidDealError (a KabaleError) naming
    what is wrong; nothing is created then.
    """
    if not isinstance(data, dict) or "tableau piles" not in data:
        raise InvalidDealError("a Solvitaire deal is a JSON object with a 'tableau piles' list")
    parsed = deal_variant(variant, data)
    unknown = set(data) - set(KEYS)
    if unknown:
        raise InvalidDealError(f"unsupported Solvitaire keys {quoted(sorted(unknown))}; valid: "
                               f"{', '.join(repr(key) for key in KEYS)}")
    marked = _piles(data, "tableau piles")
    columns = [[card for card, _ in pile] for pile in marked]
    stock = _pile(data, "stock")
    waste = _pile(data, "waste")
    foundations = [[card for card, _ in pile] for pile in _piles(data, "foundations")]
    any_down = any(not up for pile in marked for _, up in pile)
    down = [_down_count(i, pile, any_down) for i, pile in enumerate(marked)]
    shape = _deal_shape(parsed)
    fresh = ([len(c) for c in columns] == shape and not waste and not any(foundations)
             and (not any_down or down == [n - 1 for n in shape]))
    if fresh:
        return Game.from_deck(parsed, _deck_of_deal(parsed, columns, stock))
    suits = _foundation_suits(parsed)
    if suits:
        piles: list[tuple[Card, ...]] = [()] * len(suits)
        for pile in foundations:
            if pile:
                slot = next((k for k, suit in enumerate(suits)
                             if suit == pile[0].suit and not piles[k]), None)
                if slot is None:
                    raise InvalidDealError("too many foundation piles of one suit")
                piles[slot] = tuple(pile)
        found = tuple(piles)
    else:
        found = tuple(tuple(reversed(pile)) for pile in foundations if pile)
    state = State(tuple(tuple(c) for c in columns), tuple(down), tuple(stock), tuple(waste),
                  found)
    return Game.from_position(parsed, state)


def _down_count(index: int, pile: list[tuple[Card, bool]], any_down: bool) -> int:
    """Face-down cards at the bottom of a column: the lower-case ones (they must come first),
    or, when nothing is marked at all, every card but the top."""
    if not any_down:
        return max(len(pile) - 1, 0)
    count = 0
    while count < len(pile) and not pile[count][1]:
        count += 1
    if any(not up for _, up in pile[count:]):
        raise InvalidDealError(f"column {index + 1}: a face-down card lies on a face-up one")
    if pile and count == len(pile):
        raise InvalidDealError(f"column {index + 1}: its top card must be face up")
    return count


def dumps(game: Game) -> str:
    """``to_solvitaire`` as JSON text."""
    return json.dumps(to_solvitaire(game))


def loads(variant: str | Variant | None, text: str) -> Game:
    """``from_solvitaire`` from JSON text; bad JSON raises InvalidDealError."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise InvalidDealError("not Solvitaire JSON: nested too deeply") from None
    except (ValueError, TypeError) as error:
        raise InvalidDealError(f"not Solvitaire JSON: {error}") from None
    return from_solvitaire(variant, data)


__all__ = ["VARIANT_KEY", "card_text", "deal_variant", "dumps", "from_solvitaire",
           "infer_variant", "loads", "parse_card", "to_solvitaire", "NotationError"]
