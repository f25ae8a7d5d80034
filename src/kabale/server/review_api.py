"""The review of a finished game (kabale.advisor.review) as a job on the help engine, and
coach mode's question about one move before it is played.

``POST /api/games/{id}/analysis`` starts it (or answers the one already started) and
``GET /api/games/{id}/analysis`` polls it: ``{"state": "none" | "running" | "done" |
"failed", "done": positions reviewed, "total": positions, "review": Review.to_dict() once
done, "error": the reason once failed, "code": the refusal's code once failed}``. Both
answer 409 while the game can still change (advice_api._over: won, or given up for good),
for the review reads the true deal and grades the player's moves, which a player still at
the table could use.

A review is a job like every other help (server.jobservice): an id, a deadline
(``CAP_SECONDS["review"]``), the lowest priority (-10: behind the hints, chances and
post-mortems a player waits for; on the local engine its own lane of one worker process run
niced, apart from the help pools, at most 4 in flight, one more 503 "busy"), at most one per
player, on the local worker processes or on Dask by the same setting as the rest. Its
progress comes back from the worker as it goes (``done`` of ``total``). It is cancelled,
and its worker's CPU freed, when its player leaves it: asks for another game's review,
starts a new game, cancels the game's help (``DELETE /api/games/{id}/help``), stops asking
about it for ``LEASE`` seconds (the page asks twice a second while it shows the review), or
deletes their data. The seed comes from what the player has seen (advice.position_seed), the
effort from the server's advisor, so asking twice gives the same review.

With several web processes on one database (server.helpshare), each review also has a row
there, claimed by the process that runs it: its progress, result or failure is written as
it comes, so that a poll or a second ``POST`` answered by any process reads it (and keeps it
going); asking for a review cancels the player's review of another game in every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from kabale.core.errors import KabaleError
from kabale.core.game import Game
from kabale.server.advice import CAP_SECONDS, Advisor
from kabale.server.advice_api import _over, _playing, _think
from kabale.server.handling import ApiError, game_error, read_json, service
from kabale.server.helpshare import PROGRESS_SECONDS, HelpControl
from kabale.server.jobs_api import help_control, player_key, refusal
from kabale.storage.db import StorageError

#: finished reviews kept (their results, by game id)
KEPT = 64
#: seconds a review in progress is kept without its page asking about it; then it is
#: cancelled (the player closed it, or the tab)
LEASE = 60.0


@dataclass
class Review:
    """One game's review: its player, progress and outcome (all on the event loop)."""

    player: str
    total: int
    done: int = 0
    review: dict[str, Any] | None = None
    error: str | None = None
    code: str | None = None
    asked: float = field(default_factory=time.monotonic)
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def running(self) -> bool:
        return self.review is None and self.error is None

    def fail(self, error: str, code: str | None) -> None:
        """The review ended without an answer (unless it has one already)."""
        if self.running:
            self.error, self.code = error, code

    def progress(self, done: int, total: int) -> None:
        """The job's report: ``done`` of ``total`` positions reviewed."""
        if self.running:
            self.done, self.total = done, total

    def to_dict(self) -> dict[str, object]:
        """The JSON answer of a poll."""
        state = "done" if self.review is not None else \
            "failed" if self.error is not None else "running"
        return {"state": state, "done": self.done, "total": self.total,
                "review": self.review, "error": self.error, "code": self.code}


