"""Winning lines a person can follow: a solver's line stripped of its detours.

A search finds a win, not a short one: its line may visit a position twice, move cards and
later move them back, or carry a run to its place in several steps. ``strip_line`` takes
such a line and returns a line from the same position that the rules replay to a win, made
of these steps, repeated until none shortens it:

- Shortcuts (which also cut loops): each position of the line is keyed as the rules see it
  (columns, face-down counts, stock, waste, foundations; not the score, which no move's
  legality depends on), and every legal move from every position is tried; the shortest way
  through the line's own positions, where one move may jump to any later position it
  reaches and a position seen twice is the same place, replaces the line. That cuts a
  stretch between two visits of one position, and a stretch of moves whose end one move
  reaches at once (a run carried over an empty column in pieces, moved once; cards moved on
  and moved on again with nothing in between).
- Pairs: a column move whose cards are later moved away as they are (the first later move
  from its target column, same count, at most WINDOW moves on) is dropped with that move
  when the moves between them are still legal and the position after the pair is the
  line's own (the two undo each other), or the two become one move straight to the second
  one's target, made at the first one's place or at the second one's.

Every candidate is checked against the rules: a pair is only merged when the position after
it is the very position of the line, so the rest of the line is unchanged and still wins, and
the whole result is replayed by ``replay`` (the checked path) before it is returned. The
function is pure and deterministic: the same game and line give the same result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core import Game, Move, State
from ..core.game import Rules
from .replay import SolverBugError, _move, replay

#: how far on a pair's second move may lie (moves); a pair is mostly a few moves apart
WINDOW = 60
#: rounds of shortcuts and pairs at most (each one shortens the line, or the strip stops)
ROUNDS = 20
#: the longest line whose positions are indexed by all but two columns (_shortcuts)
INDEX_LIMIT = 20_000

Key = tuple[object, ...]


@dataclass(frozen=True)
class Stripped:
    """A stripped line: ``moves`` in canonical notation, replayed by the rules to a win
    from the position solved, and ``found``, the length of the line before it was
    stripped."""

    moves: list[str]
    found: int


def strips(game: Game) -> bool:
    """Whether a winning line of ``game`` is stripped before a person sees it: the Spider
    family's are (its search wanders); the Klondike kernel cuts its lines' loops itself and
    its lines are shown as replayed. The one place that decides it, for kabale solve and the
    look-back's post-mortem."""
    return game.variant.family != "klondike"  # a fact of the kernels, not of the rules


def strip_line(game: Game, moves: Sequence[str]) -> Stripped:
    """The winning ``moves`` from ``game``'s position with their detours stripped (module
    docstring), replayed by the rules to a win. Raises SolverBugError when ``moves`` is not
    a winning line from that position. ``game`` is not changed."""
    rules = game.rules
    keys = _Keys(game)
    states, line = _resolve(game, moves)
    for _ in range(ROUNDS):
        shorter = _shortcuts(game, keys, states, line)
        states = _states(rules, game.state, shorter)
        shorter = _pairs(game, keys, states, shorter)
        if len(shorter) == len(line):
            line = shorter
            break
        line = shorter
        states = _states(rules, game.state, line)
    return Stripped(replay(game, [move.explicit() for move in line]), len(moves))


def _resolve(game: Game, moves: Sequence[str]) -> tuple[list[State], list[Move]]:
    """The line's positions (first to last) and its moves as the rules list them; raises
    SolverBugError when a move is not legal or the line does not win."""
    rules = game.rules
    state = game.state
    states = [state]
    line: list[Move] = []
    for text in moves:
        wanted = _move(text)
        legal = rules.legal_moves(state)
        move = next((m for m in legal if m == wanted), None) or next(
            (m for m in legal if m.text == text), None)
        if move is None:
            raise SolverBugError(f"line to strip refused by the rules at {text!r}: "
                                 f"{rules.explain(state, wanted)}")
        state = rules.apply(state, move)
        states.append(state)
        line.append(move)
    if not rules.is_won(state):
        raise SolverBugError(f"line to strip of {len(moves)} moves does not win the game")
    return states, line


def _states(rules: Rules, start: State, line: Sequence[Move]) -> list[State]:
    """The positions along ``line`` (legal moves, not checked again)."""
    states = [start]
    for move in line:
        states.append(rules.apply(states[-1], move))
    return states


def position_key(game: Game, state: State) -> Key:
    """What the rules see of a position: everything but the score. Spider's removed runs
    count as a set (the order they went in changes no move)."""
    foundations: object = state.foundations
    if game.rules.foundation_rule == "runs":
        foundations = tuple(sorted(state.foundations, key=lambda run: str(run[0])))
    limited = game.rules.passes_left(game.state) is not None  # passes are counted
    return (state.columns, state.down, state.stock, state.waste, foundations,
            state.passes_used if limited else 0)


