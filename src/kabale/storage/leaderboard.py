"""Daily and weekly leaderboards of a server's daily deals (issue 44 item 4).

Everyone on a server plays the same daily deal per variant and day (server.deals): its
number comes from the server's secret and the date, and stays unknown until the day is over.
The server plays every move itself, so a win in its database is a win by construction.

A board ranks the **wins without help** of one variant's daily deal: no hint, demo (bot),
win chance, replay, and no number revealed or read after the day (each marks the game
``assisted``, storage.db; so is a daily game played after, or beside, another game of the
deal by the same player that was played or showed its cards: storage.secret). Undo is
allowed and not counted: ``moves`` is the length of the winning line, ``seconds`` the time
played (idle gaps capped, server.games.IDLE_CAP). Each player counts once, with their best
game: fewest moves, then least time, then earliest.

The weekly board (an ISO week, Monday to Sunday) ranks players by days won, then total
moves, then total time, each day counted by its best game.

What a board shows of another player: their nickname (or nothing, when they chose none),
moves and seconds. No player id, game id or deal number.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kabale.storage.db import GameStore

#: undo is allowed on the boards, and the page says so
UNDO_COUNTS = False
BOARD_SIZE = 50


def _wins(store: GameStore, variant: str, days: list[str]) -> list[tuple[Any, ...]]:
    """(player, nickname, day, moves, seconds, finished) of every win without help."""
    marks = ", ".join("?" for _ in days)
    with store._reading() as conn:
        rows = conn.execute(
            "SELECT g.player, p.nickname, g.daily, g.moves, g.elapsed, g.finished"
            " FROM games g LEFT JOIN players p ON p.id = g.player"
            f" WHERE g.variant=? AND g.daily IN ({marks}) AND g.status='won'"
            " AND g.assisted=0", (variant, *days)).fetchall()
    return [tuple(row) for row in rows]


def _best_per_day(rows: list[tuple[Any, ...]]) -> dict[tuple[str, str], tuple[Any, ...]]:
    best: dict[tuple[str, str], tuple[Any, ...]] = {}
    for row in rows:
        key = (row[0], row[2])
        if key not in best or (row[3], row[4], row[5]) < (best[key][3], best[key][4],
                                                         best[key][5]):
            best[key] = row
    return best


def _ranked(scored: list[tuple[tuple[Any, ...], str, dict[str, Any]]], player: str | None,
            limit: int) -> dict[str, Any]:
    """``entries`` (the first ``limit``, with ranks: ties share one) and ``me``."""
    scored.sort(key=lambda item: item[0])
    entries: list[dict[str, Any]] = []
    me = None
    rank = 0
    for place, (key, who, shown) in enumerate(scored, 1):
        if place == 1 or key[:-1] != scored[place - 2][0][:-1]:
            rank = place
        entry = {"rank": rank, **shown}
        if place <= limit:
            entries.append(entry)
        if who == player:
            me = entry
    return {"entries": entries, "me": me, "players": len(scored), "undo_counts": UNDO_COUNTS}


def daily_board(store: GameStore, variant: str, day: dt.date, player: str | None = None,
                limit: int = BOARD_SIZE) -> dict[str, Any]:
    """The board of ``variant``'s daily deal on ``day`` (see the module docstring)."""
    best = _best_per_day(_wins(store, variant, [day.isoformat()]))
    scored = [((row[3], round(row[4], 1), row[5]), row[0],
               {"nickname": row[1], "moves": row[3], "seconds": round(row[4], 1)})
              for row in best.values()]
    return {"variant": variant, "date": day.isoformat(), "week": None,
            **_ranked(scored, player, limit)}


def weekly_board(store: GameStore, variant: str, monday: dt.date, player: str | None = None,
                 limit: int = BOARD_SIZE) -> dict[str, Any]:
    """The board of the ISO week starting ``monday`` (see the module docstring)."""
    days = [(monday + dt.timedelta(days=n)).isoformat() for n in range(7)]
    totals: dict[str, list[Any]] = {}
    for row in _best_per_day(_wins(store, variant, days)).values():
        total = totals.setdefault(row[0], [row[1], 0, 0, 0.0])
        total[1] += 1
        total[2] += row[3]
        total[3] += row[4]
    scored = [((-days_won, moves, round(seconds, 1), who), who,
               {"nickname": name, "days": days_won, "moves": moves,
                "seconds": round(seconds, 1)})
              for who, (name, days_won, moves, seconds) in totals.items()]
    iso = monday.isocalendar()
    return {"variant": variant, "date": None, "week": f"{iso.year}-W{iso.week:02d}",
            **_ranked(scored, player, limit)}
