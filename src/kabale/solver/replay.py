"""A solver's line checked by the rules: its moves read from the kernels' notation, its
loops cut, and its replay to a win (any refusal is a bug in the solver, never a result)."""

from __future__ import annotations

from functools import lru_cache

from ..core import Game, Move, State


class SolverBugError(RuntimeError):
    """The kernel produced a line that core refuses: a bug in the solver, never a result."""


@lru_cache(maxsize=4096)
def _move(text: str) -> Move:
    """A Move from the explicit notation the kernels' lines use (3:4>7, 3>f, w>5, f2>6, d)."""
    if text == "d":
        return Move("d")
    source, _, target = text.partition(">")
    count = 1
    if ":" in source:
        source, _, number = source.partition(":")
        count = int(number)
    return Move(source, target, count)


def shorten(game: Game, moves: list[str]) -> list[str]:
    """The line with every loop cut out: a stretch of moves that returns to a position seen
    before (legality never depends on the score, the one thing a loop may change). Uses the
    rules' fast unchecked path; the checked replay that follows catches any bad move."""
    rules = game.rules
    limited = rules.passes_left(game.state) is not None  # passes are counted
    state = game.state

    def key(s: State) -> tuple[object, ...]:
        return (s.columns, s.down, len(s.stock), len(s.waste), s.foundations,
                s.passes_used if limited else 0)

    seen = {key(state): 0}
    line: list[str] = []
    for text in moves:
        state = rules.apply(state, _move(text))
        line.append(text)
        k = key(state)
        if k in seen:
            del line[seen[k]:]
            seen = {kk: v for kk, v in seen.items() if v <= len(line)}
        else:
            seen[k] = len(line)
    return line


def replay(game: Game, moves: list[str]) -> list[str]:
    """Play ``moves`` from ``game``'s position by its rules; return them in canonical
    notation. Raises SolverBugError unless every move is legal and the line ends won.
    The line is checked by the rules' play_line (legal_move's checks), not played on a
    Game: ``game`` is left as it was, and a search may win by a line longer than the moves
    one game holds (MAX_MOVES), which is no less a win."""
    rules = game.rules
    wanted = [_move(text) for text in moves]
    state, canonical, done = game.state, list[str](), 0
    while done < len(moves):
        state, texts, bad = rules.play_line(state, wanted[done:])
        canonical += texts
        if bad < 0:
            break
        done += bad
        # a move in canonical text ("3>7": the longest run that goes) is no explicit move
        move = next((m for m in rules.legal_moves(state) if m.text == moves[done]), None)
        if move is None:
            raise SolverBugError(f"solver line refused by the rules at {moves[done]!r}: "
                                 f"illegal move: {rules.explain(state, wanted[done])}")
        state = rules.apply(state, move)
        canonical.append(move.text)
        done += 1
    if not rules.is_won(state):
        raise SolverBugError(f"solver line of {len(moves)} moves does not win the game")
    return canonical