class Reviews:
    """The reviews of one app, by game id: started as jobs of the app's advisor, their
    progress and results kept here (the web process only keeps them, never computes one),
    and with a ``control``, in the database for the other web processes."""

    def __init__(self, lease: float = LEASE, control: HelpControl | None = None) -> None:
        self.lease = lease
        self._reviews: OrderedDict[str, Review] = OrderedDict()
        self.closed = False
        self.control = control
        if control is not None:
            control.on_gone.append(self._forget_who)

    def get(self, game_id: str) -> Review | None:
        """The review of a game, if one was started; asking keeps one in progress going."""
        found = self._reviews.get(game_id)
        if found is not None:
            found.asked = time.monotonic()
        return found

    async def poll(self, game_id: str) -> dict[str, object] | None:
        """What a poll of the game's review answers (Review.to_dict), None when none was
        started: with a control, the database's row, which any process may have written;
        asking keeps a review in progress going."""
        found = self.get(game_id)
        if self.control is not None:
            row = await self.control.read_review(game_id)
            if row is not None:
                return row
        return None if found is None else found.to_dict()

    async def start(self, game_id: str, game: Game, advisor: Advisor, player: str
                    ) -> dict[str, object]:
        """The game's review (Review.to_dict), started now unless it is already (or done),
        here or, with a control, by another process; the player's review of another game
        still in progress is cancelled, in every process. Raises ApiError for a refusal
        (503 busy, 429 too_many)."""
        found = self.get(game_id)
        if found is not None and found.error is None:
            return found.to_dict()
        if self.closed:
            raise ApiError(503, "the server is stopping", "busy")
        control = self.control
        why = "the review of another game was asked for"
        record = Review(player, total=game.moves_made + 1)
        if control is not None:
            row = await control.read_review(game_id)
            if row is not None and row["state"] in ("running", "done"):
                return row
            for other in await control.running_reviews(player):
                if other != game_id:
                    await control.mark(player, "left", other, None, why)
            if not await control.claim_review(game_id, player, record.total,
                                              time.time() + CAP_SECONDS["review"] + 10):
                row = await control.read_review(game_id)  # another process was first
                return row if row is not None else record.to_dict()
        for other, earlier in list(self._reviews.items()):
            if earlier.player == player and earlier.running and other != game_id:
                advisor.jobs.left(player, other, None, why)
        try:
            job, owner = await advisor.begin_review(game_id, game, player,
                                                    self._progress(game_id, record))
        except KabaleError as exc:
            answer = refusal(exc)
            if control is not None:
                control.review_ended(game_id, error=answer.message, code=answer.code)
            raise answer from None
        self._reviews[game_id] = record
        self._reviews.move_to_end(game_id)
        while len(self._reviews) > KEPT:
            self._reviews.popitem(last=False)
        record.task = asyncio.get_running_loop().create_task(
            self._drive(game_id, record, advisor, job, owner))
        return record.to_dict()

    def _progress(self, game_id: str, record: Review) -> Callable[[int, int], None]:
        """The job's progress report: kept in ``record``, and written for the other
        processes at most every PROGRESS_SECONDS."""
        control = self.control
        if control is None:
            return record.progress
        written = [0.0]

        def progress(done: int, total: int) -> None:
            record.progress(done, total)
            now = time.monotonic()
            if now - written[0] >= PROGRESS_SECONDS:
                written[0] = now
                control.review_progress(game_id, done, total)

        return progress

    async def _stale(self, game_id: str, record: Review) -> bool:
        """Has nobody asked about the review for ``lease`` seconds, through any process?
        (A poll through another one is read from the database.)"""
        if self.control is None:
            return True
        try:
            asked = await self.control.review_asked(game_id)
        except KabaleError:
            return True
        age = time.time() - asked
        if age < self.lease:
            record.asked = max(record.asked, time.monotonic() - age)
            return False
        return True

    async def _drive(self, game_id: str, record: Review, advisor: Advisor, job: Any,
                     owner: Any) -> None:
        """Wait for the review's job, cancelling it when nobody has asked about it for
        ``lease`` seconds; keep its outcome (and write it for the other processes)."""
        try:
            await self._outcome(game_id, record, advisor, job, owner)
        finally:
            if self.control is not None:
                if record.review is not None:
                    self.control.review_ended(game_id, record.review)
                else:
                    record.fail("the server stopped", "cancelled")
                    self.control.review_ended(game_id, error=record.error, code=record.code)

    async def _outcome(self, game_id: str, record: Review, advisor: Advisor, job: Any,
                       owner: Any) -> None:
        waiting = asyncio.ensure_future(advisor.jobs.wait(job, owner))
        stale = False
        try:
            while not waiting.done():
                left = record.asked + self.lease - time.monotonic()
                if left <= 0 and await self._stale(game_id, record):
                    stale = True
                    waiting.cancel()  # its owner stops waiting: the job is cancelled
                    break
                if left <= 0:
                    continue
                await asyncio.wait({waiting}, timeout=left)
            try:
                found = await waiting
            except asyncio.CancelledError:
                if not stale:
                    raise
                record.fail("the review was stopped: nobody asked about it for a while",
                            "cancelled")
                return
            except KabaleError as exc:
                try:
                    answer = refusal(exc)
                except KabaleError:
                    answer = ApiError(503, str(exc))
                record.fail(answer.message, answer.code)
                return
            if record.running:
                record.done = record.total
                record.review = found
        except asyncio.CancelledError:
            waiting.cancel()
            record.fail("the server stopped", "cancelled")
            raise

    def forget(self, player: str) -> int:
        """Drop every review of ``player`` (who deleted their data): cancelled if in
        progress, its result forgotten. Returns how many were dropped."""
        gone = [gid for gid, r in self._reviews.items() if r.player == player]
        for game_id in gone:
            record = self._reviews.pop(game_id)
            if record.task is not None and not record.task.done():
                record.task.cancel()
        return len(gone)

    def _forget_who(self, who: str) -> None:
        """Drop the reviews of the player another process says deleted their data (named
        as the shared tables name them: server.helpshare.HelpControl.who)."""
        control = self.control
        if control is not None:
            for player in {r.player for r in self._reviews.values()}:
                if control.who(player) == who:
                    self.forget(player)

    def close(self) -> None:
        """Stop taking reviews and stop waiting for those in progress (their jobs are
        cancelled with the advisor's)."""
        self.closed = True
        for record in self._reviews.values():
            record.fail("the server stopped", "cancelled")
            if record.task is not None and not record.task.done():
                with contextlib.suppress(RuntimeError):  # its loop is closed already
                    record.task.cancel()


