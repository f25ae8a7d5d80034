"""Plans: what a player can do before the next card is shown.

A move that shows no unseen card (a column move that turns nothing up, a foundation move, a
waste play, a draw or a deal of cards already known) gives the player nothing to learn: its
legality and its effect on every card in sight are the same in every world. So a player
choosing a move is choosing a plan: a sequence of such moves, then one move that shows a card
(or a sequence that wins outright). Comparing plans rather than single moves is what keeps
the search from strategy fusion over that stretch: each world is solved only from the point
where it first differs from the others (lonelybot chooses its moves so).

In Klondike a plan also ends at a move that shows nothing but that no move can undo (a waste
play, a card to a foundation it cannot leave, a column move whose cards cannot go back). The
player learns nothing there either, so the choice after it is made on fresh worlds; what
ending there buys is a short list of plans. With the stock known, plans that ran on to the
next card shown were every order of the talon plays before it, thousands of them, each tried
on a world or two. The price is some strategy fusion: from that move to the next card shown,
each world's solver picks the moves knowing the world.

Plans are found by a best-first search over the positions that moves showing nothing
reach, on one world: those moves never look at an unseen card, so the positions found, as far
as the player sees them, are those of every world.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field

from ..core import Move, State
from ..core.game import Rules
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
    """Moves that show nothing, then (when ``reveals``) one move that shows a card, or
    else (Klondike) one that cannot be undone (``Planner.commits``), or a win; ``tips``: how
    well it follows the seeds' tips (tips.py), to break ties."""

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
        self.symmetric = rules.columns_interchangeable  # Klondike ignores column order
        self.talon_free = rules.talon_cycle == 1  # draw 1, unlimited passes
        # positions are keyed up to the presses between them once every stock card is known
        # (a press that shows a card ends a plan, so it stays known along a plan)
        self.cycle = rules.talon_cycle if None not in k.stock else 0

    def reveals(self, before: State, after: State) -> bool:
        """Does the move from ``before`` to ``after`` show a card the player has not seen?"""
        if after.down != before.down:
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

    def commits(self, before: State, move: Move, after: State) -> bool:
        """Does the Klondike ``move`` from ``before`` to ``after`` end a plan although it
        shows nothing, being one that no move can undo (a waste play; a card to its
        foundation that cannot come back; a column move whose cards cannot go back)?"""
        if not self.symmetric:
            return False
        rules = self.rules
        if move.source == "w":
            return True
        if move.is_stock:
            return False
        if move.target == "f":
            card = before.columns[int(move.source) - 1][-1]
            back = Move(f"f{rules.foundation_for(before, card) + 1}", move.source)
        elif move.source.startswith("f"):
            return False
        else:
            back = Move(move.target, move.source, move.count)
        return rules.legal_move(after, back) is None

    def steps(self, state: State) -> Iterator[tuple[tuple[Move, ...], State, bool]]:
        """The steps worth a plan's while from ``state``, made one at a time as they are
        asked for: (moves, the position after them, whether the last one shows a card).

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
                        yield (move,), after, self.reveals(state, after)
                        return
        for move in legal:
            if move.is_stock:
                yield from self._draws(state, move)
            elif not move.source.startswith("f"):
                after = rules.apply(state, move)
                yield (move,), after, self.reveals(state, after)

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
            if self.reveals(current, after) or not rules.has_waste:
                return [*out, (presses, after, self.reveals(current, after))]
            current = after
            if (current.stock, current.waste, current.passes_used) == start:
                break
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
        return [state for _, state, _ in self.explore(start, limit, plans=False)[1]]

    def explore(self, start: State, limit: int, plans: bool = True) -> tuple[
            list[Plan], list[tuple[Hashable, State, Plan]], bool]:
        """Search from ``start`` over the moves that show nothing until ``limit`` positions
        are found: (the plans that show a card or win, the positions reached with their
        sight and the plan that reaches them, whether the search was cut). With ``plans``,
        each plan's tips are summed step by step along the search and every step of the
        last position taken counts (its plans that show a card are listed); without, the
        tips are 0 and the search stops at the limit.
        Positions are taken best first by their moves so far plus the fewest face-up cards
        that cover a face-down one (a lower bound of the moves to the nearest card to turn,
        when each move shifts one pile), so that the cards nearest to being turned are found
        within the limit."""
        rules = self.rules
        seen = {sight(start, self.symmetric, self.cycle)}
        queue: list[tuple[int, int, State, Plan]] = [(0, 0, start, Plan((), False))]
        found: list[Plan] = []
        closure: list[tuple[Hashable, State, Plan]] = []
        while queue and len(seen) <= limit:
            _, _, state, plan = heapq.heappop(queue)
            if rules.is_won(state):
                found.append(plan)
                continue
            for step, after, shows in self.steps(state):
                if len(seen) > limit and not plans:
                    break
                score = plan.tips + step_points(rules, state, after, step) if plans else 0
                line = Plan((*plan.moves, *step), shows, score)
                if shows or self.commits(state, step[-1], after):
                    found.append(line)
                    continue
                if len(seen) > limit:
                    continue
                key = sight(after, self.symmetric, self.cycle)
                size = len(seen)
                seen.add(key)  # one hash of the key, where a test then an add took two
                if len(seen) == size:
                    continue
                heapq.heappush(queue, (len(line.moves) + _cover(after), len(seen), after, line))
                closure.append((key, after, line))
        return found, closure, bool(queue)

    def earliest(self, plan: Plan) -> Plan:
        """``plan`` cut short where its moves allow it: its last step (a move, or presses and
        the waste play they lead to) made as early as it can be, the moves it jumps left out.

        Say a plan makes moves R, then its last step S. If S could come after only the first
        i moves of R, and the rest of R after S, reaching the same position, that position is
        reachable from the one after R[:i] + S. A position's worth with every card known
        can only grow with what it reaches, so R[:i] + S is worth at least the plan in every
        world, and it leaves the rest of R to be chosen after the card S shows. It holds in
        every world when the moves of R after S touch no column S turned a card up in (their
        legality then reads only cards every world shows alike) and show nothing."""
        moves = plan.moves
        cut = len(moves) - 1
        if moves[cut].source == "w":
            while cut > 0 and moves[cut - 1].is_stock:
                cut -= 1
        step, before = moves[cut:], moves[:cut]
        if not before or (not self.symmetric and any(m.is_stock for m in step)):
            return plan
        rules = self.rules
        goal = self._after(self.start, moves)
        if goal is None:
            return plan
        want = sight(goal[0], self.symmetric, self.cycle)
        head, named = self.start, goal[2]
        for i in range(len(before)):
            shown = self._after(head, step)
            if shown is not None and shown[1] == plan.reveals:
                turned = {str(c + 1) for c, (a, b) in enumerate(zip(shown[0].down, head.down,
                                                                strict=True)) if a < b}
                rest = before[i:]
                tail = None if any(m.source in turned or m.target in turned for m in rest) \
                    else self._after(shown[0], rest)
                if tail is not None and not tail[1] and \
                        sight(tail[0], self.symmetric, self.cycle) == want:
                    short = (*named[:i], *shown[2])
                    return Plan(short, plan.reveals, tip_score(rules, self.start, short))
            head = rules.apply(head, named[i])
        return plan

    def _after(self, state: State, moves: tuple[Move, ...]) -> tuple[State, bool,
                                                                      tuple[Move, ...]] | None:
        """``moves`` played from ``state`` if each is legal there: (the position, whether
        one of them showed a card, the moves as the rules name them), else None."""
        shows = False
        named = []
        for move in moves:
            legal = self.rules.legal_move(state, move)
            if legal is None:
                return None
            after = self.rules.apply(state, legal)
            shows = shows or self.reveals(state, after)
            named.append(legal)
            state = after
        return state, shows, tuple(named)

    def plan_of(self, line: tuple[str, ...]) -> Plan:
        """The plan a winning line of some world (explicit notation, solver/batch.py)
        starts with: its moves up to the first one that shows a card or cannot be undone
        (or the whole line, which then wins without either), as the rules' legal moves,
        with its tips."""
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
            if self.commits(state, move, after):
                break
            state = after
        return Plan(tuple(moves), reveals, tip_score(self.rules, self.start, tuple(moves)))


def _cover(state: State) -> int:
    """The fewest face-up cards lying on a face-down card in any column (0 if none is)."""
    covers = [len(pile) - down for pile, down in zip(state.columns, state.down, strict=True)
              if down]
    return min(covers, default=0)
