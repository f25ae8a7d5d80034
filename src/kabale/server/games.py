"""The games the server plays: a write-through cache of live Game objects over the store.

Every change (new game, move, undo, redo, resign) is written to the database before the
method returns, so the answer the page sees is always what a restarted server would load.
What leaves this module for the client is built by :func:`payload`: the observation (hidden
cards never included) plus a few page helpers that reveal nothing hidden.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Generator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from kabale.core.errors import IllegalMoveError, KabaleError, quoted
from kabale.core.game import Game
from kabale.core.refusal import Refusal
from kabale.server.deals import DealInfo, utc_today
from kabale.storage.db import (
    LOCAL_PLAYER,
    GameNotFoundError,
    GameStore,
    StaleGameError,
    StoredGame,
)
from kabale.storage.helpstate import owner_help
from kabale.storage.secret import daily_played, daily_was_shown, mark_daily_shown

#: Idle gaps longer than this count only this long towards a game's elapsed time (seconds).
IDLE_CAP = 120.0
CACHE_SIZE = 256

T = TypeVar("T")
#: a store call: the function, its positional and its keyword arguments
Call = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]
#: a change of a game: yields its store calls, is sent their results, returns its result
Steps = Generator[Call, Any, T]


class GameOverError(KabaleError):
    """The game is finished (won or resigned); it takes no more moves."""


@dataclass(slots=True)
class Entry:
    """A live game: the Game, its status in the store, play-time bookkeeping, whether the
    player had help (``assisted``), and how its deal was chosen (``info``, see
    server.deals.DealInfo; ``daily`` its date for a daily deal)."""

    id: str
    game: Game
    status: str
    elapsed: float
    last_active: float
    assisted: bool = False
    daily: str | None = None
    info: dict[str, Any] = field(default_factory=dict)
    player: str = LOCAL_PLAYER
    rev: int = 0
    #: until when help may be in flight for the game, by any server process of the
    #: database (storage.helpstate), as the last read of its owner said (0: none)
    help_until: float = 0.0

    @classmethod
    def of(cls, stored: StoredGame) -> Entry:
        """The live entry of a game read from the store."""
        return cls(stored.id, stored.game, stored.status, stored.elapsed, time.time(),
                   stored.assisted, stored.daily, stored.info or {}, stored.player, stored.rev)

    def tick(self, now: float) -> None:
        """Add the time since the last action (capped at IDLE_CAP) to ``elapsed``."""
        self.elapsed += min(max(now - self.last_active, 0.0), IDLE_CAP)
        self.last_active = now


class GameService:
    """Create, load and change games; every change is committed before returning."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._cache: OrderedDict[str, Entry] = OrderedDict()
        self._loading: dict[str, asyncio.Future[StoredGame]] = {}
        #: the lock of each game with a change in flight, and how many hold or wait for it
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    def _remember(self, entry: Entry) -> Entry:
        self._cache[entry.id] = entry
        self._cache.move_to_end(entry.id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return entry

    def create(self, variant: str | None = None, seed: int | None = None,
               deal_id: str | None = None, player: str = LOCAL_PLAYER) -> Entry:
        """Deal a new game of ``player`` (by variant and optional seed, or by deal id) and
        store it."""
        return self.start(self._deal(variant, seed, deal_id), player=player)

    async def acreate(self, variant: str | None = None, seed: int | None = None,
                      deal_id: str | None = None, player: str = LOCAL_PLAYER) -> Entry:
        """:meth:`create`, its write off the event loop for a remote store."""
        return await self.astart(self._deal(variant, seed, deal_id), player=player)

    @staticmethod
    def _deal(variant: str | None, seed: int | None, deal_id: str | None) -> Game:
        if deal_id is not None:
            return Game.from_deal_id(deal_id)
        return Game.new(variant if variant is not None else "klondike", seed)

    def start(self, game: Game, *, assisted: bool = False, daily: str | None = None,
              info: dict[str, Any] | None = None, player: str = LOCAL_PLAYER) -> Entry:
        """Store ``game`` as a new game of ``player`` in play (see Entry for the rest) and
        return it."""
        return self._run(self._start(game, assisted, daily, info, player))

    async def astart(self, game: Game, *, assisted: bool = False, daily: str | None = None,
                     info: dict[str, Any] | None = None, player: str = LOCAL_PLAYER) -> Entry:
        """:meth:`start`, its write off the event loop for a remote store."""
        return await self._arun(None, self._start(game, assisted, daily, info, player))

    def _start(self, game: Game, assisted: bool, daily: str | None,
               info: dict[str, Any] | None, player: str) -> Steps[Entry]:
        game_id = secrets.token_urlsafe(18)
        now = time.time()
        info = info or {}
        yield self.store.add, (game_id, game, now), {
            "assisted": assisted, "daily": daily, "info": info, "player": player}
        return self._remember(Entry(game_id, game, "playing", 0.0, now, assisted, daily, info,
                                    player, 0))

    # -- how a change's store calls are made ---------------------------------------------
    #
    # Each change of a game is written once, as a generator of steps: it changes the live
    # entry itself and yields each store call it needs (a function, its arguments), to be
    # sent back the call's result (or thrown its error). _run makes the calls in place (the
    # plain methods); _arun (the a* methods, which the routes use) makes them in a thread
    # when the store is remote (PostgreSQL: a round trip to another machine), so the event
    # loop serves everyone else meanwhile, while the entry is changed on the event loop
    # only. A per-game lock keeps the changes of one game from interleaving across their
    # store calls: the next change of a game starts from the written revision.

    @staticmethod
    def _run(steps: Steps[T]) -> T:
        """Drive ``steps``, making each store call here."""
        value: Any = None
        error: Exception | None = None
        while True:
            try:
                call = steps.send(value) if error is None else steps.throw(error)
            except StopIteration as done:
                result: T = done.value
                return result
            value, error = None, None
            try:
                value = call[0](*call[1], **call[2])
            except Exception as exc:
                error = exc

    async def _arun(self, game_id: str | None, steps: Steps[T]) -> T:
        """Drive ``steps`` holding ``game_id``'s lock (none for a new game), each store call
        off the event loop for a remote store."""
        async with self._turn(game_id):
            value: Any = None
            error: Exception | None = None
            while True:
                try:
                    call = steps.send(value) if error is None else steps.throw(error)
                except StopIteration as done:
                    result: T = done.value
                    return result
                value, error = None, None
                try:
                    if self.store.remote:
                        value = await run_in_threadpool(call[0], *call[1], **call[2])
                    else:
                        value = call[0](*call[1], **call[2])
                except Exception as exc:
                    error = exc

    @asynccontextmanager
    async def _turn(self, game_id: str | None) -> AsyncIterator[None]:
        """Hold the lock of ``game_id`` (nothing for None); made on first use, dropped when
        nobody holds or waits for it."""
        if game_id is None:
            yield
            return
        lock, users = self._locks.get(game_id, (asyncio.Lock(), 0))
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[game_id]
            if users > 1:
                self._locks[game_id] = (lock, users - 1)
            else:
                del self._locks[game_id]

    # -- reading -------------------------------------------------------------------------

    def get(self, game_id: str) -> Entry:
        """The live game with this id, loaded from the store if needed."""
        entry = self._cache.get(game_id)
        if entry is None:
            entry = Entry.of(self.store.load(game_id))
        return self._remember(entry)

    def forget(self, player: str) -> None:
        """Drop every cached game of ``player`` (their data was deleted)."""
        for game_id in [k for k, e in self._cache.items() if e.player == player]:
            self._cache.pop(game_id, None)

    async def fetch(self, game_id: str, player: str = LOCAL_PLAYER) -> Entry:
        """:meth:`get` for ``player``: another player's game, like an unknown one, raises
        GameNotFoundError with the same words. The game is read again when another process
        (a second web worker or server on the same database) wrote it since it was cached:
        its revision tells. A load from the store runs in a thread: loading replays every
        move of the save (0.3-0.4 s for 10,000), and the event loop serves everyone else
        meanwhile. Requests for a game being loaded share its one load, so that no two live
        copies of a game ever take moves."""
        # A round trip to another machine is made off the event loop; SQLite's read of one
        # indexed row costs less than the hop to a thread.
        owner = (await run_in_threadpool(owner_help, self.store, game_id)
                 if self.store.remote else owner_help(self.store, game_id))
        if owner is None or owner[0] != player:
            raise GameNotFoundError(f"no game with id {quoted(game_id)}")
        cached = self._cache.get(game_id)
        if cached is not None and cached.rev != owner[1] and game_id not in self._locks:
            # (a change of this process in flight has written a newer revision than its
            # entry knows yet: that entry is the newest, and is kept)
            self._cache.pop(game_id, None)
        if game_id not in self._cache:
            pending = self._loading.get(game_id)
            if pending is None:
                pending = asyncio.ensure_future(run_in_threadpool(self.store.load, game_id))
                self._loading[game_id] = pending
                pending.add_done_callback(lambda _: self._loading.pop(game_id, None))
            stored = await asyncio.shield(pending)
            if game_id not in self._cache:  # the first of the requests that shared the load
                self._remember(Entry.of(stored))
        entry = self.get(game_id)
        entry.help_until = owner[2]
        return entry

    def _open(self, game_id: str) -> Entry:
        entry = self.get(game_id)
        if entry.status != "playing":
            raise GameOverError(f"game {game_id!r} is over ({entry.status}); start a new one")
        return entry

    def refusal(self, game_id: str, text: str) -> Refusal | None:
        """Why the rules refuse the move ``text`` in the game, or None when it is legal,
        without playing it: nothing changes (Game.refusal). GameOverError for a finished
        game, NotationError for text that is not a move."""
        return self._open(game_id).game.refusal(text)

    # -- changes -------------------------------------------------------------------------

    def play(self, game_id: str, text: str) -> tuple[Entry, str]:
        """Play one move given in notation; returns the entry and the move's canonical text."""
        return self._run(self._play(game_id, text, None))

    async def aplay(self, game_id: str, text: str, history: list[Any] | None = None
                    ) -> tuple[Entry, str]:
        """:meth:`play`, its write off the event loop for a remote store; with
        ``history``, only when the game's moves are still those (StaleGameError if not)."""
        return await self._arun(game_id, self._play(game_id, text, history))

    def _play(self, game_id: str, text: str, history: list[Any] | None
              ) -> Steps[tuple[Entry, str]]:
        entry = self._open(game_id)
        if history is not None and entry.game.history != history:
            raise StaleGameError("the game changed while the bot was thinking; ask again")
        if entry.game.moves_made == 0 and entry.elapsed == 0 and not entry.game.can_redo:
            # The clock starts at the first move, not when the cards were dealt.
            entry.last_active = time.time()
        move = entry.game.play(text)
        return (yield from self._after_change(entry)), str(move)

    def undo(self, game_id: str) -> tuple[Entry, str]:
        """Take back the last move; IllegalMoveError when there is none."""
        return self._run(self._undo_redo(game_id, redo=False))

    def redo(self, game_id: str) -> tuple[Entry, str]:
        """Play again the last move taken back; IllegalMoveError when there is none."""
        return self._run(self._undo_redo(game_id, redo=True))

    async def aundo(self, game_id: str) -> tuple[Entry, str]:
        """:meth:`undo`, its write off the event loop for a remote store."""
        return await self._arun(game_id, self._undo_redo(game_id, redo=False))

    async def aredo(self, game_id: str) -> tuple[Entry, str]:
        """:meth:`redo`, its write off the event loop for a remote store."""
        return await self._arun(game_id, self._undo_redo(game_id, redo=True))

    def _undo_redo(self, game_id: str, redo: bool) -> Steps[tuple[Entry, str]]:
        entry = self._open(game_id)
        if not (entry.game.can_redo if redo else entry.game.can_undo):
            raise IllegalMoveError(f"nothing to {'redo' if redo else 'undo'}")
        move = entry.game.redo() if redo else entry.game.undo()
        return (yield from self._after_change(entry)), str(move)

    def resign(self, game_id: str) -> Entry:
        """Give the game up: it counts as lost in the statistics, and the game being over,
        its deal id is no secret any more."""
        return self._run(self._resign(game_id))

    async def aresign(self, game_id: str) -> Entry:
        """:meth:`resign`, its writes off the event loop for a remote store."""
        return await self._arun(game_id, self._resign(game_id))

    def _resign(self, game_id: str) -> Steps[Entry]:
        entry = self._open(game_id)
        entry.tick(time.time())
        entry.status = "lost"
        entry.game.reveal()
        yield from self._write(entry)
        yield from self._shown(entry)
        return entry

    def reveal(self, game_id: str) -> Entry:
        """Show the game's deal id from now on (the page's "Copy link"); kept in the save.
        Mid-game the id gives every hidden card, so the game counts as played with help
        from then on (and a daily deal's later games too)."""
        return self._run(self._reveal(game_id))

    async def areveal(self, game_id: str) -> Entry:
        """:meth:`reveal`, its writes off the event loop for a remote store."""
        return await self._arun(game_id, self._reveal(game_id))

    def _reveal(self, game_id: str) -> Steps[Entry]:
        entry = self.get(game_id)
        if not entry.game.deal_known:
            if entry.status == "playing":
                yield from self._assist(entry)
            entry.game.reveal()
            yield from self._write(entry)
            yield from self._shown(entry)
        return entry

    def assist(self, game_id: str) -> Entry:
        """Mark the game as one the player had help in (statistics keep it apart)."""
        return self._run(self._assist(self.get(game_id)))

    async def aassist(self, game_id: str) -> Entry:
        """:meth:`assist`, its write off the event loop for a remote store."""
        return await self._arun(game_id, self._assisting(game_id))

    def _assisting(self, game_id: str) -> Steps[Entry]:
        return (yield from self._assist(self.get(game_id)))

    def _assist(self, entry: Entry) -> Steps[Entry]:
        """Mark ``entry``'s game assisted; the entry that is now this game's live copy."""
        if not entry.assisted:
            try:
                entry.rev = yield self.store.mark_assisted, (entry.id, entry.rev), {}
            except StaleGameError:
                # Another process wrote the game since this copy was read, most often the
                # same mark (one hint asked through two web workers at once). The mark is
                # set for good and changes no move, so it goes on the game as stored now,
                # read again, instead of refusing the player's help with a 409.
                self._cache.pop(entry.id, None)
                fresh = Entry.of((yield self.store.load, (entry.id,), {}))
                if not fresh.assisted:
                    fresh.rev = yield self.store.mark_assisted, (fresh.id, fresh.rev), {}
                    fresh.assisted = True
                return self._remember(fresh)
            except BaseException:
                self._cache.pop(entry.id, None)
                raise
            entry.assisted = True
        return entry

    def _after_change(self, entry: Entry) -> Steps[Entry]:
        entry.tick(time.time())
        outcome = entry.game.outcome
        if entry.status == "playing" and outcome == "won":
            entry.status = "won"
        yield from self._write(entry)
        if entry.status == "won":
            deal = (self.store, str(entry.game.variant), entry.daily, entry.player)
            if entry.daily is not None and (
                    entry.daily < utc_today().isoformat()
                    or (yield daily_was_shown, deal, {})
                    or (yield daily_played, deal, {"besides": entry.id})):
                # Its day is over, so its number is published (GET /api/daily/past), or
                # another game of the deal showed the player its cards (it ended, or its
                # number was revealed, while this one was in play), or some of them (it
                # was played meanwhile): this game could have been won knowing them.
                entry = yield from self._assist(entry)
            yield from self._shown(entry)
        return entry

    def _shown(self, entry: Entry) -> Steps[None]:
        """The game's cards can now be seen (its end, or its number): for a daily deal,
        record it, so that a new game of that deal starts assisted (storage.secret)."""
        if entry.daily is not None:
            yield mark_daily_shown, (self.store, str(entry.game.variant), entry.daily,
                                     entry.player), {}

    def _write(self, entry: Entry) -> Steps[None]:
        try:
            entry.rev = yield self.store.save, (entry.id, entry.game, entry.status,
                                                entry.elapsed), {"rev": entry.rev}
        except BaseException:
            # The store refused the change: forget the live copy so the next request reloads
            # the last committed state instead of serving a change that was never saved.
            self._cache.pop(entry.id, None)
            raise


def payload(entry: Entry, move: str | None = None) -> dict[str, Any]:
    """The JSON body for a game: id and observation, plus page helpers.

    ``moves`` lists the legal moves in explicit notation (``3:2>7``), parallel to the
    observation's ``legal`` list, so the page knows how many cards each one moves;
    ``assisted`` says whether the player had help; ``deal`` how the deal was chosen
    (server.deals.DealInfo, with ``replay_of`` and ``from`` for a replay). The deal's exact
    ``measure`` is sent only once the game is over: in play it would narrow down the last
    face-down cards (a hard deal with 6 unseen: 1 of 720 orders fits it), so play shows only
    the grade's band.
    """
    game = entry.game
    body: dict[str, Any] = {"id": entry.id, "observation": game.observe()}
    body["moves"] = [m.explicit() for m in game.legal_moves()]
    body["status"] = entry.status
    body["can_undo"] = entry.status == "playing" and game.can_undo
    body["can_redo"] = entry.status == "playing" and game.can_redo
    body["elapsed"] = round(entry.elapsed, 1)
    body["assisted"] = entry.assisted
    body["deal"] = {**DealInfo().to_dict(), **entry.info, "daily": entry.daily}
    if entry.status == "playing":
        body["deal"]["measure"] = None
    if move is not None:
        body["move"] = move
    return body
