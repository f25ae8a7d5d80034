"""Statistics from finished games: the summary of a variant, the daily deals' streak of days,
and a won game's rank among the player's best.

Each finished game arrives as a dict with ``status`` ("won"/"lost"), ``score``, ``moves``,
``elapsed``, ``finished`` (a timestamp), ``deal_id``, ``assisted`` (0/1: a hint, the bot or a
replay helped) and ``daily`` (the date of a daily deal, or None), oldest first.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

RECENT_RESULTS = 30


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def summarize(variant: str | None, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Played, won (and won without help), win %, streaks, bests, averages (moves and score
    over the games played without help, time over the ones won without help), the sum of
    the scores (Vegas: the running balance, every game) and recent results, from finished
    games, oldest first.

    The records (streaks, best time, best score) and the averages are the player's own: a
    game played with help (a hint, the bot's demo, a replay, its number revealed) proves
    nothing about the player, so it neither sets a best, moves an average nor adds to a
    streak (a demo's win in 0:02 would halve the average time); a win with help does not
    break a streak either (it is no loss)."""
    won = [r for r in results if r["status"] == "won"]
    alone = [r for r in won if not r.get("assisted")]
    own = [r for r in results if not r.get("assisted")]
    best_streak = streak = 0
    for result in results:
        if result["status"] == "won" and result.get("assisted"):
            continue
        streak = streak + 1 if result["status"] == "won" else 0
        best_streak = max(best_streak, streak)
    played = len(results)
    return {
        "variant": variant,
        "played": played,
        "won": len(won),
        "win_pct": round(100.0 * len(won) / played, 1) if played else 0.0,
        "won_unassisted": len(alone),
        "win_pct_unassisted": round(100.0 * len(alone) / played, 1) if played else 0.0,
        "current_streak": streak,
        "best_streak": best_streak,
        "best_time": min((r["elapsed"] for r in alone), default=None),
        "best_score": max((r["score"] for r in own), default=None),
        "avg_moves": _mean([r["moves"] for r in own]),
        "avg_score": _mean([r["score"] for r in own]),
        "avg_time": _mean([r["elapsed"] for r in alone]),
        "total_score": sum(r["score"] for r in results),
        "recent": [
            {"result": r["status"], "score": r["score"], "moves": r["moves"],
             "elapsed": r["elapsed"], "finished": r["finished"], "deal_id": r["deal_id"],
             "assisted": bool(r.get("assisted")), "daily": r.get("daily")}
            for r in results[-RECENT_RESULTS:]
        ],
    }


def daily_summary(results: list[dict[str, Any]], today: dt.date) -> dict[str, Any]:
    """The daily deals of one variant: days played, days won (a day is won when a game of its
    deal was won without help: a hint, the bot or the deal's number revealed), the streak of
    consecutive days won up to today (or up to yesterday while today's deal is not won yet)
    and the best such streak."""
    days: dict[dt.date, bool] = {}
    for r in results:
        if r.get("daily"):
            day = dt.date.fromisoformat(r["daily"])
            days[day] = days.get(day, False) or (r["status"] == "won"
                                                 and not r.get("assisted"))
    won = sorted(day for day, w in days.items() if w)
    best = run = 0
    previous: dt.date | None = None
    for day in won:
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    current = 0
    day = today if days.get(today) else today - dt.timedelta(days=1)
    while days.get(day):
        current += 1
        day -= dt.timedelta(days=1)
    return {"days_played": len(days), "days_won": len(won), "current_streak": current,
            "best_streak": best, "today": days.get(today)}


def rank_of(game: dict[str, Any], won: list[dict[str, Any]]) -> dict[str, Any]:
    """A won game's place among the won games ``won`` of its variant (itself included):
    1 for the best time, the best score and the fewest moves; ties share the better place."""
    return {
        "wins": len(won),
        "time": 1 + sum(r["elapsed"] < game["elapsed"] for r in won),
        "score": 1 + sum(r["score"] > game["score"] for r in won),
        "moves": 1 + sum(r["moves"] < game["moves"] for r in won),
    }
