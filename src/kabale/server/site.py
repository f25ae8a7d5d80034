"""What a hosted server (`kabale serve`) adds to the local one: its settings, the player of
each request (a cookie), and rate limits.

`kabale play` serves one person on a loopback address: every request is the local player's
(storage.db.LOCAL_PLAYER) and nothing is limited. `kabale serve` sets a :class:`Site`: then
:class:`Players` finds each request's player from the ``kabale_player`` cookie (and makes a
new anonymous player, setting the cookie, for a POST that has none), and :class:`Limits`
answers 429 with ``Retry-After`` to a player or an address that asks too often.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kabale.server.guard import _answer
from kabale.storage.db import LOCAL_PLAYER, GameStore, StorageError
from kabale.storage.limits import bucket_name, forget_full, take
from kabale.storage.players import delete_player, new_player, player_of_token
from kabale.storage.secret import server_secret

COOKIE = "kabale_player"
#: how long the browser keeps the cookie (browsers cap it at 400 days)
COOKIE_SECONDS = 400 * 24 * 3600
#: the one request that makes a new player when it comes without one: a new game (every
#: other route has nothing to do for nobody); it counts against the limit of new games, so
#: an address cannot make players faster than games
MAKES_PLAYER = "/api/games"


@dataclass(frozen=True, slots=True)
class Limits:
    """Requests per minute, per player; an address (many players behind one NAT) gets
    ``per_address`` times as many. 0: no limit."""

    games: int = 30
    moves: int = 600
    help: int = 60
    transfer: int = 10
    per_address: int = 5


@dataclass(frozen=True, slots=True)
class Site:
    """A hosted server's settings: the host names it answers to (lower case, without port;
    ``*`` any), the origins a page may call it from besides its own, the public origin
    (``https://cards.example``: cookies are Secure when it is https), the limits, and the
    operator's token."""

    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "[::1]")
    origins: tuple[str, ...] = ()
    public_origin: str | None = None
    limits: Limits = field(default_factory=Limits)
    #: the secret an operator sends (``Authorization: Bearer TOKEN``) to read the help
    #: engine's counters (``GET /api/help``); None: nobody reads them over HTTP
    operator_token: str | None = field(default=None, repr=False)

    @property
    def secure(self) -> bool:
        return bool(self.public_origin and self.public_origin.startswith("https://"))

    def host_allowed(self, host: str) -> bool:
        return "*" in self.allowed_hosts or host.lower() in self.allowed_hosts


def cookie_header(token: str | None, secure: bool) -> tuple[bytes, bytes]:
    """The Set-Cookie header giving the browser ``token`` (None: clearing it)."""
    value = f"{COOKIE}={token or ''}; Path=/; HttpOnly; SameSite=Lax; Max-Age="
    value += str(COOKIE_SECONDS if token else 0)
    if secure:
        value += "; Secure"
    return b"set-cookie", value.encode("latin-1")


def token_of(headers: Headers) -> str | None:
    """The player token the request's cookie holds, if any."""
    raw = headers.get("cookie")
    if not raw:
        return None
    # Read as browsers write it (starlette's parser, pair by pair), not by http.cookies,
    # which drops every cookie of a header holding one it finds malformed: another
    # application of the host setting a JSON or non-ASCII cookie would hide the player's,
    # and their next game would make a new player, losing every game of theirs.
    token = cookie_parser(raw).get(COOKIE)
    return token or None


class Players:
    """ASGI middleware: ``scope["state"]["player"]`` is the request's player: the local
    player without a Site; with one, the cookie's player, or for a new game (POST
    /api/games) without one a new player (its cookie set on the answer), else "" (nobody:
    no game is theirs)."""

    def __init__(self, app: ASGIApp, site: Site | None = None) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        if self.site is None:
            state["player"] = LOCAL_PLAYER
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if not path.startswith("/api/"):  # the page and its files need no player
            state["player"] = ""
            await self.app(scope, receive, send)
            return
        store: GameStore = scope["app"].state.games.store
        try:
            player, token = await self._player(store, token_of(Headers(scope=scope)),
                                               scope["method"] == "POST" and path == MAKES_PLAYER)
        except StorageError:
            await _answer(send, 503, "the game database cannot be used now; try again soon",
                          guarded=True)
            return
        state["player"] = player or ""
        if token is None:
            await self.app(scope, receive, send)
            return
        cookie = cookie_header(token, self.site.secure)
        made = False

        async def send_cookie(message: Message) -> None:
            nonlocal made
            if message["type"] == "http.response.start" and message["status"] == 201:
                made = True  # only a game made makes its player (every error changes nothing)
                message["headers"] = [*message.get("headers", []), cookie]
            await send(message)

        try:
            await self.app(scope, receive, send_cookie)
        finally:
            if not made and player:
                await self._unmake(store, player)

    @staticmethod
    async def _player(store: GameStore, cookie: str | None, make: bool
                      ) -> tuple[str | None, str | None]:
        """(the player of ``cookie``, None), or with ``make`` and no such player (a new
        player, its token); off the event loop for a remote store."""

        def find() -> tuple[str | None, str | None]:
            player = player_of_token(store, cookie)
            if player is None and make:
                return new_player(store)
            return player, None

        return await run_in_threadpool(find) if store.remote else find()

    @staticmethod
    async def _unmake(store: GameStore, player: str) -> None:
        """Remove the player just made for a new game that was refused (it has no game),
        so that a refused request leaves no player row behind."""
        try:
            if store.remote:
                await run_in_threadpool(delete_player, store, player)
            else:
                delete_player(store, player)
        except StorageError:
            pass  # a database that cannot be written now: an empty player, harmless


