"""The seeds' strategy tips: uncover a face-down card, keep a column free, build in suit, play
the table out before dealing. They break ties between plans the search rates alike and give
a hint its reason in words; they never override the search."""

from __future__ import annotations

from ..core import Move, State
from ..core.game import Rules

#: reason keys (the page translates them) and their English words
REASONS = {
    "wins": "wins the game",
    "uncovers": "uncovers a card",
    "frees_column": "frees a column",
    "foundation": "puts a card on its foundation",
    "builds_in_suit": "builds in suit",
    "draws": "draws from the stock",
    "deals": "deals a new row",
    "prepares": "prepares to uncover a card",
    "best_chance": "keeps the best chance",
    "no_hope": "nothing can win from here",
}


#: what each effect of a move is worth to the tips
POINTS = {"uncovers": 8, "frees_column": 4, "builds_in_suit": 2, "foundation": 1,
          "draws": -6, "deals": -6}


def effects(rules: Rules, before: State, after: State, moves: tuple[Move, ...]) -> set[str]:
    """What ``moves`` (one move, or a step of presses and a waste play) did from ``before``
    to ``after``, as reason keys."""
    found = set()
    if any(m.is_stock for m in moves):
        found.add("draws" if rules.has_waste else "deals")
    if any(a < b for a, b in zip(after.down, before.down, strict=True)):
        found.add("uncovers")
    if sum(not pile for pile in after.columns) > sum(not pile for pile in before.columns):
        found.add("frees_column")
    if sum(map(len, after.foundations)) > sum(map(len, before.foundations)):
        found.add("foundation")
    last = moves[-1]
    if rules.build_rule == "any_suit" and last.target.isdigit() and len(moves) == 1:
        target = before.columns[int(last.target) - 1]
        pile = before.columns[int(last.source) - 1]
        if target and target[-1].suit == pile[len(pile) - last.count].suit:
            found.add("builds_in_suit")
    return found


def step_points(rules: Rules, before: State, after: State, moves: tuple[Move, ...]) -> int:
    """What a step from ``before`` to ``after`` is worth to the tips: its effects' points,
    the stock's once a press, less one a move, and far more when it wins. Equal to the sum
    over its moves one at a time, without replaying them: a step of several moves is
    Klondike's presses then at most one waste play, and presses change nothing but the stock
    and the waste, so every other effect belongs to the last move."""
    presses = sum(m.is_stock for m in moves)
    points = sum(POINTS[key] * (presses if key in ("draws", "deals") else 1)
                 for key in effects(rules, before, after, moves))
    return points - len(moves) + 100 * rules.is_won(after)


def tip_score(rules: Rules, state: State, moves: tuple[Move, ...]) -> int:
    """How well a plan's moves follow the tips (higher is better): it wins, uncovers a card,
    frees a column, builds in suit, keeps the stock for later, in few moves."""
    score = 0
    for move in moves:
        after = rules.apply(state, move)
        score += step_points(rules, state, after, (move,))
        state = after
    return score


def reason(rules: Rules, state: State, first: Move, reveals: bool) -> str:
    """The reason key of playing ``first`` now, the first move of a plan that ends in
    showing a card when ``reveals``."""
    after = rules.apply(state, first)
    if rules.is_won(after):
        return "wins"
    done = effects(rules, state, after, (first,))
    for key in ("uncovers", "frees_column", "builds_in_suit", "foundation", "deals",
                "draws"):
        if key in done:
            return key
    return "prepares" if reveals else "best_chance"
