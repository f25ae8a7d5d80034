"""The routes of a hosted server's player (`kabale serve`; server.site): who am I, my
nickname, a transfer code to take my games to another device, and deleting everything of
mine. Each answers only about the request's own player; none takes a player id."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from kabale.core.errors import KabaleError
from kabale.server.handling import ApiError, player_of, read_json, service
from kabale.server.site import Site, cookie_header
from kabale.storage.db import StorageError
from kabale.storage.players import (
    TransferCodeError,
    check_nickname,
    check_settings,
    delete_player,
    make_transfer_code,
    player_info,
    redeem_transfer_code,
    set_nickname,
    set_settings,
)


def _site(request: Request) -> Site:
    site: Site = request.app.state.site
    return site


def _fields(data: dict[str, object], valid: set[str]) -> None:
    unknown = sorted(set(data) - valid)
    if unknown:
        raise ApiError(400, f"unknown field(s) {unknown}; valid: {', '.join(sorted(valid))}")


def _me(request: Request) -> str:
    player = player_of(request)
    if not player:
        raise ApiError(404, "no player: this browser has played no game here yet")
    return player


async def me(request: Request) -> Response:
    """``GET /api/player``: ``{"player": bool, "nickname", "created", "games",
    "settings"}``."""
    player = player_of(request)
    if not player:
        return JSONResponse({"player": False, "nickname": None, "created": None, "games": 0,
                             "settings": {}})
    try:
        info = player_info(service(request).store, player)
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    return JSONResponse({"player": True, **info})


async def nickname(request: Request) -> Response:
    """``POST /api/player/nickname {"nickname": "Ann"}`` (null clears it)."""
    data = await read_json(request)
    _fields(data, {"nickname"})
    name = data.get("nickname")
    try:
        checked = None if name is None else check_nickname(name)
        set_nickname(service(request).store, _me(request), checked)
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None
    return JSONResponse({"nickname": checked})


async def settings(request: Request) -> Response:
    """``POST /api/player/settings {"settings": {...}}``: keep the page's settings (under
    `kabale play` too, for the local player; 404 without a player)."""
    data = await read_json(request)
    _fields(data, {"settings"})
    try:
        checked = check_settings(data.get("settings"))
        set_settings(service(request).store, _me(request), checked)
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None
    return JSONResponse({"settings": checked})


async def transfer(request: Request) -> Response:
    """``POST /api/player/transfer``: a one-time code (15 minutes) for another device."""
    _fields(await read_json(request), set())
    try:
        code, expires = make_transfer_code(service(request).store, _me(request))
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    return JSONResponse({"code": code, "expires": round(expires)},
                        headers={"Cache-Control": "no-store"})


async def redeem(request: Request) -> Response:
    """``POST /api/player/redeem {"code": "ABCD-EFGH-JKLM"}``: this device becomes the
    code's player (a new cookie); the games of this device's player so far stay with it,
    out of reach of this browser (it can transfer them first)."""
    data = await read_json(request)
    _fields(data, {"code"})
    code = data.get("code")
    if not isinstance(code, str) or len(code) > 40:
        raise ApiError(400, "give the transfer code as text, e.g. {\"code\": \"ABCD-EFGH-JKLM\"}")
    try:
        player, token = redeem_transfer_code(service(request).store, code)
        info = player_info(service(request).store, player)
    except TransferCodeError as exc:
        raise ApiError(404, str(exc)) from None
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    name, value = cookie_header(token, _site(request).secure)
    return JSONResponse({"player": True, **info},
                        headers={name.decode(): value.decode("latin-1")})


async def stop_help(request: Request, player: str) -> None:
    """Cancel every job of ``player`` (server.jobservice.JobService.gone) and forget their
    reviews (server.review_api.Reviews.forget), in this web process, and with other web
    processes on the database, in theirs too (a mark, and their review rows deleted:
    server.helpshare)."""
    advisor = getattr(request.app.state, "advisor", None)
    if advisor is not None:
        advisor.jobs.gone(player)
    reviews = getattr(request.app.state, "reviews", None)
    if reviews is not None:
        reviews.forget(player)
    control = getattr(request.app.state, "help_control", None)
    if control is not None:
        await control.mark(player, "gone", why="the player deleted their data")
        await control.forget_reviews(player)


async def delete(request: Request) -> Response:
    """``POST /api/player/delete {"confirm": true}``: remove every game, statistic, token,
    code and the nickname of this player, for good; the cookie is cleared. First the
    player's help in flight (hints, reviews, ...) is cancelled, its workers' CPU freed,
    and their reviews kept in memory are forgotten."""
    data = await read_json(request)
    _fields(data, {"confirm"})
    if data.get("confirm") is not True:
        raise ApiError(400, "send {\"confirm\": true} to delete everything of yours")
    player = player_of(request)
    removed = {"games": 0}
    if player:
        await stop_help(request, player)
        try:
            removed = await run_in_threadpool(delete_player, service(request).store, player)
        except StorageError as exc:
            raise ApiError(503, str(exc)) from None
        service(request).forget(player)
    name, value = cookie_header(None, _site(request).secure)
    return JSONResponse({"deleted": True, "games": removed.get("games", 0)},
                        headers={name.decode(): value.decode("latin-1")})
