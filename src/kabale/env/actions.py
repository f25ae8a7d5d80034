"""One fixed action catalogue per variant: action number <-> Move.

Every move the rules could ever list in a variant has one number, in the rules' own order
(docs/env.md has the table):

- Klondike family (C columns, F foundations): ``i>f`` for each column, ``w>f``, every
  ``i:k>j`` (source i, target j != i, count k = 1..13), ``w>j``, ``fk>j``, then ``d``.
- Spider family (C columns): every ``i:k>j``, then ``d``; with foundations=cards ``i>f``
  for each column first.

A run that moves is at most 13 cards (ranks fall by one along it), so 13 counts cover every
column move; some numbers are never legal under some options (a count above 1 onto an empty
Klondike column needs ``empty=any`` or a King-headed run; Spider removes a 13-card run before
it could move), which only costs unused mask entries.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import KabaleError
from ..core.game import Rules
from ..core.state import FOUNDATION, STOCK, WASTE, Move

#: the longest run that can ever move: King down to Ace
MAX_RUN = 13


@dataclass(frozen=True)
class ActionTable:
    """The variant's moves by number (``moves[a]``) and numbers by move (``index[move]``;
    ``by_key[(source, target, count)]`` is the same, faster: a tuple hashes in C)."""

    moves: tuple[Move, ...]
    index: dict[Move, int] = field(repr=False)
    by_key: dict[tuple[str, str, int], int] = field(repr=False)

    @classmethod
    def for_rules(cls, rules: Rules) -> ActionTable:
        """The catalogue of a variant's rules object (see the module docstring for the order)."""
        n = rules.n_columns
        columns = [str(i + 1) for i in range(n)]
        moves: list[Move] = []
        if rules.foundation_rule == "cards":
            moves += [Move(c, FOUNDATION) for c in columns]
        if rules.has_waste:
            moves.append(Move(WASTE, FOUNDATION))
        moves += [Move(a, b, k) for a in columns for b in columns if a != b
                  for k in range(1, MAX_RUN + 1)]
        if rules.has_waste:  # Klondike: the waste's and the foundations' cards to columns
            moves += [Move(WASTE, c) for c in columns]
            moves += [Move(f"f{f + 1}", c) for f in range(rules.n_foundations) for c in columns]
        moves.append(Move(STOCK))
        labelled = tuple(Move(m.source, m.target, m.count, m.explicit()) for m in moves)
        return cls(labelled, {move: a for a, move in enumerate(labelled)},
                   {(m.source, m.target, m.count): a for a, m in enumerate(labelled)})

    def __len__(self) -> int:
        return len(self.moves)

    def action(self, move: Move) -> int:
        """The number of ``move``; raises KabaleError for a move outside the catalogue."""
        try:
            return self.index[move]
        except KeyError:
            raise KabaleError(f"move {str(move)!r} has no action number in this variant "
                              f"(actions 0-{len(self.moves) - 1})") from None
