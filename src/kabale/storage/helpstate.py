"""The help's control kept in the game database, so that every server process of one
database (the web workers of `kabale serve --workers N`, and every `kabale serve` on one
PostgreSQL database) stops the help another one started, and reads the reviews another one
runs. No process calls another: each writes here what it decides and reads what the others
wrote (server.helpshare).

Five things, of schemas 5 and 6 (storage.migrate):

- ``games.help_until``: until when help may be in flight for a game (the latest deadline
  of a job asked for it; 0 once the process that ran it has none left). Every game request
  reads it with the game's owner (:func:`owner_help`, the read it makes anyway), so a move
  costs no more round trips when nothing is to be cancelled.
- ``help_marks``: cancellations, one row each: whose (``who``), which game, the position
  kept (``left``: the game's help at other positions than ``pos``, or at every one when it
  is null), ``started`` (a new game ``game``: the help for the player's other
  games), ``gone`` (the player deleted their data: all of it), why, which process wrote it
  (``origin``) and when (``stamp``). A process that runs jobs reads the marks of their players
  made since the jobs were asked; marks older than ``MARKS_KEPT`` seconds are deleted.
- ``help_reviews``: each review of a finished game, by game id: its player, state
  (``running``, ``done``, ``failed``), progress, the result (JSON) once done, the error and
  its code once failed, when a page last asked about it (``asked``) and until when the
  process running it may take (``until``: a running row past it is a review whose process
  stopped).
- ``help_jobs`` (schema 6): each player's jobs in flight, one row per job and process
  (``who``, ``job``: a keyed digest of the job's key, so a job asked through two processes
  is one job; ``origin``; its kind, lane, game and position digest; ``expires``: the job's
  deadline). :func:`take_job` counts the player's jobs and adds one in one transaction, so
  the bound per player holds across processes; a process deletes its row when the player
  no longer waits for the job (:func:`job_over`), a cancellation mark deletes the rows of
  the jobs it stops (:func:`marked_jobs_over`), and a row past ``expires`` (its process
  killed) counts for nothing and is swept.
- ``help_answers`` (schema 6): the answers of the kinds of help that are the same for
  everyone at one seen position of one deal (hints, win chances), by a keyed digest of
  their key (``name``), as JSON, kept ``ANSWERS_KEPT`` seconds: a process answers from here
  what another one worked out.

A player is named by ``who``: an HMAC of the player's id under a secret of the database
(storage.secret, ``help``), as the rate limits name theirs; no token is written. Nothing
here holds a card: a position is a digest of the player's own moves, and a review row is
read only through its game's routes, which answer its owner alone.

The servers' clocks (``time.time()``) must agree to within a second or so (NTP): a mark
applies to the jobs asked before it, by its time stamp.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kabale.storage.db import GameStore

#: seconds a cancellation mark is kept (longer than any job's deadline)
MARKS_KEPT = 600.0
#: seconds a finished review (done or failed) is kept after its last change
REVIEWS_KEPT = 3600.0
#: seconds a shared answer is kept after it was worked out
ANSWERS_KEPT = 3600.0
SCOPES = ("left", "started", "gone")
#: the first key of PostgreSQL's advisory locks (two int4 keys) that put the requests of one
#: player for a job in order, the second a number of the player's ``who``
JOBS_LOCK = 0x6B61_6A62


@dataclass(frozen=True)
class Mark:
    """One cancellation (module docstring)."""

    who: str
    game: str
    position: str | None
    scope: str
    why: str
    origin: str
    stamp: float


def who_of(secret: bytes, player: str) -> str:
    """The name of ``player`` in these tables: a keyed digest, so that they name nobody."""
    return hmac.new(secret, f"help\0{player}".encode(), hashlib.sha256).hexdigest()[:32]


def position_digest(position: str) -> str:
    """A position (its moves) as the marks keep it: a digest of fixed length."""
    return hashlib.sha256(position.encode()).hexdigest()[:32]


def owner_help(store: GameStore, game_id: str) -> tuple[str, int, float] | None:
    """The player a game belongs to, its revision and its ``help_until`` (one read: what
    ``GameStore.owner`` reads, and one more column); None when there is no such game."""
    with store._reading() as conn:
        row = conn.execute("SELECT player, rev, help_until FROM games WHERE id=?",
                           (game_id,)).fetchone()
    return None if row is None else (str(row[0]), int(row[1]), float(row[2] or 0.0))


def help_asked(store: GameStore, game_id: str, until: float) -> None:
    """Help is asked for ``game_id`` until ``until`` (a time stamp) at the latest."""
    with store._reading() as conn:
        conn.execute("UPDATE games SET help_until=? WHERE id=? AND help_until<?",
                     (until, game_id, until))


def help_over(store: GameStore, game_id: str, until: float) -> None:
    """The help asked for ``game_id`` until ``until`` is over: the game has none in flight
    unless a later deadline was written since (by another process)."""
    with store._reading() as conn:
        conn.execute("UPDATE games SET help_until=0 WHERE id=? AND help_until<=?",
                     (game_id, until))


def add_mark(store: GameStore, mark: Mark) -> None:
    """Write a cancellation (module docstring)."""
    with store._reading() as conn:
        conn.execute("INSERT INTO help_marks (who, game, pos, scope, why, origin, stamp)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (mark.who, mark.game, mark.position, mark.scope, mark.why[:200],
                      mark.origin, mark.stamp))


def marks_since(store: GameStore, whos: Sequence[str], since: float,
                origin: str = "") -> list[Mark]:
    """The marks of the players ``whos`` made at ``since`` or later, but those ``origin``
    wrote (a process knows its own), oldest first."""
    if not whos:
        return []
    names = sorted(set(whos))
    marks = ", ".join("?" for _ in names)
    with store._reading() as conn:
        rows = conn.execute("SELECT who, game, pos, scope, why, origin, stamp FROM"
                            f" help_marks WHERE who IN ({marks}) AND stamp>=? AND origin<>?"
                            " ORDER BY stamp", (*names, since, origin)).fetchall()
    return [Mark(str(r[0]), str(r[1]), None if r[2] is None else str(r[2]), str(r[3]),
                 str(r[4]), str(r[5]), float(r[6])) for r in rows]


def forget_old(store: GameStore, now: float | None = None) -> int:
    """Delete the marks older than MARKS_KEPT, the jobs in flight past their deadline, the
    answers past theirs, and the finished reviews (or those of a stopped process) older
    than REVIEWS_KEPT; returns how many rows."""
    now = time.time() if now is None else now
    with store._reading() as conn:
        gone = conn.execute("DELETE FROM help_marks WHERE stamp<?", (now - MARKS_KEPT,)).rowcount
        gone += conn.execute("DELETE FROM help_jobs WHERE expires<?", (now,)).rowcount
        gone += conn.execute("DELETE FROM help_answers WHERE expires<?", (now,)).rowcount
        gone += conn.execute("DELETE FROM help_reviews WHERE updated<? AND"
                             " (state<>'running' OR until<?)",
                             (now - REVIEWS_KEPT, now)).rowcount
    return int(gone)


# -------------------------------------------------------------------------------- reviews

def claim_review(store: GameStore, game_id: str, who: str, total: int, until: float,
                 now: float | None = None) -> bool:
    """Make ``game_id``'s review row a new running one of ``who`` (``total`` positions, its
    process taking until ``until``), unless one is running (within its ``until``) or done:
    True when this call claimed it, for every process together."""
    now = time.time() if now is None else now
    with store._reading() as conn:
        claimed = conn.execute(
            "INSERT INTO help_reviews (game, who, state, done, total, result, error, code,"
            " asked, until, updated) VALUES (?, ?, 'running', 0, ?, NULL, NULL, NULL, ?, ?, ?)"
            " ON CONFLICT (game) DO UPDATE SET who=excluded.who, state='running', done=0,"
            " total=excluded.total, result=NULL, error=NULL, code=NULL,"
            " asked=excluded.asked, until=excluded.until, updated=excluded.updated"
            " WHERE help_reviews.state='failed' OR (help_reviews.state='running'"
            " AND help_reviews.until<excluded.asked)",
            (game_id, who, total, now, until, now)).rowcount
    return bool(claimed)


def review_progress(store: GameStore, game_id: str, done: int, total: int) -> None:
    """A running review's progress: ``done`` of ``total`` positions."""
    with store._reading() as conn:
        conn.execute("UPDATE help_reviews SET done=?, total=?, updated=? WHERE game=? AND"
                     " state='running'", (done, total, time.time(), game_id))