#: which limit a request counts against: (method, last part of the path) -> kind
_KINDS = {("POST", "games"): "games", ("POST", "replay"): "games",
          ("POST", "moves"): "moves", ("POST", "undo"): "moves", ("POST", "redo"): "moves",
          ("POST", "hint"): "help", ("GET", "chance"): "help", ("POST", "bot"): "help",
          ("GET", "postmortem"): "help", ("GET", "review"): "help", ("GET", "help"): "help",
          ("POST", "coach"): "help", ("POST", "analysis"): "help",
          ("POST", "redeem"): "transfer", ("POST", "transfer"): "transfer"}
MAX_BUCKETS = 100_000


def kind_of(method: str, path: str) -> str | None:
    """The limit a request to ``path`` counts against, or None."""
    if not path.startswith("/api/"):
        return None
    return _KINDS.get((method, path.rstrip("/").rsplit("/", 1)[-1]))


class Buckets:
    """Token buckets in this process's memory: ``rate`` per minute each, as many at once.
    Only the fallback of :class:`RateLimits` while the database cannot be used: then each
    web worker counts alone, and N workers allow up to N times the rate."""

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}

    def take(self, key: tuple[str, str], rate: int, now: float) -> float:
        """Take one token; 0 when granted, else the seconds until one is there."""
        per_second = rate / 60.0
        tokens, last = self._buckets.get(key, (float(rate), now))
        tokens = min(float(rate), tokens + (now - last) * per_second)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / per_second
        if len(self._buckets) >= MAX_BUCKETS and key not in self._buckets:
            self._buckets.clear()  # crude, bounded: a flood of addresses forgets the rest
        self._buckets[key] = (tokens - 1.0, now)
        return 0.0


#: how often each process deletes the buckets that are full again (seconds)
SWEEP_SECONDS = 60.0


class RateLimits:
    """ASGI middleware (outside Players, so that a refused request makes no player): 429
    with Retry-After when the request's player (known by their token, without asking the
    database who they are) or address has used its limit (Site.limits) for that kind of
    request. The buckets are rows of the game database (storage.limits), so every web
    worker and every server on the database counts together; while the database cannot be
    used, this process counts alone (:class:`Buckets`)."""

    def __init__(self, app: ASGIApp, site: Site | None = None) -> None:
        self.app = app
        self.site = site
        self.buckets = Buckets()
        self._secret: bytes | None = None
        self._swept = 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.site is None:
            await self.app(scope, receive, send)
            return
        kind = kind_of(scope["method"], scope["path"])
        rate = getattr(self.site.limits, kind) if kind else 0
        if kind and rate:
            client = scope.get("client")
            address = client[0] if client else "?"
            token = token_of(Headers(scope=scope))
            wanted = [("a:" + address, rate * self.site.limits.per_address)]
            if token:
                wanted.append(("p:" + token, rate))
            wait = await self._take(scope["app"].state.games.store, kind, wanted)
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                await _answer(send, 429, f"too many requests of this kind ({kind}); try again "
                              f"in {seconds} s", [(b"retry-after", str(seconds).encode())],
                              guarded=True)
                return
        await self.app(scope, receive, send)

    async def _take(self, store: GameStore, kind: str, wanted: list[tuple[str, int]]
                    ) -> float:
        """Take one request of ``kind`` from each bucket of ``wanted`` (who, rate); the
        seconds to wait (0: granted). Off the event loop for a remote store."""

        def shared() -> float:
            if self._secret is None:
                self._secret = server_secret(store, "limits")
            now = time.time()
            if now - self._swept >= SWEEP_SECONDS:
                self._swept = now
                forget_full(store, now)
            return take(store, [(bucket_name(self._secret, kind, who), per_minute)
                                for who, per_minute in wanted], now)

        try:
            return await run_in_threadpool(shared) if store.remote else shared()
        except StorageError:
            now = time.monotonic()
            return max(self.buckets.take((kind, who), per_minute, now)
                       for who, per_minute in wanted)
