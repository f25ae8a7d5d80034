"""Help control shared by every web process of one database (`kabale serve --workers N`,
or several `kabale serve` on one PostgreSQL database), through the database alone
(storage.helpstate): no process calls another.

Each web process runs the jobs asked through it (server.jobservice). What another process
is asked to stop reaches them so:

- a job asked for a game writes the game's ``help_until`` (its deadline), and clears it when
  the process has no job of the game left; every game request reads it with the game's
  owner (the read it makes anyway), so a move for a game without help in flight costs
  nothing more;
- a move, undo, redo or giving up of a game whose ``help_until`` is ahead, a new game,
  ``DELETE /api/games/{id}/help`` and deleting the player write a cancellation mark (whose,
  which game, the position kept, why);
- a process with jobs in flight reads, every ``POLL_SECONDS``, the marks of their players
  made since those jobs were asked, and stops the jobs they name as it would stop its own
  (its local worker killed, its Dask future cancelled).

A player's jobs in flight are counted in every process together (``help_jobs``): a job
that no process counts for the player yet is counted before it starts (:meth:`HelpControl
.admit`, one transaction: 429 ``too_many`` past the bound, as in one process), its row
deleted when the player no longer waits for it here, or by a mark that stops it; a
process killed leaves rows that count until the job's deadline. A job asked through two
processes (the same key: the same help at the same seen position) is counted once.

The answers of hints and win chances (the same for every player at one seen position of
one deal) are kept in the database (``help_answers``) as well as in each process's own
cache: asked through another process, they are read there instead of worked out again.

A review's progress, result or failure is written to its row as it comes, so a poll
answered by any process reads it, and keeps it going (``asked``). The process running a
review cancels it after ``LEASE`` seconds without a poll through any process.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from kabale.server.jobs import BusyError
from kabale.server.jobservice import STARTED_LANES, Job, JobService, Owner, too_many
from kabale.storage import helpstate
from kabale.storage.db import GameStore, StorageError
from kabale.storage.helpstate import Mark
from kabale.storage.secret import server_secret

T = TypeVar("T")

#: seconds between two reads of the marks while this process has jobs in flight
POLL_SECONDS = 0.5
#: seconds between two sweeps of the old marks and reviews
SWEEP_SECONDS = 60.0
#: seconds between two progress writes of one review (its end is always written)
PROGRESS_SECONDS = 0.5
log = logging.getLogger("kabale.server")


class HelpControl:
    """One web process's side of the shared help control (module docstring). Its database
    calls run in order on a thread of its own, off the event loop."""

    def __init__(self, store: GameStore, poll: float = POLL_SECONDS) -> None:
        self.store = store
        self.poll = poll
        #: this process's name on its marks (it acts on its own at once)
        self.origin = secrets.token_hex(8)
        self.service: JobService | None = None
        #: called with a player's ``who`` when another process says they deleted their data
        self.on_gone: list[Callable[[str], None]] = []
        self._secret: bytes | None = None
        self._names: dict[str, str] = {}
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="kabale-help")
        self._watching: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._swept = 0.0

    def attach(self, service: JobService) -> None:
        """Share ``service``'s jobs (server.jobservice.Control)."""
        self.service = service
        service.control = self

    # ------------------------------------------------------------------ names

    def who(self, player: str) -> str:
        """The player's name in the shared tables (storage.helpstate.who_of); the first call
        may read the database's secret."""
        found = self._names.get(player)
        if found is None:
            if self._secret is None:
                self._secret = server_secret(self.store, "help")
            found = self._names[player] = helpstate.who_of(self._secret, player)
            if len(self._names) > 100_000:
                self._names.clear()
        return found

    def job_name(self, name: Hashable) -> str:
        """A job's name (its key, or its id) in the shared tables: a keyed digest, the same
        in every process for the same key (a key is a tuple of text: its repr is)."""
        if self._secret is None:
            self._secret = server_secret(self.store, "help")
        return hmac.new(self._secret, f"job\0{name!r}".encode(), hashlib.sha256
                        ).hexdigest()[:32]

    # ------------------------------------------------------------------ the thread

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the control's thread, in order with its other calls."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    def _later(self, fn: Callable[..., Any], *args: Any) -> None:
        """``fn(*args)`` on the control's thread, nobody waiting; a database that cannot be
        used is logged, not raised (the help's own deadline still stops its jobs)."""
        def guarded() -> None:
            try:
                fn(*args)
            except StorageError as exc:
                log.warning("help control: %s", exc)

        try:
            future = asyncio.get_running_loop().run_in_executor(self._thread, guarded)
        except RuntimeError:  # the control was closed (the server is stopping)
            return
        self._tasks.add(future)
        future.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ jobs (Control)

    def asked(self, owner: Owner, until: float) -> None:
        """An owner asked for a job of their game until ``until``: the game's help_until,
        and the marks are watched while jobs are in flight."""
        self._later(helpstate.help_asked, self.store, owner.game_id, until)
        if self._watching is None or self._watching.done():
            self._watching = asyncio.get_running_loop().create_task(self._watch())

    def released(self, owner: Owner, until: float) -> None:
        """No job here is owned for the owner's game any more."""
        self._later(helpstate.help_over, self.store, owner.game_id, until)

    async def admit(self, owner: Owner, kind: str, lane: str, name: Hashable,
                    until: float, most: int, most_of_kind: int | None) -> None:
        """Count the job ``name`` of ``kind`` as one of the owner's player's jobs in flight in
        every process (storage.helpstate.take_job) until ``until``: TooManyJobsError past
        ``most`` in all or ``most_of_kind`` of its kind, BusyError (503, with the reason)
        when the database cannot be used."""
        def take() -> str:
            return helpstate.take_job(
                self.store, self.who(owner.player), self.job_name(name), kind, lane,
                owner.game_id, helpstate.position_digest(owner.position), self.origin,
                until, most, most_of_kind)

        try:
            over = await self.call(take)
        except StorageError as exc:
            raise BusyError(f"the help's bounds cannot be counted: {exc}") from None
        if over:
            raise too_many(most, kind, most_of_kind if over == "kind" else None)

    def freed(self, owner: Owner, name: Hashable) -> None:
        """The owner's player no longer waits for the job ``name`` here."""
        self._later(lambda: helpstate.job_over(self.store, self.who(owner.player),
                                               self.job_name(name), self.origin))

    # ------------------------------------------------------------------ answers

    async def answer(self, key: Hashable) -> str | None:
        """The answer (JSON) another process kept under ``key`` (server.advice), None when
        there is none or the database cannot be read (logged: the help is worked out)."""
        try:
            return await self.call(lambda: helpstate.read_answer(self.store,
                                                                 self.job_name(key)))
        except StorageError as exc:
            log.warning("help control: %s", exc)
            return None

    def keep_answer(self, key: Hashable, kind: str, answer: str) -> None:
        """Keep ``answer`` (JSON) under ``key`` for every process, ANSWERS_KEPT seconds."""
        self._later(lambda: helpstate.keep_answer(self.store, self.job_name(key), kind,
                                                  answer,
                                                  time.time() + helpstate.ANSWERS_KEPT))

    async def _watch(self) -> None:
        """Read the marks of the players of the jobs in flight every ``poll`` seconds, and
        stop what they name; ends when no job is in flight."""
        service = self.service
        while service is not None:
            await asyncio.sleep(self.poll)
            pairs = service.owned()
            if not pairs:
                return
            since = min(job.since.get(owner, 0.0) for job, owner in pairs)
            players = sorted({owner.player for _, owner in pairs})
            try:
                marks = await self.call(self._read, players, since)
            except StorageError as exc:
                log.warning("help control: %s", exc)
                continue
            for mark in marks:
                self.apply(mark)

    def _read(self, players: list[str], since: float) -> list[Mark]:
        found = helpstate.marks_since(self.store, [self.who(p) for p in players], since,
                                      self.origin)
        self._sweep()
        return found

    def _sweep(self) -> None:
        now = time.time()
        if now - self._swept >= SWEEP_SECONDS:
            self._swept = now
            helpstate.forget_old(self.store, now)

    def apply(self, mark: Mark) -> int:
        """Stop what ``mark`` names of the jobs here asked before it; how many stopped."""
        if mark.scope == "gone":
            for forget in self.on_gone:
                forget(mark.who)
        if self.service is None:
            return 0

        def which(job: Job, owner: Owner) -> bool:
            if self._names.get(owner.player) != mark.who \
                    or job.since.get(owner, mark.stamp + 1) > mark.stamp:
                return False
            if mark.scope == "gone":
                return True
            if mark.scope == "started":
                return job.lane in STARTED_LANES and owner.game_id != mark.game
            return owner.game_id == mark.game and (
                mark.position is None
                or helpstate.position_digest(owner.position) != mark.position)

        return self.service.drop(which, mark.why)

    # ------------------------------------------------------------------ marks

    async def mark(self, player: str, scope: str, game_id: str = "",
                   position: str | None = None, why: str = "") -> None:
        """Tell every other process to stop the help ``scope`` names (storage.helpstate):
        ``left`` ``game_id`` for ``position`` (None: every position), ``started``
        ``game_id``, or ``gone``; the jobs it stops count no more against the player's
        bound (storage.helpstate.marked_jobs_over). Written before it returns; a database
        that cannot be used is logged, not raised."""
        if not player:
            return
        stamp = time.time()

        def write() -> None:
            digest = None if position is None else helpstate.position_digest(position)
            mark = Mark(self.who(player), game_id, digest, scope, why, self.origin, stamp)
            helpstate.add_mark(self.store, mark)
            helpstate.marked_jobs_over(self.store, mark, STARTED_LANES)
            self._sweep()

        try:
            await self.call(write)
        except StorageError as exc:
            log.warning("help control: %s", exc)

    # ------------------------------------------------------------------ reviews

    async def claim_review(self, game_id: str, player: str, total: int, until: float
                           ) -> bool:
        """Claim ``game_id``'s review for this process (storage.helpstate.claim_review)."""
        return await self.call(lambda: helpstate.claim_review(
            self.store, game_id, self.who(player), total, until))

    async def running_reviews(self, player: str) -> list[str]:
        """The games whose review the player has running in any process."""
        return await self.call(lambda: helpstate.running_reviews(self.store,
                                                                 self.who(player)))

    async def read_review(self, game_id: str) -> dict[str, Any] | None:
        """The review row of ``game_id`` as a poll answers it; asking keeps it going."""
        return await self.call(helpstate.read_review, self.store, game_id)

    async def review_asked(self, game_id: str) -> float:
        """When a poll through any process last asked about ``game_id``'s review."""
        return await self.call(helpstate.review_asked, self.store, game_id)

    def review_progress(self, game_id: str, done: int, total: int) -> None:
        self._later(helpstate.review_progress, self.store, game_id, done, total)

    def review_ended(self, game_id: str, result: Any = None, error: str | None = None,
                     code: str | None = None) -> None:
        self._later(helpstate.review_ended, self.store, game_id, result, error, code)

    async def forget_reviews(self, player: str) -> None:
        """Delete the player's review rows (they deleted their data)."""
        try:
            await self.call(lambda: helpstate.forget_reviews(self.store, self.who(player)))
        except StorageError as exc:
            log.warning("help control: %s", exc)

    def close(self) -> None:
        """Stop watching; the writes already asked for are made first."""
        if self._watching is not None:
            with contextlib.suppress(RuntimeError):
                self._watching.cancel()
        self._thread.shutdown(wait=True)
