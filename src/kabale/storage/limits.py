"""Rate limits kept in the game database, so that every server process of one database
(the web workers of `kabale serve --workers N`, and every `kabale serve` on one PostgreSQL
database) counts a player's or an address's requests together.

Each limit is a bucket of ``rate`` requests a minute, of which ``rate`` may come at once
(a token bucket), kept as one row of ``rate_limits`` (schema 4, storage.migrate) by the
generic cell rate algorithm: the row holds the bucket's *theoretical arrival time* ``tat``,
the moment by which the bucket would be full again. A request at ``now`` is granted when
``tat - now <= burst`` (``burst`` = (rate - 1) x ``step``, ``step`` = 60 / rate seconds),
and then moves ``tat`` on by one ``step``; a refused one changes nothing, and waits
``tat - now - burst`` seconds. The decision and the change are one ``INSERT ... ON
CONFLICT DO UPDATE``, so two processes taking from one bucket at once are put in order by
the database: on PostgreSQL with ``RETURNING``, one round trip for every bucket of a
request; on SQLite (whose ``RETURNING`` is newer than some systems' SQLite) the rows are
read back in the same transaction. On PostgreSQL the table is UNLOGGED: a bucket is not
worth a disk flush, and a crash that forgets them only fills them up again.

A bucket is named by an HMAC of what it limits (a player's token, an address) under a secret
of the database (storage.secret, ``limits``): no address or token is written in clear, and a
copy of the database does not say whose requests were counted. A row whose ``tat`` is past
is a full bucket, the same as no row: :func:`forget_full` deletes them, so the table holds
only the buckets used in the last minute or so.

The servers' clocks (``time.time()``) must agree to within a second or so (NTP), as every
server writes times into the same rows.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kabale.storage.db import GameStore


# ``excluded.tat - excluded.step`` is the request's ``now``: every SET expression reads the
# row as it was, so ``granted`` and ``tat`` decide on the same old ``tat``.
_TAKE = """INSERT INTO rate_limits (bucket, tat, granted, step, burst) VALUES {rows}
ON CONFLICT (bucket) DO UPDATE SET
 granted = CASE WHEN rate_limits.tat - (excluded.tat - excluded.step) <= excluded.burst
           THEN 1 ELSE 0 END,
 tat = CASE WHEN rate_limits.tat - (excluded.tat - excluded.step) > excluded.burst
           THEN rate_limits.tat
       WHEN rate_limits.tat > excluded.tat - excluded.step
           THEN rate_limits.tat + excluded.step
       ELSE excluded.tat END,
 step = excluded.step, burst = excluded.burst
"""
_RETURNING = " RETURNING bucket, tat, granted, burst"


def bucket_name(secret: bytes, kind: str, who: str) -> str:
    """The row name of the ``kind`` bucket (games, moves, ...) of ``who`` (``p:`` and a
    token, ``a:`` and an address): a keyed digest, so that the table names nobody."""
    return hmac.new(secret, f"{kind}\0{who}".encode(), hashlib.sha256).hexdigest()[:32]


def take(store: GameStore, buckets: Sequence[tuple[str, int]],
         now: float | None = None) -> float:
    """Take one request from each of ``buckets`` (row name, requests a minute; a rate of 0
    or less is no limit), for every process of ``store`` together; 0.0 when every one had
    room, else the seconds until the fullest one has (a bucket with room is taken from
    either way). StorageError when the database cannot be used."""
    now = time.time() if now is None else now
    rows: list[tuple[str, float, int, float, float]] = []
    for name, rate in sorted(set(buckets)):  # one order for everyone: no deadlocks
        if rate > 0:
            step = 60.0 / rate
            rows.append((name, now + step, 1, step, (rate - 1) * step))
    if not rows:
        return 0.0
    sql = _TAKE.format(rows=", ".join(["(?, ?, ?, ?, ?)"] * len(rows)))
    args = [value for row in rows for value in row]
    if store.remote:  # one statement, atomic on its own
        with store._reading() as conn:
            answers = conn.execute(sql + _RETURNING, args).fetchall()
    else:
        with store._tx() as conn:
            conn.execute(sql, args)
            marks = ", ".join("?" for _ in rows)
            answers = conn.execute("SELECT bucket, tat, granted, burst FROM rate_limits"
                                   f" WHERE bucket IN ({marks})",
                                   [row[0] for row in rows]).fetchall()
    waits = [float(tat) - now - float(burst) for _, tat, granted, burst in answers
             if not granted]
    return max([0.0, *waits])


def forget_full(store: GameStore, now: float | None = None) -> int:
    """Delete the buckets that are full again (their rows say what no row says); returns
    how many."""
    now = time.time() if now is None else now
    with store._reading() as conn:
        removed: int = conn.execute("DELETE FROM rate_limits WHERE tat < ?", (now,)).rowcount
    return removed
