"""Help as jobs: each request for help (a hint, the win chance, the bot's move, a post-mortem,
a search for a deal) is a :class:`Job` with an id, a deadline and a priority, run by an
engine that is not the web process, with limits that keep it fair between players.

Two engines (backends), chosen by one setting (``engine_setting``):

- ``local`` (the default: one machine, nothing to install): the worker processes of
  :mod:`kabale.server.jobs`, in three lanes (``play`` for what a player waits for during a
  game, ``heavy`` for the long jobs, ``review`` for the reviews of finished games, its
  worker niced), each job under a wall-clock cap that kills its worker.
- ``dask``: a Dask distributed scheduler at an address (``KABALE_ADVICE_SCHEDULER`` or
  ``--scheduler``), whose workers (``dask worker ADDRESS --nthreads 1``, kabale installed)
  run the jobs: adding a machine with workers adds capacity. Dask is the documented engine
  because kabale already uses it for analysis (``kabale.analysis.engines``; it is in the
  ``test`` extra), so a site runs one engine for both; it gives priorities on submit,
  cancellation, and reports a job whose worker died (``KilledWorker``) after its retries.
  Ray would do as well and is left out: a second engine to install and test for nothing
  the site needs now.

Fairness and limits, the same on both engines (this module, not the engine):

- each player has at most ``per_player`` jobs in flight, and of some kinds fewer
  (``PER_PLAYER_KIND``: one review); one more is refused with :class:`TooManyJobsError`
  (429 with Retry-After);
- a request for a job already in flight under the same key (the same kind of help for the
  same seen position of the same deal at the same effort: ``advice.view_key`` and
  ``advice.deal_key``) waits for that job instead of starting another, whichever player
  asked first (the answer depends only on what both have seen);
- each job has owners (player, game, position); when a player leaves the position (moves,
  undoes, redoes, gives up, starts another game, asks to cancel, or stops waiting) they
  stop owning it, and a job nobody owns any more is cancelled: on the local engine its
  worker is killed (or it never starts), on Dask the future is cancelled and a worker
  running it restarted, so its CPU is free;
- each lane takes a bounded number of jobs in flight; one more is refused with
  :class:`~kabale.server.jobs.BusyError` (503 with Retry-After);
- a job past its deadline is stopped (its worker killed or restarted) and answered
  :class:`~kabale.server.jobs.JobTimeoutError`;
- a job whose worker died before it answered (kill -9, out of memory) is run once more
  within its deadline, then answered :class:`~kabale.server.jobs.JobLostError`; every
  other job carries on;
- a player who deletes their data (:meth:`JobService.gone`) stops owning every job, and
  those nobody else owns are cancelled;
- with a :class:`Control` (server.helpshare: several web processes on one database), each
  owner asked and released is told to it, and it cancels here what another process was
  asked to cancel (:meth:`JobService.owned`, :meth:`JobService.drop`); a job asked with
  :meth:`JobService.begin` (as :meth:`JobService.run` does) is first counted against the
  player's bound in every process together (``Control.admit``), and told over
  (``Control.freed``) when the player no longer waits for it here.

A job may report its progress (a review's positions): its function is called with a
``progress(done, total)`` keyword argument, whose calls reach the job's ``progress`` in the
web process while it runs: over the worker's pipe on the local engine, as Dask events
(``Worker.log_event`` on one topic, ``jobdask.PROGRESS_TOPIC``, that the client subscribes to) on
Dask.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from kabale.core.errors import KabaleError
from kabale.server.jobs import BusyError, JobLostError, JobTimeoutError, Lane, Progress

__all__ = ["Job", "JobCancelledError", "JobService", "LocalBackend", "Owner",
           "TooManyJobsError", "engine_setting"]

T = TypeVar("T")

#: the jobs in flight that one player may have at once (a hint, the chance meter and one
#: more: what the page asks for at most at once)
PER_PLAYER = 3
#: Dask's priority of each kind of job (higher runs first): what a player waits for during
#: a game before what runs in the background or after it
#: a game; a review, which nobody waits for, after everything a player does
PRIORITY: Mapping[str, int] = {"hint": 10, "chance": 10, "bot": 10, "coach": 10,
                               "postmortem": 0, "daily": 0, "search": 0, "review": -10}
#: the lane of each kind of job (the local engine's worker processes; a bound on Dask)
LANES: Mapping[str, str] = {"hint": "play", "chance": "play", "bot": "play",
                            "coach": "play", "review": "review"}
#: the lanes whose jobs a new game stops for the player's other games (the help in play
#: and the reviews; not the post-mortems and searches of the heavy lane)
STARTED_LANES = ("play", "review")
#: kinds of which a player may have fewer jobs in flight than ``per_player``
PER_PLAYER_KIND: Mapping[str, int] = {"review": 1}
#: the niceness of the local review lane's worker: on a busy machine a review yields the CPU
#: to the hints, chances and post-mortems a player waits for
REVIEW_NICE = 10
#: seconds a refused request is told to wait before asking again (Retry-After)
RETRY_AFTER: Mapping[str, int] = {"busy": 2, "too_many": 1, "worker_lost": 1}
#: the environment variables of the engine setting (the CLI's flags win over them)
ENGINE_ENV, SCHEDULER_ENV = "KABALE_ADVICE_ENGINE", "KABALE_ADVICE_SCHEDULER"
ENGINES = ("local", "dask")


class TooManyJobsError(BusyError):
    """The player has as many jobs in flight as a player may; the request was not queued."""


class JobCancelledError(KabaleError):
    """The job was cancelled before it answered: its position was left, or its player
    asked to cancel it."""


def engine_setting(engine: str | None = None, scheduler: str | None = None,
                   env: Mapping[str, str] | None = None) -> tuple[str, str | None]:
    """The engine (``local`` or ``dask``) and the scheduler's address: the arguments, else
    ``KABALE_ADVICE_ENGINE`` and ``KABALE_ADVICE_SCHEDULER``; a scheduler alone means dask.
    KabaleError naming the setting for an unknown engine or dask without an address."""
    env = os.environ if env is None else env
    scheduler = scheduler or env.get(SCHEDULER_ENV) or None
    engine = engine or env.get(ENGINE_ENV) or ("dask" if scheduler else "local")
    if engine not in ENGINES:
        raise KabaleError(f"advice engine {engine!r} is unknown; valid: {', '.join(ENGINES)}")
    if engine == "dask" and not scheduler:
        raise KabaleError(f"the dask advice engine needs the scheduler's address: "
                          f"--scheduler tcp://HOST:8786 or {SCHEDULER_ENV}")
    return engine, scheduler if engine == "dask" else None


@dataclass(frozen=True)
class Owner:
    """Who wants a job's answer: a player, in a game, at a position (its moves)."""

    player: str
    game_id: str
    position: str


