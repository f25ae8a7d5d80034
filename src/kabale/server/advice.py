"""The advisor behind the page: hints, win chance, the bot's moves, post-mortems and the
search for winnable or graded deals, run off the event loop.

Everything runs in a small thread pool (the solver's kernels search without the GIL; the
advisor's Python shares it with the event loop, which keeps answering between its steps).
At most ``queue`` jobs wait or run at once: one more is refused with :class:`BusyError`
(answered 503 with the reason), so a burst of requests cannot pile up work.

Jobs get a copy of the game, never the live one, and only what the player has seen goes in:
the advisor's functions (``kabale.advisor``) work from the player's view, except the
post-mortem, which the caller asks for only once the game is over. Each answer has a seed
fixed by the game's id and position, so asking twice gives the same answer (and it is
cached).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from kabale.advisor import Bot, Chance, Effort, Hint, PostMortem, hint, postmortem, win_chance
from kabale.advisor.effort import LEVELS, effort_for
from kabale.core.errors import KabaleError
from kabale.core.game import Game
from kabale.core.variants import Variant
from kabale.server.deals import SEARCH_SECONDS, DealInfo, bands, find_deal

T = TypeVar("T")
CACHE_SIZE = 512
#: bots kept for games whose demo runs (each follows its plan from one move to the next)
BOTS = 32
#: how long a background search for the next chosen deal of a kind may look (seconds)
REFILL_SECONDS = 20.0

#: the server's advisor budget: a level's name, or an Effort for each family
EffortSetting = str | Mapping[str, Effort]


class BusyError(KabaleError):
    """The advisor has as many jobs as it takes; the request was not queued."""


def check_effort(effort: EffortSetting) -> EffortSetting:
    """``effort`` if it is a level's name or a family -> Effort mapping, else KabaleError."""
    if isinstance(effort, str):
        if effort not in LEVELS:
            raise KabaleError(f"unknown effort {effort!r}; valid: {', '.join(LEVELS)}")
    elif not all(isinstance(e, Effort) for e in effort.values()):
        raise KabaleError("effort must be a level's name or an Effort for each family")
    return effort


def position_key(game: Game) -> str:
    """The position as its history from the deal (what a cached answer is for)."""
    return " ".join(str(move) for move in game.history)


def position_seed(game_id: str, game: Game) -> int:
    """The seed of the advisor's worlds for this game in this position (from the game's
    unguessable id and its moves, never from a hidden card)."""
    text = f"{game_id}|{position_key(game)}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass
class _Demo:
    """The bot playing one game: its own copy of the game, kept in step with the real one,
    so that it follows its plan from move to move."""

    bot: Bot
    game: Game


