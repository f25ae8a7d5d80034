"""The Starlette application: the JSON API of DESIGN.md 3c, a few page helpers, the page.

Every error answers ``{"error": "<reason>"}`` with a 4xx status and changes nothing:
bad JSON or an unknown variant 400, a request from elsewhere 403 and a POST that is not JSON
415 (both from :mod:`kabale.server.guard`), an unknown game id 404, an illegal or malformed
move 422, nothing to undo/redo or a finished game 409, a body over ``MAX_BODY`` bytes 413.
A database that cannot be read answers 503 for the requests that touch the damage.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kabale.core.errors import InvalidSaveError, KabaleError
from kabale.core.variants import ALIASES, DESCRIPTIONS, OPTIONS, parse_variant
from kabale.server.games import GameOverError, GameService, payload
from kabale.server.guard import SECURITY_HEADERS, Guard
from kabale.storage.db import GameNotFoundError, GameStore, StorageError

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
log = logging.getLogger("kabale.server")


class ApiError(Exception):
    """An error answered as ``{"error": message}`` with ``status``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object ({} when empty); 413 if too big, 400 if not JSON."""
    length = request.headers.get("content-length")
    if length is not None and (not (length.isascii() and length.isdigit())
                               or len(length) > 9 or int(length) > MAX_BODY):
        raise ApiError(413, f"request body too large (limit {MAX_BODY} bytes)")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > MAX_BODY:
            raise ApiError(413, f"request body too large (limit {MAX_BODY} bytes)")
    if not body.strip():
        return {}
    try:
        data = json.loads(bytes(body))
    except RecursionError:
        raise ApiError(400, "request body is JSON nested too deeply") from None
    except ValueError as exc:  # not JSON, not UTF-8, or an integer of thousands of digits
        raise ApiError(400, f"request body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"request body must be a JSON object, not {type(data).__name__}")
    return data


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.games
    return service


def _game_error(exc: Exception) -> ApiError:
    """Map an error raised while handling a game request to its answer."""
    if isinstance(exc, GameNotFoundError):
        return ApiError(404, str(exc))
    if isinstance(exc, StorageError):
        return ApiError(503, str(exc))
    if isinstance(exc, (GameOverError, InvalidSaveError)):
        return ApiError(409, str(exc))
    if isinstance(exc, KabaleError):
        return ApiError(422, str(exc))
    raise exc


async def create_game(request: Request) -> Response:
    data = await read_json(request)
    unknown = sorted(set(data) - {"variant", "seed", "deal_id"})
    if unknown:
        raise ApiError(400, f"unknown field(s) {unknown}; valid: variant, seed, deal_id")
    variant, seed, deal_id = data.get("variant"), data.get("seed"), data.get("deal_id")
    if variant is not None and not isinstance(variant, str):
        raise ApiError(400, f"variant must be a string like 'spider:suits=2', not {variant!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ApiError(400, f"seed must be a whole number, not {seed!r}")
    if deal_id is not None and (not isinstance(deal_id, str) or variant or seed is not None):
        raise ApiError(400, "deal_id must be a string like 'klondike#7', given without variant"
                            " or seed")
    try:
        entry = _service(request).create(variant, seed, deal_id)
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None
    return JSONResponse(payload(entry), status_code=201)


async def get_game(request: Request) -> Response:
    await read_json(request)
    try:
        entry = _service(request).get(request.path_params["game_id"])
    except Exception as exc:
        raise _game_error(exc) from None
    return JSONResponse(payload(entry))


async def play_move(request: Request) -> Response:
    data = await read_json(request)
    text = data.get("move")
    if not isinstance(text, str) or not text.strip() or len(text) > 40:
        raise ApiError(422, f"body must be {{\"move\": \"<notation>\"}}, e.g. \"3>7\" or \"d\";"
                            f" got move={text!r}")
    try:
        entry, move = _service(request).play(request.path_params["game_id"], text)
    except Exception as exc:
        raise _game_error(exc) from None
    return JSONResponse(payload(entry, move))


async def _undo_redo(request: Request, redo: bool) -> Response:
    await read_json(request)
    service = _service(request)
    game_id = request.path_params["game_id"]
    try:
        entry = service.get(game_id)
        if entry.status == "playing" and not (entry.game.can_redo if redo else entry.game.can_undo):
            raise ApiError(409, f"nothing to {'redo' if redo else 'undo'}")
        entry, move = service.redo(game_id) if redo else service.undo(game_id)
    except ApiError:
        raise
    except Exception as exc:
        raise _game_error(exc) from None
    return JSONResponse(payload(entry, move))


async def undo(request: Request) -> Response:
    return await _undo_redo(request, redo=False)


async def redo(request: Request) -> Response:
    return await _undo_redo(request, redo=True)


async def reveal(request: Request) -> Response:
    """Show the deal id from now on (to share a link to the deal); recorded on the game."""
    await read_json(request)
    try:
        entry = _service(request).reveal(request.path_params["game_id"])
    except Exception as exc:
        raise _game_error(exc) from None
    return JSONResponse(payload(entry))


async def resign(request: Request) -> Response:
    await read_json(request)
    try:
        entry = _service(request).resign(request.path_params["game_id"])
    except Exception as exc:
        raise _game_error(exc) from None
    return JSONResponse(payload(entry))


def _value(value: Any) -> Any:
    return value if not isinstance(value, bool) else ("true" if value else "false")


async def variants(request: Request) -> Response:
    """Families with their options (default first) and aliases, for the new-game picker."""
    families = [
        {"id": family, "description": DESCRIPTIONS.get(family, family),
         "options": {name: [_value(v) for v in values] for name, values in spec.items()}}
        for family, spec in OPTIONS.items()
    ]
    aliases = {alias: str(parse_variant(alias)) for alias in ALIASES}
    return JSONResponse({"families": families, "aliases": aliases})


def _stats_variant(wanted: object) -> str | None:
    """The canonical variant a statistics request names (None: every variant), or 400."""
    if wanted is None or wanted == "":
        return None
    if not isinstance(wanted, str):
        raise ApiError(400, f"variant must be a string like 'spider:suits=2', not {wanted!r}")
    try:
        return str(parse_variant(wanted))
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None


async def stats(request: Request) -> Response:
    """Statistics for ?variant=V (any spelling), or for every variant played so far and
    ``all``, the summary over every finished game."""
    store: GameStore = _service(request).store
    name = _stats_variant(request.query_params.get("variant"))
    try:
        if name is not None:
            return JSONResponse({"variants": [store.stats(name)]})
        names = store.variants_played()
        return JSONResponse({"variants": [store.stats(n) for n in names],
                             "all": store.stats_all()})
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None


async def reset_stats(request: Request) -> Response:
    """Forget the finished games of ``{"variant": V}``, or of every variant (body ``{}``)."""
    data = await read_json(request)
    unknown = sorted(set(data) - {"variant"})
    if unknown:
        raise ApiError(400, f"unknown field(s) {unknown}; valid: variant")
    try:
        removed = _service(request).store.reset_stats(_stats_variant(data.get("variant")))
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    return JSONResponse({"removed": removed})


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def _crash(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path)
    return JSONResponse({"error": "internal error; the game was not changed"}, status_code=500,
                        headers=dict(SECURITY_HEADERS))


def create_app(db_path: str) -> Starlette:
    """The web game over the SQLite database at ``db_path`` (created if missing)."""
    game = "/api/games/{game_id:str}"
    routes = [
        Route("/", index),
        Route("/api/variants", variants),
        Route("/api/stats", stats),
        Route("/api/stats/reset", reset_stats, methods=["POST"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route(game, get_game),
        Route(game + "/moves", play_move, methods=["POST"]),
        Route(game + "/undo", undo, methods=["POST"]),
        Route(game + "/redo", redo, methods=["POST"]),
        Route(game + "/resign", resign, methods=["POST"]),
        Route(game + "/reveal", reveal, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard)],
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _crash},
    )
    app.state.games = GameService(GameStore(db_path))
    return app
