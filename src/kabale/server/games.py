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
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool

from kabale.core.errors import IllegalMoveError, KabaleError, quoted
from kabale.core.game import Game
from kabale.server.deals import DealInfo, utc_today
from kabale.storage.db import LOCAL_PLAYER, GameNotFoundError, GameStore, StoredGame
from kabale.storage.secret import daily_was_shown, mark_daily_shown

#: Idle gaps longer than this count only this long towards a game's elapsed time (seconds).
IDLE_CAP = 120.0
CACHE_SIZE = 256


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
        if deal_id is not None:
            game = Game.from_deal_id(deal_id)
        else:
            game = Game.new(variant if variant is not None else "klondike", seed)
        return self.start(game, player=player)

    def start(self, game: Game, *, assisted: bool = False, daily: str | None = None,
              info: dict[str, Any] | None = None, player: str = LOCAL_PLAYER) -> Entry:
        """Store ``game`` as a new game of ``player`` in play (see Entry for the rest) and
        return it."""
        game_id = secrets.token_urlsafe(18)
        now = time.time()
        info = info or {}
        self.store.add(game_id, game, now, assisted=assisted, daily=daily, info=info,
                       player=player)
        return self._remember(Entry(game_id, game, "playing", 0.0, now, assisted, daily, info,
                                    player, 0))

    def get(self, game_id: str) -> Entry:
        """The live game with this id, loaded from the store if needed."""
        entry = self._cache.get(game_id)
        if entry is None:
            entry = Entry.of(self.store.load(game_id))
        return self._remember(entry)

    def forget(self, player: str) -> None:
        """Drop every cached game of ``player`` (their data was deleted)."""
        for game_id in [k for k, e in self._cache.items() if e.player == player]:
            del self._cache[game_id]

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
        owner = (await run_in_threadpool(self.store.owner, game_id) if self.store.remote
                 else self.store.owner(game_id))
        if owner is None or owner[0] != player:
            raise GameNotFoundError(f"no game with id {quoted(game_id)}")
        cached = self._cache.get(game_id)
        if cached is not None and cached.rev != owner[1]:
            del self._cache[game_id]
        if game_id not in self._cache:
            pending = self._loading.get(game_id)
            if pending is None:
                pending = asyncio.ensure_future(run_in_threadpool(self.store.load, game_id))
                self._loading[game_id] = pending
                pending.add_done_callback(lambda _: self._loading.pop(game_id, None))
            stored = await asyncio.shield(pending)
            if game_id not in self._cache:  # the first of the requests that shared the load
                self._remember(Entry.of(stored))
        return self.get(game_id)

    def _open(self, game_id: str) -> Entry:
        entry = self.get(game_id)
        if entry.status != "playing":
            raise GameOverError(f"game {game_id!r} is over ({entry.status}); start a new one")
        return entry

    def play(self, game_id: str, text: str) -> tuple[Entry, str]:
        """Play one move given in notation; returns the entry and the move's canonical text."""
        entry = self._open(game_id)
        if entry.game.moves_made == 0 and entry.elapsed == 0 and not entry.game.can_redo:
            # The clock starts at the first move, not when the cards were dealt.
            entry.last_active = time.time()
        move = entry.game.play(text)
        return self._after_change(entry), str(move)

    def undo(self, game_id: str) -> tuple[Entry, str]:
        """Take back the last move; IllegalMoveError when there is none."""
        entry = self._open(game_id)
        if not entry.game.can_undo:
            raise IllegalMoveError("nothing to undo")
        move = entry.game.undo()
        return self._after_change(entry), str(move)

    def redo(self, game_id: str) -> tuple[Entry, str]:
        """Play again the last move taken back; IllegalMoveError when there is none."""
        entry = self._open(game_id)
        if not entry.game.can_redo:
            raise IllegalMoveError("nothing to redo")
        move = entry.game.redo()
        return self._after_change(entry), str(move)

    def resign(self, game_id: str) -> Entry:
        """Give the game up: it counts as lost in the statistics, and the game being over,
        its deal id is no secret any more."""
        entry = self._open(game_id)
        entry.tick(time.time())
        entry.status = "lost"
        entry.game.reveal()
        self._write(entry)
        self._shown(entry)
        return entry

    def reveal(self, game_id: str) -> Entry:
        """Show the game's deal id from now on (the page's "Copy link"); kept in the save.
        Mid-game the id gives every hidden card, so the game counts as played with help
        from then on (and a daily deal's later games too)."""
        entry = self.get(game_id)
        if not entry.game.deal_known:
            if entry.status == "playing":
                self.assist(game_id)
            entry.game.reveal()
            self._write(entry)
            self._shown(entry)
        return entry

    def assist(self, game_id: str) -> Entry:
        """Mark the game as one the player had help in (statistics keep it apart)."""
        entry = self.get(game_id)
        if not entry.assisted:
            try:
                entry.rev = self.store.mark_assisted(game_id, entry.rev)
            except BaseException:
                self._cache.pop(entry.id, None)
                raise
            entry.assisted = True
        return entry

    def _after_change(self, entry: Entry) -> Entry:
        entry.tick(time.time())
        outcome = entry.game.outcome
        if entry.status == "playing" and outcome == "won":
            entry.status = "won"
        self._write(entry)
        if entry.status == "won":
            if entry.daily is not None and (
                    entry.daily < utc_today().isoformat()
                    or daily_was_shown(self.store, str(entry.game.variant), entry.daily,
                                       entry.player)):
                # Its day is over, so its number is published (GET /api/daily/past), or
                # another game of the deal showed the player its cards (it ended, or its
                # number was revealed, while this one was in play): either way this game
                # could have been won knowing every card.
                self.assist(entry.id)
            self._shown(entry)
        return entry

    def _shown(self, entry: Entry) -> None:
        """The game's cards can now be seen (its end, or its number): for a daily deal,
        record it, so that a new game of that deal starts assisted (storage.secret)."""
        if entry.daily is not None:
            mark_daily_shown(self.store, str(entry.game.variant), entry.daily, entry.player)

    def _write(self, entry: Entry) -> None:
        try:
            entry.rev = self.store.save(entry.id, entry.game, entry.status, entry.elapsed,
                                        rev=entry.rev)
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
