"""The HTTP side of help as jobs (server.jobservice): whose request it is, the answers to a
refused or stopped job (with Retry-After), the jobs of a position the player leaves, and the
routes to see and cancel a player's help (docs/api.md, "Help as jobs").

Honesty: nothing here sends a card. A job's answer is shared only between requests of
one deal that have seen the same (``advice.view_key``, ``advice.deal_key``), and the
routes below name jobs by kind, game and seconds left, which the player knows already.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import time
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import Message

from kabale.core.errors import KabaleError
from kabale.server.advice import Advisor, position_key
from kabale.server.handling import ApiError, game_error, player_of, read_json, service
from kabale.server.helpshare import HelpControl
from kabale.server.jobs import BusyError, JobLostError, JobTimeoutError
from kabale.server.jobservice import RETRY_AFTER, JobCancelledError, TooManyJobsError

Endpoint = Callable[[Request], Awaitable[Response]]


def player_key(request: Request) -> str:
    """The key of the player who made ``request``: their jobs are counted and cancelled
    together. ``kabale play``'s one local player, or ``kabale serve``'s player of the cookie
    (server.site); "" for a request without a player, which owns no job (its game routes
    answer 404 first, and ``GET /api/help`` lists nothing for it)."""
    return player_of(request)


def refusal(exc: KabaleError) -> ApiError:
    """The answer to a job that was refused, stopped or lost (anything else raised again):
    429 "too_many" and 503 "busy"/"worker_lost" with Retry-After, 503 "too_long", 409
    "cancelled"."""
    if isinstance(exc, TooManyJobsError):
        return ApiError(429, str(exc), "too_many", RETRY_AFTER["too_many"])
    if isinstance(exc, JobLostError):
        return ApiError(503, str(exc), "worker_lost", RETRY_AFTER["worker_lost"])
    if isinstance(exc, BusyError):
        return ApiError(503, str(exc), "busy", RETRY_AFTER["busy"])
    if isinstance(exc, JobTimeoutError):
        return ApiError(503, str(exc), "too_long")
    if isinstance(exc, JobCancelledError):
        return ApiError(409, str(exc), "cancelled")
    raise exc


def _advisor(request: Request) -> Advisor | None:
    advisor: Advisor | None = request.app.state.advisor
    return advisor


def help_control(request: Request) -> HelpControl | None:
    """The app's share of the help control with the other web processes of its database
    (server.helpshare), or None when it is the only one."""
    control: HelpControl | None = getattr(request.app.state, "help_control", None)
    return control


async def left_everywhere(request: Request, game_id: str, position: str | None,
                          why: str = "the position changed", always: bool = False) -> int:
    """The request's player left ``game_id``'s position for ``position`` (None: every
    position): their jobs of its other positions are cancelled here (how many is
    answered), and in every other web process of the database through a mark
    (server.helpshare), when the game has help in flight by its last read (``help_until``,
    server.games.Entry) or ``always``."""
    advisor = _advisor(request)
    player = player_key(request)
    stopped = 0 if advisor is None else advisor.jobs.left(player, game_id, position, why)
    control = help_control(request)
    if control is not None and (always or getattr(request.state, "help_until", 0.0)
                                > time.time()):
        await control.mark(player, "left", game_id, position, why)
    return stopped


#: what a request whose client went is answered (nobody reads it; nginx's code for it)
CLIENT_GONE = 499


def watching(endpoint: Endpoint) -> Endpoint:
    """``endpoint`` of a route that waits for help, stopped when its client goes (a closed
    tab, a page that stopped waiting): its request then stops owning its job, which is
    cancelled if nobody else waits for it, so its CPU goes to someone who does."""

    async def route(request: Request) -> Response:
        work = asyncio.ensure_future(endpoint(request))
        gone = asyncio.ensure_future(_client_gone(request))
        try:
            await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not work.done():
                work.cancel()
            gone.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await gone
        if work.cancelled() or not work.done():
            with contextlib.suppress(BaseException):
                await work
            return Response(status_code=CLIENT_GONE)
        return work.result()

    route.__name__ = route.__qualname__ = endpoint.__name__
    route.__doc__ = endpoint.__doc__
    return route


async def _client_gone(request: Request) -> None:
    """Return when the client of ``request`` disconnects. It listens only once the body has
    been read (``read_json`` marks it), so that it never takes a part of the body."""
    while not getattr(request.state, "body_read", False):
        await asyncio.sleep(0.05)
    while True:
        message: Message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def leaving(endpoint: Endpoint) -> Endpoint:
    """``endpoint`` of a route that changes a game's position (a move, undo, redo, giving
    up): once it has answered, the player's help for the game's other positions is
    cancelled (a hint for a position left is of no use, and its CPU is someone else's)."""

    async def route(request: Request) -> Response:
        response = await endpoint(request)
        if response.status_code < 400:
            game_id = request.path_params["game_id"]
            entry = service(request).get(game_id)
            position = position_key(entry.game) if entry.status == "playing" else None
            await left_everywhere(request, game_id, position)
        return response

    route.__name__ = route.__qualname__ = endpoint.__name__
    route.__doc__ = endpoint.__doc__
    return route


def starting(endpoint: Endpoint) -> Endpoint:
    """``endpoint`` of the route that starts a game: once it has, the player's help for
    their other games in play is cancelled."""

    async def route(request: Request) -> Response:
        response = await endpoint(request)
        advisor = _advisor(request)
        if advisor is not None and response.status_code == 201:
            game_id = json.loads(bytes(response.body)).get("id", "")
            advisor.jobs.started(player_key(request), game_id)
            control = help_control(request)
            if control is not None:
                await control.mark(player_key(request), "started", game_id,
                                   why="a new game was started")
        return response

    route.__name__ = route.__qualname__ = endpoint.__name__
    route.__doc__ = endpoint.__doc__
    return route


async def cancel_help(request: Request) -> Response:
    """``DELETE /api/games/{id}/help``: cancel the player's help for this game (the page's
    cancel on its hint button); the requests waiting for it answer 409 "cancelled".
    Answers how many jobs this process stopped (0 when none was in flight here); those of
    the other web processes of the database stop within a second (server.helpshare)."""
    await read_json(request)
    game_id = request.path_params["game_id"]
    try:
        service(request).get(game_id)
    except Exception as exc:
        raise game_error(exc) from None
    stopped = await left_everywhere(request, game_id, None, "the player cancelled it",
                                    always=True)
    return JSONResponse({"id": game_id, "cancelled": stopped})


def is_operator(request: Request) -> bool:
    """Does ``request`` come from the site's operator? Under ``kabale play`` (no Site) the
    one local player is. Under ``kabale serve``, a request with ``Authorization: Bearer
    TOKEN`` and the operator's token (``KABALE_OPERATOR_TOKEN``) is; one without the header
    is not; one with another token, or with one while the server has none, is answered 403.
    The client's address proves nothing: behind a reverse proxy every request comes from
    the proxy's."""
    site = getattr(request.app.state, "site", None)
    if site is None:
        return True
    sent = request.headers.get("authorization")
    if sent is None:
        return False
    scheme, _, token = sent.partition(" ")
    wanted: str | None = site.operator_token
    if wanted is None:
        raise ApiError(403, "this server has no operator token (KABALE_OPERATOR_TOKEN): "
                            "its help counters are not served")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
            token.strip().encode("utf-8", "replace"), wanted.encode()):
        raise ApiError(403, "wrong operator token: send Authorization: Bearer "
                            "KABALE_OPERATOR_TOKEN")
    return True


async def help_status(request: Request) -> Response:
    """``GET /api/help``: the player's own help in flight (server.jobservice.jobs_of: it
    tells nothing of another player), and for the operator (:func:`is_operator`) the
    engine's counters (jobs in flight by lane and their bounds, jobs done, workers up),
    which tell of every player's help and so are null for a player. Never cached."""
    await read_json(request)
    advisor = _advisor(request)
    operator = is_operator(request)
    jobs = [] if advisor is None else advisor.jobs.jobs_of(player_key(request))
    engine = await advisor.jobs.status() if advisor is not None and operator else None
    return JSONResponse({"jobs": jobs, "engine": engine},
                        headers={"Cache-Control": "no-store"})
