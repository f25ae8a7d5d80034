"""The server's secrets and the daily deals it has shown, kept in its game database.

Two small tables beside ``games`` in the same SQLite file, so that a copy of the file (a
backup, a move to another machine) carries them:

- ``secrets``: named random values made on first use (``os.urandom``, 32 bytes) and never
  changed. The daily deals' key (server.deals) is one: the daily deal is the same for every
  player of one server, and no player can compute it before the day is over.
- ``daily_shown``: the daily deals (variant, day) whose cards this server has shown: a game of
  the deal ended (its number shows, and the post-mortem turns it face up) or its number was
  revealed mid-game. A later game of such a deal starts assisted. Forgetting the statistics
  (``GameStore.reset_stats``) leaves this table alone, so it cannot wash a shown deal clean.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kabale.storage.db import GameStore

SECRET_BYTES = 32

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL,"
    " created REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS daily_shown (variant TEXT NOT NULL, day TEXT NOT NULL,"
    " shown REAL NOT NULL, PRIMARY KEY (variant, day))",
)


def _tables(store: GameStore) -> None:
    # Created here rather than in the games schema: every function of this module makes sure
    # of them, so a database of any schema version gains them on first use.
    with store._tx() as conn:
        for statement in _SCHEMA:
            conn.execute(statement)


def server_secret(store: GameStore, name: str) -> bytes:
    """The secret called ``name`` in ``store``: made at random and stored on the first call,
    the same bytes on every later call (and after a restart, or in a copy of the file)."""
    _tables(store)
    with store._tx() as conn:
        conn.execute("INSERT OR IGNORE INTO secrets (name, value, created) VALUES (?, ?, ?)",
                     (name, os.urandom(SECRET_BYTES), time.time()))
        row = conn.execute("SELECT value FROM secrets WHERE name=?", (name,)).fetchone()
    value = bytes(row[0])
    return value


def mark_daily_shown(store: GameStore, variant: str, day: str) -> None:
    """Record that the cards of the daily deal of ``variant`` (canonical) on ``day``
    (YYYY-MM-DD) have been shown on this server; for good."""
    _tables(store)
    with store._tx() as conn:
        conn.execute("INSERT OR IGNORE INTO daily_shown (variant, day, shown) VALUES (?, ?, ?)",
                     (variant, day, time.time()))


def daily_was_shown(store: GameStore, variant: str, day: str) -> bool:
    """Has this server shown the cards of that daily deal (:func:`mark_daily_shown`)?"""
    _tables(store)
    with store._reading() as conn:
        row = conn.execute("SELECT 1 FROM daily_shown WHERE variant=? AND day=?",
                           (variant, day)).fetchone()
    return row is not None