class _Keys:
    """Position keys as tuples of small ints, as position_key compares them: each pile
    (with a column's face-down count) is numbered once, and a pile that a move left alone is
    the same tuple object in the next position, so it is found by identity without hashing
    its cards again. In the Spider family the first n_columns entries are the columns, then
    the stock's number; the removed cards need no entry (they are the cards on neither)."""

    def __init__(self, game: Game) -> None:
        self.spider = not game.rules.has_waste  # the Spider family: a stock, no waste
        self.limited = game.rules.passes_left(game.state) is not None  # passes are counted
        self.by_id: dict[int, tuple[object, int]] = {}
        self.by_content: dict[object, int] = {}

    def pile(self, pile: object) -> int:
        """The number of ``pile`` (a tuple of cards), the same for equal piles."""
        hit = self.by_id.get(id(pile))
        if hit is not None and hit[0] is pile:
            return hit[1]
        number = self.by_content.setdefault(pile, len(self.by_content))
        self.by_id[id(pile)] = (pile, number)  # holds the pile: its id is not reused
        return number

    def key(self, state: State) -> tuple[int, ...]:
        """The position's key (equal keys: positions equal as position_key sees them)."""
        pile = self.pile
        columns = tuple(pile(col) * 256 + down for col, down in zip(state.columns, state.down,
                                                                      strict=True))
        if self.spider:
            return (*columns, len(state.stock))
        return (*columns, pile(state.stock), pile(state.waste),
                *(pile(f) for f in state.foundations),
                state.passes_used if self.limited else 0)


def _blank(key: tuple[int, ...], columns: tuple[int, ...]) -> tuple[int, ...]:
    """``key`` without the entries of ``columns`` (one or two indices, ascending)."""
    if len(columns) == 1:
        (a,) = columns
        return key[:a] + key[a + 1:]
    a, b = columns
    return key[:a] + key[a + 1:b] + key[b + 1:]


def _shortcuts(game: Game, keys: _Keys, states: list[State], line: list[Move]) -> list[Move]:
    """The shortest way from the first position to the last through the line's positions,
    where a move from any position to any later one it reaches counts (a position seen twice
    is one place). In the Spider family a column move changes its two columns only (a
    move to a foundation its source only), so it is played only where a later position
    equals this one in every other column and the stock."""
    rules = game.rules
    ks = [keys.key(s) for s in states]
    where: dict[tuple[int, ...], list[int]] = {}
    for index, key in enumerate(ks):
        where.setdefault(key, []).append(index)
    blanked: dict[tuple[int, ...], dict[tuple[int, ...], list[int]]] = {}
    # the index of positions alike but in one or two columns costs up to 45 entries a
    # position: a longer line plays every move instead (the same shortcuts, found slower)
    indexed = keys.spider and len(ks) <= INDEX_LIMIT

    def alike(i: int, columns: tuple[int, ...]) -> list[int]:
        """The positions after i + 1 equal to position i but in ``columns``."""
        index = blanked.get(columns)
        if index is None:
            index = {}
            for k, key in enumerate(ks):
                index.setdefault(_blank(key, columns), []).append(k)
            blanked[columns] = index
        return [k for k in index.get(_blank(ks[i], columns), ()) if k > i + 1]

    last = len(line)
    best = [last + 1] * (last + 1)
    came: list[tuple[int, Move | None]] = [(-1, None)] * (last + 1)
    best[0] = 0

    def relax(target: int, length: int, via: tuple[int, Move | None]) -> None:
        if length < best[target]:
            best[target] = length
            came[target] = via

    for i in range(last + 1):
        for later in where[ks[i]]:
            if later > i:
                relax(later, best[i], (i, None))
        if i == last:
            break
        relax(i + 1, best[i] + 1, (i, line[i]))
        near: dict[tuple[int, ...], list[int]] = {}  # alike(i, ...) by the columns touched
        for move in rules.legal_moves(states[i]):
            if indexed and not move.is_stock:
                src = int(move.source) - 1
                dst = int(move.target) - 1 if move.target.isdigit() else src
                touched = (src,) if src == dst else (src, dst) if src < dst else (dst, src)
                found = near.get(touched)
                if found is None:
                    found = near[touched] = alike(i, touched)
                if not found:
                    continue
                key = keys.key(rules.apply(states[i], move))
                candidates = [k for k in found if ks[k] == key]
            else:
                key = keys.key(rules.apply(states[i], move))
                candidates = [k for k in where.get(key, ()) if k > i + 1]
            for later in candidates:
                relax(later, best[i] + 1, (i, move))
    path: list[Move] = []
    at = last
    while at > 0:
        at, step = came[at]
        if step is not None:
            path.append(step)
    path.reverse()
    return path


