"""A winning line longer than one game holds (MAX_MOVES) is still checked and accepted by
``replay``: a search may win by such a line (Spiderette deal 307 with dealing onto empty
columns, at 10,000,000 positions, wins by 104,135 moves without a loop)."""

from __future__ import annotations

import pytest

from kabale import Game, Move
from kabale.core.persist import MAX_MOVES
from kabale.core.state import State
from kabale.solver import solve
from kabale.solver.result import SolverBugError, replay


def explicit(move: Move) -> str:
    """The move as the kernels write it: the count spelled out when more than one card moves."""
    return f"{move.source}:{move.count}>{move.target}" if move.count > 1 else move.text


def reversible_pair(game: Game, line: list[str]) -> tuple[int, str, str]:
    """A place in the line and two legal moves there that lead back to the same position."""
    rules, state = game.rules, game.state
    for index, text in enumerate(line):
        for move in rules.legal_moves(state):
            after: State = rules.apply(state, move)
            for back in rules.legal_moves(after):
                if rules.apply(after, back) == state:
                    return index, explicit(move), explicit(back)
        state = rules.apply(state, next(m for m in rules.legal_moves(state) if m.text == text))
    raise AssertionError("no reversible pair of moves on the line")


def test_a_win_longer_than_a_game_holds_is_replayed() -> None:
    game = Game.new("spiderette:suits=1", seed=1)
    result = solve(game, max_seconds=5.0)
    assert result.status == "solved"
    line = list(result.moves)
    index, there, back = reversible_pair(game, line)
    detour = [there, back] * (MAX_MOVES // 2 + 1)
    long = line[:index] + detour + line[index:]
    assert len(long) > MAX_MOVES
    assert len(replay(game, long)) == len(long)
    with pytest.raises(SolverBugError):  # and it still refuses a line that does not win
        replay(game, long[:-1])
