"""Versioned schema migrations of the game database.

The schema's version is kept in the file (SQLite's ``user_version``). Opening a file runs
every step from its version up to :data:`~kabale.storage.db.SCHEMA_VERSION`, in one
``BEGIN IMMEDIATE`` transaction, so that several server processes opening one file at once
upgrade it once (the second waits, then finds it done) and a failed step leaves the file as
it was. A file of a newer version is refused with :class:`NewerSchemaError`: this kabale
would not know what the newer columns mean and could damage them.

Versions:

1. ``games`` (the first kabale).
2. ``games.assisted``, ``games.daily``, ``games.info``.
3. players: ``games.player`` (every game belongs to one player; the games of older files to
   the local player of ``kabale play``) and ``games.rev`` (a counter every write raises, so
   that two processes never write over each other's move); ``players``, ``player_tokens``
   (only the SHA-256 of a player's token), ``transfer_codes`` (only their SHA-256) and
   ``shown_daily`` (the daily deals whose cards a player has seen, per player; the older
   server-wide ``daily_shown`` rows go to the local player).
4. ``rate_limits``: the rate limits' buckets (storage.limits), shared by every server process
   of the database.
5. help shared by every server process (storage.helpstate): ``games.help_until`` (until when
   help may be in flight for a game), ``help_marks`` (the cancellations of help) and
   ``help_reviews`` (the reviews of finished games: progress, result, failure).
6. ``help_jobs``: each player's help jobs in flight in every server process (storage
   .helpstate), so that their bound per player is counted across processes; and
   ``help_answers``: the answers of hints and win chances, read by every server process.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

from kabale.core.errors import KabaleError

__all__ = ["upgrade", "PLAYER_TABLES"]

#: the schema this kabale writes; a file of an older one is upgraded on opening (storage
#: .migrate), a file of a newer one refused (another kabale made it)
SCHEMA_VERSION = 6
#: the player of `kabale play`: one person at one machine, every game theirs
LOCAL_PLAYER = "local"
#: the rate limits' table (storage.limits) of schema 4, in the SQL that both SQLite and
#: PostgreSQL accept
LIMITS_TABLE = ("CREATE TABLE IF NOT EXISTS rate_limits (bucket TEXT PRIMARY KEY,"
                " tat REAL NOT NULL, granted INTEGER NOT NULL, step REAL NOT NULL,"
                " burst REAL NOT NULL)")
#: the help control's tables of schema 5 (storage.helpstate), in the SQL that both SQLite
#: and PostgreSQL accept
HELP_TABLES = (
    "CREATE TABLE IF NOT EXISTS help_marks (who TEXT NOT NULL, game TEXT NOT NULL,"
    " pos TEXT, scope TEXT NOT NULL, why TEXT NOT NULL, origin TEXT NOT NULL,"
    " stamp REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS help_marks_who ON help_marks (who, stamp)",
    "CREATE INDEX IF NOT EXISTS help_marks_at ON help_marks (stamp)",
    "CREATE TABLE IF NOT EXISTS help_reviews (game TEXT PRIMARY KEY, who TEXT NOT NULL,"
    " state TEXT NOT NULL, done INTEGER NOT NULL, total INTEGER NOT NULL, result TEXT,"
    " error TEXT, code TEXT, asked REAL NOT NULL, until REAL NOT NULL,"
    " updated REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS help_reviews_who ON help_reviews (who)",
)
#: the tables of schema 6 (storage.helpstate): the players' jobs in flight, one row per job
#: and process, and the answers shared by every process, in the SQL that both SQLite and
#: PostgreSQL accept
HELP_JOBS_TABLES = (
    "CREATE TABLE IF NOT EXISTS help_jobs (who TEXT NOT NULL, job TEXT NOT NULL,"
    " origin TEXT NOT NULL, kind TEXT NOT NULL, lane TEXT NOT NULL, game TEXT NOT NULL,"
    " pos TEXT NOT NULL, expires REAL NOT NULL, PRIMARY KEY (who, job, origin))",
    "CREATE INDEX IF NOT EXISTS help_jobs_at ON help_jobs (expires)",
    "CREATE TABLE IF NOT EXISTS help_answers (name TEXT PRIMARY KEY, kind TEXT NOT NULL,"
    " answer TEXT NOT NULL, expires REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS help_answers_at ON help_answers (expires)",
)
#: the games' column of schema 5: until when help may be in flight for the game (a time
#: stamp; 0 for none), read with the game's owner on every request
HELP_COLUMN = "help_until REAL NOT NULL DEFAULT 0"

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
    elapsed   REAL NOT NULL DEFAULT 0,
    assisted  INTEGER NOT NULL DEFAULT 0,
    daily     TEXT,
    info      TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS games_variant_finished ON games (variant, finished);
"""
#: columns added after schema version 1, each with its definition (added to older files)
ADDED_COLUMNS = {
    "assisted": "INTEGER NOT NULL DEFAULT 0",  # a hint, the bot or a replay helped (1)
    "daily": "TEXT",                           # the date of a daily deal, YYYY-MM-DD
    "info": "TEXT NOT NULL DEFAULT '{}'",      # how the deal was chosen (server.deals)
}




