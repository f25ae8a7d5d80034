"""The server's secrets and the daily deals it has shown, kept in its game database.

Two small tables beside ``games`` in the same SQLite file, so that a copy of the file (a
backup, a move to another machine) carries them:

- ``secrets``: named random values made on first use (``os.urandom``, 32 bytes) and never
  changed. The daily deals' key (server.deals) is one: the daily deal is the same for every
  player of one server, and no player can compute it before the day is over.
- ``shown_daily`` (schema 3, storage.migrate): the daily deals (variant, day) whose cards a
  player has been shown: a game of the deal ended (its number shows, and the post-mortem
  turns it face up) or its number was revealed mid-game. That player's later game of such a
  deal starts assisted. It is kept per player, since on a site one player's finished daily
  game must not mark everyone else's as helped. Forgetting the statistics
  (``GameStore.reset_stats``) leaves this table alone, so it cannot wash a shown deal clean.
  (The server-wide ``daily_shown`` of schema 2 went to the local player on upgrading.)

A player's daily game is played on its own only while no other game of theirs of the deal
has been played (:func:`daily_played`): a game started after one was, or won after one
was played meanwhile, is assisted, and so off the leaderboards (storage.leaderboard).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from kabale.storage.db import LOCAL_PLAYER

if TYPE_CHECKING:
    from kabale.storage.db import GameStore

SECRET_BYTES = 32

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL,"
    " created REAL NOT NULL)",
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


def mark_daily_shown(store: GameStore, variant: str, day: str,
                     player: str = LOCAL_PLAYER) -> None:
    """Record that the cards of the daily deal of ``variant`` (canonical) on ``day``
    (YYYY-MM-DD) have been shown to ``player``; for good."""
    with store._tx() as conn:
        conn.execute("INSERT OR IGNORE INTO shown_daily (player, variant, day, shown)"
                     " VALUES (?, ?, ?, ?)", (player, variant, day, time.time()))


def daily_played(store: GameStore, variant: str, day: str, player: str = LOCAL_PLAYER,
                 besides: str = "") -> bool:
    """Has ``player`` a game of that daily deal, other than game ``besides``, that was ever
    changed (its revision is past 0: a move, even one taken back, may have turned a card
    face up)? Such a game showed them cards of the deal, so another game of it is not
    played on its own; a game only dealt (a second tap on the button) showed nothing."""
    with store._reading() as conn:
        row = conn.execute("SELECT 1 FROM games WHERE player=? AND variant=? AND daily=?"
                           " AND rev>0 AND id<>? LIMIT 1",
                           (player, variant, day, besides)).fetchone()
    return row is not None


def daily_was_shown(store: GameStore, variant: str, day: str,
                    player: str = LOCAL_PLAYER) -> bool:
    """Has ``player`` been shown the cards of that daily deal (:func:`mark_daily_shown`)?"""
    with store._reading() as conn:
        row = conn.execute("SELECT 1 FROM shown_daily WHERE player=? AND variant=? AND day=?",
                           (player, variant, day)).fetchone()
    return row is not None