@dataclass
class Job:
    """One request for help. ``seconds``: its deadline after it was made; ``key``: what
    makes two requests the same job (None: never shared); ``owners``: who waits for it
    (with how many requests each); a job made with no owner runs in the background and is
    only cancelled by its deadline."""

    id: str
    kind: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    seconds: float
    priority: int
    lane: str
    key: Hashable | None = None
    affinity: str | None = None
    background: bool = False
    owners: dict[Owner, int] = field(default_factory=dict)
    deadline: float = 0.0
    cancelled: str = ""
    attempts: int = 0
    task: asyncio.Task[Any] | None = None
    progress: Progress | None = None
    #: when each owner first asked (monotonic): what ``jobs_of`` tells them of the job
    asked: dict[Owner, float] = field(default_factory=dict)
    #: when each owner first asked (a time stamp): a cancellation made by another process
    #: applies to the owners that asked before it (server.helpshare)
    since: dict[Owner, float] = field(default_factory=dict)

    #: the deadline as a time stamp (``time.time()``'s clock), for other processes
    until: float = 0.0


def too_many(per_player: int, kind: str, most: int | None = None) -> TooManyJobsError:
    """The refusal of a job past the player's bound: ``per_player`` jobs in all, or
    ``most`` of ``kind`` when given."""
    if most is None:
        return TooManyJobsError(f"you have {per_player} requests for help being worked out;"
                                " wait for one, or cancel one")
    return TooManyJobsError(f"you have {most} {kind} job(s) being worked out; wait for it, "
                            "or cancel it")


