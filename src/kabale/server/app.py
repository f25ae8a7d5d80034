"""The Starlette application: the JSON API of docs/api.md, a few page helpers, the page.

Every error answers ``{"error": "<reason>"}`` with a 4xx status and changes nothing:
bad JSON or an unknown variant 400, a request from elsewhere 403 and a POST that is not JSON
415 (both from :mod:`kabale.server.guard`), an unknown game id 404, an illegal or malformed
move 422, nothing to undo/redo or a finished game 409, a body over ``MAX_BODY`` bytes 413.
A database that cannot be read answers 503 for the requests that touch the damage, and so
does the advisor when its queue is full (the routes that help the player are in
:mod:`kabale.server.advice_api`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kabale.core.errors import KabaleError
from kabale.core.variants import ALIASES, DESCRIPTIONS, OPTIONS, parse_variant
from kabale.server import board_api, player_api
from kabale.server.deals import (
    SEARCH_SECONDS,
    DayNotOverError,
    parse_day,
    past_daily,
    utc_today,
)
from kabale.server.games import GameService
from kabale.server.guard import SECURITY_HEADERS, Guard
from kabale.server.handling import (
    ApiError,
    answer,
    daily_secret,
    game_error,
    player_of,
    read_json,
    service,
)
from kabale.server.site import Players, RateLimits, Site
from kabale.storage.db import GameStore, StorageError
from kabale.storage.pg import open_store
from kabale.storage.secret import server_secret

if TYPE_CHECKING:
    from kabale.server.advice import EffortSetting

#: the solver's compiled kernels, which a build without a C compiler lacks (setup.py)
SOLVER_KERNELS = ("kabale.solver._klondike", "kabale.solver._spider")
try:
    from kabale.server import advice_api, jobs_api, review_api
    from kabale.server.advice import Advisor
except ModuleNotFoundError as error:
    if error.name not in SOLVER_KERNELS:
        raise
    # The game works as ever; the help that needs the solver answers 503 with this reason.
    NO_SOLVER = error.msg
else:
    NO_SOLVER = ""

#: the routes that help the player (server.advice_api), each with its methods
HELP_ROUTES = {"hint": ["POST"], "chance": ["GET"], "bot": ["POST"], "postmortem": ["GET"],
               "review": ["GET"], "replay": ["POST"]}
STATIC = Path(__file__).parent / "static"
log = logging.getLogger("kabale.server")


async def create_game(request: Request) -> Response:
    data = await read_json(request)
    fields = {"variant", "seed", "deal_id", "winnable", "grade", "daily"}
    unknown = sorted(set(data) - fields)
    if unknown:
        raise ApiError(400, f"unknown field(s) {unknown}; valid: {', '.join(sorted(fields))}")
    if {"winnable", "grade", "daily"} & set(data):
        if NO_SOLVER:
            raise ApiError(503, NO_SOLVER, "no_solver")
        return await advice_api.create_chosen(request, data)
    variant, seed, deal_id = data.get("variant"), data.get("seed"), data.get("deal_id")
    if variant is not None and not isinstance(variant, str):
        raise ApiError(400, f"variant must be a string like 'spider:suits=2', not {variant!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ApiError(400, f"seed must be a whole number, not {seed!r}")
    if deal_id is not None and (not isinstance(deal_id, str) or variant or seed is not None):
        raise ApiError(400, "deal_id must be a string like 'klondike#7', given without variant"
                            " or seed")
    try:
        entry = await service(request).acreate(variant, seed, deal_id, player_of(request))
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None
    return answer(request, entry, status=201)


async def get_game(request: Request) -> Response:
    await read_json(request)
    try:
        entry = service(request).get(request.path_params["game_id"])
    except Exception as exc:
        raise game_error(exc) from None
    return answer(request, entry)


async def play_move(request: Request) -> Response:
    data = await read_json(request)
    text = data.get("move")
    if not isinstance(text, str) or not text.strip() or len(text) > 40:
        raise ApiError(422, f"body must be {{\"move\": \"<notation>\"}}, e.g. \"3>7\" or \"d\";"
                            f" got move={text!r}")
    try:
        entry, move = await service(request).aplay(request.path_params["game_id"], text)
    except Exception as exc:
        raise game_error(exc) from None
    return answer(request, entry, move)


async def explain_move(request: Request) -> Response:
    """``GET /api/games/{id}/explain?move=3:2>7``: why the rules refuse a move here, without
    playing it (nothing changes, no limit counts it): ``{"move", "legal", "reason",
    "words"}``, ``reason`` the refusal's key and parameters and ``words`` its English words
    (both None for a legal move); 422 for text that is not a move, 409 for a finished game."""
    await read_json(request)
    text = request.query_params.get("move")
    if not text or not text.strip() or len(text) > 40:
        raise ApiError(422, f"give the move as ?move=<notation>, e.g. \"3>7\" or \"d\"; "
                            f"got move={text!r}")
    try:
        refusal = service(request).refusal(request.path_params["game_id"], text)
    except Exception as exc:
        raise game_error(exc) from None
    return JSONResponse({"move": text, "legal": refusal is None,
                         "reason": None if refusal is None else refusal.to_dict(),
                         "words": None if refusal is None else refusal.text()})


async def _undo_redo(request: Request, redo: bool) -> Response:
    await read_json(request)
    games = service(request)
    game_id = request.path_params["game_id"]
    try:
        entry = games.get(game_id)
        if entry.status == "playing" and not (entry.game.can_redo if redo else entry.game.can_undo):
            raise ApiError(409, f"nothing to {'redo' if redo else 'undo'}")
        entry, move = await (games.aredo(game_id) if redo else games.aundo(game_id))
    except ApiError:
        raise
    except Exception as exc:
        raise game_error(exc) from None
    return answer(request, entry, move)


async def undo(request: Request) -> Response:
    return await _undo_redo(request, redo=False)


async def redo(request: Request) -> Response:
    return await _undo_redo(request, redo=True)


async def reveal(request: Request) -> Response:
    """Show the deal id from now on (to share a link to the deal); recorded on the game."""
    await read_json(request)
    try:
        entry = await service(request).areveal(request.path_params["game_id"])
    except Exception as exc:
        raise game_error(exc) from None
    return answer(request, entry)


async def resign(request: Request) -> Response:
    await read_json(request)
    try:
        entry = await service(request).aresign(request.path_params["game_id"])
    except Exception as exc:
        raise game_error(exc) from None
    return answer(request, entry)


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
    ``all``, the summary over every finished game; worked out in a thread (0.5 s over
    50,000 games), so the event loop serves everyone else meanwhile."""
    store: GameStore = service(request).store
    name = _stats_variant(request.query_params.get("variant"))
    try:
        return JSONResponse(await run_in_threadpool(_stats_of, store, name,
                                                    player_of(request)))
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None


