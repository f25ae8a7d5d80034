"""The advisor behind the page: hints, win chance, the bot's moves, post-mortems, game
reviews and the search for winnable or graded deals, run off the event loop in worker
processes.

Every request is a job (server.jobservice) with an id, a deadline and a priority, run by an
engine outside the web process: the local worker processes in three lanes (server.jobs;
``play`` for what a player waits for during a game: hints, the win chance, the bot's moves;
``heavy`` for the long jobs: post-mortems, searches for chosen deals, grading the daily
deal; ``review``, niced, for the reviews of finished games), so that one player's
post-mortem never holds another's hint, or a Dask scheduler's workers. Each job has a
budget in positions that fits its kind (the effort level's; a post-mortem's solves at most
POSTMORTEM_NODES each) and a wall-clock cap (CAP_SECONDS) past which it is stopped and the
request answered 503 with code "too_long". The job service
bounds the jobs of each lane and of each player (503 "busy", 429 "too_many"), shares a job
between requests for the same seen position, and cancels the jobs of a position nobody
waits for any more.

Jobs get a copy of the game, never the live one, and only what the player has seen goes in:
the advisor's functions (``kabale.advisor``) work from the player's view, except the
post-mortem, which the caller asks for only once the game is over. Each answer during play
has a seed fixed by what the player has seen (``view_key``: never the game's id or a
hidden card), so asking twice gives the same answer, and two players of one deal who have
seen the same get the same answer from one cache entry (the first position of a daily
deal); the entry is never shared between deals (``deal_key``). With ``answers`` (the help
control shared by the web processes of one database, server.helpshare), the hints and win
chances are kept there too, and a process answers from it what another worked out.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from kabale.advisor import Bot, Chance, Effort, Hint, PostMortem, hint, postmortem, win_chance
from kabale.advisor.effort import LEVELS, effort_for
from kabale.advisor.knowledge import knowledge
from kabale.advisor.review import Decision, grade_move
from kabale.advisor.review import review as review_game
from kabale.core.errors import KabaleError
from kabale.core.game import Game
from kabale.core.persist import state_digest
from kabale.core.state import Move
from kabale.core.variants import Variant
from kabale.server.deals import SEARCH_SECONDS, DealInfo, NoDealFoundError, bands, find_deal
from kabale.server.jobdask import DaskBackend
from kabale.server.jobs import BusyError, JobLostError, JobTimeoutError, Lane, Progress
from kabale.server.jobservice import (
    Backend,
    Job,
    JobCancelledError,
    JobService,
    LocalBackend,
    Owner,
    TooManyJobsError,
)
from kabale.server.moved import with_facts
from kabale.storage.db import LOCAL_PLAYER

__all__ = ["Advisor", "BusyError", "JobCancelledError", "JobLostError", "JobTimeoutError",
           "TooManyJobsError", "check_effort"]

T = TypeVar("T")
CACHE_SIZE = 512
#: the kinds of help whose answers every web process of a database shares (``answers``),
#: with what they are read back as
SHARED_KINDS: Mapping[str, type[Hint] | type[Chance]] = {"hint": Hint, "chance": Chance}
#: the bound on jobs in flight in each lane on Dask (the site's workers, not this machine's)
DASK_QUEUE = 64
#: bots kept for games whose demo runs, in each worker (each follows its plan from one move
#: to the next)
BOTS = 32
#: how long a background search for the next chosen deal of a kind may look (seconds)
REFILL_SECONDS = 20.0
#: the most positions each solve of a post-mortem looks at (it solves about log2(moves) + 2
#: positions): this keeps a post-mortem to seconds at every level, and a solve that runs out
#: says "unknown" (docs/benchmarks-log-2026.md, "Moved from the code")
POSTMORTEM_NODES = 3_000_000
#: the wall-clock cap of each kind of job (seconds), far above what its budget in positions
#: takes on an idle machine: it is for a machine that is not, and for what no budget foresaw
CAP_SECONDS: Mapping[str, float] = {"hint": 30.0, "chance": 30.0, "bot": 30.0,
                                    "postmortem": 60.0, "daily": 60.0, "review": 300.0,
                                    "coach": 30.0}
#: what a search for a deal may take past the time it is given to look (seconds)
SEARCH_MARGIN = 30.0
#: how long a request for a chosen deal looks on when its first look (``search_seconds``)
#: found none (seconds): four-suit Spider's solver wins one random deal in three within its
#: budget and spends about half a second on each other one, so a 2 s first look came back
#: empty for one first request in six or so (503 no_deal, measured on `kabale play`)
PATIENCE_SECONDS = 20.0

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
    """The position as its history from the deal (moves are in plain sight)."""
    return " ".join(str(move) for move in game.history)


def view_key(game: Game) -> str:
    """What the player of ``game`` has seen, as a hex digest: the variant, the moves, and
    every card seen at its place in the deal (``knowledge``), an unseen card as ``?``.

    Two games get the same key exactly when their players have seen the same things, so an
    answer worked out from the player's view (every answer the advisor gives during play)
    is the same for both: a cache under this key is safe between players (the first position
    of a daily deal is asked by everyone), and it says nothing of a card nobody has seen.
    It leaves out the game's id, the deal's number and every hidden card."""
    seen = knowledge(game).deal
    text = "|".join((str(game.variant), position_key(game),
                     " ".join("?" if card is None else str(card) for card in seen)))
    return hashlib.sha256(text.encode()).hexdigest()


def deal_key(game: Game) -> str:
    """The deal of ``game`` (its first position, every card), as a digest kept on the
    server only: the part of a shared job's and a cached answer's key that keeps them to
    the games of one deal.

    The answer itself depends on ``view_key`` alone, but whether a request is answered from
    another player's job or entry can be seen (at once, no job run: ``GET /api/help``'s
    ``done``). Keyed by the view only, a player could deal a deck of their own
    (``VARIANT#=CARDS``) with the face-up cards of today's daily deal and a guess at a card
    another player has since uncovered, play that player's moves, and learn from a hit
    whether the guess was right. Within one deal a hit tells nothing: the same deal and the
    same moves are the same position, which the asker holds already."""
    return state_digest(game.initial_state)


def position_seed(game: Game) -> int:
    """The seed of the advisor's worlds in this position: from what the player has seen
    (``view_key``), never from a hidden card or the game's id, so two players who have
    seen the same get the same answer."""
    return int(view_key(game)[:16], 16)


class SharedAnswers(Protocol):
    """Answers kept for every web process of a database (server.helpshare.HelpControl):
    ``answer`` the JSON kept under a key (None: none), ``keep_answer`` keeps one."""

    async def answer(self, key: Hashable) -> str | None: ...

    def keep_answer(self, key: Hashable, kind: str, answer: str) -> None: ...


def encode_answer(value: Hint | Chance) -> str:
    """A hint or a chance as the JSON the shared answers keep: every field, unrounded."""
    return json.dumps(dataclasses.asdict(value))


def decode_answer(kind: str, text: str) -> Hint | Chance | None:
    """The hint or chance ``encode_answer`` made; None for text that is not one (the help
    is then worked out again)."""
    try:
        fields = json.loads(text)
        if kind == "hint":
            fields["moves"] = [(str(move), float(chance)) for move, chance in fields["moves"]]
            return Hint(**fields)
        if kind == "chance":
            return Chance(**fields)
    except (TypeError, ValueError, KeyError):
        return None
    return None


@dataclass
class _Demo:
    """The bot playing one game: its own copy of the game, kept in step with the real one,
    so that it follows its plan from move to move."""

    bot: Bot
    game: Game


class Advisor:
    """The advisor's jobs (server.jobservice, on the local worker processes or on Dask),
    the answers' cache and the searches ahead."""

    def __init__(self, effort: EffortSetting = "quick", workers: int = 2,
                 queue: int = 6, search_seconds: float = SEARCH_SECONDS,
                 heavy_workers: int = 2, heavy_queue: int = 4, engine: str = "local",
                 scheduler: Any = None, review_queue: int = 4) -> None:
        self.effort = check_effort(effort)
        #: how long a request for a chosen deal looks while the player waits
        self.search_seconds = search_seconds
        self.backend: Backend
        if engine == "dask":
            self.backend = DaskBackend(scheduler)
            limits = {"play": max(queue, DASK_QUEUE), "heavy": max(heavy_queue, DASK_QUEUE),
                      "review": max(review_queue, DASK_QUEUE)}
        else:
            self.backend = LocalBackend(workers, queue, heavy_workers, heavy_queue,
                                        review_queue=review_queue)
            limits = {"play": queue, "heavy": heavy_queue, "review": review_queue}
        self.jobs = JobService(self.backend, limits)
        self.limit = limits["play"]
        self._cache: OrderedDict[Hashable, Any] = OrderedDict()
        #: the answers shared by the web processes of the database, if they are
        self.answers: SharedAnswers | None = None
        self._bots_thinking: set[str] = set()
        # chosen deals found ahead, one per (variant, grade), and the kinds being looked for
        self._stash: dict[tuple[str, str | None], tuple[int, DealInfo]] = {}
        self._filling: set[tuple[str, str | None]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def play(self) -> Lane:
        """The local engine's lane of worker processes for what a player waits for."""
        return self._lane("play")

    @property
    def heavy(self) -> Lane:
        """The local engine's lane of worker processes for the long jobs."""
        return self._lane("heavy")

    @property
    def reviews(self) -> Lane:
        """The local engine's lane of (niced) worker processes for the game reviews."""
        return self._lane("review")

    def _lane(self, name: str) -> Lane:
        if not isinstance(self.backend, LocalBackend):
            raise KabaleError(f"the {self.backend.name} engine has no local lanes")
        return self.backend.lanes[name]

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
        """Stop taking jobs and stop the local workers (jobs running now end with an
        error); a Dask client is closed by :meth:`aclose` (or with the process)."""
        if isinstance(self.backend, LocalBackend):
            self.backend.close()

    async def aclose(self) -> None:
        """Cancel the jobs in flight and stop the engine (the local workers, or the
        connection to the Dask scheduler)."""
        await self.jobs.aclose()

    async def run(self, fn: Callable[..., T], *args: Any, kind: str = "daily") -> T:
        """``fn(*args)`` as a background job of ``kind``, capped at ``CAP_SECONDS[kind]``."""
        return await self.jobs.run(kind, fn, *args, seconds=CAP_SECONDS[kind])

    async def cached(self, key: tuple[str, ...], fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` as a background job, its answer kept under ``key``."""
        return await self._cached(key, "daily", None, fn, *args)

    async def _cached(self, key: Hashable, kind: str, owner: Owner | None,
                      fn: Callable[..., T], *args: Any) -> T:
        if key in self._cache:
            self._cache.move_to_end(key)
            found: T = self._cache[key]
            return found
        shared = self.answers if kind in SHARED_KINDS else None
        if shared is not None:
            text = await shared.answer(key)
            kept = None if text is None else decode_answer(kind, text)
            if kept is not None:
                self._keep(key, kept)
                return kept  # type: ignore[return-value]
        value = await self.jobs.run(kind, fn, *args, seconds=CAP_SECONDS[kind], owner=owner,
                                    key=key)
        self._keep(key, value)
        if shared is not None and isinstance(value, SHARED_KINDS[kind]):
            shared.keep_answer(key, kind, encode_answer(value))
        return value

    def _keep(self, key: Hashable, value: Any) -> None:
        self._cache[key] = value
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _seen(self, kind: str, game: Game) -> tuple[str, str, str, str]:
        """The cache key of a job worked out from the player's view: its kind, what the
        player has seen, the effort (budgets in positions) it is worked out with, and the
        deal (``deal_key``), so that an entry is shared only between games of one deal."""
        return (kind, view_key(game), repr(self.budget(kind, game)), deal_key(game))

    async def hint(self, game_id: str, game: Game, player: str = LOCAL_PLAYER) -> Hint:
        """The hint for the game's position (the same one each time it is asked, for any
        player who has seen the same)."""
        copy = game.copy()
        return await self._cached(self._seen("hint", copy), "hint",
                                  Owner(player, game_id, position_key(copy)), hint, copy,
                                  self.budget("hint", copy), position_seed(copy))

    async def chance(self, game_id: str, game: Game, player: str = LOCAL_PLAYER) -> Chance:
        """The win chance from the game's position, from what the player has seen."""
        copy = game.copy()
        return await self._cached(self._seen("chance", copy), "chance",
                                  Owner(player, game_id, position_key(copy)), _chance, copy,
                                  self.budget("chance", copy), position_seed(copy))

    async def postmortem(self, game_id: str, game: Game,
                         player: str = LOCAL_PLAYER) -> PostMortem:
        """The post-mortem of a finished game (the caller checks that it is over). It reads
        the whole deal, so it is kept for this game only, never shared."""
        copy = game.copy()
        return await self._cached(("postmortem", game_id, position_key(copy)), "postmortem",
                                  Owner(player, game_id, position_key(copy)), postmortem,
                                  copy, self.budget("postmortem", copy), 0, False)

    async def coach(self, game_id: str, game: Game, move: Move, player: str = LOCAL_PLAYER
                    ) -> Decision:
        """Coach mode's grade for playing ``move`` in the game's position, from what the
        player has seen (review.grade_move), as a job of the player's at this position: like
        a hint, shared and cached between games of one deal at one seen position, and
        cancelled when the player leaves the position."""
        copy = game.copy()
        return await self._cached((*self._seen("coach", copy), str(move)), "coach",
                                  Owner(player, game_id, position_key(copy)), grade_move,
                                  copy, move, self.budget("coach", copy), position_seed(copy))

    def start_review(self, game_id: str, game: Game, player: str, progress: Progress
                     ) -> tuple[Job, Owner]:
        """Start the review of a finished game (the caller checks that it is over: it reads
        the true deal) as a job of kind "review" owned by ``player`` at the game's last
        position, at the server's effort with the seed of what the player has seen, so
        asking twice gives the same review; ``progress(done, total)`` is called on the
        event loop as its positions are reviewed. Refusals (TooManyJobsError, BusyError) are
        raised at once; the caller waits with ``self.jobs.wait(job, owner)``, which answers
        ``Review.to_dict()``."""
        copy = game.copy()
        owner = Owner(player, game_id, position_key(copy))
        job = self.jobs.start("review", _review, copy, self.level(copy), position_seed(copy),
                              seconds=CAP_SECONDS["review"], owner=owner, progress=progress)
        return job, owner

    async def begin_review(self, game_id: str, game: Game, player: str, progress: Progress
                           ) -> tuple[Job, Owner]:
        """:meth:`start_review`, with the player's bound counted in every web process of
        the database when the help's control is shared (JobService.begin)."""
        copy = game.copy()
        owner = Owner(player, game_id, position_key(copy))
        job = await self.jobs.begin("review", _review, copy, self.level(copy),
                                    position_seed(copy), seconds=CAP_SECONDS["review"],
                                    owner=owner, progress=progress)
        return job, owner

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
                found = await self._look(variant, grade)
        finally:
            self._refill(key, variant, grade)
        return found

    async def _look(self, variant: Variant, grade: str | None) -> tuple[int, DealInfo]:
        """A deal looked for while the player waits: ``search_seconds``, and when that
        found none (a kind that is slow to find, on the first ask of it, with nothing found
        ahead yet), on for PATIENCE_SECONDS more, rather than answering "none in time" to
        a player whose deal is most likely a second away; NoDealFoundError after both."""
        try:
            return await self.jobs.run("search", find_deal, variant, grade,
                                       self.search_seconds,
                                       seconds=self.search_seconds + SEARCH_MARGIN)
        except NoDealFoundError:
            return await self.jobs.run("search", find_deal, variant, grade, PATIENCE_SECONDS,
                                       seconds=PATIENCE_SECONDS + SEARCH_MARGIN)

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
                self._stash[key] = await self.jobs.run(
                    "search", find_deal, variant, grade, REFILL_SECONDS,
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

    async def bot_move(self, game_id: str, game: Game, player: str = LOCAL_PLAYER
                       ) -> str | None:
        """The bot's next move in the game's position (None: it gives up). On the local
        engine the bot lives in a worker of the play lane, and its moves go to that worker
        while it is free (elsewhere a bot out of step with the game starts afresh)."""
        copy = game.copy()
        return await self.jobs.run("bot", _bot_move, game_id, copy, self.budget("bot", copy),
                                   position_seed(copy), seconds=CAP_SECONDS["bot"],
                                   owner=Owner(player, game_id, position_key(copy)),
                                   affinity=game_id)


def _chance(game: Game, level: Effort, seed: int) -> Chance:
    return win_chance(game, seed=seed, effort=level)


def _review(game: Game, level: Effort, seed: int, progress: Progress) -> dict[str, Any]:
    """The review of a finished game with the true deal's verdicts, as its JSON object (run
    in a worker), each decision with what its move and its better move moved
    (``move_facts``, ``best_facts``) for the page to say in words."""
    done = review_game(game, level, seed, progress=progress, with_deal=True).to_dict()
    done["decisions"] = with_facts(game, list(done["decisions"]))  # type: ignore[call-overload]
    return done


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
