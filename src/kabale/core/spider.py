"""Every Spider-family rule (RULES.md §1, §2): Spider and Spiderette, 1, 2 or 4 suits.

Spider deals 10 columns round-robin (columns 1-4 get 6 cards, 5-10 get 5) and a 50-card stock
dealt 10 at a time; Spiderette deals Klondike's 1..7 layout and a 24-card stock dealt 7, 7, 7
then 3 (onto columns 1-3). A card goes on any card one rank higher; a run moves as a unit only
if it descends by one and is one suit; an empty column takes any card or movable run; a
complete King-to-Ace run of one suit is removed at once; face-down cards turn up when exposed.
With ``strict`` (the default) the stock may not be dealt while a column is empty.

Legal moves come in this fixed order: column to column (by source, then target, longest run
first), then the deal ``d``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import ACE, KING, Card
from .state import IN_STOCK, STOCK, Move, Pile, Place, State, lay_out

RUN = 13


class SpiderRules:
    """Spider or Spiderette under one set of options (suits is in the deck; strict here)."""

    def __init__(self, family: str, strict: bool) -> None:
        self.family = family
        self.strict = strict
        self.spiderette = family == "spiderette"
        self.n_columns = 7 if self.spiderette else 10
        self.n_cards = 52 if self.spiderette else 104

    # ------------------------------------------------------------------ dealing
    def deal_places(self) -> tuple[Place, ...]:
        """Where each card of a deck in deal order lands. Spider: round-robin over the 10
        columns until 54 cards lie out; Spiderette: rows of 1..7 as Klondike. The rest is the
        stock, the deck's last card at its bottom."""
        n = self.n_columns
        if self.spiderette:
            places = [Place(col, row) for row in range(n) for col in range(row, n)]
        else:
            places = [Place(i % n, i // n) for i in range(54)]
        left = self.n_cards - len(places)
        return (*places, *(Place(IN_STOCK, left - 1 - i) for i in range(left)))

    def layout(self, deck: Sequence[Card]) -> State:
        """The deal: ``deck`` laid out by :meth:`deal_places`; each column's top face up."""
        columns, stock = lay_out(self.deal_places(), deck, self.n_columns)
        return State(
            columns=columns,
            down=tuple(len(c) - 1 for c in columns),
            stock=stock,
            waste=(),
            foundations=(),
            score=0 if self.spiderette else 500,
        )

    # ------------------------------------------------------------------ queries
    def is_won(self, state: State) -> bool:
        """Every King-to-Ace run removed."""
        return len(state.foundations) * RUN == self.n_cards

    def run_length(self, state: State, col: int) -> int:
        """How many top cards of the column move as one unit (same suit, descending by one)."""
        pile = state.columns[col]
        if not pile:
            return 0
        length = 1
        floor = state.down[col]
        index = len(pile) - 1
        while index > floor:
            below, above = pile[index - 1], pile[index]
            if below.suit != above.suit or below.rank != above.rank + 1:
                break
            length += 1
            index -= 1
        return length

    def deal_possible(self, state: State) -> bool:
        """The stock has cards and (under the strict rule) no column is empty."""
        return bool(state.stock) and not (self.strict and not all(state.columns))

    # ------------------------------------------------------------------ moves
    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move, in the module's fixed order, with canonical text."""
        moves: list[Move] = []
        columns = state.columns
        n = self.n_columns
        for i in range(n):
            pile = columns[i]
            if not pile:
                continue
            run = self.run_length(state, i)
            top_rank = pile[-1].rank
            for j in range(n):
                if j == i:
                    continue
                target = columns[j]
                if target:
                    count = target[-1].rank - top_rank
                    if 1 <= count <= run:
                        moves.append(Move(str(i + 1), str(j + 1), count, f"{i + 1}>{j + 1}"))
                elif run == 1:
                    moves.append(Move(str(i + 1), str(j + 1), 1, f"{i + 1}>{j + 1}"))
                else:
                    for count in range(run, 0, -1):
                        text = f"{i + 1}:{count}>{j + 1}"
                        moves.append(Move(str(i + 1), str(j + 1), count, text))
        if self.deal_possible(state):
            moves.append(Move(STOCK, "", 1, STOCK))
        return moves

    def apply(self, state: State, move: Move) -> State:
        """The state after a legal ``move`` (not checked), with flips, removals and score."""
        columns = list(state.columns)
        down = list(state.down)
        stock = state.stock
        if move.source == STOCK:
            dealt = min(self.n_columns, len(stock))
            for col in range(dealt):
                columns[col] = columns[col] + (stock[-1 - col],)
            stock = stock[: len(stock) - dealt]
            touched = range(dealt)
        else:
            src, dst = int(move.source) - 1, int(move.target) - 1
            pile = columns[src]
            cut = len(pile) - move.count
            columns[dst] = columns[dst] + pile[cut:]
            columns[src] = pile[:cut]
            if cut and down[src] == cut:
                down[src] -= 1
            touched = range(dst, dst + 1)
        foundations = state.foundations
        removed = 0
        for col in touched:
            run = _completed_run(columns[col], down[col])
            if run:
                foundations = foundations + (run,)
                columns[col] = columns[col][:-RUN]
                if columns[col] and down[col] == len(columns[col]):
                    down[col] -= 1
                removed += 1
        score = state.score + (10 * removed if self.spiderette else 100 * removed - 1)
        return State(tuple(columns), tuple(down), stock, (), foundations, 0, score)

    # ------------------------------------------------------------------ outcome
    def is_lost(self, state: State, legal: list[Move]) -> bool:
        """Lost when no legal move is left and the game is not won."""
        return not legal and not self.is_won(state)

    # ------------------------------------------------------------------ explanations
    def explain(self, state: State, move: Move) -> str:
        """Why ``move`` is not legal in ``state``, in one line for a player."""
        n = self.n_columns
        if move.source == STOCK:
            if not state.stock:
                return "the stock is empty: no deals left"
            return "no deal while a column is empty: fill every column first"
        source, target = move.source, move.target
        if not (source.isdigit() and target.isdigit()):
            return f"{self.family} has no waste or foundation moves (columns 1-{n}, 'd')"
        for part in (source, target):
            if not 1 <= int(part) <= n:
                return f"there is no column {part} (columns 1-{n})"
        src = int(source) - 1
        pile = state.columns[src]
        if not pile:
            return f"column {source} is empty"
        up = len(pile) - state.down[src]
        if move.count > up:
            return f"column {source} has only {up} face-up card(s)"
        if move.count > self.run_length(state, src):
            return f"those {move.count} cards are not a run of one suit descending by one"
        head = pile[len(pile) - move.count]
        top = state.columns[int(target) - 1][-1]
        if top.rank == ACE:
            return "nothing goes on an Ace"
        return f"{head} cannot go on {top} (needs a card one rank lower than {top})"


def _completed_run(pile: Pile, down: int) -> Pile:
    """The top 13 cards if they are a face-up King-to-Ace run of one suit, else ()."""
    if len(pile) - down < RUN:
        return ()
    run = pile[-RUN:]
    suit = run[0].suit
    if run[0].rank != KING:
        return ()
    for offset, card in enumerate(run):
        if card.suit != suit or card.rank != KING - offset:
            return ()
    return run
