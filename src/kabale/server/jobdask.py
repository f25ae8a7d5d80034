"""The Dask distributed engine of the help (server.jobservice's Backend): each job a future
of the scheduler's workers with the job's priority, its progress sent back as Dask events.
Only a site that serves with Dask needs it (``pip install 'dask[distributed]'``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from kabale.server.jobs import BusyError, JobLostError, JobTimeoutError, Progress
from kabale.server.jobservice import Job

T = TypeVar("T")

#: the Dask event topic of the jobs' progress (one topic: the scheduler keeps a bounded log
#: of each topic, so a topic per job would grow without bound)
PROGRESS_TOPIC = "kabale-progress"


class DaskBackend:
    """A Dask distributed scheduler's workers (connected on the first job). Each job is a
    future with the job's priority, its key naming the job; cancelling it cancels the
    future, and a worker running it is restarted by its nanny, which stops the job (a
    thread cannot be stopped otherwise)."""

    name = "dask"

    def __init__(self, address: Any, timeout: float = 10.0) -> None:
        self.address = address
        self.timeout = timeout  # seconds to connect to the scheduler
        self.client: Any = None
        self._connecting: asyncio.Lock | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: the progress of the jobs running now, by their future's key
        self._progress: dict[str, Progress] = {}

    async def _client(self) -> Any:
        if self.client is None:
            from distributed import Client  # only a site that serves with Dask needs it
            if self._connecting is None:
                self._connecting = asyncio.Lock()
            async with self._connecting:
                if self.client is None:
                    try:
                        self.client = await Client(  # type: ignore[no-untyped-call]
                            self.address, asynchronous=True,
                            timeout=self.timeout, set_as_default=False)
                    except OSError as exc:
                        raise BusyError(f"the help engine at {self.address} cannot be "
                                        f"reached ({exc}); ask again later") from None
                    self.client.subscribe_topic(PROGRESS_TOPIC, self._on_progress)
        return self.client

    def _on_progress(self, event: tuple[float, Any]) -> None:
        """A progress event of a job (``[key, done, total]``), sent to its job if it runs
        here (every web process gets every job's events: they are a few bytes each)."""
        try:
            key, done, total = event[1]
        except (TypeError, ValueError):
            return
        progress = self._progress.get(key)
        if progress is not None:
            progress(int(done), int(total))

    async def run(self, job: Job, seconds: float) -> Any:
        from distributed import KilledWorker
        from distributed.client import FutureCancelledError

        client = await self._client()
        key = f"kabale-{job.kind}-{job.id}-{job.attempts}"
        if job.progress is None:
            future = client.submit(job.fn, *job.args, key=key, priority=job.priority,
                                   pure=False)
        else:
            self._progress[key] = job.progress
            future = client.submit(_reporting, job.fn, key, *job.args, key=key,
                                   priority=job.priority, pure=False)
        try:
            return await asyncio.wait_for(_result(future), seconds)
        except TimeoutError:
            await self._stop(future)
            raise JobTimeoutError(f"the advisor took longer than {seconds:g} s and was "
                                  "stopped; ask again, or use a lower --effort") from None
        except asyncio.CancelledError:
            task = asyncio.get_running_loop().create_task(self._stop(future))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            raise
        except KilledWorker:
            raise JobLostError("the worker running this job died before it answered; ask "
                               "again") from None
        except FutureCancelledError as exc:  # lost with the scheduler, or cancelled there
            raise JobLostError(f"the help engine dropped this job ({exc}); ask again"
                               ) from None
        except OSError as exc:  # the scheduler cannot be reached (CommClosedError too)
            raise BusyError(f"the help engine at {self.address} cannot be reached ({exc}); "
                            "ask again later") from None
        finally:
            self._progress.pop(key, None)

    async def _stop(self, future: Any) -> None:
        """Cancel the future; restart the worker running it, if one is."""
        client = self.client
        try:
            processing = await client.processing()
            await client.cancel([future], force=True)
            running = [worker for worker, keys in processing.items() if future.key in keys]
            if running:
                await client.restart_workers(running, timeout=30, raise_for_error=False)
        except Exception:  # noqa: BLE001 - best effort: the scheduler may be gone
            pass

    async def workers(self) -> int:
        if self.client is None:
            return 0
        return len(await self.client.nthreads())

    async def aclose(self) -> None:
        if self.client is not None:
            await self.client.close()
            self.client = None


async def _result(future: Any) -> Any:
    return await future


def _reporting(fn: Callable[..., T], key: str, *args: Any) -> T:
    """``fn(*args, progress=...)`` on a Dask worker, each progress call sent as an event
    ``[key, done, total]`` of PROGRESS_TOPIC."""
    from distributed import get_worker

    worker = get_worker()

    def progress(done: int, total: int) -> None:
        worker.log_event(PROGRESS_TOPIC, [key, int(done), int(total)])

    return fn(*args, progress=progress)
