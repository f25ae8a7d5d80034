"""One analysis run: the deals a job still lacks in the database, played on an engine, each
chunk's rows written the moment it arrives (a run killed at any point loses at most the
chunks in flight and resumes with the rest), under one progress bar."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from tqdm import tqdm

from ..storage.results import ResultStore, Row
from .engines import Engine, engine_for
from .players import Job, check_seeds
from .summary import Summary, summarize

#: the most deals in one chunk sent to a worker, per player (a bot game takes seconds, a
#: solver verdict a fraction of one: each chunk should still be worth sending)
CHUNK = {"solver": 100, "random": 100, "bot": 4}
#: chunks per worker at least, where the deals allow (the last chunks balance the load)
SPREAD = 4


class Interrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM (kabale.cli raises it as KeyboardInterrupt) during a run: ``played``
    deals of it were stored before it stopped; ``signal`` is the KeyboardInterrupt caught."""

    def __init__(self, played: int, stop: KeyboardInterrupt) -> None:
        super().__init__(played)
        self.played = played
        self.stop = stop


@dataclass(frozen=True)
class Outcome:
    """A run's result: every row of the job's deals (those already in the database too), in
    deal order; how many of them this run played; their summary."""

    rows: list[Row]
    played: int
    summary: Summary


def chunks_of(seeds: Sequence[int], size: int) -> list[list[int]]:
    """``seeds`` cut into consecutive chunks of at most ``size``."""
    return [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]


def chunk_size(player: str, deals: int, workers: int) -> int:
    """Chunks of at most CHUNK[player], and at least SPREAD chunks per worker if possible."""
    return max(1, min(CHUNK[player], -(-deals // (SPREAD * workers))))


def analyze(job: Job, seeds: Sequence[int], store: ResultStore, engine: str | Engine = "local",
            jobs: int = 1, scheduler: str | None = None, progress: TextIO | None = sys.stderr
            ) -> Outcome:
    """Play every deal of ``seeds`` the store lacks for ``job`` on ``engine`` and return
    all of them with their summary; ``progress`` takes the bar (None: no bar). ``engine``
    is an engine's name (started with ``jobs`` and ``scheduler``, closed at the end) or an
    open Engine, which stays open for the next run. Ctrl-C (or SIGTERM, which kabale.cli
    turns into one) raises Interrupted with the deals stored so far, after an engine it
    started is stopped at once."""
    check_seeds(seeds)
    wanted = list(dict.fromkeys(seeds))
    done = {row.seed for row in store.rows(job.variant, job.player, job.budget, wanted)}
    todo = [seed for seed in wanted if seed not in done]
    played = 0
    if todo:
        runner = engine_for(engine, jobs, scheduler) if isinstance(engine, str) else engine
        bar = tqdm(total=len(todo), unit="deal", file=progress, disable=progress is None,
                   desc=f"{job.variant} {job.player}", smoothing=0.05)
        wins = 0
        try:
            for rows in runner.run(job, chunks_of(todo, chunk_size(job.player, len(todo),
                                                                   runner.workers))):
                store.add(rows)
                played += len(rows)
                wins += sum(row.outcome == "win" for row in rows)
                bar.set_postfix(won=f"{wins / played:.1%}", refresh=False)
                bar.update(len(rows))
        except KeyboardInterrupt as stop:
            bar.close()
            if isinstance(engine, str):
                runner.abort()  # not close: it would wait for every chunk in flight
            raise Interrupted(played, stop) from None
        except BaseException:
            bar.close()
            if isinstance(engine, str):
                runner.close()
            raise
        bar.close()
        if isinstance(engine, str):
            runner.close()
    rows = store.rows(job.variant, job.player, job.budget, wanted)
    order = {seed: i for i, seed in enumerate(wanted)}
    rows.sort(key=lambda row: order[row.seed])
    return Outcome(rows, played, summarize(rows))
