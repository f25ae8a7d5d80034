"""The players of an analysis, each deal to one Row, deterministically.

- ``solver``: full information, one deterministic lane (``kabale.solver.batch``): the
  verdict depends only on the variant, the deal and the node budget, never on the machine's
  load; a win's line is replayed through core before it counts (``moves`` is its length).
- ``bot``: the advisor's bot at an effort level, seeded with the deal number, playing from
  what it has seen; a game it gives up (it stays "playing") counts as a loss, "gave up".
- ``random``: a uniformly random legal move each time, from kabale's PCG32 seeded with the
  deal number, at most RANDOM_MOVES moves (random Klondike play can cycle for ever); a game
  still on then is "gave up".

A budget names what bounds a deal: ``nodes=N``, ``effort=E`` or ``moves=N``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import __version__
from ..core import Game, KabaleError, parse_variant
from ..core.deal import Pcg32
from ..storage.results import MAX_ROW_SEED, Row

PLAYERS = ("solver", "bot", "random")
DEFAULT_NODES = 5_000_000
DEFAULT_EFFORT = "normal"
RANDOM_MOVES = 1000
RANDOM_STREAM = 0x72616E646F6D  # "random": the random player's own PCG stream


@dataclass(frozen=True, slots=True)
class Job:
    """What to measure: a canonical variant, a player and its budget (``nodes=...`` for
    the solver, ``effort=...`` for the bot, ``moves=...`` for the random player)."""

    variant: str
    player: str
    budget: str

    def play(self, seeds: Sequence[int]) -> list[Row]:
        """The rows of these deals, in their order."""
        one = PLAY[self.player]
        return [one(self, seed) for seed in seeds]


def job_for(variant: str, player: str, nodes: int | None = None,
            effort: str | None = None) -> Job:
    """A checked Job; KabaleError names a bad variant, player or budget."""
    canonical = str(parse_variant(variant))
    if player not in PLAYERS:
        raise KabaleError(f"unknown player {player!r}; valid: {', '.join(PLAYERS)}")
    if player != "solver" and nodes is not None:
        raise KabaleError(f"--nodes is the solver's budget; the {player} player takes "
                          + ("--effort" if player == "bot" else "no budget"))
    if player != "bot" and effort is not None:
        raise KabaleError(f"--effort is the bot's budget; the {player} player takes "
                          + ("--nodes" if player == "solver" else "no budget"))
    if player == "solver":
        nodes = DEFAULT_NODES if nodes is None else nodes
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes <= 0:
            raise KabaleError(f"bad --nodes {nodes!r}: a positive number of positions")
        return Job(canonical, player, f"nodes={nodes}")
    if player == "bot":
        from ..advisor import LEVELS

        effort = DEFAULT_EFFORT if effort is None else effort
        if effort not in LEVELS:
            raise KabaleError(f"bad --effort {effort!r}; valid: {', '.join(LEVELS)}")
        return Job(canonical, player, f"effort={effort}")
    return Job(canonical, player, f"moves={RANDOM_MOVES}")


def check_seeds(seeds: Sequence[int]) -> None:
    """KabaleError unless every deal number fits a row."""
    if seeds and max(seeds) > MAX_ROW_SEED:
        raise KabaleError(f"bad --seeds: deal numbers up to {MAX_ROW_SEED} (the database's "
                          f"integers), not {max(seeds)}")


def _budget(job: Job) -> str:
    return job.budget.partition("=")[2]


def play_solver(job: Job, seed: int) -> Row:
    """The solver's verdict on deal ``seed`` within the node budget."""
    from ..solver.batch import solve_states
    from ..solver.result import replay, shorten

    game = Game.new(job.variant, seed)
    start = time.thread_time()
    verdict = solve_states(game.variant, [game.state], int(_budget(job)), lines=True)[0]
    moves = len(replay(game, shorten(game, list(verdict.line)))) if verdict.line else 0
    seconds = time.thread_time() - start
    return Row(job.variant, seed, job.player, job.budget, verdict.status, moves, verdict.nodes,
               seconds, __version__)


def play_bot(job: Job, seed: int) -> Row:
    """The bot's game of deal ``seed`` (its worlds seeded with the deal number)."""
    from ..advisor import Bot, autoplay

    start = time.thread_time()
    game = autoplay(job.variant, seed, Bot(_budget(job), seed=seed))
    seconds = time.thread_time() - start
    return Row(job.variant, seed, job.player, job.budget, _result(game), game.moves_made,
               None, seconds, __version__)


def play_random(job: Job, seed: int) -> Row:
    """Random legal moves on deal ``seed``, at most RANDOM_MOVES of them."""
    start = time.thread_time()
    game = Game.new(job.variant, seed)
    rules, state = game.rules, game.state
    rng = Pcg32(seed, RANDOM_STREAM)
    moves = 0
    while True:
        legal = rules.legal_moves(state)
        if rules.is_won(state):
            outcome = "won"
        elif rules.is_lost(state, legal):
            outcome = "lost"
        elif moves < RANDOM_MOVES:
            state = rules.apply(state, legal[rng.bounded(len(legal))])
            moves += 1
            continue
        else:
            outcome = "playing"
        break
    seconds = time.thread_time() - start
    return Row(job.variant, seed, job.player, job.budget, _RESULT[outcome], moves, None,
               seconds, __version__)


_RESULT = {"won": "won", "lost": "lost", "playing": "gave up"}


def _result(game: Game) -> str:
    return _RESULT[game.outcome]


PLAY: dict[str, Callable[[Job, int], Row]] = {
    "solver": play_solver, "bot": play_bot, "random": play_random}