class Advisor:
    """The thread pool, its bounded queue, the answers' caches and the demo bots."""

    def __init__(self, effort: EffortSetting = "quick", workers: int = 2,
                 queue: int = 6, search_seconds: float = SEARCH_SECONDS) -> None:
        self.effort = check_effort(effort)
        self.limit = queue
        #: how long a request for a chosen deal looks while the player waits
        self.search_seconds = search_seconds
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="advisor")
        self._jobs = 0
        self._cache: OrderedDict[tuple[str, ...], Any] = OrderedDict()
        self._demos: OrderedDict[str, _Demo] = OrderedDict()
        self._bots_thinking: set[str] = set()
        # chosen deals found ahead, one per (variant, grade), and the kinds being looked for
        self._stash: dict[tuple[str, str | None], tuple[int, DealInfo]] = {}
        self._filling: set[tuple[str, str | None]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def level(self, game: Game) -> Effort:
        """The Effort for this game's family."""
        if isinstance(self.effort, str):
            return effort_for(game.variant, self.effort)
        return self.effort[game.variant.family]

    def close(self) -> None:
        """Stop taking jobs; running ones finish in their threads."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool; BusyError at once when ``queue`` jobs are in."""
        if self._jobs >= self.limit:
            raise BusyError(f"the advisor is busy ({self._jobs} requests are waiting for it);"
                            " ask again in a moment")
        self._jobs += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            self._jobs -= 1

    async def _cached(self, key: tuple[str, ...], fn: Callable[..., T], *args: Any) -> T:
        if key in self._cache:
            self._cache.move_to_end(key)
            found: T = self._cache[key]
            return found
        value = await self.run(fn, *args)
        self._cache[key] = value
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return value

    async def hint(self, game_id: str, game: Game) -> Hint:
        """The hint for the game's position (the same one each time it is asked)."""
        copy = game.copy()
        return await self._cached(("hint", game_id, position_key(copy)), hint, copy,
                                  self.level(copy), position_seed(game_id, copy))

    async def chance(self, game_id: str, game: Game) -> Chance:
        """The win chance from the game's position, from what the player has seen."""
        copy = game.copy()
        level = self.level(copy)
        return await self._cached(("chance", game_id, position_key(copy)), _chance, copy,
                                  level, position_seed(game_id, copy))

    async def postmortem(self, game_id: str, game: Game) -> PostMortem:
        """The post-mortem of a finished game (the caller checks that it is over)."""
        copy = game.copy()
        return await self._cached(("postmortem", game_id, position_key(copy)), postmortem,
                                  copy, self.level(copy), 0, False)

    async def chosen_deal(self, variant: Variant, grade: str | None) -> tuple[int, DealInfo]:
        """A winnable deal (of ``grade`` if given): one found ahead if there is one, else
        looked for now (server.deals.find_deal); either way the next one of its kind is then
        looked for in the background, so that a kind that is slow to find (four-suit Spider)
        is ready the next time, and a search that came back empty goes on there (when no
        other search ahead is running)."""
        if grade is not None:
            bands(variant)  # a variant without cut points is refused before any search
        key = (str(variant), grade)
        found = self._stash.pop(key, None)
        try:
            if found is None:
                found = await self.run(find_deal, variant, grade, self.search_seconds)
        finally:
            self._refill(key, variant, grade)
        return found

    def ahead(self, variant: Variant, grade: str | None) -> bool:
        """Is a deal of this kind found ahead and waiting?"""
        return (str(variant), grade) in self._stash

    def searching_ahead(self) -> int:
        """How many searches for a chosen deal run in the background (at most one)."""
        return len(self._filling)

    def _refill(self, key: tuple[str, str | None], variant: Variant, grade: str | None) -> None:
        # One search ahead at a time: it may take a worker for REFILL_SECONDS, and the other
        # worker stays free for the hints and chances the player waits for.
        if self._filling or key in self._stash:
            return
        self._filling.add(key)

        async def fill() -> None:
            try:
                self._stash[key] = await self.run(find_deal, variant, grade, REFILL_SECONDS)
            except KabaleError:
                pass  # busy, or none found: the next request looks for itself
            finally:
                self._filling.discard(key)

        task = asyncio.get_running_loop().create_task(fill())
        self._tasks.add(task)  # a reference, so the task is not collected while it runs
        task.add_done_callback(self._tasks.discard)

    def claim(self, game_id: str) -> bool:
        """Reserve the game's bot for one move (False: it is thinking already); the caller
        calls :meth:`release` when the move is done."""
        if game_id in self._bots_thinking:
            return False
        self._bots_thinking.add(game_id)
        return True

    def release(self, game_id: str) -> None:
        """End the reservation :meth:`claim` made."""
        self._bots_thinking.discard(game_id)

    async def bot_move(self, game_id: str, game: Game) -> str | None:
        """The bot's next move in the game's position (None: it gives up)."""
        demo = self._demos.pop(game_id, None)
        if demo is None or demo.game.history != game.history:
            demo = _Demo(Bot(self.level(game), seed=position_seed(game_id, game)), game.copy())
        self._demos[game_id] = demo
        while len(self._demos) > BOTS:
            self._demos.popitem(last=False)
        return await self.run(_step, demo)


def _chance(game: Game, level: Effort, seed: int) -> Chance:
    return win_chance(game, seed=seed, effort=level)


def _step(demo: _Demo) -> str | None:
    """The demo bot's move, played on its own copy so that it knows its plan goes on."""
    move = demo.bot.choose(demo.game)
    if move is None:
        return None
    demo.game.play(move)
    return str(move)