def _stats_of(store: GameStore, name: str | None, player: str) -> dict[str, Any]:
    today = utc_today()  # the daily deals' days are UTC days (server.deals)
    if name is not None:
        return {"variants": [store.stats(name, today, player)]}
    return {"variants": [store.stats(n, today, player) for n in store.variants_played(player)],
            "all": store.stats_all(player)}


def fetching(endpoint: Callable[[Request], Awaitable[Response]],
             ) -> Callable[[Request], Awaitable[Response]]:
    """``endpoint`` of a game's route, with its game loaded off the event loop first
    (GameService.fetch); a game that cannot be loaded is answered as the routes answer it."""

    async def route(request: Request) -> Response:
        try:
            # another player's game is answered as an unknown one: 404
            entry = await service(request).fetch(request.path_params["game_id"],
                                                 player_of(request))
            request.state.help_until = entry.help_until
        except Exception as exc:
            raise game_error(exc) from None
        return await endpoint(request)

    route.__name__ = route.__qualname__ = endpoint.__name__
    route.__doc__ = endpoint.__doc__
    return route


async def reset_stats(request: Request) -> Response:
    """Forget the finished games of ``{"variant": V}``, or of every variant (body ``{}``)."""
    data = await read_json(request)
    unknown = sorted(set(data) - {"variant"})
    if unknown:
        raise ApiError(400, f"unknown field(s) {unknown}; valid: variant")
    try:
        removed = service(request).store.reset_stats(_stats_variant(data.get("variant")),
                                                     player_of(request))
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    return JSONResponse({"removed": removed})


