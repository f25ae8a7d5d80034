"""Where the deals are played: ``local`` (this process, or a pool of processes), ``dask``
(dask.distributed: a LocalCluster, or the scheduler at an address) and ``ray`` (optional).

Every engine plays the same chunks of deal numbers with the same ``Job.play`` and yields
each chunk's rows as it completes, in whatever order the chunks finish; each row depends only
on its job and deal, so every engine gives the same rows. A worker needs only kabale
installed (and dask or ray): the job travels as a small frozen dataclass.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol

from ..core import KabaleError
from ..storage.results import Row
from .players import Job

ENGINES = ("local", "dask", "ray")
#: seconds to wait for a Dask scheduler named by address
SCHEDULER_TIMEOUT = 30


class Engine(Protocol):
    """Plays chunks of deals; ``workers`` is how many run at once."""

    workers: int

    def run(self, job: Job, chunks: Sequence[Sequence[int]]) -> Iterator[list[Row]]: ...

    def close(self) -> None: ...

    def abort(self) -> None: ...


#: how often (seconds) a pool worker looks whether the process that started it is alive
WATCH_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    """End this worker the moment its parent is gone (killed with -9, say): a worker whose
    parent died would otherwise wait for work that never comes."""
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _start_worker(parent: int) -> None:
    """A pool worker's initializer: Ctrl-C is the parent's to handle (it stops the workers
    itself and says what was saved), and the worker dies with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="kabale-watch-parent").start()


class LocalEngine:
    """``jobs`` processes (spawned, each importing kabale afresh), or this process for 1.
    The workers ignore Ctrl-C and end with this process, however it ends."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._pool: ProcessPoolExecutor | None = None
        if jobs > 1:
            self._pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker,
                                             initargs=(os.getpid(),))

    def run(self, job: Job, chunks: Sequence[Sequence[int]]) -> Iterator[list[Row]]:
        if self._pool is None:
            for chunk in chunks:
                yield job.play(chunk)
            return
        pending: set[Future[list[Row]]] = {self._pool.submit(job.play, list(chunk))
                                           for chunk in chunks}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def abort(self) -> None:
        """Stop now: the chunks in flight are dropped (their rows were never stored) and the
        workers are ended, not waited for."""
        if self._pool is None:
            return
        processes = list(getattr(self._pool, "_processes", {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
            if process.is_alive():
                process.kill()


class DaskEngine:
    """dask.distributed: ``client.map`` over the chunks, results ``as_completed``. Without a
    ``scheduler`` address, a LocalCluster of ``jobs`` one-thread worker processes."""

    def __init__(self, jobs: int, scheduler: str | None) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise KabaleError("the dask engine needs dask.distributed: pip install "
                              "'dask[distributed]' (in kabale's venv)") from None
        self._cluster: Any = None
        if scheduler is None:
            self._cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                         dashboard_address=None, silence_logs=logging.ERROR)
            self._client = Client(self._cluster)
        else:
            try:
                self._client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
            except (OSError, TimeoutError) as error:
                raise KabaleError(f"cannot reach the Dask scheduler {scheduler!r}: "
                                  f"{error}") from None
        self.workers = max(1, sum(self._client.nthreads().values()))

    def run(self, job: Job, chunks: Sequence[Sequence[int]]) -> Iterator[list[Row]]:
        from dask.distributed import as_completed

        futures = self._client.map(job.play, [list(chunk) for chunk in chunks], pure=False)
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            self._client.cancel(futures)

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def abort(self) -> None:
        """Stop now (Ctrl-C): the run's futures are cancelled as it ends, so close."""
        self.close()


def _play(job: Job, seeds: list[int]) -> list[Row]:
    return job.play(seeds)


class RayEngine:
    """Ray tasks, one per chunk: a local Ray of ``jobs`` CPUs, or the cluster at
    ``scheduler`` (``ray://...`` or an address ray.init takes)."""

    def __init__(self, jobs: int, scheduler: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise KabaleError("the ray engine needs ray: pip install ray (in kabale's "
                              "venv)") from None
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            if scheduler is None:
                ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.ERROR)
            else:
                ray.init(address=scheduler, log_to_driver=False, logging_level=logging.ERROR)
        self.workers = max(1, int(ray.available_resources().get("CPU", jobs)))
        self._remote = ray.remote(num_cpus=1)(_play)

    def run(self, job: Job, chunks: Sequence[Sequence[int]]) -> Iterator[list[Row]]:
        pending = [self._remote.remote(job, list(chunk)) for chunk in chunks]
        try:
            while pending:
                done, pending = self._ray.wait(pending, num_returns=1)
                yield self._ray.get(done[0])
        finally:
            for ref in pending:
                self._ray.cancel(ref)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()

    def abort(self) -> None:
        """Stop now (Ctrl-C): the run's tasks are cancelled as it ends, so close."""
        self.close()


def engine_for(name: str, jobs: int, scheduler: str | None = None) -> Engine:
    """The engine called ``name`` (ENGINES); KabaleError for another name or bad jobs."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise KabaleError(f"bad --jobs {jobs!r}: a positive number of workers")
    if name == "local":
        if scheduler is not None:
            raise KabaleError("--scheduler is for the dask and ray engines, not local")
        return LocalEngine(jobs)
    if name == "dask":
        return DaskEngine(jobs, scheduler)
    if name == "ray":
        return RayEngine(jobs, scheduler)
    raise KabaleError(f"unknown engine {name!r}; valid: {', '.join(ENGINES)}")
