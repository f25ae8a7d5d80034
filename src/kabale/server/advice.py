"""The advisor behind the page: hints, win chance, the bot's moves, post-mortems and the
search for winnable or graded deals, run off the event loop in worker processes.

Every job runs in a worker process of one of two lanes (server.jobs): ``play`` for what a
player waits for during a game (hints, the win chance, the bot's moves) and ``heavy`` for
the long jobs (post-mortems, searches for chosen deals, grading the daily deal), so that one
player's post-mortem never holds another's hint. Each job has a budget in positions that fits
its kind (the effort level's; a post-mortem's solves at most POSTMORTEM_NODES each) and a
wall-clock cap (CAP_SECONDS) past which its worker is killed and the request answered 503
with code "too_long". A lane takes a bounded number of jobs: one more is refused with
:class:`BusyError` (503 with code "busy"), so a burst of requests cannot pile up work.

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
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from kabale.advisor import Bot, Chance, Effort, Hint, PostMortem, hint, postmortem, win_chance
from kabale.advisor.effort import LEVELS, effort_for
from kabale.core.errors import KabaleError
from kabale.core.game import Game
from kabale.core.variants import Variant
from kabale.server.deals import SEARCH_SECONDS, DealInfo, bands, find_deal
from kabale.server.jobs import BusyError, JobTimeoutError, Lane

__all__ = ["Advisor", "BusyError", "JobTimeoutError", "check_effort"]

T = TypeVar("T")
CACHE_SIZE = 512
#: bots kept for games whose demo runs, in each worker (each follows its plan from one move
#: to the next)
BOTS = 32
#: how long a background search for the next chosen deal of a kind may look (seconds)
REFILL_SECONDS = 20.0
#: the most positions each solve of a post-mortem looks at (it solves about log2(moves) + 2
#: positions): at the strong level a Spider post-mortem looked at 40 million per solve and
#: took 86-133 s; this keeps it to seconds, and a solve that runs out says "unknown"
POSTMORTEM_NODES = 3_000_000
#: the wall-clock cap of each kind of job (seconds), far above what its budget in positions
#: takes on an idle machine: it is for a machine that is not, and for what no budget foresaw
CAP_SECONDS: Mapping[str, float] = {"hint": 30.0, "chance": 30.0, "bot": 30.0,
                                    "postmortem": 60.0, "daily": 60.0}
#: what a search for a deal may take past the time it is given to look (seconds)
SEARCH_MARGIN = 30.0

#: the server's advisor budget: a level's name, or an Effort for each family
EffortSetting = str | Mapping[str, Effort]


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
    """The two lanes of worker processes, the answers' caches and the searches ahead."""

    def __init__(self, effort: EffortSetting = "quick", workers: int = 2,
                 queue: int = 6, search_seconds: float = SEARCH_SECONDS,
                 heavy_workers: int = 2, heavy_queue: int = 4) -> None:
        self.effort = check_effort(effort)
        #: how long a request for a chosen deal looks while the player waits
        self.search_seconds = search_seconds
        self.play = Lane("play", workers, queue)
        self.heavy = Lane("heavy", heavy_workers, heavy_queue)
        self.limit = queue
        self._cache: OrderedDict[tuple[str, ...], Any] = OrderedDict()
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

    def budget(self, kind: str, game: Game) -> Effort:
        """The budgets in positions of a job of ``kind`` for this game: the level's, with a
        post-mortem's solves held to POSTMORTEM_NODES each."""
        level = self.level(game)
        if kind == "postmortem":
            return replace(level, exact_nodes=min(level.exact_nodes, POSTMORTEM_NODES))
        return level

    def close(self) -> None:
        """Stop taking jobs and stop the workers (jobs running now end with an error)."""
        self.play.close()
        self.heavy.close()

    async def run(self, fn: Callable[..., T], *args: Any, kind: str = "daily") -> T:
        """``fn(*args)`` in the heavy lane, capped at ``CAP_SECONDS[kind]``."""
        return await self.heavy.run(fn, *args, seconds=CAP_SECONDS[kind])

    async def cached(self, key: tuple[str, ...], fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the heavy lane, its answer kept under ``key``."""
        return await self._cached(key, self.heavy, CAP_SECONDS["daily"], fn, *args)

    async def _cached(self, key: tuple[str, ...], lane: Lane, seconds: float,
                      fn: Callable[..., T], *args: Any) -> T:
        if key in self._cache:
            self._cache.move_to_end(key)
            found: T = self._cache[key]
            return found
        value = await lane.run(fn, *args, seconds=seconds)
        self._cache[key] = value
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return value

    async def hint(self, game_id: str, game: Game) -> Hint:
        """The hint for the game's position (the same one each time it is asked)."""
        copy = game.copy()
        return await self._cached(("hint", game_id, position_key(copy)), self.play,
                                  CAP_SECONDS["hint"], hint, copy, self.budget("hint", copy),
                                  position_seed(game_id, copy))

    async def chance(self, game_id: str, game: Game) -> Chance:
        """The win chance from the game's position, from what the player has seen."""
        copy = game.copy()
        return await self._cached(("chance", game_id, position_key(copy)), self.play,
                                  CAP_SECONDS["chance"], _chance, copy,
                                  self.budget("chance", copy), position_seed(game_id, copy))

    async def postmortem(self, game_id: str, game: Game) -> PostMortem:
        """The post-mortem of a finished game (the caller checks that it is over)."""
        copy = game.copy()
        return await self._cached(("postmortem", game_id, position_key(copy)), self.heavy,
                                  CAP_SECONDS["postmortem"], postmortem, copy,
                                  self.budget("postmortem", copy), 0, False)

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
                found = await self.heavy.run(find_deal, variant, grade, self.search_seconds,
                                             seconds=self.search_seconds + SEARCH_MARGIN)
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
        # One search ahead at a time: it may take a heavy worker for REFILL_SECONDS, and the
        # other stays free for the post-mortems and searches a player waits for.
        if self._filling or key in self._stash:
            return
        self._filling.add(key)

        async def fill() -> None:
            try:
                self._stash[key] = await self.heavy.run(
                    find_deal, variant, grade, REFILL_SECONDS,
                    seconds=REFILL_SECONDS + SEARCH_MARGIN)
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
        """The bot's next move in the game's position (None: it gives up). The bot lives in
        a worker of the play lane, and its moves go to that worker while it is free."""
        return await self.play.run(_bot_move, game_id, game.copy(), self.budget("bot", game),
                                   position_seed(game_id, game), seconds=CAP_SECONDS["bot"],
                                   affinity=game_id)


def _chance(game: Game, level: Effort, seed: int) -> Chance:
    return win_chance(game, seed=seed, effort=level)


#: the demo bots of this worker process, by game id (the newest last)
_DEMOS: OrderedDict[str, _Demo] = OrderedDict()


def _bot_move(game_id: str, game: Game, level: Effort, seed: int) -> str | None:
    """The demo bot's move (run in a worker): the bot kept for the game when it is in step
    with it (it follows its plan), else a new one; played on its own copy so that it knows
    its plan goes on."""
    demo = _DEMOS.pop(game_id, None)
    if demo is None or demo.game.history != game.history:
        demo = _Demo(Bot(level, seed=seed), game)
    _DEMOS[game_id] = demo
    while len(_DEMOS) > BOTS:
        _DEMOS.popitem(last=False)
    move = demo.bot.choose(demo.game)
    if move is None:
        return None
    demo.game.play(move)
    return str(move)