def _name(job: Job) -> Hashable:
    """What names ``job`` for a Control: its key (the same job in every process), else its
    id."""
    return job.key if job.key is not None else job.id


class Control(Protocol):
    """What a job service tells the processes it shares its players with
    (server.helpshare.HelpControl): an owner asked for a job (until its deadline, a time
    stamp), and the last job of an owner's game in this service was let go; ``admit``
    counts a job named ``name`` (its key, or its id) against the owner's bound in every
    process, raising TooManyJobsError past it (or BusyError when it cannot count), and
    ``freed`` says that the owner's player no longer waits for it here."""

    def asked(self, owner: Owner, until: float) -> None: ...

    def released(self, owner: Owner, until: float) -> None: ...

    async def admit(self, owner: Owner, kind: str, lane: str, name: Hashable,
                    until: float, most: int, most_of_kind: int | None) -> None: ...

    def freed(self, owner: Owner, name: Hashable) -> None: ...


class Backend(Protocol):
    """An engine that runs a job: ``run`` answers its result or raises JobTimeoutError past
    ``seconds``, JobLostError when its worker died, BusyError when the engine cannot take
    it; cancelling ``run`` stops the job and frees its CPU."""

    name: str

    async def run(self, job: Job, seconds: float) -> Any: ...

    async def workers(self) -> int: ...

    async def aclose(self) -> None: ...


class LocalBackend:
    """The worker processes of this machine, in the lanes of server.jobs: ``play``,
    ``heavy``, and ``review`` (its workers niced by REVIEW_NICE)."""

    name = "local"

    def __init__(self, workers: int = 2, queue: int = 6, heavy_workers: int = 2,
                 heavy_queue: int = 4, review_workers: int = 1, review_queue: int = 4
                 ) -> None:
        self.lanes = {"play": Lane("play", workers, queue),
                      "heavy": Lane("heavy", heavy_workers, heavy_queue),
                      "review": Lane("review", review_workers, review_queue, REVIEW_NICE)}

    async def run(self, job: Job, seconds: float) -> Any:
        return await self.lanes[job.lane].run(job.fn, *job.args, seconds=seconds,
                                              affinity=job.affinity, progress=job.progress)

    async def workers(self) -> int:
        return sum(len(lane.pids()) for lane in self.lanes.values())

    async def aclose(self) -> None:
        self.close()

    def close(self) -> None:
        for lane in self.lanes.values():
            lane.close()


