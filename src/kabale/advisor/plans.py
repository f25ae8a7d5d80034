"""Plans: what a player can do before the next card is shown.

A move that shows no unseen card (a column move that turns nothing up, a foundation move, a
waste play, a draw or a deal of cards already known) gives the player nothing to learn: its
legality and its effect on every card in sight are the same in every world. So a player
choosing a move is choosing a plan: a sequence of such moves, then one move that shows a card
(or a sequence that wins outright). Comparing plans rather than single moves is what keeps
the search from strategy fusion over that stretch: each world is solved only from the point
where it first differs from the others (lonelybot chooses its moves so).

Plans are found by a best-first search over the positions that moves showing nothing
reach, on one world: those moves never look at an unseen card, so the positions found, as far
as the player sees them, are those of every world.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from dataclasses import dataclass, field

from ..core import Move, State
from ..core.game import Rules
from ..core.klondike import KlondikeRules
from ..core.notation import parse_move_text
from .knowledge import Knowledge, sight
from .tips import step_points, tip_score


def explicit_move(text: str) -> Move:
    """The Move of a move in explicit notation (``3:4>7``, ``w>f``, ``d``), as the solver's
    lines write them: equal to the legal move it names in any position."""
    source, target, count = parse_move_text(text)
    return Move(source, target, count or 1)


@dataclass(frozen=True)
class Plan:
    """Moves that show nothing, then (when ``reveals``) one move that shows a card;
    ``tips``: how well it follows the seeds' tips (tips.py), to break ties."""

    moves: tuple[Move, ...]
    reveals: bool
    tips: int = field(default=0, compare=False)

    @property
    def first(self) -> Move:
        """The move to play now."""
        return self.moves[0]


