"""``GET /api/leaderboard``: the daily deal's boards (storage.leaderboard), and the page
that shows them (``/leaderboard``)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from kabale.core.errors import KabaleError
from kabale.core.variants import parse_variant
from kabale.server.deals import parse_day, utc_today
from kabale.server.handling import ApiError, player_of, service
from kabale.storage.db import StorageError
from kabale.storage.leaderboard import daily_board, weekly_board

PAGE = Path(__file__).parent / "static" / "leaderboard.html"
WEEK = re.compile(r"(\d{4})-W(\d{2})")


def _day(text: str, today: dt.date) -> dt.date:
    """A board's day: YYYY-MM-DD, today or before (UTC)."""
    try:
        day = parse_day(text)
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None
    if day > today:
        raise ApiError(400, f"bad date {text!r}: that day has not come yet (today is {today},"
                            " UTC)")
    return day


def _monday(text: str, today: dt.date) -> dt.date:
    """The Monday of an ISO week written YYYY-Www, this week or before."""
    found = WEEK.fullmatch(text)
    try:
        if not found:
            raise ValueError
        monday = dt.date.fromisocalendar(int(found[1]), int(found[2]), 1)
    except ValueError:
        raise ApiError(400, f"bad week {text!r}: an ISO week like 2026-W49") from None
    if monday > today:
        raise ApiError(400, f"bad week {text!r}: that week has not come yet")
    return monday


async def leaderboard(request: Request) -> Response:
    """``?variant=V`` (default klondike) and ``date=YYYY-MM-DD`` (default today, UTC) or
    ``week=YYYY-Www``: the board, with ``me``, the request's own player's place."""
    query = request.query_params
    unknown = sorted(set(query) - {"variant", "date", "week"})
    if unknown:
        raise ApiError(400, f"unknown parameter(s) {unknown}; valid: variant, date, week")
    if "date" in query and "week" in query:
        raise ApiError(400, "give date or week, not both")
    try:
        variant = str(parse_variant(query.get("variant") or "klondike"))
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None
    today = utc_today()
    store, player = service(request).store, player_of(request) or None
    try:
        if "week" in query:
            board = await run_in_threadpool(weekly_board, store, variant,
                                            _monday(query["week"], today), player)
        else:
            day = _day(query["date"], today) if "date" in query else today
            board = await run_in_threadpool(daily_board, store, variant, day, player)
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    return JSONResponse(board)


async def page(request: Request) -> Response:
    """``/leaderboard``: the page (static/leaderboard.html, its words in en, da and nb)."""
    return FileResponse(PAGE, headers={"Cache-Control": "no-cache"})
