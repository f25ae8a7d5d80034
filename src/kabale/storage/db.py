"""The game database: games in progress and finished games, and statistics per variant.

A small layer over the standard library's ``sqlite3`` in WAL mode. Every change is committed
before the method returns, so a server killed with ``kill -9`` loses at most the request in
flight. Saved games are stored as ``Game.to_json()`` text and read back with
``Game.from_json``; a damaged save is refused with :class:`InvalidSaveError`, never half loaded.

Default location: ``platformdirs.user_data_dir("kabale")/kabale.db``, overridden by an explicit
path or the ``KABALE_DB`` environment variable (see :func:`default_db_path`).

A database SQLite cannot read raises :class:`StorageError` (a KabaleError naming the file and
the problem) from the method that met it, so a damaged page costs the requests that touch it
and nothing else. What opening finds wrong (an existing file of 0 bytes, pages that SQLite's
quick check finds damaged) is listed, one line each, in ``GameStore.problems`` for the caller
to show.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kabale.core.errors import InvalidSaveError, KabaleError, quoted
from kabale.core.game import Game

SCHEMA_VERSION = 1
RECENT_RESULTS = 30
FINISHED = ("won", "lost")
STATUSES = ("playing", *FINISHED)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    deal_id   TEXT NOT NULL,
    variant   TEXT NOT NULL,
    save      TEXT NOT NULL,
    status    TEXT NOT NULL CHECK (status IN ('playing', 'won', 'lost')),
    started   REAL NOT NULL,
    finished  REAL,
    updated   REAL NOT NULL,
    score     INTEGER NOT NULL DEFAULT 0,
    moves     INTEGER NOT NULL DEFAULT 0,
    elapsed   REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_variant_finished ON games (variant, finished);
"""


class GameNotFoundError(KabaleError):
    """No stored game has the requested id."""


class StorageError(KabaleError):
    """The database file cannot be read or written (damaged, locked, read-only, gone)."""


@dataclass(slots=True)
class StoredGame:
    """A game row read back: the live Game plus its bookkeeping."""

    id: str
    game: Game
    status: str
    started: float
    finished: float | None
    elapsed: float


