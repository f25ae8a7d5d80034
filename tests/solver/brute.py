"""A plain brute force for the solver's tests: it knows nothing of the kernels and explores
every position core's rules reach (``rules.legal_moves`` / ``rules.apply``), so it decides
winnability by definition, for positions small enough to explore completely."""

from __future__ import annotations

from collections.abc import Callable

from kabale import Game, State
from kabale.core.state import Move

LIMIT = 6_000  # positions the brute force may visit before a case is replaced by another


def key(state: State, counts_passes: bool, klondike: bool) -> tuple[object, ...]:
    """The position up to what cannot matter: the pass count when passes are unlimited, and
    the order of the columns when nothing will ever be dealt onto a particular column
    (always in Klondike; in the Spider family once the stock is empty)."""
    columns: object = tuple(
        (down, bytes(card.suit * 16 + card.rank for card in pile))
        for pile, down in zip(state.columns, state.down, strict=True))
    if klondike or not state.stock:
        columns = tuple(sorted(columns))  # type: ignore[call-overload]
    return (columns, state.stock, state.waste, state.foundations,
            state.passes_used if counts_passes else 0)


def wins(game: Game, moves: list[str]) -> bool:
    """Whether playing ``moves`` on a copy of ``game`` through core wins it."""
    replay = game.copy()
    for move in moves:
        replay.play(move)
    return replay.outcome == "won"


def brute_force(game: Game, limit: int = LIMIT,
                allowed: Callable[[State, Move], bool] | None = None) -> bool | None:
    """Whether a win is reachable (by the moves ``allowed`` accepts); None past ``limit``."""
    rules = game.rules
    start = game.state
    klondike = game.variant.family == "klondike"
    limited = klondike and game.variant["passes"] != 0
    seen = {key(start, limited, klondike)}
    todo = [start]
    while todo:
        state = todo.pop()
        if rules.is_won(state):
            return True
        for move in reversed(rules.legal_moves(state)):  # core's order: foundations first
            if allowed is not None and not allowed(state, move):
                continue
            after = rules.apply(state, move)
            if rules.is_won(after):
                return True
            k = key(after, limited, klondike)
            if k not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(k)
                todo.append(after)
    return False
