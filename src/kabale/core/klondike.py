"""Every Klondike-family rule: Klondike, Easy, Thoughtful, Double, Vegas (docs/rules.md,
"Klondike and its variants").

The options of the variant are read once into a :class:`KlondikeRules` object; the functions
take and return immutable :class:`State` values and never check legality themselves except in
``legal_moves`` and ``explain`` (the checked path is ``Game.play``).

Legal moves come in this fixed order: column to foundation (columns left to right), waste to
foundation, column to column (by source, then target, longest run first), waste to column,
foundation to column (by foundation, then target), then the stock action ``d``.

Vegas scoring charges 52 points per pack, so Double Klondike starts at -104 (each card to a
foundation still earns 5): the same stake per card as the single-pack game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import KING, Card
from .errors import InvalidDealError
from .klondike_refusal import klondike_refusal
from .refusal import Refusal
from .state import FOUNDATION, IN_STOCK, STOCK, WASTE, Move, Pile, Place, State, lay_out
from .variants import Variant

STANDARD_POINTS = {"foundation": 10, "waste_to_column": 5, "flip": 5, "back": -15}


class KlondikeRules:
    """Klondike's rules under one set of options (draw, passes, empty, back, decks, scoring)."""

    family = "klondike"
    #: the family's facts (core/family.py, ``Rules``): a waste; foundations built up by suit
    #: from the Ace, one card at a time; columns built down in alternating colours; columns
    #: alike (the stock never deals to one)
    has_waste = True
    foundation_rule = "cards"
    build_rule = "alternate_colours"
    columns_interchangeable = True

    def __init__(self, draw: int, passes: int, empty: str, back: bool, decks: int,
                 scoring: str, open_stock: bool = False, name: str = "klondike") -> None:
        self.name = name  # the variant, for messages
        self.draw = draw
        self.open_stock = open_stock  # Thoughtful: the player sees the stock (only is_lost asks)
        self.passes = passes
        self.any_card_on_empty = empty == "any"
        self.back = back
        self.decks = decks
        self.scoring = scoring
        self.n_columns = 7 if decks == 1 else 9
        self.n_foundations = 4 * decks
        self.n_cards = 52 * decks
        #: the suit each foundation takes: f1..f4 = S H D C, f5..f8 again
        self.foundation_suits = tuple(i % 4 for i in range(self.n_foundations))
        # the points of each scored event (apply)
        self._event_points = {event: self._points(event) for event in STANDARD_POINTS}
        # the notation of each column and foundation (legal_move)
        self._names = tuple(str(i + 1) for i in range(self.n_columns))
        self._column_names = {name: i for i, name in enumerate(self._names)}
        self._foundation_names = {f"f{f + 1}": f for f in range(self.n_foundations)}

    @classmethod
    def from_variant(cls, variant: Variant) -> KlondikeRules:
        """The rules of a Klondike variant, its options read once."""
        return cls(draw=int(variant["draw"]), passes=int(variant["passes"]),
                   empty=str(variant["empty"]), back=bool(variant["back"]),
                   decks=int(variant["decks"]), scoring=str(variant["scoring"]),
                   open_stock=bool(variant["open"]), name=str(variant))

    # ------------------------------------------------------------------ facts
    @property
    def shows_every_card(self) -> bool:
        """Thoughtful (``open=true``): every card is dealt face up."""
        return self.open_stock

    @property
    def talon_cycle(self) -> int:
        """The cards a press draws when the talon cycles for ever (unlimited passes), else 0."""
        return self.draw if self.passes == 0 else 0

    def facts(self) -> dict[str, Any]:
        """The observation's ``rules`` block (docs/api.md)."""
        return {"family": self.family, "shows_every_card": self.shows_every_card,
                "has_waste": True, "foundation_rule": self.foundation_rule,
                "columns_interchangeable": True, "draw": self.draw,
                "empty_column": "any" if self.any_card_on_empty else "king",
                "build_rule": self.build_rule, "foundation_to_column": self.back}

    def stock_shown(self, before: State, after: State) -> list[Card] | None:
        """The cards the stock action from ``before`` to ``after`` showed, the stock's top
        first, as they now lie face up; None for a turn-back of the waste (the new stock is
        the old waste, in the order the player just saw)."""
        if not before.stock:
            return None
        taken = len(before.stock) - len(after.stock)
        return [after.waste[len(after.waste) - taken + i] for i in range(taken)]

    def check_position(self, state: State) -> None:
        """Raise InvalidDealError unless the foundations are this variant's: 4 a pack, pile i
        built up from the Ace in suit i mod 4."""
        if len(state.foundations) != self.n_foundations:
            raise InvalidDealError(f"{self.name} has {self.n_foundations} foundations")
        for index, pile in enumerate(state.foundations):
            for rank, card in enumerate(pile, start=1):
                if card.rank != rank or card.suit != index % 4:
                    raise InvalidDealError(f"foundation f{index + 1} must build "
                                           f"{'SHDC'[index % 4]} up from the Ace")

    # ------------------------------------------------------------------ dealing
    def deal_places(self) -> tuple[Place, ...]:
        """Where each card of a deck in deal order lands: row by row, row r gives a card to
        columns r+1..N; the rest is the stock, the deck's last card at its bottom."""
        n = self.n_columns
        places = [Place(col, row) for row in range(n) for col in range(row, n)]
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
            score=-52 * self.decks if self.scoring == "vegas" else 0,
        )

    # ------------------------------------------------------------------ queries
    def passes_left(self, state: State) -> int | None:
        """Turn-backs of the waste still allowed; None when unlimited."""
        if self.passes == 0:
            return None
        return self.passes - 1 - state.passes_used

    def is_won(self, state: State) -> bool:
        """All cards on the foundations."""
        return sum(map(len, state.foundations)) == self.n_cards

    def foundation_for(self, state: State, card: Card) -> int:
        """Index of the first foundation of the card's suit that takes it, or -1."""
        return self._foundation_taking(state.foundations, card)

    def _foundation_taking(self, foundations: Sequence[Sequence[Card]], card: Card) -> int:
        for copy in range(self.decks):
            index = copy * 4 + card.suit
            if len(foundations[index]) == card.rank - 1:  # each pile holds Ace..its top
                return index
        return -1

    # The move rules, each written once: which card goes on a column (``_fits``: the empty
    # column's rule and, through ``_builds``, the building rule), which column-to-column move
    # is legal with its canonical text (``_run_move``), and when the stock may be pressed
    # (``_may_press``) and what a press does (``_press``). legal_moves, legal_move,
    # play_line and stock_actions all ask them.
    def _fits(self, card: Card, pile: Sequence[Card]) -> bool:
        """Can ``card`` (heading a run) be placed on the column ``pile``?"""
        if not pile:
            return self.any_card_on_empty or card.rank == KING
        return _builds(card, pile[-1])

    def _run_move(self, pile: Sequence[Card], start: int, k: int, dest: Sequence[Card],
                  source: str, target: str) -> str | None:
        """The canonical text of moving ``pile[k:]`` from column ``source`` onto ``dest``
        (column ``target``), ``pile[start:]`` being the column's movable run; None when the
        rules refuse it. The text names the count only where the target could take more than
        one count of the run (an empty column that takes any card, under a run of two or
        more)."""
        if not start <= k < len(pile) or not self._fits(pile[k], dest):
            return None
        if not dest and self.any_card_on_empty and len(pile) - start > 1:
            return f"{source}:{len(pile) - k}>{target}"
        return f"{source}>{target}"

    def run_start(self, state: State, col: int) -> int:
        """Lowest index of the column's movable run: face up, alternating, descending to the top."""
        return _run_start(state.columns[col], state.down[col])

    def stock_action_possible(self, state: State) -> bool:
        """``d`` draws while the stock has cards, else turns the waste back if a pass is left."""
        return self._may_press(state.stock, state.waste, state.passes_used)

    def _may_press(self, stock: Sequence[Card], waste: Sequence[Card], used: int) -> bool:
        """May the stock be pressed: it has cards, or the waste (if any) may be turned back
        once more, ``used`` passes having been used?"""
        return bool(stock) or (bool(waste) and (self.passes == 0 or self.passes - 1 - used > 0))

    # ------------------------------------------------------------------ moves
    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move, in the module's fixed order, with canonical text."""
        if self.is_won(state):
            return []
        moves: list[Move] = []
        columns, down = state.columns, state.down
        n, names = self.n_columns, self._names
        for i in range(n):
            pile = columns[i]
            if pile and self.foundation_for(state, pile[-1]) >= 0:
                moves.append(Move(names[i], FOUNDATION, 1, f"{names[i]}>f"))
        moves.extend(self._waste_to_foundation(state))
        for i in range(n):
            pile = columns[i]
            if not pile:
                continue
            start = _run_start(pile, down[i])
            size = len(pile)
            low_rank = pile[start].rank  # ranks fall by one from pile[start] to the top
            source = names[i]
            for j in range(n):
                dest = columns[j]
                if j == i:
                    continue
                # The run's cards that could head a move (the rule, _run_move, decides):
                # onto a card, only the one a rank below it, the run falling by one; onto an
                # empty column, any of them, longest move first.
                if dest:
                    k = start + low_rank - dest[-1].rank + 1
                    if start <= k < size:
                        text = self._run_move(pile, start, k, dest, source, names[j])
                        if text is not None:
                            moves.append(Move(source, names[j], size - k, text))
                    continue
                for k in range(start, size):
                    text = self._run_move(pile, start, k, dest, source, names[j])
                    if text is not None:
                        moves.append(Move(source, names[j], size - k, text))
        moves.extend(self._waste_to_columns(state))
        if self.back:
            for f, pile in enumerate(state.foundations):
                if pile:
                    for j in range(n):
                        if self._fits(pile[-1], columns[j]):
                            moves.append(Move(f"f{f + 1}", str(j + 1), 1, f"f{f + 1}>{j + 1}"))
        if self.stock_action_possible(state):
            moves.append(Move(STOCK, "", 1, STOCK))
        return moves

    def waste_moves(self, state: State) -> list[Move]:
        """The legal moves of the waste's top card, in legal_moves' order."""
        return [*self._waste_to_foundation(state), *self._waste_to_columns(state)]

    def _waste_to_foundation(self, state: State) -> list[Move]:
        if state.waste and self.foundation_for(state, state.waste[-1]) >= 0:
            return [Move(WASTE, FOUNDATION, 1, "w>f")]
        return []

    def _waste_to_columns(self, state: State) -> list[Move]:
        if not state.waste:
            return []
        card = state.waste[-1]
        return [Move(WASTE, str(j + 1), 1, f"w>{j + 1}")
                for j, pile in enumerate(state.columns) if self._fits(card, pile)]

    def legal_move(self, state: State, move: Move) -> Move | None:
        """The move of ``legal_moves(state)`` equal to ``move`` (with its canonical text), or
        None when there is none; the same answer without listing every legal move. ``move``
        must hold strings and an int count (Game.play's checked path)."""
        if self.is_won(state):
            return None
        source, target, count = move.source, move.target, move.count
        if source == STOCK:
            if target == "" and count == 1 and self.stock_action_possible(state):
                return Move(STOCK, "", 1, STOCK)
            return None
        columns = state.columns
        if target == FOUNDATION:
            if count != 1:
                return None
            if source == WASTE:
                if state.waste and self.foundation_for(state, state.waste[-1]) >= 0:
                    return Move(WASTE, FOUNDATION, 1, "w>f")
                return None
            i = self._column_names.get(source, -1)
            if i >= 0 and columns[i] and self.foundation_for(state, columns[i][-1]) >= 0:
                return Move(source, FOUNDATION, 1, f"{source}>f")
            return None
        j = self._column_names.get(target, -1)
        if j < 0:
            return None
        dest = columns[j]
        if source == WASTE:
            if count == 1 and state.waste and self._fits(state.waste[-1], dest):
                return Move(WASTE, target, 1, f"w>{target}")
            return None
        f = self._foundation_names.get(source, -1)
        if f >= 0:
            pile = state.foundations[f]
            if self.back and count == 1 and pile and self._fits(pile[-1], dest):
                return Move(source, target, 1, f"{source}>{target}")
            return None
        i = self._column_names.get(source, -1)
        if i < 0 or i == j or not columns[i]:
            return None
        pile = columns[i]
        text = self._run_move(pile, _run_start(pile, state.down[i]), len(pile) - count, dest,
                              source, target)
        return None if text is None else Move(source, target, count, text)

    def apply(self, state: State, move: Move) -> State:
        """The state after a legal ``move`` (not checked), with flips and score applied."""
        source, target = move.source, move.target
        if source == STOCK:
            return self._stock_action(state)
        columns = list(state.columns)
        down = state.down
        foundations = state.foundations
        waste = state.waste
        points = 0
        if source == WASTE:
            cards: Pile = waste[-1:]
            waste = waste[:-1]
        elif source[0] == "f":
            f = int(source[1:]) - 1
            piles = list(foundations)
            cards = piles[f][-1:]
            piles[f] = piles[f][:-1]
            foundations = tuple(piles)
            points += self._event_points["back"]
        else:
            col = int(source) - 1
            pile = columns[col]
            cut = len(pile) - move.count
            cards = pile[cut:]
            columns[col] = pile[:cut]
            if cut and down[col] == cut:
                turned = list(down)
                turned[col] -= 1
                down = tuple(turned)
                points += self._event_points["flip"]
        if target == FOUNDATION:
            f = self.foundation_for(state, cards[0])
            piles = list(foundations)
            piles[f] = piles[f] + cards
            foundations = tuple(piles)
            points += self._event_points["foundation"]
        else:
            col = int(target) - 1
            columns[col] = columns[col] + cards
            if source == WASTE:
                points += self._event_points["waste_to_column"]
        score = self._add_score(state.score, points) if points else state.score
        return State(tuple(columns), down, state.stock, waste, foundations, state.passes_used,
                     score)

    def _stock_action(self, state: State) -> State:
        stock, waste, used, score = self._press(state.stock, state.waste, state.passes_used,
                                                state.score)
        return State(state.columns, state.down, stock, waste, state.foundations, used, score)

    def _press(self, stock: Pile, waste: Pile, used: int,
               score: int) -> tuple[Pile, Pile, int, int]:
        """Stock, waste, passes used and score after one stock action (not checked)."""
        if stock:
            taken = stock[-self.draw:]
            return stock[: -len(taken)], waste + tuple(reversed(taken)), used, score
        used += 1
        return tuple(reversed(waste)), (), used, self._add_score(score, self._redeal_points(used))

    def _redeal_points(self, used: int) -> int:
        """Standard scoring's charge for the turn-back that makes ``used`` passes used."""
        if self.scoring != "standard":
            return 0
        return -100 if self.draw == 1 else -20 if used >= 3 else 0

    def stock_actions(self, state: State, times: int) -> State | None:
        """The state after ``times`` stock actions ``d`` in a row, each checked as
        ``legal_move`` checks it, or None when one of them is not legal: ``apply`` of ``d``
        that many times over, without building the states between."""
        if self.is_won(state):
            return None  # and stays so: the stock action touches no foundation
        stock, waste, used, score = state.stock, state.waste, state.passes_used, state.score
        for _ in range(times):
            if not self._may_press(stock, waste, used):
                return None
            stock, waste, used, score = self._press(stock, waste, used, score)
        return State(state.columns, state.down, stock, waste, state.foundations, used, score)

    def play_line(self, state: State, moves: Sequence[Move]) -> tuple[State, list[str], int]:
        """``moves`` played from ``state``, each checked as ``legal_move`` checks it and
        applied as ``apply`` applies it, on lists instead of a State per move: the state
        after the legal moves before the first illegal one, their canonical texts, and the
        index of that illegal move (-1 when all are legal). A solver's line of hundreds of
        moves is checked in a fraction of the time move-by-move checking takes."""
        columns = [list(pile) for pile in state.columns]
        down = list(state.down)
        stock, waste = state.stock, state.waste
        foundations = [list(pile) for pile in state.foundations]
        used, score = state.passes_used, state.score
        home = sum(map(len, foundations))
        points_of = self._event_points
        names, homes = self._column_names, self._foundation_names
        texts: list[str] = []
        bad = -1
        for index, move in enumerate(moves):
            source, target, count = move.source, move.target, move.count
            if home == self.n_cards:
                bad = index
                break
            if source == STOCK:
                if target or count != 1 or not self._may_press(stock, waste, used):
                    bad = index
                    break
                stock, waste, used, score = self._press(stock, waste, used, score)
                texts.append(STOCK)
                continue
            i = names.get(source, -1)
            f = homes.get(source, -1)
            points = 0
            if target == FOUNDATION:
                pile = waste if source == WASTE else columns[i] if i >= 0 else None
                if count != 1 or not pile:
                    bad = index
                    break
                to = self._foundation_taking(foundations, pile[-1])
                if to < 0:
                    bad = index
                    break
                foundations[to].append(pile[-1])
                if source == WASTE:
                    waste = waste[:-1]
                else:
                    columns[i].pop()
                home += 1
                points = points_of["foundation"]
                text = f"{source}>f"
            else:
                j = names.get(target, -1)
                if j < 0:
                    bad = index
                    break
                dest = columns[j]
                text = f"{source}>{target}"
                if source == WASTE:
                    if count != 1 or not waste or not self._fits(waste[-1], dest):
                        bad = index
                        break
                    dest.append(waste[-1])
                    waste = waste[:-1]
                    points = points_of["waste_to_column"]
                elif f >= 0:
                    pile = foundations[f]
                    if not self.back or count != 1 or not pile or not self._fits(pile[-1], dest):
                        bad = index
                        break
                    dest.append(pile.pop())
                    home -= 1
                    points = points_of["back"]
                else:
                    if i < 0 or i == j or not columns[i]:
                        bad = index
                        break
                    pile = columns[i]
                    k = len(pile) - count
                    moved = self._run_move(pile, _run_start(pile, down[i]), k, dest, source,
                                           target)
                    if moved is None:
                        bad = index
                        break
                    text = moved
                    dest.extend(pile[k:])
                    del pile[k:]
            if i >= 0 and columns[i] and down[i] == len(columns[i]):
                down[i] -= 1  # the card under the moved ones turns face up
                points += points_of["flip"]
            score = self._add_score(score, points)
            texts.append(text)
        after = State(tuple(map(tuple, columns)), tuple(down), stock, waste,
                      tuple(map(tuple, foundations)), used, score)
        return after, texts, bad

    def _points(self, event: str) -> int:
        if self.scoring == "standard":
            return STANDARD_POINTS[event]
        if self.scoring == "vegas":
            return {"foundation": 5, "back": -5}.get(event, 0)
        return 0

    def _add_score(self, score: int, points: int) -> int:
        if not points:
            return score
        return max(0, score + points) if self.scoring == "standard" else score + points

    # ------------------------------------------------------------------ outcome
    def is_lost(self, state: State, legal: list[Move]) -> bool:
        """Lost as far as the player can know (docs/rules.md, "Winning and losing"). No
        legal move at all; or, with unlimited passes, only ``d`` is possible, a whole cycle
        through stock and waste never offers another move, and no stock card the player has
        not seen could change that."""
        if not legal:
            return not self.is_won(state)
        if self.passes != 0 or len(legal) != 1 or legal[0].source != STOCK:
            return False
        return self._cycle_is_dead(state) and (
            self.stock_seen(state) or not self._unseen_could_play(state))

    def _cycle_is_dead(self, state: State) -> bool:
        """Drawing through the true stock and waste until they repeat offers no other move."""
        start = (state.stock, state.waste)
        current = state
        for _ in range(2 * (len(state.stock) + len(state.waste)) + 4):
            current = self._stock_action(current)
            if len(self.legal_moves(current)) != 1:
                return False
            if (current.stock, current.waste) == start:
                return True
        return False

    def stock_seen(self, state: State) -> bool:
        """Has the player seen every stock card, in order? Cards reach the stock only by a
        turn-back of the waste, where each of them lay face up; so after the first pass (or
        with no stock left, or with the stock shown) the player knows the stock exactly."""
        return self.open_stock or state.passes_used > 0 or not state.stock

    def _unseen_could_play(self, state: State) -> bool:
        """Could some card the player has not seen (the stock's and the face-down ones: the
        player cannot tell which lies where) go to a foundation or a column as things stand?
        While only ``d`` is legal nothing but the waste changes, and in the first pass every
        unseen stock card lies where any unseen card could be, and the top one of each draw
        reaches the waste's top: so if one could play, the player cannot rule out a world in
        which the cycle offers a move; if none could, no world's does."""
        unseen = list(state.stock)
        for pile, down in zip(state.columns, state.down, strict=True):
            unseen.extend(pile[:down])
        return any(self.foundation_for(state, card) >= 0
                   or any(self._fits(card, column) for column in state.columns)
                   for card in unseen)

    # ------------------------------------------------------------------ refusals
    def explain(self, state: State, move: Move) -> str:
        """Why ``move`` is not legal in ``state``, in one line for a player."""
        return self.refusal(state, move).text()

    def refusal(self, state: State, move: Move) -> Refusal:
        """Why ``move`` is not legal in ``state``, as a reason key and its parameters."""
        return klondike_refusal(self, state, move)


def _builds(card: Card, top: Card) -> bool:
    """Klondike's building rule: may ``card`` lie on ``top`` in a column (one rank lower, the
    other colour)?"""
    return top.rank == card.rank + 1 and top.is_red != card.is_red


def _run_start(pile: Sequence[Card], floor: int) -> int:
    """Lowest index above ``floor`` (the face-down count) of the pile's run descending to its
    top, each card on the one below it by the building rule (``_builds``)."""
    start = len(pile) - 1
    while start > floor and _builds(pile[start], pile[start - 1]):
        start -= 1
    return start
