"""Why a Klondike-family move is refused, as data (core.refusal): the one place the family
says which of its rules a move breaks. Kept apart from core.klondike, which asks it, so that
the move rules and the words of their refusals are each one short file; it reads only the
few facts of the rules named by :class:`RefusalRules`."""

from __future__ import annotations

from typing import Protocol

from .cards import ACE, Card
from .refusal import Refusal
from .state import FOUNDATION, STOCK, WASTE, Move, Pile, State


class RefusalRules(Protocol):
    """What a refusal reads of the Klondike rules."""

    back: bool

    @property
    def n_columns(self) -> int: ...

    def is_won(self, state: State) -> bool: ...

    def run_start(self, state: State, col: int) -> int: ...

    def foundation_for(self, state: State, card: Card) -> int: ...


def klondike_refusal(rules: RefusalRules, state: State, move: Move) -> Refusal:
    """Why ``move`` is not legal in ``state`` under ``rules``, as a reason key and its
    parameters: the checks of ``legal_move`` in the order a player would meet them."""
    n = rules.n_columns
    if move.source == STOCK:
        if rules.is_won(state):
            return Refusal("won")
        if not state.waste:
            return Refusal("stock_empty")
        return Refusal("no_passes")
    source, target = move.source, move.target
    for part in (source, target):
        if part.isdigit() and not 1 <= int(part) <= n:
            return Refusal("no_column", {"column": part, "columns": n})
        if part.startswith("f") and len(part) > 1 and not 1 <= int(part[1:]) <= len(
                state.foundations):
            return Refusal("no_foundation", {"foundation": part,
                                             "foundations": len(state.foundations)})
    if rules.is_won(state):
        return Refusal("won")
    if source == WASTE:
        if not state.waste:
            return Refusal("waste_empty")
        cards: Pile = state.waste[-1:]
    elif source.startswith("f"):
        if not rules.back:
            return Refusal("no_back")
        pile = state.foundations[int(source[1:]) - 1]
        if not pile:
            return Refusal("foundation_empty", {"foundation": source})
        cards = pile[-1:]
    else:
        col = int(source) - 1
        pile = state.columns[col]
        if not pile:
            return Refusal("column_empty", {"column": source})
        up = len(pile) - state.down[col]
        if move.count > up:
            return Refusal("face_down", {"column": source, "up": up})
        if target == FOUNDATION and move.count != 1:
            return Refusal("one_to_foundation")
        cards = pile[len(pile) - move.count:]
        if rules.run_start(state, col) > len(pile) - move.count:
            return Refusal("not_run_alt", {"n": move.count})
    head = cards[0]
    if target == FOUNDATION or target.startswith("f"):
        want = rules.foundation_for(state, head)
        if want < 0:
            if head.rank == ACE:
                return Refusal("foundation_needs_ace", {"card": str(head)})
            return Refusal("foundation_needs_rank", {"card": str(head),
                                                     "rank": head.rank - 1})
        return Refusal("other_foundation", {"card": str(head), "foundation": f"f{want + 1}",
                                            "target": target})
    column = state.columns[int(target) - 1]
    if not column:
        return Refusal("king_only", {"card": str(head)})
    top = column[-1]
    if top.rank == ACE:
        return Refusal("nothing_below_ace", {"card": str(head), "top": str(top)})
    return Refusal("needs_colour", {"card": str(head), "top": str(top),
                                    "colour": "black" if top.is_red else "red",
                                    "rank": top.rank - 1})