class NewerSchemaError(KabaleError):
    """The database was written by a newer kabale (a schema version this one lacks)."""


#: the tables of version 3, in the SQL that both SQLite and PostgreSQL accept
PLAYER_TABLES = (
    "CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, created REAL NOT NULL,"
    " seen REAL NOT NULL, nickname TEXT, settings TEXT NOT NULL DEFAULT '{}')",
    "CREATE TABLE IF NOT EXISTS player_tokens (hash TEXT PRIMARY KEY, player TEXT NOT NULL,"
    " created REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS player_tokens_player ON player_tokens (player)",
    "CREATE TABLE IF NOT EXISTS transfer_codes (hash TEXT PRIMARY KEY, player TEXT NOT NULL,"
    " expires REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS shown_daily (player TEXT NOT NULL, variant TEXT NOT NULL,"
    " day TEXT NOT NULL, shown REAL NOT NULL, PRIMARY KEY (player, variant, day))",
)


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def _to_2(conn: sqlite3.Connection) -> None:
    """The games table, with the columns version 1 lacked (their defaults describe the old
    games: unassisted, not daily, no deal info)."""
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    have = _columns(conn, "games")
    for name, definition in ADDED_COLUMNS.items():
        if name not in have:
            conn.execute(f"ALTER TABLE games ADD COLUMN {name} {definition}")


def _to_3(conn: sqlite3.Connection) -> None:
    """Players (see the module docstring); the games already there are the local player's."""
    have = _columns(conn, "games")
    if "player" not in have:
        conn.execute(f"ALTER TABLE games ADD COLUMN player TEXT NOT NULL DEFAULT "
                     f"'{LOCAL_PLAYER}'")
    if "rev" not in have:
        conn.execute("ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 0")
    conn.execute("CREATE INDEX IF NOT EXISTS games_player ON games (player, variant, status)")
    conn.execute("CREATE INDEX IF NOT EXISTS games_daily ON games (daily, variant, status)")
    for statement in PLAYER_TABLES:
        conn.execute(statement)
    now = time.time()
    conn.execute("INSERT OR IGNORE INTO players (id, created, seen) VALUES (?, ?, ?)",
                 (LOCAL_PLAYER, now, now))
    old = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='daily_shown'")
    if old.fetchone() is not None:
        conn.execute("INSERT OR IGNORE INTO shown_daily (player, variant, day, shown)"
                     " SELECT ?, variant, day, shown FROM daily_shown", (LOCAL_PLAYER,))


def _to_4(conn: sqlite3.Connection) -> None:
    """The rate limits' table (storage.limits), empty: every bucket starts full."""
    conn.execute(LIMITS_TABLE)


def _to_5(conn: sqlite3.Connection) -> None:
    """The help control's column and tables (storage.helpstate), empty: no help in flight."""
    if "help_until" not in _columns(conn, "games"):
        conn.execute(f"ALTER TABLE games ADD COLUMN {HELP_COLUMN}")
    for statement in HELP_TABLES:
        conn.execute(statement)


def _to_6(conn: sqlite3.Connection) -> None:
    """The tables of the players' jobs in flight and of the shared answers
    (storage.helpstate), empty: none counted (the jobs of the processes that upgrade it
    are asked after), none kept."""
    for statement in HELP_JOBS_TABLES:
        conn.execute(statement)


#: STEPS[v] takes a file of version v (0: new or unversioned) to the next one
STEPS: dict[int, Callable[[sqlite3.Connection], None]] = {0: _to_2, 1: _to_2, 2: _to_3,
                                                           3: _to_4, 4: _to_5,
                                                           5: _to_6}


def _version(conn: sqlite3.Connection) -> int:
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    return version


def refuse_newer(version: int, name: str) -> None:
    """NewerSchemaError when ``version`` is newer than this kabale's schema."""
    if version > SCHEMA_VERSION:
        raise NewerSchemaError(
            f"the game database {name!r} has schema version {version}, newer than this "
            f"kabale understands ({SCHEMA_VERSION}): it was written by a newer kabale; "
            "upgrade kabale, or give another --db")


def upgrade(conn: sqlite3.Connection, name: str) -> int:
    """Bring the SQLite database on ``conn`` (autocommit) to SCHEMA_VERSION; returns the
    version it had. NewerSchemaError for a newer file, which is left untouched."""
    found = _version(conn)
    refuse_newer(found, name)
    if found == SCHEMA_VERSION:
        return found
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = found = _version(conn)  # another process may have upgraded it meanwhile
        refuse_newer(version, name)
        while version < SCHEMA_VERSION:
            STEPS[version](conn)
            version = 2 if version < 2 else version + 1
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return found