class JobService:
    """Runs help as jobs on a backend, with the limits of the module docstring."""

    def __init__(self, backend: Backend, limits: Mapping[str, int],
                 per_player: int = PER_PLAYER) -> None:
        self.backend = backend
        self.limits = dict(limits)
        self.per_player = per_player
        self._jobs: dict[str, Job] = {}
        self._shared: dict[Hashable, Job] = {}
        self.done = 0
        #: told of the owners asking and leaving (several processes on one database)
        self.control: Control | None = None

    # ------------------------------------------------------------------ asking

    async def run(self, kind: str, fn: Callable[..., T], *args: Any, seconds: float,
                  owner: Owner | None = None, key: Hashable | None = None,
                  affinity: str | None = None, progress: Progress | None = None) -> T:
        """``fn(*args)`` as a job of ``kind`` within ``seconds``, for ``owner`` (None: a
        background job); a job in flight under ``key`` is shared. Raises what the module
        docstring says, and JobCancelledError when the job was cancelled. With
        ``progress``, ``fn`` gets a ``progress`` keyword argument (module docstring)."""
        job = await self.begin(kind, fn, *args, seconds=seconds, owner=owner, key=key,
                               affinity=affinity, progress=progress)
        result: T = await self.wait(job, owner)
        return result

    async def begin(self, kind: str, fn: Callable[..., Any], *args: Any, seconds: float,
                    owner: Owner | None = None, key: Hashable | None = None,
                    affinity: str | None = None, progress: Progress | None = None) -> Job:
        """:meth:`start`, and with a control (several web processes on one database) a job
        this service does not already count for the owner's player is first counted in
        every process together (``Control.admit``: one round trip to the database), so the
        bound per player holds across processes. Without a control it is :meth:`start`,
        with nothing more."""
        control = self.control
        if control is None or owner is None:
            return self.start(kind, fn, *args, seconds=seconds, owner=owner, key=key,
                              affinity=affinity, progress=progress)
        known = self._shared.get(key) if key is not None else None
        if known is not None and any(o.player == owner.player for o in known.owners):
            return self.start(kind, fn, *args, seconds=seconds, owner=owner, key=key,
                              affinity=affinity, progress=progress)
        lane = LANES.get(kind, "heavy")
        self._check(kind, lane, owner)  # refused here first: no round trip for it
        job_id = secrets.token_hex(8)
        name = key if key is not None else job_id
        until = time.time() + seconds  # the most it is waited for, whichever job answers
        await control.admit(owner, kind, lane, name, until, self.per_player,
                            PER_PLAYER_KIND.get(kind))
        try:
            return self.start(kind, fn, *args, seconds=seconds, owner=owner, key=key,
                              affinity=affinity, progress=progress, job_id=job_id,
                              until=until)
        except BaseException:
            control.freed(owner, name)
            raise

    def start(self, kind: str, fn: Callable[..., Any], *args: Any, seconds: float,
              owner: Owner | None = None, key: Hashable | None = None,
              affinity: str | None = None, progress: Progress | None = None,
              job_id: str | None = None, until: float | None = None) -> Job:
        """Start ``fn(*args)`` as a job (or find the one in flight under ``key``), owned by
        ``owner``; refusals (TooManyJobsError, BusyError) are raised here, at once. The
        caller must then :meth:`wait` for it with the same ``owner``. ``job_id`` and
        ``until`` (a time stamp) name a new job and its deadline (:meth:`begin`)."""
        job = self._shared.get(key) if key is not None else None
        if job is None:
            job = self._start(kind, fn, args, seconds, owner, key, affinity, job_id, until)
            job.progress = progress
        if owner is not None:
            job.owners[owner] = job.owners.get(owner, 0) + 1
            job.asked.setdefault(owner, time.monotonic())
            if owner not in job.since:
                job.since[owner] = time.time()
                if self.control is not None:
                    self.control.asked(owner, job.until)
        return job

    async def wait(self, job: Job, owner: Owner | None) -> Any:
        """The answer of ``job`` (from :meth:`start` with ``owner``); cancelling the wait
        stops ``owner`` owning it, which cancels it if nobody else does."""
        assert job.task is not None
        try:
            result = await asyncio.shield(job.task)
        except asyncio.CancelledError:
            # this request stopped waiting (its client went): it no longer owns the job
            if owner is not None:
                self._release(job, owner, "its player stopped waiting")
            raise
        except BaseException:
            if owner is not None:
                self._release(job, owner, "")
            raise
        if owner is not None:
            self._release(job, owner, "")
        return result

    def _release(self, job: Job, owner: Owner, why: str) -> None:
        """One request of ``owner`` stops waiting for ``job``; when it was their last, they
        stop owning it (and with ``why``, a job nobody owns is cancelled)."""
        count = job.owners.get(owner, 0) - 1
        if count > 0:
            job.owners[owner] = count
        elif owner in job.owners:
            if why:
                self._disown(job, owner, why)
            else:
                del job.owners[owner]
                job.asked.pop(owner, None)
                self._let_go(job, owner)

    def _start(self, kind: str, fn: Callable[..., Any], args: tuple[Any, ...],
               seconds: float, owner: Owner | None, key: Hashable | None,
               affinity: str | None, job_id: str | None = None,
               until: float | None = None) -> Job:
        lane = LANES.get(kind, "heavy")
        self._check(kind, lane, owner)
        now = time.time()
        until = now + seconds if until is None else until
        job = Job(job_id or secrets.token_hex(8), kind, fn, args, seconds,
                  PRIORITY.get(kind, 0), lane, key, affinity, background=owner is None,
                  deadline=time.monotonic() + (until - now), until=until)
        self._jobs[job.id] = job
        if key is not None:
            self._shared[key] = job
        job.task = asyncio.get_running_loop().create_task(self._drive(job))
        job.task.add_done_callback(lambda _: self._forget(job))
        return job

    def _check(self, kind: str, lane: str, owner: Owner | None) -> None:
        """Refuse a new job of ``kind`` for ``owner`` past their bound in this service
        (TooManyJobsError) or past ``lane``'s (BusyError)."""
        if owner is not None and self.in_flight(owner.player) >= self.per_player:
            raise too_many(self.per_player, kind)
        most = PER_PLAYER_KIND.get(kind)
        if owner is not None and most is not None \
                and self.in_flight(owner.player, kind) >= most:
            raise too_many(self.per_player, kind, most)
        if self.lane_jobs(lane) >= self.limits.get(lane, 1):
            raise BusyError(f"the advisor is busy ({self.lane_jobs(lane)} requests are "
                            "waiting for it); ask again in a moment")

    async def _drive(self, job: Job) -> Any:
        """Run the job on the backend: once more if its worker died and time is left."""
        while True:
            job.attempts += 1
            left = job.deadline - time.monotonic()
            try:
                return await self.backend.run(job, max(left, 0.1))
            except asyncio.CancelledError:
                if job.cancelled:
                    raise JobCancelledError(f"the help was cancelled: {job.cancelled}"
                                            ) from None
                raise
            except JobTimeoutError:
                # named by the job's deadline, not by what was left of it for this attempt
                raise JobTimeoutError(f"the advisor took longer than {job.seconds:g} s and "
                                      "was stopped; ask again, or use a lower --effort"
                                      ) from None
            except JobLostError:
                if job.attempts > 1 or job.deadline - time.monotonic() < 1.0:
                    raise

    def _forget(self, job: Job) -> None:
        if job.task is not None and not job.task.cancelled():
            job.task.exception()  # retrieved: a cancelled job may have nobody waiting
        self._jobs.pop(job.id, None)
        if job.key is not None and self._shared.get(job.key) is job:
            del self._shared[job.key]
        self.done += 1

    # ------------------------------------------------------------------ leaving

    def _let_go(self, job: Job, owner: Owner) -> None:
        """``owner`` no longer owns ``job``: the control is told when the owner's player
        waits here for no job of its name any more (``freed``), and when no job here is
        owned for the owner's game any more (``released``)."""
        job.since.pop(owner, None)
        if self.control is None:
            return
        name = _name(job)
        if not any(o.player == owner.player for other in (job, *self._jobs.values())
                   if _name(other) == name for o in other.owners):
            self.control.freed(owner, name)
        if not any(o.player == owner.player and o.game_id == owner.game_id
                   for other in self._jobs.values() for o in other.owners):
            self.control.released(owner, job.until)

    def _disown(self, job: Job, owner: Owner, why: str) -> None:
        found = job.owners.pop(owner, None)
        job.asked.pop(owner, None)
        if found is not None:
            self._let_go(job, owner)
        if not job.owners and not job.background and job.task is not None \
                and not job.task.done():
            job.cancelled = why
            job.task.cancel()
            if job.key is not None and self._shared.get(job.key) is job:
                del self._shared[job.key]  # a new request for it starts afresh

    def left(self, player: str, game_id: str, position: str | None = None,
             why: str = "the position changed") -> int:
        """The player left ``game_id``'s position for ``position`` (None: left the game):
        they stop owning the jobs of its other positions; those nobody owns any more are
        cancelled. Returns how many jobs were cancelled."""
        return self.drop(lambda job, owner: owner.player == player
                          and owner.game_id == game_id and owner.position != position, why)

    def started(self, player: str, game_id: str) -> int:
        """The player started ``game_id``: the help for their games in play (hints,
        chances, bot moves) and the reviews of their other games are cancelled. Returns how
        many jobs were cancelled."""
        return self.drop(lambda job, owner: job.lane in STARTED_LANES
                          and owner.player == player and owner.game_id != game_id,
                          "a new game was started")

    def gone(self, player: str, why: str = "the player deleted their data") -> int:
        """The player is gone (deleted everything of theirs): they stop owning every job,
        and those nobody else owns are cancelled, their CPU freed. Returns how many jobs
        were cancelled."""
        return self.drop(lambda job, owner: owner.player == player, why)

    def owned(self) -> list[tuple[Job, Owner]]:
        """Every (job, owner) pair in flight."""
        return [(job, owner) for job in self._jobs.values() for owner in job.owners]

    def drop(self, which: Callable[[Job, Owner], bool], why: str) -> int:
        """Disown every (job, owner) pair ``which`` picks; the number of jobs cancelled."""
        cancelled = 0
        for job in list(self._jobs.values()):
            before = job.cancelled
            for owner in [o for o in list(job.owners) if which(job, o)]:
                self._disown(job, owner, why)
            cancelled += bool(job.cancelled) and not before
        return cancelled

    # ------------------------------------------------------------------ status

    def in_flight(self, player: str, kind: str | None = None) -> int:
        """The jobs in flight that ``player`` owns (of ``kind``, if given)."""
        return sum(1 for job in self._jobs.values()
                   if (kind is None or job.kind == kind)
                   and any(o.player == player for o in job.owners))

    def lane_jobs(self, lane: str) -> int:
        """The jobs in flight in ``lane``."""
        return sum(1 for job in self._jobs.values() if job.lane == lane)

    def jobs_of(self, player: str) -> list[dict[str, Any]]:
        """The player's jobs in flight: id, kind, game and seconds left (for the page).

        It tells nothing of another player, even of one sharing the job (the same seen
        position of the same deal): the id is this player's own name for the job (a digest
        of the job's id and the player), and the seconds left count from this player's
        first request (the most their request waits), not from when the job started."""
        now = time.monotonic()
        return [{"id": hashlib.sha256(f"{job.id}:{player}".encode()).hexdigest()[:16],
                 "kind": job.kind, "game_id": owner.game_id,
                 "seconds_left": round(max(job.asked.get(owner, now) + job.seconds - now,
                                           0.0), 1)}
                for job in self._jobs.values() for owner in job.owners
                if owner.player == player]

    async def status(self) -> dict[str, Any]:
        """What an operator reads: the engine, jobs in flight by lane and their bounds,
        jobs done, workers up."""
        return {"engine": self.backend.name, "workers": await self.backend.workers(),
                "in_flight": {lane: self.lane_jobs(lane) for lane in self.limits},
                "limits": dict(self.limits), "per_player": self.per_player,
                "done": self.done}

    async def aclose(self) -> None:
        for job in list(self._jobs.values()):
            if job.task is not None and not job.task.done():
                job.cancelled = "the server is stopping"
                job.task.cancel()
        await self.backend.aclose()
