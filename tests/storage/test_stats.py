"""Statistics beyond the summary: wins without help apart, the daily deals' streak of days,
a won game's rank, and an older database file brought up to the schema that records them."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import kabale
from kabale.storage.db import SCHEMA_VERSION, GameStore
from kabale.storage.stats import daily_summary, rank_of, summarize

#: the games table as schema version 1 wrote it (before help and daily deals were recorded)
SCHEMA_1 = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, deal_id TEXT NOT NULL, variant TEXT NOT NULL, save TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'won', 'lost')), started REAL NOT NULL,
    finished REAL, updated REAL NOT NULL, score INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0, elapsed REAL NOT NULL DEFAULT 0
);
"""


def result(status: str, day: str | None = None, assisted: bool = False) -> dict[str, object]:
    return {"status": status, "score": 0, "moves": 10, "elapsed": 60.0, "finished": 1.0,
            "deal_id": "klondike#1", "assisted": int(assisted), "daily": day}


def test_wins_with_help_are_kept_apart() -> None:
    stats = summarize("klondike", [result("won"), result("won", assisted=True), result("lost")])
    assert (stats["won"], stats["won_unassisted"]) == (2, 1)
    assert stats["win_pct"] == 66.7 and stats["win_pct_unassisted"] == 33.3
    assert [r["assisted"] for r in stats["recent"]] == [False, True, False]


def test_streak_of_days_counts_calendar_days_won() -> None:
    today = dt.date(2024, 3, 10)
    day = lambda back: (today - dt.timedelta(days=back)).isoformat()  # noqa: E731
    games = [result("won", day(9)), result("won", day(8)), result("won", day(7)),
             result("lost", day(5)), result("won", day(2)), result("lost", day(1)),
             result("won", day(1)), result("won"), result("lost", day(0))]
    stats = daily_summary(games, today)
    # days 9, 8, 7 won in a row; 5 lost; 2 and 1 won (1 after a lost game of the same day);
    # today only lost so far: the streak runs up to yesterday
    assert (stats["days_played"], stats["days_won"]) == (7, 5)
    assert (stats["current_streak"], stats["best_streak"], stats["today"]) == (2, 3, False)
    assert daily_summary(games, today + dt.timedelta(days=2))["current_streak"] == 0
    assert daily_summary([], today) == {"days_played": 0, "days_won": 0, "current_streak": 0,
                                        "best_streak": 0, "today": None}


def test_rank_among_the_wins_of_a_variant() -> None:
    won = [{"elapsed": e, "score": s, "moves": m} for e, s, m in
           [(100.0, 500, 90), (80.0, 700, 120), (120.0, 300, 80)]]
    assert rank_of(won[0], won) == {"wins": 3, "time": 2, "score": 2, "moves": 2}
    assert rank_of(won[1], won) == {"wins": 3, "time": 1, "score": 1, "moves": 3}


def test_an_older_database_gets_the_new_columns_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    game = kabale.Game.new("klondike", seed=3)
    with sqlite3.connect(path) as conn:
        conn.executescript(SCHEMA_1)
        conn.execute("INSERT INTO games VALUES ('old', ?, 'klondike', ?, 'lost', 1, 2, 2, 0, 0, 5)",
                     (game.deal_id, game.to_json()))
        conn.execute("PRAGMA user_version=1")
    store = GameStore(path)
    loaded = store.load("old")
    assert (loaded.status, loaded.assisted, loaded.daily, loaded.info) == ("lost", False, None, {})
    store.add("new", game, assisted=True, daily="2024-01-02", info={"winnable": True})
    again = store.load("new")
    assert (again.assisted, again.daily, again.info) == (True, "2024-01-02", {"winnable": True})
    store.mark_assisted("old")
    assert store.load("old").assisted is True
    assert store.stats("klondike")["played"] == 1
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_day_won_only_with_help_is_no_day_won() -> None:
    # Issue 43: a daily deal whose number was revealed mid-game and then played by the
    # solver was won "with help": it must not feed the streak of days.
    today = dt.date(2024, 3, 10)
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    games = [result("won", yesterday), result("won", today.isoformat(), assisted=True)]
    stats = daily_summary(games, today)
    assert (stats["days_played"], stats["days_won"], stats["today"]) == (2, 1, False)
    assert stats["current_streak"] == 1


def test_games_with_help_set_no_record() -> None:
    # Issue 48: a demo's win in 0:02 was the "best time"; a bot's score the best score, and
    # wins with help lengthened the streak.
    def game(status: str, elapsed: float, score: int, assisted: bool = False) -> dict[str, object]:
        return {**result(status, assisted=assisted), "elapsed": elapsed, "score": score}

    games = [game("won", 300.0, 500), game("won", 2.0, 900, assisted=True),
             game("won", 250.0, 450), game("lost", 100.0, 990, assisted=True),
             game("won", 3.0, 800, assisted=True)]
    stats = summarize("klondike", games)
    assert (stats["best_time"], stats["best_score"]) == (250.0, 500)
    assert (stats["current_streak"], stats["best_streak"]) == (0, 2)
    assert (stats["won"], stats["won_unassisted"]) == (4, 2)
    only_helped = summarize("klondike", [game("won", 2.0, 900, assisted=True)])
    assert (only_helped["best_time"], only_helped["best_score"]) == (None, None)
    assert only_helped["current_streak"] == 0
