"""The game database on a PostgreSQL server (`kabale serve --db postgresql://...`).

:class:`PgStore` is a :class:`~kabale.storage.db.GameStore` whose connections come from a
psycopg 3 pool instead of one SQLite file: every method of the store (games, statistics,
players, secrets, leaderboards) runs the same SQL, translated here from SQLite's spelling
(``?`` placeholders, ``INSERT OR IGNORE``, ``rowid``). Several `kabale serve` processes, on
one machine or many, share one PostgreSQL database: a game's revision (storage.db) keeps
their writes to one game in order, and every change is committed before a method returns.

The schema is versioned as the SQLite one is (storage.migrate): the version is kept in
``kabale_schema``, a migration runs under a transaction-scoped advisory lock (so several
servers starting at once migrate once), and a database of a newer version is refused.

Errors name the server by host, port and database only: a password in the URL never
reaches an error, a log line or an answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from kabale.core.errors import KabaleError
from kabale.storage.db import GameStore, StorageError
from kabale.storage.migrate import (
    _SCHEMA,
    HELP_COLUMN,
    HELP_JOBS_TABLES,
    HELP_TABLES,
    LIMITS_TABLE,
    LOCAL_PLAYER,
    PLAYER_TABLES,
    SCHEMA_VERSION,
    refuse_newer,
)

#: an arbitrary key for pg_advisory_xact_lock: kabale's migrations
MIGRATION_LOCK = 0x6B61_6261_6C65
POOL_SIZE = 10


def is_postgres_url(value: str) -> bool:
    return value.startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """``postgresql://host:port/db``: the URL without user or password."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"postgresql://{host}{port}{parts.path}"


def translate(sql: str) -> str:
    """SQLite's spelling of a statement in PostgreSQL's."""
    if sql.lstrip().upper().startswith("CREATE"):
        sql = pg_schema(sql)
    if sql.lstrip().upper().startswith("INSERT OR IGNORE"):
        sql = re.sub(r"INSERT OR IGNORE", "INSERT", sql, count=1, flags=re.I)
        sql += " ON CONFLICT DO NOTHING"
    sql = re.sub(r"\browid\b", "started", sql)
    return sql.replace("?", "%s")


def pg_schema(sql: str) -> str:
    """A CREATE statement of the SQLite schema as PostgreSQL wants it: REAL there is 4
    bytes (a time stamp would lose its seconds), so times are DOUBLE PRECISION."""
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql).replace("BLOB", "BYTEA")


class Row(tuple[Any, ...]):
    """A row read by index or by column name, as sqlite3.Row is."""

    names: Sequence[str] = ()

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self.names.index(key))
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self.names)


def _row_factory(cursor: Any) -> Any:
    names = [column.name for column in cursor.description or ()]

    def make(values: Sequence[Any]) -> Row:
        row = Row(values)
        row.names = names
        return row

    return make


class _Cursor:
    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor
        self.rowcount: int = cursor.rowcount

    def fetchone(self) -> Any:
        return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        rows: list[Any] = self._cursor.fetchall()
        return rows

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class _Connection:
    """The part of sqlite3.Connection the store uses, over a psycopg connection."""

    in_transaction = True

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, sql: str, args: Sequence[Any] = ()) -> _Cursor:
        cursor = self._conn.cursor(row_factory=_row_factory)
        cursor.execute(translate(sql), tuple(args))
        return _Cursor(cursor)