def review_ended(store: GameStore, game_id: str, result: Any = None, error: str | None = None,
                 code: str | None = None) -> None:
    """A running review ended: ``result`` (JSON-safe) when it is done, else ``error`` and
    ``code``. A row deleted meanwhile (its player's data) stays deleted."""
    with store._reading() as conn:
        if error is None:
            conn.execute("UPDATE help_reviews SET state='done', done=total, result=?,"
                         " updated=? WHERE game=? AND state='running'",
                         (json.dumps(result), time.time(), game_id))
        else:
            conn.execute("UPDATE help_reviews SET state='failed', error=?, code=?, updated=?"
                         " WHERE game=? AND state='running'",
                         (error[:500], code, time.time(), game_id))


def read_review(store: GameStore, game_id: str, now: float | None = None
                ) -> dict[str, Any] | None:
    """The review of ``game_id`` as a poll answers it (``state``, ``done``, ``total``,
    ``review``, ``error``, ``code``), its ``asked`` stamped ``now`` (asking keeps it going);
    None when there is none. A running row past its ``until`` is a review whose process
    stopped: failed, ``worker_lost``."""
    now = time.time() if now is None else now
    with store._reading() as conn:
        conn.execute("UPDATE help_reviews SET asked=? WHERE game=? AND asked<?",
                     (now, game_id, now))
        row = conn.execute("SELECT state, done, total, result, error, code, until FROM"
                           " help_reviews WHERE game=?", (game_id,)).fetchone()
    if row is None:
        return None
    state, error, code = str(row[0]), row[4], row[5]
    if state == "running" and float(row[6]) < now:
        state, error, code = ("failed", "the server process running this review stopped; "
                              "ask for it again", "worker_lost")
    result = json.loads(row[3]) if state == "done" and row[3] is not None else None
    return {"state": state, "done": int(row[1]), "total": int(row[2]), "review": result,
            "error": error, "code": code}