def default_db_path(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The database path: ``explicit`` if given, else $KABALE_DB, else the user data dir."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("KABALE_DB")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("kabale")) / "kabale.db"


def make_folder_for(path: Path) -> None:
    """Create the folder that is to hold the database file ``path``; KabaleError naming the
    path when that cannot be done (a file in the way, no permission)."""
    for folder in [path.parent, *path.parent.parents]:
        if folder.exists():
            if not folder.is_dir():
                raise KabaleError(f"cannot open game database {str(path)!r}: "
                                  f"{str(folder)!r} is a file, not a folder")
            break
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KabaleError(f"cannot open game database {str(path)!r}: "
                          f"{exc.strerror or exc}") from None


class GameStore:
    """Games and statistics in one SQLite file. Safe to share between threads."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.problems: list[str] = []
        memory = str(self.path) == ":memory:"
        if not memory:
            make_folder_for(self.path)
            if self.path.is_file() and self.path.stat().st_size == 0:
                self.problems.append(
                    f"the game database {str(self.path)!r} was an empty file (0 bytes): it "
                    "held no games or statistics; a new database starts in it")
        try:
            self._conn = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._conn.row_factory = sqlite3.Row
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.executescript(_SCHEMA)
            self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise KabaleError(f"cannot open game database {str(self.path)!r}: {exc}") from None
        self._lock = threading.Lock()
        if not memory:
            self._check_pages()

    def _check_pages(self) -> None:
        """Note what SQLite's quick check finds wrong (it reads every page once)."""
        try:
            with self._lock:
                found = [row[0] for row in self._conn.execute("PRAGMA quick_check(5)")]
        except sqlite3.DatabaseError as exc:
            found = [str(exc)]
        if found != ["ok"]:
            detail = " ".join("; ".join(found).split())  # one line
            self.problems.append(
                f"the game database {str(self.path)!r} is damaged ({detail}): games "
                "and statistics on the damaged pages cannot be read, the rest still work "
                "(sqlite3's .recover command may save more)")

    def close(self) -> None:
        """Close the connection; the store is unusable afterwards."""
        with self._lock:
            self._conn.close()

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection under the lock; SQLite's errors become StorageError."""
        with self._lock:
            try:
                yield self._conn
            except sqlite3.DatabaseError as exc:
                raise self._error(exc) from None

    def _error(self, exc: sqlite3.DatabaseError) -> StorageError:
        what = "is damaged" if "malformed" in str(exc) else "cannot be used"
        return StorageError(f"the game database {str(self.path)!r} {what}: {exc}")

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._reading() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # -- games ---------------------------------------------------------------------------

    def add(self, game_id: str, game: Game, now: float | None = None) -> None:
        """Store a new game under ``game_id`` (committed on return)."""
        now = time.time() if now is None else now
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO games (id, deal_id, variant, save, status, started, updated,"
                " score, moves, elapsed) VALUES (?, ?, ?, ?, 'playing', ?, ?, ?, ?, 0)",
                (game_id, game.deal_id, str(game.variant), game.to_json(), now, now,
                 game.score, game.moves_made),
            )

    def save(self, game_id: str, game: Game, status: str, elapsed: float,
             now: float | None = None) -> None:
        """Write the game's current state; ``status`` won/lost also stamps the finish time."""
        if status not in STATUSES:
            raise KabaleError(f"bad game status {status!r}; valid: {', '.join(STATUSES)}")
        now = time.time() if now is None else now
        finished = now if status in FINISHED else None
        with self._tx() as conn:
            cur = conn.execute(
                "UPDATE games SET save=?, status=?, finished=?, updated=?, score=?, moves=?,"
                " elapsed=? WHERE id=?",
                (game.to_json(), status, finished, now, game.score, game.moves_made,
                 round(elapsed, 3), game_id),
            )
            if cur.rowcount != 1:
                raise GameNotFoundError(f"no game with id {game_id!r}")

    def load(self, game_id: str) -> StoredGame:
        """Read a game back. Unknown id: GameNotFoundError; damaged save: InvalidSaveError."""
        with self._reading() as conn:
            row = conn.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game with id {quoted(game_id)}")
        try:
            game = Game.from_json(row["save"])
        except InvalidSaveError as exc:
            raise InvalidSaveError(f"saved game {game_id!r} is damaged: {exc}") from None
        return StoredGame(row["id"], game, row["status"], row["started"], row["finished"],
                          row["elapsed"])

    def recent_games(self, status: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
        """The latest games (newest first) as plain dicts without the saved text."""
        sql = "SELECT id, deal_id, variant, status, started, finished, score, moves, elapsed"
        sql += " FROM games"
        args: tuple[Any, ...] = ()
        if status is not None:
            sql += " WHERE status=?"
            args = (status,)
        sql += " ORDER BY updated DESC LIMIT ?"
        with self._reading() as conn:
            rows = conn.execute(sql, (*args, int(limit))).fetchall()
        return [dict(row) for row in rows]

    # -- statistics ----------------------------------------------------------------------

    def variants_played(self) -> list[str]:
        """Every variant with at least one finished game, most played first."""
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT variant FROM games WHERE status IN ('won', 'lost')"
                " GROUP BY variant ORDER BY COUNT(*) DESC, variant"
            ).fetchall()
        return [row[0] for row in rows]

    def _finished(self, variant: str | None) -> list[dict[str, Any]]:
        """The finished games of ``variant`` (of every variant when None), oldest first."""
        sql = "SELECT deal_id, status, finished, score, moves, elapsed FROM games"
        sql += " WHERE status IN ('won', 'lost')"
        args: tuple[str, ...] = ()
        if variant is not None:
            sql += " AND variant=?"
            args = (variant,)
        with self._reading() as conn:
            rows = conn.execute(sql + " ORDER BY finished, rowid", args).fetchall()
        return [dict(row) for row in rows]

    def stats(self, variant: str) -> dict[str, Any]:
        """Statistics of one variant (canonical string) over its finished games."""
        return summarize(variant, self._finished(variant))

    def stats_all(self) -> dict[str, Any]:
        """Statistics over every finished game of every variant (``variant`` is None)."""
        return summarize(None, self._finished(None))

    def reset_stats(self, variant: str | None = None) -> int:
        """Forget the finished games of ``variant`` (of every variant when None), so that its
        statistics start again; games in progress are kept. Returns how many were removed."""
        sql = "DELETE FROM games WHERE status IN ('won', 'lost')"
        args: tuple[str, ...] = ()
        if variant is not None:
            sql += " AND variant=?"
            args = (variant,)
        with self._tx() as conn:
            removed: int = conn.execute(sql, args).rowcount
        return removed


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def summarize(variant: str | None, results: list[dict[str, Any]]) -> dict[str, Any]:
    """Played, won, win %, streaks, bests, averages (moves and score over every game, time
    over the won ones), the sum of the scores (Vegas: the running balance) and recent results,
    from finished games, oldest first."""
    won = [r for r in results if r["status"] == "won"]
    best_streak = streak = 0
    for result in results:
        streak = streak + 1 if result["status"] == "won" else 0
        best_streak = max(best_streak, streak)
    played = len(results)
    return {
        "variant": variant,
        "played": played,
        "won": len(won),
        "win_pct": round(100.0 * len(won) / played, 1) if played else 0.0,
        "current_streak": streak,
        "best_streak": best_streak,
        "best_time": min((r["elapsed"] for r in won), default=None),
        "best_score": max((r["score"] for r in results), default=None),
        "avg_moves": _mean([r["moves"] for r in results]),
        "avg_score": _mean([r["score"] for r in results]),
        "avg_time": _mean([r["elapsed"] for r in won]),
        "total_score": sum(r["score"] for r in results),
        "recent": [
            {"result": r["status"], "score": r["score"], "moves": r["moves"],
             "elapsed": r["elapsed"], "finished": r["finished"], "deal_id": r["deal_id"]}
            for r in results[-RECENT_RESULTS:]
        ],
    }