def _legal(rules: Rules, state: State, move: Move) -> bool:
    """Whether ``move`` is legal in ``state``."""
    return rules.legal_move(state, move) is not None


def _play(rules: Rules, state: State, moves: Sequence[Move]) -> State | None:
    """The position after ``moves`` from ``state``, or None if one of them is not legal."""
    for move in moves:
        if not _legal(rules, state, move):
            return None
        state = rules.apply(state, move)
    return state


def _pairs(game: Game, keys: _Keys, states: list[State], line: list[Move]) -> list[Move]:
    """The line with each pair of column moves that undo each other dropped, or that carry
    the same cards twice merged into one move (module docstring), where the position after
    the pair is the line's own."""
    rules = game.rules
    out = list(line)
    states = list(states)
    i = 0
    while i < len(out):
        first = out[i]
        j = _second(out, i)
        if j is None:
            i += 1
            continue
        second = out[j]
        goal = keys.key(states[j + 1])
        between = out[i + 1:j]
        straight = Move(first.source, second.target, first.count)
        tries = [between]  # the pair undone, or carried straight at the first's or second's place
        if second.target != first.source:
            tries += [[straight, *between], [*between, straight]]
        for moves in tries:
            end = _play(rules, states[i], moves)
            if end is not None and keys.key(end) == goal:
                out[i:j + 1] = [_canonical(rules, s, m) for s, m in
                                zip(_states(rules, states[i], moves), moves, strict=False)]
                states[i:j + 2] = _states(rules, states[i], out[i:i + len(moves)])
                if len(states) != len(out) + 1:
                    raise SolverBugError("line stripping lost track of its positions")
                break
        else:
            i += 1
    return out


def _second(line: list[Move], i: int) -> int | None:
    """The index of the move that takes the cards of column move ``line[i]`` away again as
    they are (the first later move from its target column, with the same count), within
    WINDOW moves; None if there is none."""
    first = line[i]
    if not (first.source.isdigit() and first.target.isdigit()):
        return None
    for j in range(i + 1, min(len(line), i + 1 + WINDOW)):
        move = line[j]
        if move.source == first.target:
            return j if move.count == first.count and move.target.isdigit() else None
        if move.target == first.target or move.is_stock:
            return None  # something now lies on the cards
    return None


def _canonical(rules: Rules, state: State, move: Move) -> Move:
    """``move`` as the rules list it in ``state`` (its canonical text)."""
    for legal in rules.legal_moves(state):
        if legal == move:
            return legal
    raise SolverBugError(f"line stripping made a move the rules refuse: {move.explicit()}")


#: the searches ``short_line`` tries, in turn: (score lost per move, whole runs only, the
#: beam round of spider.BEAM_ROUNDS by its index). A phase search that loses score for every
#: move prefers the shorter way to as good a position (SpiderPhases.w_len); measured on
#: Spider 4-suit deals 9100001-9100016 (docs/solver-log-2026-12-07.md)
SHORT_TRIES: tuple[tuple[int, bool, int], ...] = tuple(
    (w_len, whole, index) for w_len in (5, 20) for whole in (True, False)
    for index in range(8))


def short_line(game: Game, max_nodes: int,
               tries: Sequence[tuple[int, bool, int]] = SHORT_TRIES) -> Stripped | None:
    """The shortest stripped winning line that beams which count every move against a
    position (``tries``, each within ``max_nodes`` positions) find from ``game``'s position
    of a Spider-family game, or None if none wins: a yardstick for the lines the solver
    shows (the shortest line the solver can find within a budget, not a proved shortest).
    Deterministic: the same game and budget give the same line."""
    from ._spider import SpiderPhases
    from .spider import BEAM_ROUNDS, kernel_args, notation, phase_rounds
    from .status import PhaseCode

    family = game.variant.family
    if family == "klondike":
        raise ValueError("short_line searches the Spider family only")
    rounds = BEAM_ROUNDS[family]
    phases = SpiderPhases(*kernel_args(game), 128, 256)
    best: Stripped | None = None
    for w_len, whole, index in tries:
        phases.w_len = w_len
        phases.nodes = 0
        phases.new_round()
        status, ops = phase_rounds(phases, (rounds[index],), 0.0, max_nodes, whole)
        if status == PhaseCode.SOLVED:
            line = strip_line(game, notation(ops))
            if best is None or len(line.moves) < len(best.moves):
                best = line
    return best
