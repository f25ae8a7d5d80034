"""The routes that help the player (docs/api.md, "Advice over HTTP"): chosen deals (winnable,
graded, daily), hints, the win chance, the bot's moves for the demo, and the look back at a
finished game (post-mortem, its positions face up, replaying it from a move).

The advisor thinks in its pool (server.advice), never on the event loop; a full pool
answers 503. While a game is in play nothing here sends a card the player has not seen:
hints, chances and bot moves are moves in notation and numbers, made from the player's view.
Only once the game is over (won, or given up: it can no longer change) do the post-mortem and
the review show the whole deal; they change nothing, so they are GET routes.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from kabale.core.errors import KabaleError
from kabale.core.game import Game
from kabale.core.variants import Variant, parse_variant
from kabale.server.advice import Advisor, position_key
from kabale.server.deals import (
    DealInfo,
    NoDealFoundError,
    check_day,
    check_grade,
    daily_seed,
    info_for,
    measure,
    secret_game,
    utc_today,
)
from kabale.server.games import Entry
from kabale.server.handling import (
    ApiError,
    answer,
    daily_secret,
    game_error,
    player_of,
    read_json,
    service,
)
from kabale.server.jobs_api import left_everywhere, player_key, refusal
from kabale.server.moved import game_facts, line_facts
from kabale.storage.db import GameStore, StorageError
from kabale.storage.secret import daily_played, daily_was_shown

#: the most moves a review's "then" may list
MAX_THEN = 1000


def _advisor(request: Request) -> Advisor:
    advisor: Advisor = request.app.state.advisor
    return advisor


async def _think(request: Request, work: Any) -> Any:
    """Await an advisor job, mapping its refusals to answers (server.jobs_api)."""
    try:
        return await work
    except NoDealFoundError as exc:
        raise ApiError(503, str(exc), "no_deal") from None
    except KabaleError as exc:
        raise refusal(exc) from None


def _playing(request: Request) -> Entry:
    """The game named in the path, which must be in play (409 otherwise)."""
    try:
        entry = service(request).get(request.path_params["game_id"])
    except Exception as exc:
        raise game_error(exc) from None
    if entry.status != "playing" or entry.game.outcome != "playing":
        raise ApiError(409, f"game {entry.id!r} is over ({entry.status}); nothing to help with")
    return entry


def _over(request: Request) -> Entry:
    """The game named in the path, which must be over: won, or lost (given up) for good; 409
    otherwise. A game whose position is lost but that can still be undone is not over: its
    player must give it up first. So looking back (post-mortem, review, replay) changes
    nothing, and nothing seen face up can be used in the game afterwards."""
    try:
        entry = service(request).get(request.path_params["game_id"])
    except Exception as exc:
        raise game_error(exc) from None
    if entry.status == "playing":
        still = ("can still be undone; resign it first" if entry.game.outcome != "playing"
                 else "is still being played")
        raise ApiError(409, f"game {entry.id!r} {still}: looking back reads the hidden "
                            "cards, so it comes once the game is over")
    return entry


# ------------------------------------------------------------------------- chosen deals

@lru_cache(maxsize=64)
def daily_info(variant: Variant, date: dt.date, seed: int) -> DealInfo:
    """How the day's deal of a variant, deal ``seed``, grades (the same deal for every
    player of the server)."""
    return info_for(variant, measure(variant, seed), date.isoformat())


def _chosen_request(data: dict[str, Any]) -> tuple[Variant, bool, str | None, object]:
    """(variant, winnable, grade, daily) of a request for a chosen deal, or 400."""
    winnable, grade, daily = data.get("winnable"), data.get("grade"), data.get("daily")
    if data.get("seed") is not None or data.get("deal_id") is not None:
        raise ApiError(400, "give a seed or deal_id, or ask for a winnable, graded or daily "
                            "deal, not both")
    if winnable is not None and not isinstance(winnable, bool):
        raise ApiError(400, f"winnable must be true or false, not {winnable!r}")
    if daily is not None and daily is not False and (winnable or grade is not None):
        raise ApiError(400, "the daily deal is the same for everyone: it cannot also be "
                            "chosen winnable or by grade")
    variant = data.get("variant", "klondike")
    if not isinstance(variant, str):
        raise ApiError(400, f"variant must be a string like 'spider:suits=2', not {variant!r}")
    try:
        parsed = parse_variant(variant)
        chosen_grade = check_grade(grade) if grade is not None else None
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None
    return parsed, bool(winnable), chosen_grade, daily


async def create_chosen(request: Request, data: dict[str, Any]) -> Response:
    """``POST /api/games`` with ``winnable``, ``grade`` or ``daily`` (docs/api.md, "Advice
    over HTTP")."""
    variant, winnable, grade, daily = _chosen_request(data)
    advisor = _advisor(request)
    try:
        assisted = False
        if daily is not None and daily is not False:
            date = check_day(daily, utc_today())
            seed = daily_seed(variant, date, daily_secret(request))
            info = await _think(request, advisor.cached(
                ("daily", str(variant), str(date)), daily_info, variant, date, seed))
            game = secret_game(variant, seed)
            # A daily deal counts once per player: after a game of theirs showed its cards
            # (it ended, or its number was revealed) or some of them (it was played), a new
            # game of it is played knowing them. Off the loop for a remote store.
            deal = (service(request).store, str(variant), date.isoformat(), player_of(request))
            assisted = (await run_in_threadpool(_daily_seen, *deal) if deal[0].remote
                        else _daily_seen(*deal))
        elif winnable or grade is not None:
            seed, info = await _think(request, advisor.chosen_deal(variant, grade))
            game = secret_game(variant, seed)
        else:  # every choice false or null: a plain random deal
            game, info = Game.new(variant), DealInfo()
        entry = await service(request).astart(game, assisted=assisted, daily=info.daily,
                                              info=info.to_dict(), player=player_of(request))
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    except KabaleError as exc:
        raise ApiError(400, str(exc)) from None
    return answer(request, entry, status=201)


def _daily_seen(store: GameStore, variant: str, day: str, player: str) -> bool:
    """Has ``player`` seen cards of that daily deal in another game of theirs?"""
    return (daily_was_shown(store, variant, day, player)
            or daily_played(store, variant, day, player))


# ------------------------------------------------------------------------- during play

async def hint(request: Request) -> Response:
    """``POST /api/games/{id}/hint``: the advisor's best move with its reason and the other
    moves ranked; the game is marked assisted."""
    await read_json(request)
    entry = _playing(request)
    found = await _think(request, _advisor(request).hint(entry.id, entry.game,
                                                               player_key(request)))
    try:
        entry = await service(request).aassist(entry.id)
    except Exception as exc:
        raise game_error(exc) from None
    return answer(request, entry, hint=found.to_dict())


async def chance(request: Request) -> Response:
    """``GET /api/games/{id}/chance``: the chance the position can still be won, from what
    the player has seen, with its 95% interval (the page's meter); a game in play is marked
    assisted."""
    await read_json(request)
    try:
        entry = service(request).get(request.path_params["game_id"])
    except Exception as exc:
        raise game_error(exc) from None
    found = await _think(request, _advisor(request).chance(entry.id, entry.game,
                                                                 player_key(request)))
    if entry.status == "playing":
        # The win chance is help too (it says whether a line can still be won): a game it
        # was asked in has no place on the daily leaderboards (storage.leaderboard).
        try:
            entry = await service(request).aassist(entry.id)
        except Exception as exc:
            raise game_error(exc) from None
    return JSONResponse({"id": entry.id, "moves_made": entry.game.moves_made,
                         "chance": found.to_dict()})


async def bot(request: Request) -> Response:
    """``POST /api/games/{id}/bot``: the bot plays its next move (the demo), answered as a
    move is; ``bot.move`` is null when it gives up (nothing it can do shows a card or wins).
    The game is marked assisted."""
    await read_json(request)
    entry = _playing(request)
    history = entry.game.history
    advisor = _advisor(request)
    if not advisor.claim(entry.id):
        raise ApiError(409, "the bot is already thinking about this game")
    try:
        move = await _think(request, advisor.bot_move(entry.id, entry.game,
                                                             player_key(request)))
    finally:
        advisor.release(entry.id)
    games = service(request)
    try:
        entry = await games.aassist(entry.id)
        if move is None:
            return answer(request, entry, bot={"move": None})
        if entry.game.history != history or entry.status != "playing":
            raise ApiError(409, "the game changed while the bot was thinking; ask again")
        entry, played = await games.aplay(entry.id, move, history)
    except ApiError:
        raise
    except Exception as exc:
        raise game_error(exc) from None
    # the bot's move leaves the position as the player's would (server.jobs_api.leaving)
    await left_everywhere(request, entry.id,
                          position_key(entry.game) if entry.status == "playing" else None)
    return answer(request, entry, played, bot={"move": played})


# ------------------------------------------------------------------------- after the game

def open_observation(game: Game) -> dict[str, Any]:
    """The observation with every card face up (a finished game's deal turned over)."""
    obs = game.observe()
    state = game.state
    obs["columns"] = [[str(card) for card in pile] for pile in state.columns]
    obs["stock_cards"] = [str(card) for card in state.stock]
    obs["face_up"] = True
    return obs


async def postmortem(request: Request) -> Response:
    """``GET /api/games/{id}/postmortem`` (409 while playing): was the deal winnable, the
    move that lost the win, a winning line from just before it, and the game's moves, with
    what each of them and of the line moved (server.moved), for the page to say in words."""
    await read_json(request)
    entry = _over(request)
    found = await _think(request, _advisor(request).postmortem(entry.id, entry.game,
                                                                     player_key(request)))
    game = entry.game
    at = found.lost_at if found.lost_at is not None else game.moves_made
    return JSONResponse({"id": entry.id, "deal_id": game.deal_id,
                         "moves": [str(m) for m in game.history],
                         "facts": game_facts(game),
                         "line_facts": line_facts(game, at, found.line_before),
                         "postmortem": found.to_dict()})


def _count(text: str | None, name: str, high: int) -> int:
    if text is None:
        return high
    # the leading zeros go first: int() refuses text of over 4,300 digits (a 500 before)
    digits = text.lstrip("0") or "0"
    if not (text.isascii() and text.isdigit()) or len(digits) > 6 or int(digits) > high:
        raise ApiError(400, f"{name} must be a move number 0..{high}, not {text!r}")
    return int(digits)


async def review(request: Request) -> Response:
    """``GET /api/games/{id}/review?at=I&then=M1,M2`` (409 while playing): the position after
    the game's first I moves (all of them by default) and then the moves listed, face up."""
    await read_json(request)
    entry = _over(request)
    game = entry.game.copy()
    at = _count(request.query_params.get("at"), "at", game.moves_made)
    while game.moves_made > at:
        game.undo()
    then = [m for m in request.query_params.get("then", "").split(",") if m.strip()]
    if len(then) > MAX_THEN:
        raise ApiError(400, f"then lists {len(then)} moves; at most {MAX_THEN}")
    for i, text in enumerate(then):
        try:
            game.play(text.strip())
        except KabaleError as exc:
            raise ApiError(422, f"then, move {i + 1}: {exc}") from None
    return JSONResponse({"id": entry.id, "at": at, "then": len(then),
                         "observation": open_observation(game),
                         "moves": [m.explicit() for m in game.legal_moves()]})


async def replay(request: Request) -> Response:
    """``POST /api/games/{id}/replay`` body ``{"at": I}`` (409 while playing): a new game of
    the same deal after its first I moves, assisted from the start (the player has seen the
    deal face up), its deal id known. A replay of a daily deal is not that day's game."""
    data = await read_json(request)
    entry = _over(request)
    unknown = sorted(set(data) - {"at"})
    if unknown:
        raise ApiError(400, f"unknown field(s) {unknown}; valid: at")
    at = data.get("at", 0)
    moves = entry.game.history
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(moves):
        raise ApiError(400, f"at must be a move number 0..{len(moves)}, not {at!r}")
    fresh = entry.game.opening(at)  # its positions are kept: replaying them took 0.7 s
    fresh.reveal()
    try:
        new = await service(request).astart(fresh, assisted=True, player=entry.player,
                                            info={**entry.info, "replay_of": entry.id,
                                                  "from": at})
    except StorageError as exc:
        raise ApiError(503, str(exc)) from None
    return answer(request, new, status=201)