def reviews(request: Request) -> Reviews:
    """The app's reviews (made on first use)."""
    found: Reviews | None = getattr(request.app.state, "reviews", None)
    if found is None:
        found = request.app.state.reviews = Reviews(control=help_control(request))
    return found


async def analysis(request: Request) -> Response:
    """``POST`` starts the review of a finished game, ``GET`` polls it (module docstring)."""
    if request.method == "POST":
        await read_json(request)
    entry = _over(request)
    jobs = reviews(request)
    try:
        if request.method == "POST":
            started = await jobs.start(entry.id, entry.game, request.app.state.advisor,
                                       player_key(request))
            return JSONResponse({"id": entry.id, **started}, status_code=202)
        found = await jobs.poll(entry.id)
    except StorageError as exc:  # the shared review rows cannot be read or written
        raise ApiError(503, str(exc)) from None
    body = found if found is not None else {
        "state": "none", "done": 0, "total": entry.game.moves_made + 1, "review": None,
        "error": None, "code": None}
    return JSONResponse({"id": entry.id, **body})


async def coach(request: Request) -> Response:
    """``POST /api/games/{id}/coach`` body ``{"move": M}``: the grade the review would give
    playing M now, from what the player has seen (review.grade_move), with the better move;
    the game is marked assisted (coach mode is help). 409 once the game is over, 422 for a
    move that is not legal."""
    data = await read_json(request)
    unknown = sorted(set(data) - {"move"})
    if unknown:
        raise ApiError(400, f"unknown field(s) {unknown}; valid: move")
    text = data.get("move")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, f"move must be a move in notation such as '3>5', not {text!r}")
    entry = _playing(request)
    game = entry.game.copy()
    try:
        move = game.parse_move(text.strip())
        if move not in game.legal_moves():
            raise KabaleError(f"{text.strip()!r} is not a legal move here")
    except KabaleError as exc:
        raise ApiError(422, str(exc)) from None
    advisor: Advisor = request.app.state.advisor
    found = await _think(request, advisor.coach(entry.id, game, move, player_key(request)))
    try:
        await service(request).aassist(entry.id)
    except Exception as exc:
        raise game_error(exc) from None
    return JSONResponse({"id": entry.id, "coach": found.to_dict()})