def review_asked(store: GameStore, game_id: str) -> float:
    """When a page last asked about ``game_id``'s review (a time stamp; 0.0 for none)."""
    with store._reading() as conn:
        row = conn.execute("SELECT asked FROM help_reviews WHERE game=?",
                           (game_id,)).fetchone()
    return 0.0 if row is None else float(row[0])


def running_reviews(store: GameStore, who: str) -> list[str]:
    """The games whose review ``who`` has running (by any process)."""
    now = time.time()
    with store._reading() as conn:
        rows = conn.execute("SELECT game FROM help_reviews WHERE who=? AND state='running'"
                            " AND until>=?", (who, now)).fetchall()
    return [str(row[0]) for row in rows]


def forget_reviews(store: GameStore, who: str) -> int:
    """Delete every review row of ``who`` (who deleted their data); how many."""
    with store._reading() as conn:
        removed: int = conn.execute("DELETE FROM help_reviews WHERE who=?", (who,)).rowcount
    return removed


# -------------------------------------------------------------------------------- jobs

def take_job(store: GameStore, who: str, job: str, kind: str, lane: str, game: str,
             pos: str, origin: str, expires: float, most: int,
             most_of_kind: int | None = None, now: float | None = None) -> str:
    """Count ``job`` (a job of ``kind`` in ``lane``, for ``game`` at position digest
    ``pos``, until ``expires``) as one of ``who``'s jobs in flight, asked through the
    process ``origin``, unless ``who`` has ``most`` other jobs in flight, or
    ``most_of_kind`` of its kind, in every process together (rows past their ``expires``
    count for nothing). A job already counted (the same ``job`` through any process) is
    not counted twice. The count and the write are one transaction, in order with every
    other process's (SQLite's write lock; on PostgreSQL an advisory lock of the player).
    Returns "" when counted, else "all" or "kind": the bound it would pass."""
    now = time.time() if now is None else now
    with store._tx() as conn:
        if store.remote:
            number = int.from_bytes(hashlib.sha256(who.encode()).digest()[:4], "big",
                                    signed=True)
            conn.execute("SELECT pg_advisory_xact_lock(CAST(? AS integer),"
                         " CAST(? AS integer))", (JOBS_LOCK, number))
        rows = conn.execute("SELECT DISTINCT job, kind FROM help_jobs WHERE who=? AND job<>?"
                            " AND expires>=?", (who, job, now)).fetchall()
        if len(rows) >= most:
            return "all"
        if most_of_kind is not None and sum(str(r[1]) == kind for r in rows) >= most_of_kind:
            return "kind"
        conn.execute("INSERT INTO help_jobs (who, job, origin, kind, lane, game, pos, expires)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (who, job, origin) DO"
                     " UPDATE SET expires=excluded.expires, game=excluded.game,"
                     " pos=excluded.pos",
                     (who, job, origin, kind, lane, game, pos, expires))
    return ""


