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

import datetime as dt
import json
import math
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from kabale.core.errors import InvalidSaveError, KabaleError, quoted
from kabale.core.game import Game
from kabale.storage.migrate import (
    LOCAL_PLAYER,
    SCHEMA_VERSION,
    NewerSchemaError,
    refuse_newer,
    upgrade,
)
from kabale.storage.stats import daily_summary, rank_of, summarize

__all__ = ["LOCAL_PLAYER", "SCHEMA_VERSION", "GameNotFoundError", "GameStore",
           "NewerSchemaError", "StorageError", "StoredGame", "default_db_path", "summarize"]

FINISHED = ("won", "lost")
STATUSES = ("playing", *FINISHED)
#: the rows the statistics count: games won or given up, and games in play whose position is
#: lost (``finished`` stamped by :meth:`GameStore.save`; an undo takes the stamp back)
ENDED = "(status IN ('won', 'lost') OR finished IS NOT NULL)"
#: a counted row's result: a game in play that is counted is lost
RESULT = "CASE WHEN status='won' THEN 'won' ELSE 'lost' END AS status"

class GameNotFoundError(KabaleError):
    """No stored game has the requested id."""


class StorageError(KabaleError):
    """The database file cannot be read or written (damaged, locked, read-only, gone)."""


class StaleGameError(KabaleError):
    """The game was changed by another request (another window, another server process)
    since this copy of it was read; the change was not written."""




@dataclass(slots=True)
class StoredGame:
    """A game row read back: the live Game plus its bookkeeping."""

    id: str
    game: Game
    status: str
    started: float
    finished: float | None
    elapsed: float
    assisted: bool = False
    daily: str | None = None
    info: dict[str, Any] | None = None
    player: str = LOCAL_PLAYER
    rev: int = 0


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


#: the columns of a finished game that the statistics count with
NUMBERS = ("score", "moves", "elapsed")


