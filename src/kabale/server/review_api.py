"""The review of a finished game (kabale.advisor.review), worked out in the background, and
coach mode's question about one move before it is played.

``POST /api/games/{id}/analysis`` starts it (or answers the one already started) and
``GET /api/games/{id}/analysis`` polls it: ``{"state": "none" | "running" | "done" |
"failed", "done": positions reviewed, "total": positions, "review": Review.to_dict() once
done, "error": the reason once failed}``. Both answer 409 while the game can still change
(advice_api._over: won, or given up for good), for the review reads the true deal and grades
the player's moves, which a player still at the table could use.

Reviews run one at a time in a thread of their own, apart from the help pool (a review
takes seconds to minutes; hints must not wait for it); at most QUEUE wait or run, and one
more is refused with 503 "busy". The seed comes from the game's id and moves
(advice.position_seed), the effort from the server's advisor, so asking twice gives the same
review.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from kabale.advisor.effort import Effort
from kabale.advisor.review import grade_move, review
from kabale.core.errors import KabaleError
from kabale.core.game import Game
from kabale.server.advice import Advisor, position_seed
from kabale.server.advice_api import _over, _playing, _think
from kabale.server.handling import ApiError, game_error, read_json, service
from kabale.server.moved import with_facts

#: reviews that may wait or run at once, and finished ones kept
QUEUE = 4
KEPT = 64


@dataclass
class Job:
    """One review: its progress (written by the worker thread, read by the loop)."""

    done: int = 0
    total: int = 0
    review: dict[str, object] | None = None
    error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def to_dict(self) -> dict[str, object]:
        """The JSON answer of a poll."""
        with self.lock:
            state = "done" if self.review is not None else \
                "failed" if self.error is not None else "running"
            return {"state": state, "done": self.done, "total": self.total,
                    "review": self.review, "error": self.error}


class Reviews:
    """The background reviews of one app, by game id."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
        self.closed = threading.Event()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._tasks: set[asyncio.Future[None]] = set()

    def get(self, game_id: str) -> Job | None:
        """The review of a game, if one was started."""
        return self._jobs.get(game_id)

    def start(self, game_id: str, game: Game, advisor: Advisor) -> Job:
        """The game's review, started now in the background unless it is already."""
        job = self._jobs.get(game_id)
        if job is not None and job.error is None:
            return job
        running = sum(j.review is None and j.error is None for j in self._jobs.values())
        if running >= QUEUE:
            raise ApiError(503, f"{running} reviews are being worked out; ask again in a "
                                "minute", "busy")
        job = Job(total=game.moves_made + 1)
        self._jobs[game_id] = job
        while len(self._jobs) > KEPT:
            self._jobs.popitem(last=False)
        copy = game.copy()
        level, seed = advisor.level(copy), position_seed(copy)
        future = asyncio.get_running_loop().run_in_executor(
            self._pool, _work, job, copy, level, seed, self.closed)
        self._tasks.add(future)
        future.add_done_callback(self._tasks.discard)
        return job

    def close(self) -> None:
        """Stop taking reviews; one running stops at its next position, so a server that
        shuts down does not wait for it."""
        self.closed.set()
        self._pool.shutdown(wait=False, cancel_futures=True)


class _Stopped(Exception):
    """The server is shutting down: the review in progress stops."""


def _work(job: Job, game: Game, level: Effort, seed: int, closed: threading.Event) -> None:
    def progress(done: int, total: int) -> None:
        if closed.is_set():
            raise _Stopped
        with job.lock:
            job.done, job.total = done, total

    try:
        found = review(game, level, seed, progress=progress, with_deal=True)
    except _Stopped:
        with job.lock:
            job.error = "the server stopped"
        return
    except KabaleError as exc:
        with job.lock:
            job.error = str(exc)
        return
    done = found.to_dict()
    # what each move and each better move moved, for the page to say in words
    done["decisions"] = with_facts(game, list(done["decisions"]))  # type: ignore[call-overload]
    with job.lock:
        job.review = done


def reviews(request: Request) -> Reviews:
    """The app's reviews (made on first use)."""
    found: Reviews | None = getattr(request.app.state, "reviews", None)
    if found is None:
        found = request.app.state.reviews = Reviews()
    return found


async def analysis(request: Request) -> Response:
    """``POST`` starts the review of a finished game, ``GET`` polls it (module docstring)."""
    if request.method == "POST":
        await read_json(request)
    entry = _over(request)
    jobs = reviews(request)
    if request.method == "POST":
        job = jobs.start(entry.id, entry.game, request.app.state.advisor)
        return JSONResponse({"id": entry.id, **job.to_dict()}, status_code=202)
    found = jobs.get(entry.id)
    body = found.to_dict() if found is not None else {
        "state": "none", "done": 0, "total": entry.game.moves_made + 1, "review": None,
        "error": None}
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
    found = await _think(request, advisor.run(grade_move, game, move, advisor.level(game),
                                              position_seed(game)))
    try:
        service(request).assist(entry.id)
    except Exception as exc:
        raise game_error(exc) from None
    return JSONResponse({"id": entry.id, "coach": found.to_dict()})
