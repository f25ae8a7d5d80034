"""What every route shares: the error answered as ``{"error": ...}``, reading a JSON body
within ``MAX_BODY`` bytes, the game service, mapping a game's errors to their answers, and
the answer about a game."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from kabale.core.errors import IllegalMoveError, InvalidSaveError, KabaleError
from kabale.server.games import Entry, GameOverError, GameService, payload
from kabale.storage.db import GameNotFoundError, StaleGameError, StorageError
from kabale.storage.secret import server_secret

MAX_BODY = 16 * 1024


class ApiError(Exception):
    """An error answered as ``{"error": message}`` with ``status``; ``code`` (sent as
    ``"code"`` when given) names a refusal the page words itself: "busy" (the advisor's queue
    is full), "no_deal" (no chosen deal turned up in time). ``retry_after`` (seconds) is
    sent as the Retry-After header and the field ``"retry_after"``. ``reason`` (sent as
    ``"reason"``): a refused move's reason key and parameters (core/refusal.py)."""

    def __init__(self, status: int, message: str, code: str | None = None,
                 retry_after: int | None = None, reason: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.status = status
        self.message = message
        self.code = code
        self.retry_after = retry_after


async def read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object ({} when empty); 413 if too big, 400 if not JSON."""
    length = request.headers.get("content-length")
    if length is not None and (not (length.isascii() and length.isdigit())
                               or len(length) > 9 or int(length) > MAX_BODY):
        raise ApiError(413, f"request body too large (limit {MAX_BODY} bytes)")
    body = bytearray()
    try:
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > MAX_BODY:
                raise ApiError(413, f"request body too large (limit {MAX_BODY} bytes)")
    except ClientDisconnect:  # gone, or closed for not sending its body in time
        raise ApiError(408, "the request body did not arrive in full") from None
    request.state.body_read = True  # from now on a disconnect may be listened for
    if not body.strip():
        return {}
    try:
        # decoded as UTF-8 first: json.loads of bytes would also guess UTF-16 and UTF-32
        data = json.loads(bytes(body).decode("utf-8"))
    except RecursionError:
        raise ApiError(400, "request body is JSON nested too deeply") from None
    except ValueError as exc:  # not JSON, not UTF-8, or an integer of thousands of digits
        raise ApiError(400, f"request body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"request body must be a JSON object, not {type(data).__name__}")
    return data


def player_of(request: Request) -> str:
    """The request's player (server.site.Players): "" when it has none, whom no game is of."""
    player = request.scope.get("state", {}).get("player", "")
    return player if isinstance(player, str) else ""


def service(request: Request) -> GameService:
    service: GameService = request.app.state.games
    return service


def daily_secret(request: Request) -> bytes:
    """The server's secret behind its daily deals (storage.secret), made on first use;
    503 when the database cannot be written to keep it."""
    secret: bytes | None = request.app.state.daily_secret
    if secret is None:
        try:
            secret = server_secret(service(request).store, "daily")
        except StorageError as exc:
            raise ApiError(503, str(exc)) from None
        request.app.state.daily_secret = secret
    return secret


def game_error(exc: Exception) -> ApiError:
    """Map an error raised while handling a game request to its answer (anything else is
    raised again: a bug, answered 500 without a traceback)."""
    if isinstance(exc, GameNotFoundError):
        return ApiError(404, str(exc))
    if isinstance(exc, StorageError):
        return ApiError(503, str(exc))
    if isinstance(exc, (GameOverError, InvalidSaveError, StaleGameError)):
        return ApiError(409, str(exc))
    if isinstance(exc, IllegalMoveError) and exc.refusal is not None:
        return ApiError(422, str(exc), reason=exc.refusal.to_dict())
    if isinstance(exc, KabaleError):
        return ApiError(422, str(exc))
    raise exc


def answer(request: Request, entry: Entry, move: str | None = None,
           status: int = 200, **extra: Any) -> Response:
    """The game's payload (server.games.payload) with ``extra`` fields; a won game also gets
    its rank among the player's wins of its variant."""
    body = payload(entry, move)
    if entry.status == "won":
        try:
            body["rank"] = service(request).store.rank(entry.id)
        except StorageError as exc:
            raise ApiError(503, str(exc)) from None
    body.update(extra)
    return JSONResponse(body, status_code=status)