def _lenient_text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _number(value: object) -> float | int | None:
    """``value`` when it is a finite number, else None (a damaged cell: text, a blob,
    infinity, or nothing)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value if math.isfinite(value) else None


def _day(value: object) -> str | None:
    """``value`` when it is a date written YYYY-MM-DD, else None (not a daily deal)."""
    if not isinstance(value, str):
        return None
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return None
    return value if len(value) == 10 else None


def _numbers(row: sqlite3.Row) -> dict[str, Any] | None:
    """The row as a dict when its score, moves and elapsed time are numbers, else None."""
    game = dict(row)
    if any(_number(game[name]) is None for name in NUMBERS):
        return None
    return game


def _finished_row(row: sqlite3.Row) -> dict[str, Any] | None:
    """A finished game for the statistics (storage.stats), or None when its numbers are
    damaged: counting it with made-up numbers would put them in every average and best.
    A damaged finish time or day counts as unknown (not a daily deal)."""
    game = _numbers(row)
    if game is None:
        return None
    game["finished"] = _number(game["finished"])
    game["daily"] = _day(game["daily"])
    if not isinstance(game["deal_id"], str):
        game["deal_id"] = str(game["deal_id"])
    return game


def create_private_database(path: Path) -> bool:
    """Create ``path`` as an empty SQLite database that only its owner may read or write
    (mode 0600: it holds the deal ids of games in progress), unless it exists; True when
    this call made it. It is made under a temporary name and linked into place, so nobody
    ever opens it half made (a file of 0 bytes reads as a damaged database)."""
    if path.exists():
        return False
    handle, temporary = tempfile.mkstemp(prefix=path.name + ".", suffix=".new", dir=path.parent)
    os.close(handle)  # mkstemp makes it 0600
    try:
        conn = sqlite3.connect(temporary, isolation_level=None)
        try:
            conn.execute("PRAGMA user_version=0")  # writes the header page
        finally:
            conn.close()
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        except OSError:  # a file system without hard links: move it, unless one appeared
            if path.exists():
                return False
            os.replace(temporary, path)
        return True
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def make_private(path: Path) -> None:
    """Take away the group's and others' access to ``path`` and its WAL files, where they
    exist and this user owns them (files an older kabale made 0644); best effort."""
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            mode = name.stat().st_mode
            if mode & 0o077:
                name.chmod(mode & 0o700)
        except OSError:
            pass


class GameStore:
    """Games and statistics in one SQLite file. Safe to share between threads."""

    #: whether a call waits on another machine (storage.pg): the server then makes the
    #: calls of every request off its event loop where it can
    remote = False

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
                create_private_database(self.path)
            except (OSError, sqlite3.Error) as exc:
                raise KabaleError(f"cannot create game database {str(self.path)!r}: "
                                  f"{getattr(exc, 'strerror', None) or exc}") from None
            make_private(self.path)
        try:
            self._conn = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._conn.row_factory = sqlite3.Row
            # Text that is not UTF-8 (a damaged row) reads with U+FFFD in place of the bad
            # bytes instead of failing the whole query: a damaged save is then refused as
            # one (InvalidSaveError), and the statistics go on without that row.
            self._conn.text_factory = _lenient_text
            try:  # before anything is written: a newer kabale's file is left as it is
                refuse_newer(self._conn.execute("PRAGMA user_version").fetchone()[0],
                             str(self.path))
            except NewerSchemaError:
                self._conn.close()
                raise
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            upgrade(self._conn, str(self.path))
        except sqlite3.DatabaseError as exc:
            raise KabaleError(f"cannot open game database {str(self.path)!r}: {exc}") from None
        self._lock = threading.Lock()
        if not memory:
            self._check_pages()

    def _check_pages(self) -> None:
        """Note what SQLite's integrity check finds wrong: damaged pages, and indexes that
        disagree with their table (which the quick check does not look for, and which make
        a query by variant miss games or see ones that are gone)."""
        try:
            with self._lock:
                found = [row[0] for row in self._conn.execute("PRAGMA integrity_check(5)")]
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

    def add(self, game_id: str, game: Game, now: float | None = None, *,
            assisted: bool = False, daily: str | None = None,
            info: dict[str, Any] | None = None, player: str = LOCAL_PLAYER) -> None:
        """Store a new game of ``player`` under ``game_id`` (committed on return), at
        revision 0; ``assisted`` from the start (a replay), ``daily`` the date of a daily
        deal, ``info`` how the deal was chosen (JSON-safe)."""
        now = time.time() if now is None else now
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO games (id, deal_id, variant, save, status, started, updated,"
                " score, moves, elapsed, assisted, daily, info, player, rev)"
                " VALUES (?, ?, ?, ?, 'playing', ?, ?, ?, ?, 0, ?, ?, ?, ?, 0)",
                (game_id, game.deal_id, str(game.variant), game.to_json(), now, now,
                 game.score, game.moves_made, int(assisted), daily, json.dumps(info or {}),
                 player),
            )

    def mark_assisted(self, game_id: str, rev: int | None = None) -> int:
        """Record that the player had help in this game (a hint, the bot); for good.
        Returns the game's new revision; StaleGameError when ``rev`` is given and the
        stored game is at another one."""
        return self._bump(game_id, rev, "assisted=1")

    def _bump(self, game_id: str, rev: int | None, sets: str, args: tuple[Any, ...] = ()
              ) -> int:
        """``UPDATE games SET <sets>`` raising the revision, only at revision ``rev`` (at
        any when None); the new revision."""
        sql = f"UPDATE games SET {sets}, rev=rev+1 WHERE id=?"
        where: tuple[Any, ...] = (game_id,)
        if rev is not None:
            sql += " AND rev=?"
            where = (game_id, rev)
        if self.remote:
            # One statement, one round trip (a transaction around an UPDATE and a SELECT
            # would make four); RETURNING is as old as PostgreSQL's ON CONFLICT.
            with self._reading() as conn:
                row = conn.execute(sql + " RETURNING rev", (*args, *where)).fetchone()
                if row is None:
                    self._not_changed(conn, game_id)
            return int(row[0])
        with self._tx() as conn:
            cur = conn.execute(sql, (*args, *where))
            if cur.rowcount != 1:
                self._not_changed(conn, game_id)
            new: int = conn.execute("SELECT rev FROM games WHERE id=?", (game_id,)).fetchone()[0]
        return new

    @staticmethod
    def _not_changed(conn: Any, game_id: str) -> NoReturn:
        """Why an UPDATE of one game at one revision changed nothing: GameNotFoundError, or
        StaleGameError (another process wrote it since)."""
        row = conn.execute("SELECT rev FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game with id {quoted(game_id)}")
        raise StaleGameError("the game was changed elsewhere (another window or "
                             "device) meanwhile; this change was not made: reload it")

    def owner(self, game_id: str) -> tuple[str, int] | None:
        """The player a game belongs to and its revision; None when there is no such game."""
        with self._reading() as conn:
            row = conn.execute("SELECT player, rev FROM games WHERE id=?", (game_id,)).fetchone()
        return None if row is None else (str(row[0]), int(row[1]))

    def save(self, game_id: str, game: Game, status: str, elapsed: float,
             now: float | None = None, rev: int | None = None) -> int:
        """Write the game's current state; ``status`` won/lost also stamps the finish time.
        So does a game in play whose position is lost (``Game.outcome``; it can still be
        undone): the statistics count it as lost from the move that lost it, not only once
        it is given up, until an undo takes it back into play (the stamp goes with the next
        save). With ``rev``, only over that revision (StaleGameError otherwise: another
        process wrote the game since this copy was read). Returns the new revision."""
        if status not in STATUSES:
            raise KabaleError(f"bad game status {status!r}; valid: {', '.join(STATUSES)}")
        now = time.time() if now is None else now
        ended = status in FINISHED or game.outcome == "lost"
        finished = now if ended else None
        return self._bump(
            game_id, rev, "save=?, status=?, finished=?, updated=?, score=?, moves=?, elapsed=?",
            (game.to_json(), status, finished, now, game.score, game.moves_made,
             round(elapsed, 3)))

    def load(self, game_id: str, player: str | None = None) -> StoredGame:
        """Read a game back (only one of ``player``'s when given). Unknown id, or another
        player's game: GameNotFoundError, the same answer; damaged save: InvalidSaveError."""
        with self._reading() as conn:
            row = conn.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None or (player is not None and row["player"] != player):
            raise GameNotFoundError(f"no game with id {quoted(game_id)}")
        try:
            game = Game.from_json(row["save"])
        except InvalidSaveError as exc:
            raise InvalidSaveError(f"saved game {game_id!r} is damaged: {exc}") from None
        try:
            info = json.loads(row["info"])
        except ValueError:
            info = {}  # the description of the deal is damaged: the game itself is not
        return StoredGame(row["id"], game, row["status"], _number(row["started"]) or 0.0,
                          _number(row["finished"]), _number(row["elapsed"]) or 0.0,
                          bool(row["assisted"]), _day(row["daily"]),
                          info if isinstance(info, dict) else {}, str(row["player"]),
                          int(row["rev"]))

    def recent_games(self, status: str | None = None, limit: int = 20,
                     player: str = LOCAL_PLAYER) -> list[dict[str, Any]]:
        """``player``'s latest games (newest first) as plain dicts without the saved text."""
        sql = "SELECT id, deal_id, variant, status, started, finished, score, moves, elapsed"
        sql += " FROM games WHERE player=?"
        args: tuple[Any, ...] = (player,)
        if status is not None:
            sql += " AND status=?"
            args = (player, status)
        sql += " ORDER BY updated DESC LIMIT ?"
        with self._reading() as conn:
            rows = conn.execute(sql, (*args, int(limit))).fetchall()
        return [dict(row) for row in rows]

    # -- statistics ----------------------------------------------------------------------

    def variants_played(self, player: str = LOCAL_PLAYER) -> list[str]:
        """Every variant ``player`` finished a game of (or lost one still on the table),
        most played first."""
        with self._reading() as conn:
            rows = conn.execute(
                f"SELECT variant FROM games WHERE player=? AND {ENDED}"
                " GROUP BY variant ORDER BY COUNT(*) DESC, variant", (player,)
            ).fetchall()
        return [row[0] for row in rows]

    def _finished(self, variant: str | None, player: str) -> list[dict[str, Any]]:
        """``player``'s finished games of ``variant`` (of every variant when None), oldest
        first; a game in play whose position is lost is one of them, lost (see save)."""
        sql = f"SELECT id, deal_id, {RESULT}, finished, score, moves, elapsed, assisted, daily"
        sql += " FROM games"
        sql += f" WHERE player=? AND {ENDED}"
        args: tuple[str, ...] = (player,)
        if variant is not None:
            sql += " AND variant=?"
            args = (player, variant)
        with self._reading() as conn:
            rows = conn.execute(sql + " ORDER BY finished, rowid", args).fetchall()
        return [game for game in map(_finished_row, rows) if game is not None]

    def stats(self, variant: str, today: dt.date | None = None,
              player: str = LOCAL_PLAYER) -> dict[str, Any]:
        """``player``'s statistics of one variant (canonical string) over their finished
        games, with its daily deals' days and streak (``daily``) as of ``today`` (this
        machine's date)."""
        results = self._finished(variant, player)
        summary = summarize(variant, results)
        summary["daily"] = daily_summary(results, today or dt.date.today())
        return summary

    def rank(self, game_id: str) -> dict[str, Any] | None:
        """A won game's rank among its player's games of its variant won without help
        (storage.stats.rank_of); None when the game is not won, or was won with help (a
        hint, the bot, a replay or its number revealed: its time and moves prove nothing)."""
        with self._reading() as conn:
            row = conn.execute("SELECT variant, status, score, moves, elapsed, assisted,"
                               " player FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                raise GameNotFoundError(f"no game with id {quoted(game_id)}")
            if row["status"] != "won" or row["assisted"]:
                return None
            won = conn.execute("SELECT score, moves, elapsed FROM games WHERE player=? AND"
                               " variant=? AND status='won' AND assisted=0",
                               (row["player"], row["variant"])).fetchall()
        game = _numbers(row)
        if game is None:
            return None  # its numbers are damaged: it has no place among the others
        return rank_of(game, [r for r in map(_numbers, won) if r is not None])

    def stats_all(self, player: str = LOCAL_PLAYER) -> dict[str, Any]:
        """``player``'s statistics over every finished game of every variant (``variant``
        is None)."""
        return summarize(None, self._finished(None, player))

    def reset_stats(self, variant: str | None = None, player: str = LOCAL_PLAYER) -> int:
        """Forget ``player``'s finished games of ``variant`` (of every variant when None), so
        that its statistics start again; games in progress are kept (one whose position is
        lost no longer counts: it counts again if it is given up or lost once more).
        Returns how many were removed."""
        sql = "DELETE FROM games WHERE player=? AND status IN ('won', 'lost')"
        keep = "UPDATE games SET finished=NULL WHERE player=? AND status='playing'"
        args: tuple[str, ...] = (player,)
        if variant is not None:
            sql += " AND variant=?"
            keep += " AND variant=?"
            args = (player, variant)
        with self._tx() as conn:
            removed: int = conn.execute(sql, args).rowcount
            conn.execute(keep, args)
        return removed
