"""The post-mortem of a finished game: it reads the true deal, so the page offers it only once
the game is over."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Game
from ..solver.batch import solve_states
from ..solver.lines import strip_line, strips
from ..solver.result import replay
from .chance import win_chance
from .effort import Effort, effort_for


@dataclass(frozen=True)
class PostMortem:
    """``winnable_at_start``: the deal could be won with every card known (None: the solver
    did not decide within the budget). ``lost_at``: the index i of the move that lost the
    win (the position before moves[i] is won, the one after it is proved lost), None if a
    win is still possible or the deal never was one. ``line_before``: a winning line from
    just before that move, or from the last position when it can still be won; in the
    Spider family stripped of the search's detours (kabale.solver.lines.strip_line), and
    replayed by the rules to a win either way. ``line_found``: the length of that line as
    the search found it, before stripping (0 when there is no line).
    ``biggest_drop``: (index, chance before, chance after) of the move whose win chance from
    the player's view fell most. ``proved``: False when some position on the way was left
    undecided, so ``lost_at`` is the earliest move the solver could pin down."""

    winnable_at_start: bool | None
    lost_at: int | None
    line_before: list[str] = field(default_factory=list)
    biggest_drop: tuple[int, float, float] | None = None
    proved: bool = True
    line_found: int = 0

    def to_dict(self) -> dict[str, object]:
        """The JSON object the HTTP API sends."""
        return {"winnable_at_start": self.winnable_at_start, "lost_at": self.lost_at,
                "line_before": self.line_before, "line_found": self.line_found,
                "proved": self.proved,
                "biggest_drop": list(self.biggest_drop) if self.biggest_drop else None}


def prefix(game: Game, moves: int) -> Game:
    """A copy of ``game`` after its first ``moves`` moves."""
    copy = game.copy()
    while copy.moves_made > moves:
        copy.undo()
    return copy


def postmortem(game: Game, effort: str | Effort = "normal", seed: int | None = 0,
               drops: bool = True) -> PostMortem:
    """Where the game was lost, with every card known, and where the player's chance fell
    most (docs/advisor.md). Budgets in positions (the effort's exact budget per position);
    ``drops`` False leaves out biggest_drop (a win chance at every move)."""
    level = effort_for(game.variant, effort)
    verdicts: dict[int, str] = {}
    lines: dict[int, list[str]] = {}
    found: dict[int, int] = {}

    def verdict(i: int) -> str:
        if i not in verdicts:
            position = prefix(game, i)
            (v,) = solve_states(game.variant, [position.state], level.exact_nodes, lines=True)
            verdicts[i] = v.status
            if v.status == "solved" and v.line and strips(game):
                lines[i] = strip_line(position, v.line).moves  # a line a person can follow
                found[i] = len(v.line)
            elif v.status == "solved":  # Klondike's kernel cuts its lines' loops itself
                lines[i] = replay(position, list(v.line)) if v.line else []
                found[i] = len(lines[i])
        return verdicts[i]

    last = game.moves_made
    start = verdict(0)
    winnable = None if start == "unknown" else start == "solved"
    drop = biggest_drop(game, level, seed) if drops else None
    if game.outcome == "won" or start == "unsolvable":
        return PostMortem(winnable, None, [], drop)
    if verdict(last) != "unsolvable":
        return PostMortem(winnable, None, lines.get(last, []), drop, verdict(last) == "solved",
                          found.get(last, 0))
    low, high = 0, last  # low: not proved lost; high: proved lost
    while high - low > 1:
        middle = (low + high) // 2
        if verdict(middle) == "unsolvable":
            high = middle
        else:
            low = middle
    # winnability never comes back along a game (a line from a later position is a line
    # from the earlier one), so the proved loss at ``high`` holds for everything after it
    return PostMortem(winnable, low, lines.get(low, []), drop, verdict(low) == "solved",
                      found.get(low, 0))


def biggest_drop(game: Game, effort: Effort, seed: int | None) -> tuple[int, float, float] | None:
    """(index, before, after) of the move whose win chance (the player's view, the same
    worlds' seed at every move) fell most; None for a game without moves."""
    chances = [win_chance(prefix(game, i), seed=seed, effort=effort).value
               for i in range(game.moves_made + 1)]
    drops = [(chances[i] - chances[i + 1], i) for i in range(game.moves_made)]
    if not drops:
        return None
    _, index = max(drops)
    return index, chances[index], chances[index + 1]