def job_over(store: GameStore, who: str, job: str, origin: str) -> None:
    """``who`` no longer waits for ``job`` in the process ``origin``."""
    with store._reading() as conn:
        conn.execute("DELETE FROM help_jobs WHERE who=? AND job=? AND origin=?",
                     (who, job, origin))


def jobs_in_flight(store: GameStore, who: str, now: float | None = None) -> int:
    """How many jobs ``who`` has in flight in every process together."""
    now = time.time() if now is None else now
    with store._reading() as conn:
        row = conn.execute("SELECT COUNT(DISTINCT job) FROM help_jobs WHERE who=? AND"
                           " expires>=?", (who, now)).fetchone()
    return int(row[0])


def marked_jobs_over(store: GameStore, mark: Mark, lanes: Sequence[str]) -> int:
    """Delete the rows of the jobs ``mark`` stops (server.helpshare.HelpControl.apply says
    which: ``left`` its game's at other positions than its own, or at every one; ``started``
    those in ``lanes`` of the player's other games; ``gone`` all of the player's), in every
    process: they count for nothing from now on, though their process stops them within
    its next read of the marks. Returns how many rows."""
    with store._reading() as conn:
        if mark.scope == "gone":
            cursor = conn.execute("DELETE FROM help_jobs WHERE who=?", (mark.who,))
        elif mark.scope == "started":
            names = ", ".join("?" for _ in lanes)
            cursor = conn.execute(f"DELETE FROM help_jobs WHERE who=? AND game<>? AND lane IN"
                                  f" ({names})", (mark.who, mark.game, *lanes))
        elif mark.position is None:
            cursor = conn.execute("DELETE FROM help_jobs WHERE who=? AND game=?",
                                  (mark.who, mark.game))
        else:
            cursor = conn.execute("DELETE FROM help_jobs WHERE who=? AND game=? AND pos<>?",
                                  (mark.who, mark.game, mark.position))
        removed: int = cursor.rowcount
    return removed


# -------------------------------------------------------------------------------- answers

def keep_answer(store: GameStore, name: str, kind: str, answer: str, expires: float) -> None:
    """Keep the answer ``answer`` (JSON) of the help named ``name`` (of ``kind``) until
    ``expires`` for every process."""
    with store._reading() as conn:
        conn.execute("INSERT INTO help_answers (name, kind, answer, expires) VALUES"
                     " (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET answer=excluded.answer,"
                     " expires=excluded.expires", (name, kind, answer, expires))


def read_answer(store: GameStore, name: str, now: float | None = None) -> str | None:
    """The answer kept under ``name`` (JSON), None when none is (or it expired)."""
    now = time.time() if now is None else now
    with store._reading() as conn:
        row = conn.execute("SELECT answer FROM help_answers WHERE name=? AND expires>=?",
                           (name, now)).fetchone()
    return None if row is None else str(row[0])
