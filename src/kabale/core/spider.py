"""Every Spider-family rule: Spider and Spiderette, 1, 2 or 4 suits (docs/rules.md, "Spider"
and "Spiderette").

Spider deals 10 columns round-robin (columns 1-4 get 6 cards, 5-10 get 5) and a 50-card stock
dealt 10 at a time; Spiderette deals Klondike's 1..7 layout and a 24-card stock dealt 7, 7, 7
then 3 (onto columns 1-3). A card goes on any card one rank higher; a run moves as a unit only
if it descends by one and is one suit; an empty column takes any card or movable run; a
complete King-to-Ace run of one suit is removed at once; face-down cards turn up when exposed.
With ``strict`` (the default) the stock may not be dealt while a column is empty.

With ``foundations="cards"`` (a comparison rule, not the seeds') no run is removed: the top
card of a column goes alone to one of the foundations (Spider 8, Spiderette 4), each built up
by suit from the Ace and never played from. Foundation i takes the suit ``suits[i % k]`` of
the deck's k suits in kabale's order S H D C (4 suits: f1..f4 = S H D C, Spider's f5..f8
again; 2 suits: S H S H ...; 1 suit: all spades), as many of each suit as the deck has
copies of it, so an Ace always finds an empty one. ``3>f`` sends a card to the first
foundation of its suit that takes it. The score counts a foundation filled up to its King as
Spider counts a removed run.

Legal moves come in this fixed order: column to foundation (foundations=cards; columns left
to right), column to column (by source, then target, longest run first), then the deal ``d``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from .cards import ACE, KING, Card
from .errors import InvalidDealError
from .refusal import Refusal
from .state import FOUNDATION, IN_STOCK, STOCK, Move, Pile, Place, State, lay_out
from .variants import Variant

RUN = 13
FOUNDATION_RULES = ("runs", "cards")


@cache
def _column_move(src: int, dst: int, count: int, counted: bool) -> Move:
    """The move of ``count`` cards from column ``src`` + 1 to ``dst`` + 1 with its canonical
    text, which names the count when ``counted`` (a move into an empty column, which could
    take several). A Move is immutable, so one serves every position (legal_moves makes
    thousands a second for the advisor)."""
    text = f"{src + 1}:{count}>{dst + 1}" if counted else f"{src + 1}>{dst + 1}"
    return Move(str(src + 1), str(dst + 1), count, text)


class SpiderRules:
    """Spider or Spiderette under one set of options (suits is in the deck; strict and the
    foundation rule here)."""

    #: the family's facts (core/family.py, ``Rules``): no waste; columns built down in any
    #: suit; the stock deals one card to each column from the left (so columns are not
    #: interchangeable); nothing dealt face up
    has_waste = False
    build_rule = "any_suit"
    columns_interchangeable = False
    shows_every_card = False
    talon_cycle = 0

    def __init__(self, family: str, strict: bool, foundations: str = "runs",
                 suits: int = 4, name: str = "") -> None:
        self.family = family
        self.name = name or family  # the variant, for messages
        self.foundation_rule = foundations
        self.strict = strict
        self.spiderette = family == "spiderette"
        self.n_columns = 7 if self.spiderette else 10
        self.n_cards = 52 if self.spiderette else 104
        self.cards_up = foundations == "cards"
        #: foundations=cards: how many foundations, and the suit each one takes
        self.n_foundations = self.n_cards // RUN if self.cards_up else 0
        self.foundation_suits = tuple(i % suits for i in range(self.n_foundations))

    @classmethod
    def from_variant(cls, variant: Variant) -> SpiderRules:
        """The rules of a Spider or Spiderette variant, its options read once."""
        return cls(variant.family, strict=bool(variant["strict"]),
                   foundations=str(variant["foundations"]), suits=int(variant["suits"]),
                   name=str(variant))

    # ------------------------------------------------------------------ facts
    def facts(self) -> dict[str, Any]:
        """The observation's ``rules`` block (docs/api.md)."""
        return {"family": self.family, "shows_every_card": False, "has_waste": False,
                "foundation_rule": self.foundation_rule, "columns_interchangeable": False,
                "draw": None, "empty_column": "any", "build_rule": self.build_rule,
                "foundation_to_column": False}

    def passes_left(self, state: State) -> int | None:
        """The Spider family never turns a waste back: None."""
        return None

    def stock_seen(self, state: State) -> bool:
        """Does the player know every stock card, in order? Only when the stock is empty: a
        Spider stock is dealt face down and never turned back."""
        return not state.stock

    def stock_shown(self, before: State, after: State) -> list[Card] | None:
        """The cards the deal from ``before`` to ``after`` showed, the stock's top first, as
        they now lie face up (a card that completed a run shows as that run's Ace)."""
        taken = len(before.stock) - len(after.stock)
        removed = iter(after.foundations[len(before.foundations):])
        shown = []
        for col in range(taken):  # dealt one a column from the left, the stock's top first
            size = len(before.columns[col])
            if len(after.columns[col]) > size:
                shown.append(after.columns[col][size])
            else:  # it completed a run, removed at once: that run's last card (its Ace)
                shown.append(next(removed)[-1])
        return shown

    def check_position(self, state: State) -> None:
        """Raise InvalidDealError unless the waste is empty and the foundations are this
        variant's: removed King-to-Ace runs of one suit, or (foundations=cards) one pile per
        13 cards, pile i built up from the Ace in foundation_suits[i]."""
        if state.waste:
            raise InvalidDealError(f"{self.family} has no waste")
        if self.cards_up:
            if len(state.foundations) != self.n_foundations:
                raise InvalidDealError(f"{self.name} has {self.n_foundations} foundations")
            for index, pile in enumerate(state.foundations):
                suit = self.foundation_suits[index]
                for rank, card in enumerate(pile, start=1):
                    if card.rank != rank or card.suit != suit:
                        raise InvalidDealError(f"foundation f{index + 1} must build "
                                               f"{'SHDC'[suit]} up from the Ace")
            return
        for pile in state.foundations:
            if not pile or [(c.rank, c.suit) for c in pile] != [
                    (13 - k, pile[0].suit) for k in range(13)]:
                raise InvalidDealError("each removed run must be King to Ace of one suit")

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
            foundations=((),) * self.n_foundations,
            score=0 if self.spiderette else 500,
        )

    # ------------------------------------------------------------------ queries
    def is_won(self, state: State) -> bool:
        """Every King-to-Ace run removed (foundations=cards: every card on a foundation)."""
        if self.cards_up:
            return sum(len(pile) for pile in state.foundations) == self.n_cards
        return len(state.foundations) * RUN == self.n_cards

    def foundation_for(self, state: State, card: Card) -> int:
        """foundations=cards: the index of the first foundation of the card's suit that
        takes it (its top is the card one rank lower, or it is empty and the card an Ace),
        else -1 (always -1 under the runs rule)."""
        for index, suit in enumerate(self.foundation_suits):
            if suit == card.suit and len(state.foundations[index]) == card.rank - 1:
                return index
        return -1

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

    stock_action_possible = deal_possible

    def waste_moves(self, state: State) -> list[Move]:
        """No waste: no moves of it."""
        return []

    # ------------------------------------------------------------------ moves
    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move, in the module's fixed order, with canonical text."""
        moves: list[Move] = []
        columns = state.columns
        n = self.n_columns
        if self.cards_up:
            moves.extend(Move(str(i + 1), FOUNDATION, 1, f"{i + 1}>f") for i in range(n)
                         if columns[i] and self.foundation_for(state, columns[i][-1]) >= 0)
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
                        moves.append(_column_move(i, j, count, False))
                elif run == 1:
                    moves.append(_column_move(i, j, 1, False))
                else:
                    for count in range(run, 0, -1):
                        moves.append(_column_move(i, j, count, True))
        if self.deal_possible(state):
            moves.append(Move(STOCK, "", 1, STOCK))
        return moves

    def legal_move(self, state: State, move: Move) -> Move | None:
        """The move of ``legal_moves(state)`` equal to ``move`` (with its canonical text), or
        None when there is none. A column-to-column move, the one a line's checks ask most,
        is decided alone by the rule legal_moves lists them by."""
        source, target = move.source, move.target
        if not (source.isdigit() and target.isdigit()):
            return next((legal for legal in self.legal_moves(state) if legal == move), None)
        src, dst, n = int(source) - 1, int(target) - 1, self.n_columns
        if not (0 <= src < n and 0 <= dst < n) or src == dst or not state.columns[src]:
            return None
        run = self.run_length(state, src)
        if not 1 <= move.count <= run:
            return None
        onto = state.columns[dst]
        if not onto:  # any run, or part of one, goes to an empty column
            return _column_move(src, dst, move.count, run > 1)
        head = state.columns[src][-move.count]
        if onto[-1].rank != head.rank + 1:  # one rank lower, any suit
            return None
        return _column_move(src, dst, move.count, False)

    def stock_actions(self, state: State, times: int) -> State | None:
        """The state after ``times`` deals ``d`` in a row, each checked, or None when one of
        them is not legal."""
        for _ in range(times):
            if not self.deal_possible(state):
                return None
            state = self.apply(state, Move(STOCK, "", 1, STOCK))
        return state

    def play_line(self, state: State, moves: Sequence[Move]) -> tuple[State, list[str], int]:
        """``moves`` played from ``state``, each checked as ``legal_move`` checks it: the state
        after the legal moves before the first illegal one, their canonical texts, and the
        index of that illegal move (-1 when all are legal)."""
        texts: list[str] = []
        for index, move in enumerate(moves):
            legal = self.legal_move(state, move)
            if legal is None:
                return state, texts, index
            state = self.apply(state, legal)
            texts.append(str(legal))
        return state, texts, -1

    def apply(self, state: State, move: Move) -> State:
        """The state after a legal ``move`` (not checked), with flips, removals and score."""
        if move.target == FOUNDATION:
            return self._to_foundation(state, int(move.source) - 1)
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
        for col in () if self.cards_up else touched:
            run = _completed_run(columns[col], down[col])
            if run:
                foundations = foundations + (run,)
                columns[col] = columns[col][:-RUN]
                if columns[col] and down[col] == len(columns[col]):
                    down[col] -= 1
                removed += 1
        return State(tuple(columns), tuple(down), stock, (), foundations, 0,
                     self._score(state.score, removed))

    def _to_foundation(self, state: State, col: int) -> State:
        """The state after the top card of column ``col`` goes to its foundation."""
        columns = list(state.columns)
        down = list(state.down)
        card = columns[col][-1]
        columns[col] = columns[col][:-1]
        if columns[col] and down[col] == len(columns[col]):
            down[col] -= 1
        foundations = list(state.foundations)
        index = self.foundation_for(state, card)
        foundations[index] = foundations[index] + (card,)
        return State(tuple(columns), tuple(down), state.stock, (), tuple(foundations), 0,
                     self._score(state.score, int(card.rank == KING)))

    def _score(self, score: int, completed: int) -> int:
        """The score after a move that completed ``completed`` suits (a removed run, or a
        foundation's King): Spider -1 a move and +100 a suit; Spiderette +10 a suit."""
        return score + (10 * completed if self.spiderette else 100 * completed - 1)

    # ------------------------------------------------------------------ outcome
    def is_lost(self, state: State, legal: list[Move]) -> bool:
        """Lost when no legal move is left and the game is not won."""
        return not legal and not self.is_won(state)

    # ------------------------------------------------------------------ refusals
    def explain(self, state: State, move: Move) -> str:
        """Why ``move`` is not legal in ``state``, in one line for a player."""
        return self.refusal(state, move).text()

    def refusal(self, state: State, move: Move) -> Refusal:
        """Why ``move`` is not legal in ``state``, as a reason key and its parameters."""
        n = self.n_columns
        if move.source == STOCK:
            if not state.stock:
                return Refusal("no_deals")
            return Refusal("deal_empty")
        source, target = move.source, move.target
        if self.cards_up and source.isdigit() and target.startswith(FOUNDATION):
            return self._foundation_refusal(state, move)
        if not (source.isdigit() and target.isdigit()):
            return Refusal("no_waste_back" if self.cards_up else "no_waste",
                           {"family": self.family, "columns": n})
        for part in (source, target):
            if not 1 <= int(part) <= n:
                return Refusal("no_column", {"column": part, "columns": n})
        src = int(source) - 1
        pile = state.columns[src]
        if not pile:
            return Refusal("column_empty", {"column": source})
        up = len(pile) - state.down[src]
        if move.count > up:
            return Refusal("face_down", {"column": source, "up": up})
        if move.count > self.run_length(state, src):
            return Refusal("not_run_suit", {"n": move.count})
        head = pile[len(pile) - move.count]
        top = state.columns[int(target) - 1][-1]
        if top.rank == ACE:
            return Refusal("on_ace")
        return Refusal("needs_rank", {"card": str(head), "top": str(top)})

    def _foundation_refusal(self, state: State, move: Move) -> Refusal:
        """Why a column-to-foundation ``move`` (foundations=cards) is not legal."""
        n, source, target = self.n_columns, move.source, move.target
        if not 1 <= int(source) <= n:
            return Refusal("no_column", {"column": source, "columns": n})
        if target != FOUNDATION and not 1 <= int(target[1:]) <= self.n_foundations:
            return Refusal("no_foundation", {"foundation": target,
                                             "foundations": self.n_foundations})
        pile = state.columns[int(source) - 1]
        if not pile:
            return Refusal("column_empty", {"column": source})
        if move.count != 1:
            return Refusal("one_to_foundation")
        card = pile[-1]
        want = self.foundation_for(state, card)
        if want < 0:
            if card.rank == ACE:
                return Refusal("foundation_needs_empty", {"card": str(card)})
            return Refusal("foundation_needs_card", {"card": str(card),
                                                     "prev": str(Card(card.rank - 1, card.suit))})
        return Refusal("other_foundation", {"card": str(card), "foundation": f"f{want + 1}",
                                            "target": target})


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