async def daily_past(request: Request) -> Response:
    """``GET /api/daily/past?variant=V&date=YYYY-MM-DD``: a past day's daily deal with its
    proof (server.deals.past_daily); 409 while the day is not over (UTC), 400 bad input."""
    query = request.query_params
    wanted, day = query.get("variant"), query.get("date")
    if not wanted or not day:
        raise ApiError(400, "give variant and date, e.g. ?variant=klondike&date=2024-05-01")
    variant = _stats_variant(wanted)
    try:
        date = parse_day(day)
        return JSONResponse(past_daily(parse_variant(str(variant)), date,
                                       daily_secret(request), utc_today()))
    except DayNotOverError as exc:
        raise ApiError(409, str(exc)) from None
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def service_worker(request: Request) -> Response:
    """The installable page's service worker, served at the root so that its scope is the
    whole page (static/sw.js: it keeps only the page's own files, never a game)."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    body: dict[str, Any] = {"error": exc.message}
    if exc.code is not None:
        body["code"] = exc.code
    if exc.reason is not None:
        body["reason"] = exc.reason
    if exc.retry_after is None:
        return JSONResponse(body, status_code=exc.status)
    body["retry_after"] = exc.retry_after
    return JSONResponse(body, status_code=exc.status,
                        headers={"Retry-After": str(exc.retry_after)})


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def _crash(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path)
    return JSONResponse({"error": "internal error; the game was not changed"}, status_code=500,
                        headers=dict(SECURITY_HEADERS))


async def _no_solver(request: Request) -> Response:
    """A route that helps the player, in a kabale built without the solver."""
    raise ApiError(503, NO_SOLVER, "no_solver")


def _changes(endpoint: Callable[[Request], Awaitable[Response]], new: bool = False,
             ) -> Callable[[Request], Awaitable[Response]]:
    """``endpoint``, cancelling the player's help for the positions it leaves
    (server.jobs_api) when there is an advisor."""
    if NO_SOLVER:
        return endpoint
    return jobs_api.starting(endpoint) if new else jobs_api.leaving(endpoint)


def create_app(db_path: str, effort: EffortSetting = "quick",
               search_seconds: float = SEARCH_SECONDS, site: Site | None = None,
               advice_workers: int = 2, engine: str | None = None,
               scheduler: str | None = None, shared_help: bool = False) -> Starlette:
    """The web game over the SQLite database at ``db_path`` (created if missing; or a
    postgresql:// URL, storage.pg); with
    ``site`` a hosted server of many players (server.site), else `kabale play`'s one; the
    advisor thinks at ``effort`` (a level's name, or an Effort per family, for tests), and a
    request for a chosen deal looks for at most about ``search_seconds``. In a
    kabale built without the solver's kernels, ``app.state.advisor`` is None and the help
    answers 503 with code "no_solver". The help runs as jobs on ``engine`` ("local" worker
    processes, or "dask" at the ``scheduler`` address; by default from
    ``KABALE_ADVICE_ENGINE`` and ``KABALE_ADVICE_SCHEDULER``, else local). With
    ``shared_help`` (other web processes serve the same database) the help is stopped and
    the reviews are read across them (server.helpshare)."""
    game = "/api/games/{game_id:str}"
    routes = [
        Route("/", index),
        Route("/sw.js", service_worker),
        Route("/api/variants", variants),
        Route("/api/stats", stats),
        Route("/api/stats/reset", reset_stats, methods=["POST"]),
        Route("/api/daily/past", daily_past),
        Route("/api/leaderboard", board_api.leaderboard),
        Route("/api/player/settings", player_api.settings, methods=["POST"]),
        Route("/leaderboard", board_api.page),
        Route("/api/games", _changes(create_game, new=True), methods=["POST"]),
        Route(game, fetching(get_game)),
        Route(game + "/moves", fetching(_changes(play_move)), methods=["POST"]),
        Route(game + "/explain", fetching(explain_move)),
        Route(game + "/undo", fetching(_changes(undo)), methods=["POST"]),
        Route(game + "/redo", fetching(_changes(redo)), methods=["POST"]),
        Route(game + "/resign", fetching(_changes(resign)), methods=["POST"]),
        Route(game + "/reveal", fetching(reveal), methods=["POST"]),
        *(Route(f"{game}/{name}", fetching(_no_solver if NO_SOLVER else jobs_api.watching(
            getattr(advice_api, name))), methods=methods) for name, methods in HELP_ROUTES.items()),
        Route(game + "/help", fetching(_no_solver if NO_SOLVER else jobs_api.cancel_help),
              methods=["DELETE"]),
        Route("/api/help", _no_solver if NO_SOLVER else jobs_api.help_status),
        Route(game + "/analysis", fetching(_no_solver if NO_SOLVER else review_api.analysis),
              methods=["GET", "POST"]),
        Route(game + "/coach", fetching(_no_solver if NO_SOLVER else jobs_api.watching(
            review_api.coach)), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if site is not None:
        routes[-1:-1] = [
            Route("/api/player", player_api.me),
            Route("/api/player/nickname", player_api.nickname, methods=["POST"]),
            Route("/api/player/transfer", player_api.transfer, methods=["POST"]),
            Route("/api/player/redeem", player_api.redeem, methods=["POST"]),
            Route("/api/player/delete", player_api.delete, methods=["POST"]),
        ]
    advisor = None
    if not NO_SOLVER:
        from kabale.server.jobservice import engine_setting

        engine, address = engine_setting(engine, scheduler)
        advisor = Advisor(effort, workers=advice_workers, search_seconds=search_seconds,
                          engine=engine, scheduler=address)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        if getattr(app.state, "reviews", None) is not None:
            app.state.reviews.close()  # the reviews in progress say so; their jobs stop next
        if advisor is not None:
            await advisor.aclose()  # `kabale play` runs without a lifespan: closes it itself
        if app.state.help_control is not None:
            app.state.help_control.close()

    app = Starlette(
        routes=routes,
        # Compressed answers (the page's scripts and styles are about 3x smaller): a
        # response's length follows only what it holds, which is what its player may see.
        middleware=[Middleware(Guard, site=site), Middleware(GZipMiddleware, minimum_size=800),
                    Middleware(RateLimits, site=site), Middleware(Players, site=site)],
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _crash},
        lifespan=lifespan,
    )
    app.state.advisor = advisor
    app.state.site = site
    store = open_store(db_path)
    app.state.games = GameService(store)
    app.state.help_control = None
    if shared_help and advisor is not None:
        from kabale.server.helpshare import HelpControl

        app.state.help_control = HelpControl(store)
        app.state.help_control.attach(advisor.jobs)
        advisor.answers = app.state.help_control
    # Made on the first start and kept in the database (storage.secret): the daily deals.
    # A database that cannot be written now is tried again by the first daily request.
    try:
        app.state.daily_secret = server_secret(store, "daily")
    except StorageError:
        app.state.daily_secret = None
    return app