class PgStore(GameStore):
    """The game store on PostgreSQL (see the module docstring); safe between threads."""

    remote = True

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        try:
            import psycopg
            from psycopg_pool import ConnectionPool
        except ImportError:
            raise KabaleError("--db postgresql://... needs psycopg 3: pip install "
                              "'kabale[site]'") from None
        self._psycopg = psycopg
        self.path = redacted(url)  # type: ignore[assignment]
        self.problems = []
        try:  # one plain connection first: its error is clearer than a pool's time-out
            psycopg.connect(url, connect_timeout=10).close()
        except psycopg.Error as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise KabaleError(f"cannot open game database {self.path}: {reason}") from None
        self._pool = ConnectionPool(url, min_size=1, max_size=pool_size, open=False,
                                    kwargs={"autocommit": True})
        try:
            self._pool.open(wait=True, timeout=15)
        except Exception as exc:
            self._pool.close()
            raise KabaleError(f"cannot open game database {self.path}: "
                              f"{type(exc).__name__}") from None
        try:
            self._migrate()
        except BaseException:
            self._pool.close()
            raise

    def _migrate(self) -> None:
        """Create or upgrade the schema (see the module docstring)."""
        with self._tx() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS kabale_schema (version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM kabale_schema").fetchone()
            version = 0 if row is None else int(row[0])
            refuse_newer(version, str(self.path))
            if version == SCHEMA_VERSION:
                return
            # PostgreSQL came with schema 3: every older step is in this one, and each
            # statement is one that an older database may already have done (IF NOT EXISTS).
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(pg_schema(statement))
            conn.execute("ALTER TABLE games ADD COLUMN IF NOT EXISTS player TEXT NOT NULL"
                         f" DEFAULT '{LOCAL_PLAYER}'")
            conn.execute("ALTER TABLE games ADD COLUMN IF NOT EXISTS rev INTEGER NOT NULL"
                         " DEFAULT 0")
            conn.execute("CREATE INDEX IF NOT EXISTS games_player ON games"
                         " (player, variant, status)")
            conn.execute("CREATE INDEX IF NOT EXISTS games_daily ON games"
                         " (daily, variant, status)")
            for statement in PLAYER_TABLES:
                conn.execute(pg_schema(statement))
            conn.execute(pg_schema("CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY,"
                                   " value BLOB NOT NULL, created REAL NOT NULL)"))
            conn.execute(pg_schema(LIMITS_TABLE).replace("CREATE TABLE",  # schema 4
                                                         "CREATE UNLOGGED TABLE"))
            # schema 5: the help control (storage.helpstate); its rows are worth no disk
            # flush either (a crash forgets cancellations of jobs that died with it)
            conn.execute(pg_schema(f"ALTER TABLE games ADD COLUMN IF NOT EXISTS {HELP_COLUMN}"))
            for statement in HELP_TABLES:
                conn.execute(pg_schema(statement).replace("CREATE TABLE", "CREATE UNLOGGED TABLE"))
            for statement in HELP_JOBS_TABLES:  # schema 6: jobs in flight, answers
                conn.execute(pg_schema(statement).replace("CREATE TABLE", "CREATE UNLOGGED TABLE"))
            conn.execute("INSERT OR IGNORE INTO players (id, created, seen) VALUES"
                         " (?, extract(epoch from now()), extract(epoch from now()))",
                         (LOCAL_PLAYER,))
            conn.execute("DELETE FROM kabale_schema")
            conn.execute("INSERT INTO kabale_schema (version) VALUES (?)", (SCHEMA_VERSION,))

    def close(self) -> None:
        self._pool.close()

    def _error(self, exc: Exception) -> StorageError:
        return StorageError(f"the game database {self.path} cannot be used: "
                            f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")

    @contextmanager
    def _reading(self) -> Iterator[Any]:
        """A pooled connection in autocommit: each read is one round trip (a BEGIN and a
        COMMIT around it would make three)."""
        try:
            with self._pool.connection() as raw:
                yield _Connection(raw)
        except self._psycopg.Error as exc:
            raise self._error(exc) from None

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """A pooled connection in one transaction, committed when the block ends (rolled
        back if it raises)."""
        try:
            with self._pool.connection() as raw, raw.transaction():
                yield _Connection(raw)
        except self._psycopg.Error as exc:
            raise self._error(exc) from None


def open_store(location: str) -> GameStore:
    """The store at ``location``: a postgresql:// URL, else a SQLite file path."""
    return PgStore(location) if is_postgres_url(location) else GameStore(location)
