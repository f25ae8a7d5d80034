"""Move and game-log text <-> values. Syntax only: whether a move is legal is the rules' call.

Grammar (case and spaces around the move do not matter)::

    move   := "d" | source [":" count] ">" target
    source := column | "w" | "f" number          (count only between two columns)
    target := column | "f" | "f" number
    column := 1 .. N

A game log is the deal id on the first line, then one move per line; blank lines and lines
starting with ``#`` or ``;`` after the deal id are comments (``kabale play --text`` skips them).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import NotationError
from .state import STOCK

# ASCII digits only ('٧' is a digit to str.isdigit and int()), at most 6 of them: no pile
# or count comes near that, and int() of a number with thousands of digits is refused.
_MOVE = re.compile(r"(?P<src>\d{1,6}|w|f\d{1,6})(?::(?P<count>\d{1,6}))?>(?P<dst>\d{1,6}|f\d{0,6})",
                   re.ASCII)
_HELP = "expected 'd', '3>7', '3:2>7', 'w>5', 'w>f', '3>f' or 'f2>6'"


class MoveText(NamedTuple):
    """A parsed move before the position is known: ``run`` (the count) is None when not written."""

    source: str
    target: str
    run: int | None


def parse_move_text(text: str) -> MoveText:
    """Parse one move; raise NotationError quoting the text when it is not a move."""
    if not isinstance(text, str):
        raise NotationError(f"not a move: {text!r} ({_HELP})")
    compact = text.strip().lower().replace(" ", "")
    if compact == STOCK:
        return MoveText(STOCK, "", None)
    match = _MOVE.fullmatch(compact)
    if match is None:
        raise NotationError(f"not a move: {text!r} ({_HELP})")
    source, target, count = match["src"], match["dst"], match["count"]
    for part in (source, target):
        number = part.lstrip("f")
        if number.isdigit() and int(number) == 0:
            raise NotationError(f"not a move: {text!r} (columns and foundations count from 1)")
    if count is not None:
        if not (source.isdigit() and target.isdigit()):
            raise NotationError(f"not a move: {text!r} (a count ':n' is only for column to column)")
        if int(count) == 0:
            raise NotationError(f"not a move: {text!r} (a count must be at least 1)")
    if source.startswith("f") and target.startswith("f"):
        raise NotationError(f"not a move: {text!r} (foundation to foundation is never a move)")
    if source == target:
        raise NotationError(f"not a move: {text!r} (source and target are the same pile)")
    return MoveText(source, target, int(count) if count is not None else None)


def format_game_log(deal_id: str, moves: list[str]) -> str:
    """A game log: the deal id, then one move per line, ending with a newline."""
    return "\n".join([deal_id, *moves]) + "\n"
