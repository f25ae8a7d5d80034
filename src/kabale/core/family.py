"""The family interface: what every family of rules offers its callers, and the registry of
families by name.

A family (Klondike, the Spider family) is one module of core holding every rule it has; its
rules class reads a variant's options once and answers the calls below. Callers outside core
ask these calls and facts instead of branching on the family's name, so a new option is a
change to one family module (and its compiled kernel), not to every caller. Only where a
compiled kernel is picked does code outside core name a family.

The facts a caller needs to know about a family (not a position) are read-only attributes:
``shows_every_card`` (every card dealt face up: the player sees all the solver reads),
``has_waste``, ``foundation_rule`` ("cards": built up by suit from the Ace one card at a time;
"runs": complete King-to-Ace runs leave the table), ``build_rule`` ("alternate_colours" or
"any_suit"), ``columns_interchangeable`` (no rule tells
one column from another: Klondike's stock never deals to a column, Spider's deals from the
left), ``talon_cycle`` (the cards a press draws when the talon cycles for ever, else 0).
:meth:`Rules.facts` gives them, and a few more the page needs, as the observation's ``rules``
block.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Protocol

from .cards import Card
from .klondike import KlondikeRules
from .refusal import Refusal
from .spider import SpiderRules
from .state import Move, Place, State
from .variants import Variant


class Rules(Protocol):
    """The rules of one variant of a family: every call the rest of kabale makes on them."""

    @property
    def family(self) -> str:
        """The family's name: "klondike", "spider" or "spiderette"."""

    @property
    def n_columns(self) -> int:
        """How many columns the table has."""

    @property
    def n_foundations(self) -> int:
        """How many foundation piles a fresh deal has (0 under the runs rule)."""

    @property
    def n_cards(self) -> int:
        """How many cards the deck has."""

    # ------------------------------------------------------------------ facts
    @property
    def shows_every_card(self) -> bool:
        """Every card is dealt face up (Thoughtful): the player sees all the solver reads."""

    @property
    def has_waste(self) -> bool:
        """The stock action draws onto a waste (else it deals onto the columns)."""

    @property
    def foundation_rule(self) -> str:
        """"cards" (built up by suit from the Ace) or "runs" (King-to-Ace runs removed)."""

    @property
    def foundation_suits(self) -> tuple[int, ...]:
        """The suit each foundation pile takes, built up from the Ace (() under "runs")."""

    @property
    def build_rule(self) -> str:
        """What goes on a column's top card: "alternate_colours" (one rank lower, the other
        colour) or "any_suit" (one rank lower)."""

    @property
    def columns_interchangeable(self) -> bool:
        """No rule tells one column from another (positions equal up to column order play
        alike)."""

    @property
    def talon_cycle(self) -> int:
        """The cards a press draws when the talon cycles for ever (unlimited passes), else 0."""

    def facts(self) -> dict[str, Any]:
        """The observation's ``rules`` block (docs/api.md, "The observation")."""

    # ------------------------------------------------------------------ dealing
    def deal_places(self) -> tuple[Place, ...]:
        """Where each card of a deck in deal order lands."""

    def layout(self, deck: Sequence[Card]) -> State:
        """The deal of ``deck`` (in deal order)."""

    def check_position(self, state: State) -> None:
        """Raise InvalidDealError unless the waste and foundations of a loaded position are
        the variant's (core/persist.py checks the rest)."""

    # ------------------------------------------------------------------ queries
    def is_won(self, state: State) -> bool:
        """Every card has left the columns and the stock."""

    def is_lost(self, state: State, legal: list[Move]) -> bool:
        """Lost as far as the player can know, ``legal`` being the position's legal moves."""

    def passes_left(self, state: State) -> int | None:
        """Turn-backs of the waste still allowed; None when unlimited or without a waste."""

    def foundation_for(self, state: State, card: Card) -> int:
        """The index of the foundation that takes ``card`` now, or -1."""

    def stock_action_possible(self, state: State) -> bool:
        """``d`` is legal."""

    def stock_seen(self, state: State) -> bool:
        """The player knows every stock card, in order (each was face up once, or the deal
        shows every card)."""

    def stock_shown(self, before: State, after: State) -> list[Card] | None:
        """The cards the stock action from ``before`` to ``after`` showed for the first time
        (the stock's top first), or None for a turn-back of the waste."""

    # ------------------------------------------------------------------ moves
    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move, in the family's fixed order, with canonical text."""

    def legal_move(self, state: State, move: Move) -> Move | None:
        """The legal move equal to ``move`` (canonical text), or None."""

    def waste_moves(self, state: State) -> list[Move]:
        """The legal moves of the waste's top card ([] without a waste)."""

    def explain(self, state: State, move: Move) -> str:
        """Why ``move`` is not legal in ``state``, in one line for a player."""

    def refusal(self, state: State, move: Move) -> Refusal:
        """Why ``move`` is not legal in ``state``: a reason key and its parameters
        (core/refusal.py); ``explain`` is its English words."""

    def apply(self, state: State, move: Move) -> State:
        """The state after a legal ``move`` (not checked)."""

    def stock_actions(self, state: State, times: int) -> State | None:
        """The state after ``times`` checked stock actions, or None if one is not legal."""

    def play_line(self, state: State, moves: Sequence[Move]) -> tuple[State, list[str], int]:
        """``moves`` checked and played: the state after the legal ones before the first
        illegal one, their canonical texts, and that move's index (-1 when all are legal)."""


#: family name -> the rules of a variant of it. The one place a family's name picks its code.
FAMILIES: Mapping[str, Callable[[Variant], Rules]] = MappingProxyType({
    "klondike": KlondikeRules.from_variant,
    "spider": SpiderRules.from_variant,
    "spiderette": SpiderRules.from_variant,
})


@lru_cache(maxsize=256)
def rules_for(variant: Variant) -> Rules:
    """The rules object of a variant (options read once; rules objects hold no state, so one
    serves every game of the variant)."""
    return FAMILIES[variant.family](variant)