class Planner:
    """The plans open to the player in the position of a Knowledge, searched on one world
    ``start`` (a position drawn for that knowledge)."""

    def __init__(self, k: Knowledge, rules: Rules, start: State) -> None:
        self.k = k
        self.rules = rules
        self.start = start
        self.symmetric = isinstance(rules, KlondikeRules)  # Klondike ignores column order
        self.talon_free = isinstance(rules, KlondikeRules) and rules.draw == 1 and \
            rules.passes == 0

    def reveals(self, before: State, after: State) -> bool:
        """Does the move from ``before`` to ``after`` show a card the player has not seen?"""
        for c, pile in enumerate(self.k.columns):
            for i in range(after.down[c], before.down[c]):
                if pile[i] is None:
                    return True
        if len(after.stock) < len(before.stock) and before.passes_used == self.k.passes_used:
            # still the stock the knowledge describes (a turn-back in between would have
            # needed every card of it drawn, each one seen)
            return any(self.k.stock[j] is None
                       for j in range(len(after.stock), len(before.stock)))
        return False

    def steps(self, state: State) -> list[tuple[tuple[Move, ...], State, bool]]:
        """The steps worth a plan's while from ``state``: (moves, the position after them,
        whether the last one shows a card).

        - A Klondike column top of rank 2 or less that fits its foundation goes up alone:
          nothing but an Ace could ever lie on it, and an Ace has its own foundation, so any
          line keeps its moves with that card up (the talon's only where every talon card
          stays reachable: draw 1, unlimited passes).
        - Draws that show nothing count only with the waste play they lead to (a run of
          draws is worth making just before the play it uncovers, as the solver's stock
          macro moves), and a draw that shows a card ends a step.
        - Cards come back from Klondike's foundations only in plans that solved worlds
          propose: those moves' uses are rare and their number large."""
        rules = self.rules
        legal = rules.legal_moves(state)
        if self.symmetric:
            for move in legal:
                if move.target == "f" and (move.source != "w" or self.talon_free):
                    card = state.waste[-1] if move.source == "w" else \
                        state.columns[int(move.source) - 1][-1]
                    if card.rank <= 2:
                        after = rules.apply(state, move)
                        return [((move,), after, self.reveals(state, after))]
        out = []
        for move in legal:
            if move.is_stock:
                out.extend(self._draws(state, move))
            elif not move.source.startswith("f"):
                after = rules.apply(state, move)
                out.append(((move,), after, self.reveals(state, after)))
        return out

    def _draws(self, state: State,
               press: Move) -> list[tuple[tuple[Move, ...], State, bool]]:
        """The steps that start with the stock action ``press``: up to the first press that
        shows a card, each waste play some presses away (Spider: the deal)."""
        rules = self.rules
        out: list[tuple[tuple[Move, ...], State, bool]] = []
        current, presses = state, ()
        start = (state.stock, state.waste, state.passes_used)
        for _ in range(len(state.stock) + len(state.waste) + 1):
            after = rules.apply(current, press)
            presses = (*presses, press)
            if self.reveals(current, after) or not self.symmetric:
                return [*out, (presses, after, self.reveals(current, after))]
            current = after
            if (current.stock, current.waste, current.passes_used) == start:
                break
            assert isinstance(rules, KlondikeRules)  # Spider returned at its deal
            for move in rules.waste_moves(current):
                out.append(((*presses, move), rules.apply(current, move), False))
            if not rules.stock_action_possible(current):
                break
        return out

    def plans(self, limit: int) -> tuple[list[Plan], list[Plan], bool]:
        """The plans from the start, shortest first, exploring at most ``limit`` positions,
        each with its tips: (plans that show a card or win; plans that only move on to a
        position the game has not been in; whether the search was cut)."""
        found, closure, cut = self.explore(self.start, limit)
        reached = [plan for key, _, plan in closure if key not in self.k.visited]
        return found, reached, cut

    def reach(self, start: State, limit: int) -> list[State]:
        """Up to ``limit`` positions that ``start`` (a position of any world of the
        knowledge, after moves) reaches by moves that show nothing."""
        return [state for _, state, _ in self.explore(start, limit, tips=False)[1]]

    def explore(self, start: State, limit: int, tips: bool = True) -> tuple[
            list[Plan], list[tuple[Hashable, State, Plan]], bool]:
        """Search from ``start`` over the moves that show nothing until ``limit`` positions
        are found: (the plans that show a card or win, the positions reached with their
        sight and the plan that reaches them, whether the search was cut); with ``tips``,
        each plan's tips are summed step by step along the search (else they are 0).
        Positions are taken best first by their moves so far plus the fewest face-up cards
        that cover a face-down one (a lower bound of the moves to the nearest card to turn,
        when each move shifts one pile), so that the cards nearest to being turned are found
        within the limit."""
        rules = self.rules
        seen = {sight(start, self.symmetric)}
        queue: list[tuple[int, int, State, Plan]] = [(0, 0, start, Plan((), False))]
        found: list[Plan] = []
        closure: list[tuple[Hashable, State, Plan]] = []
        while queue and len(seen) <= limit:
            _, _, state, plan = heapq.heappop(queue)
            if rules.is_won(state):
                found.append(plan)
                continue
            for step, after, shows in self.steps(state):
                score = plan.tips + step_points(rules, state, after, step) if tips else 0
                line = Plan((*plan.moves, *step), shows, score)
                if shows:
                    found.append(line)
                    continue
                key = sight(after, self.symmetric)
                if key in seen or len(seen) > limit:
                    continue
                seen.add(key)
                heapq.heappush(queue, (len(line.moves) + _cover(after), len(seen), after, line))
                closure.append((key, after, line))
        return found, closure, bool(queue)

    def plan_of(self, line: tuple[str, ...]) -> Plan:
        """The plan a winning line of some world (explicit notation, solver/batch.py)
        starts with: its moves up to the first one that shows a card (or the whole line,
        which then wins without showing one), as the rules' legal moves, with its tips."""
        state = self.start
        moves: list[Move] = []
        reveals = False
        for text in line:
            wanted = explicit_move(text)
            move = next(m for m in self.rules.legal_moves(state) if m == wanted)
            moves.append(move)
            after = self.rules.apply(state, move)
            if self.reveals(state, after):
                reveals = True
                break
            state = after
        return Plan(tuple(moves), reveals, tip_score(self.rules, self.start, tuple(moves)))


def _cover(state: State) -> int:
    """The fewest face-up cards lying on a face-down card in any column (0 if none is)."""
    covers = [len(pile) - down for pile, down in zip(state.columns, state.down, strict=True)
              if down]
    return min(covers, default=0)
