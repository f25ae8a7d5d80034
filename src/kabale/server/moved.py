"""What each move of a finished game moved, for the page to say in words (the look-back's
list of moves, its winning line and the review's strip): the card lifted, how many, and the
card it went onto, as card codes; the page words them in the player's language. Only for a
game that is over: the facts read cards that were face down when the move was made.

A move's facts are ``{"card", "count", "from", "to", "onto"}`` (``onto``: the top card of the
target column, None for an empty column or a foundation), or for the stock action
``{"stock": "draw", "cards": [...]}`` (Klondike: the cards drawn, the playable one last),
``{"stock": "turn"}`` (Klondike: the waste turned back into the stock) or
``{"stock": "deal"}`` (the Spider family: a row dealt).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kabale.core.family import Rules
from kabale.core.game import Game
from kabale.core.state import Move, State

__all__ = ["game_facts", "line_facts", "move_facts", "with_facts"]


def _top(pile: tuple[Any, ...]) -> str | None:
    return str(pile[-1]) if pile else None


def move_facts(rules: Rules, before: State, move: Move, after: State) -> dict[str, Any]:
    """The facts of ``move`` played under ``rules`` from ``before`` to ``after`` (module
    docstring)."""
    if move.is_stock:
        if not rules.has_waste:  # the stock deals onto the columns
            return {"stock": "deal"}
        if not before.stock:
            return {"stock": "turn"}
        return {"stock": "draw", "cards": [str(card) for card in after.waste[len(before.waste):]]}
    source, target = move.source, move.target
    if source == "w":
        card = _top(before.waste)
    elif source.startswith("f"):
        card = _top(before.foundations[int(source[1:]) - 1])
    else:
        column = before.columns[int(source) - 1]
        card = str(column[len(column) - move.count])
    onto = _top(before.columns[int(target) - 1]) if target.isdigit() else None
    return {"card": card, "count": move.count, "from": source, "to": target, "onto": onto}


def _along(game: Game, moves: Iterable[Move | str]) -> list[dict[str, Any]]:
    facts = []
    for move in moves:
        before = game.state
        played = game.play(move)
        facts.append(move_facts(game.rules, before, played, game.state))
    return facts


def game_facts(game: Game) -> list[dict[str, Any]]:
    """The facts of every move of ``game`` (its history), in order."""
    return _along(game.opening(0), game.history)


def line_facts(game: Game, at: int, line: Iterable[str]) -> list[dict[str, Any]]:
    """The facts of the moves ``line`` played from the position after the game's first
    ``at`` moves (a winning line, or one better move)."""
    return _along(game.opening(at), line)


def with_facts(game: Game, decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The review's ``decisions`` (one per move of ``game``, ``index``, ``move`` and
    ``best`` in notation) with ``move_facts`` and ``best_facts`` added (``best_facts`` None
    when there is no best move), worked out in one replay of the game."""
    wanted: dict[int, list[dict[str, Any]]] = {}
    for decision in decisions:
        wanted.setdefault(int(decision["index"]), []).append(decision)
    replay = game.opening(0)
    for index, move in enumerate(game.history):
        before = replay.state
        for decision in wanted.get(index, []):
            best = decision.get("best")
            if best:
                chosen = replay.parse_move(best)
                after = replay.rules.apply(before, chosen)
                decision["best_facts"] = move_facts(replay.rules, before, chosen, after)
            else:
                decision["best_facts"] = None
        played = replay.play(move)
        for decision in wanted.get(index, []):
            decision["move_facts"] = move_facts(replay.rules, before, played, replay.state)
    return decisions
