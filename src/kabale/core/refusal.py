"""A refused move as data: a reason key and its parameters, and its words as a lookup.

Each family's rules decide once why a move is not legal (``refusal``) and say so as a
:class:`Refusal`; ``explain`` is only the lookup of its key in :data:`REASONS` (English, the
words of ``IllegalMoveError``). Parameters are data, not words: card codes ("9S"), pile names
("3", "f2"), counts, a rank as a number, a colour as "red" or "black", so that another table
(the page's messages in en, da and nb) can word the same refusal in its own language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

Param = str | int

#: reason key -> its English words, with the parameters as ``{name}`` (``{rank_name}`` is the
#: name of the parameter ``rank``: "Ace", "9", "Jack")
REASONS: Mapping[str, str] = MappingProxyType({
    "won": "the game is won",
    "already_won": "the game is already won",
    "stock_empty": "the stock and the waste are both empty",
    "no_passes": "no passes left: the waste cannot be turned over again",
    "no_deals": "the stock is empty: no deals left",
    "deal_empty": "no deal while a column is empty: fill every column first",
    "no_column": "there is no column {column} (columns 1-{columns})",
    "no_foundation": "there is no foundation {foundation} (f1-f{foundations})",
    "no_waste": "{family} has no waste or foundation moves (columns 1-{columns}, 'd')",
    "no_waste_back": ("{family} has no waste, and cards never come back from a foundation "
                      "(columns 1-{columns}, 'f', 'd')"),
    "waste_empty": "the waste is empty",
    "no_back": "cards may not come back from a foundation in this variant",
    "foundation_empty": "foundation {foundation} is empty",
    "column_empty": "column {column} is empty",
    "face_down": "column {column} has only {up} face-up card(s)",
    "one_to_foundation": "only one card at a time goes to a foundation",
    "not_run_alt": "those {n} cards are not an alternating descending run",
    "not_run_suit": "those {n} cards are not a run of one suit descending by one",
    "foundation_needs_ace": "{card} cannot go to a foundation (it needs an Ace there first)",
    "foundation_needs_rank": ("{card} cannot go to a foundation (it needs the {rank_name} of "
                              "its suit there first)"),
    "foundation_needs_empty": "{card} cannot go to a foundation (it needs an empty foundation)",
    "foundation_needs_card": "{card} cannot go to a foundation (it needs the {prev} there first)",
    "other_foundation": "{card} goes to {foundation}, not {target}",
    "king_only": "only a King may fill an empty column (not {card})",
    "needs_colour": "{card} cannot go on {top} (needs a {colour} {rank_name})",
    "nothing_below_ace": ("{card} cannot go on {top} (needs a lower card, and nothing is "
                          "lower than an Ace)"),
    "on_ace": "nothing goes on an Ace",
    "needs_rank": "{card} cannot go on {top} (needs a card one rank lower than {top})",
})

_RANK_NAMES = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a move is not legal: ``key`` (one of :data:`REASONS`) and its parameters."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def text(self) -> str:
        """The refusal in English words (the lookup of its key in :data:`REASONS`)."""
        fields = dict(self.params)
        rank = fields.get("rank")
        if isinstance(rank, int):
            fields["rank_name"] = _RANK_NAMES.get(rank, str(rank))
        return REASONS[self.key].format(**fields)

    def to_dict(self) -> dict[str, object]:
        """JSON-safe: ``{"key": ..., "params": {...}}`` (docs/api.md, "The HTTP API")."""
        return {"key": self.key, "params": dict(self.params)}
