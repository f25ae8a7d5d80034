"""Worker processes for the advisor's jobs, in lanes, each job under a wall-clock cap.

The advisor's budgets are in positions (kabale.advisor.effort), so a job's length is bounded
on any machine, but not its time: a loaded machine, a big budget or a bug can make one run
for minutes. A thread cannot be stopped; a process can. So each job runs in a worker process
of its lane, and a job past its cap has its worker killed (and replaced by a fresh one on the
next job) and answers :class:`JobTimeoutError`. Lanes keep kinds of work apart: a long job
in one lane (a post-mortem, a search for a deal) never holds a job of another (a hint).

A lane takes at most ``queue`` jobs at once (running or waiting); one more is refused with
:class:`BusyError` at once, so a burst of requests cannot pile up work. The functions a lane
runs and their arguments and results cross to the worker by pickle: module-level functions
and plain data only. A job run with ``progress`` is called with a ``progress(done, total)``
keyword argument whose calls reach the caller's ``progress`` on the event loop while the job
runs (a review's positions). A lane made with ``nice`` runs its workers at that niceness, so
that its jobs (the reviews, which nobody waits for during a game) yield the CPU to the
other lanes' on a busy machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from kabale.core.errors import KabaleError

T = TypeVar("T")


class BusyError(KabaleError):
    """The lane has as many jobs as it takes; the request was not queued."""


class JobTimeoutError(KabaleError):
    """A job ran past its wall-clock cap; its worker was stopped."""


class JobLostError(BusyError):
    """The worker running a job died (killed, out of memory) before it answered; the other
    workers and their jobs carry on."""


def _context() -> BaseContext:
    """Processes forked from a clean server process where there is one (fast, and safe in a
    process with threads), else spawned."""
    if sys.platform != "win32" and "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["kabale.server.advice"])
        return context
    return multiprocessing.get_context("spawn")


Progress = Callable[[int, int], None]


def _work(conn: Connection, nice: int = 0) -> None:
    """A worker's loop: run each ``(function, args, reports)`` received, send back its
    outcome (and with ``reports``, each ``progress(done, total)`` call as it comes)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is for the server to act on
    if nice:
        os.nice(nice)

    def progress(done: int, total: int) -> None:
        conn.send(("progress", (int(done), int(total))))

    while True:
        try:
            fn, args, reports = conn.recv()
        except (EOFError, OSError):
            return  # the server is gone
        try:
            outcome: tuple[str, Any] = ("ok", fn(*args, progress=progress) if reports
                                        else fn(*args))
        except Exception as exc:  # sent back to be raised in the server
            outcome = ("error", exc)
        try:
            conn.send(outcome)
        except Exception as exc:  # an outcome that does not pickle
            conn.send(("error", KabaleError(f"the advisor's answer could not be sent: {exc}")))


class _Worker:
    """One worker process (started on its first job, again after it was stopped)."""

    def __init__(self, context: BaseContext, name: str, nice: int = 0) -> None:
        self.context = context
        self.name = name
        self.nice = nice
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        #: set by the lane's close: no process is started from then on
        self.closed = False

    def start(self) -> Connection:
        """The process's end of the pipe, the process started first if it is not running.
        BusyError once the lane is closed: a job whose worker was still starting when the
        lane closed must not start it after (it ran its whole job past the close)."""
        if self.process is None or self.conn is None or not self.process.is_alive():
            self.stop()
            if self.closed:
                raise BusyError("the advisor is shutting down")
            ours, theirs = self.context.Pipe()
            make: Callable[..., BaseProcess] = self.context.Process  # type: ignore[attr-defined]
            process = make(target=_work, args=(theirs, self.nice), name=self.name,
                           daemon=True)
            process.start()
            theirs.close()
            self.process, self.conn = process, ours
            if self.closed:  # closed while it started: close's kill may have missed it
                self.stop()
                raise BusyError("the advisor is shutting down")
        return self.conn

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], seconds: float,
             progress: Progress | None = None) -> Any:
        """``fn(*args)`` in the process (blocking: run from a thread); JobTimeoutError after
        ``seconds``, with the process killed. With ``progress``, ``fn`` gets a ``progress``
        keyword argument, and each of its calls calls ``progress`` here (in this thread)."""
        conn = self.start()
        deadline = time.monotonic() + seconds
        try:
            conn.send((fn, args, progress is not None))
            while True:
                ready = conn.poll(max(deadline - time.monotonic(), 0.0))
                outcome = conn.recv() if ready else None
                if outcome is None or outcome[0] != "progress":
                    break
                if progress is not None:
                    progress(*outcome[1])
        except (EOFError, OSError):
            self.stop()
            raise JobLostError("the advisor's worker stopped before it answered; ask again"
                               ) from None
        if outcome is None:
            self.stop()
            raise JobTimeoutError(f"the advisor took longer than {seconds:g} s and was "
                                  "stopped; ask again, or use a lower --effort")
        kind, value = outcome
        if kind == "error":
            raise value
        return value

    def kill(self) -> None:
        """Kill the process, leaving the rest to the thread waiting on it (if any)."""
        process = self.process  # read once: the waiting thread may forget it meanwhile
        if process is not None and process.is_alive():
            process.kill()

    def stop(self) -> None:
        """Kill the process (if any) and forget it."""
        if self.process is not None:
            if self.process.is_alive():
                self.process.kill()
            self.process.join(5)
            self.process = None
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def _on_loop(loop: asyncio.AbstractEventLoop, progress: Progress, done: int,
             total: int) -> None:
    """Call ``progress(done, total)`` on ``loop`` (from a worker's waiting thread)."""
    with contextlib.suppress(RuntimeError):  # a closed loop: nobody is left to tell
        loop.call_soon_threadsafe(progress, done, total)


class Lane:
    """``workers`` worker processes for one kind of job, at most ``queue`` jobs at once,
    run at niceness ``nice`` (0: as the server)."""

    def __init__(self, name: str, workers: int, queue: int, nice: int = 0) -> None:
        self.name = name
        self.limit = queue
        self.jobs = 0
        context = _context()
        self._workers = [_Worker(context, f"kabale-{name}-{i}", nice) for i in range(workers)]
        self._idle = list(self._workers)
        self._waiting: deque[asyncio.Future[_Worker]] = deque()
        # one waiting thread per worker: the event loop never blocks on a worker
        self._threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self._closed = False

    async def run(self, fn: Callable[..., T], *args: Any, seconds: float,
                  affinity: str | None = None, progress: Progress | None = None) -> T:
        """``fn(*args)`` in a worker within ``seconds`` (JobTimeoutError past them);
        BusyError at once when ``queue`` jobs are in. A job with ``affinity`` goes to the
        same worker as the last one with it when that one is free (state kept there). With
        ``progress``, ``fn`` is called with a ``progress`` keyword argument whose calls
        call ``progress`` on this event loop."""
        if self._closed:
            raise BusyError("the advisor is shutting down")
        if self.jobs >= self.limit:
            raise BusyError(f"the advisor is busy ({self.jobs} requests are waiting for it);"
                            " ask again in a moment")
        self.jobs += 1
        try:
            worker = await self._take(affinity)
            if self._closed:
                self._give_back(worker)
                raise BusyError("the advisor is shutting down")
            loop = asyncio.get_running_loop()
            report = None if progress is None else partial(_on_loop, loop, progress)
            running = loop.run_in_executor(self._threads, worker.call, fn, args, seconds,
                                           report)
            try:
                result: T = await asyncio.shield(running)
            except asyncio.CancelledError:
                # The job is no longer wanted (its position was left, its player went): its
                # worker is killed so that its CPU is free, and it is given back once the
                # thread waiting on it has seen the end (then a fresh one starts on demand).
                worker.kill()
                self.jobs += 1  # the worker is still taken until then
                running.add_done_callback(lambda done: self._after_kill(done, worker))
                raise
            except BaseException:
                self._give_back(worker)
                raise
            self._give_back(worker)
            return result
        finally:
            self.jobs -= 1

    def _after_kill(self, done: asyncio.Future[Any], worker: _Worker) -> None:
        if not done.cancelled():
            done.exception()  # retrieved: it is the end of a job nobody waits for
        self.jobs -= 1
        self._give_back(worker)

    async def _take(self, affinity: str | None) -> _Worker:
        if self._idle:
            if affinity is not None:
                preferred = self._workers[hash(affinity) % len(self._workers)]
                if preferred in self._idle:
                    self._idle.remove(preferred)
                    return preferred
            return self._idle.pop(0)
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._give_back(waiter.result())
            raise

    def _give_back(self, worker: _Worker) -> None:
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def pids(self) -> list[int]:
        """The process ids of the workers running now (for tests and status)."""
        return [w.process.pid for w in self._workers
                if w.process is not None and w.process.pid is not None and w.process.is_alive()]

    def busy(self) -> list[int]:
        """The process ids of the workers running a job now."""
        return [w.process.pid for w in self._workers
                if w not in self._idle and w.process is not None
                and w.process.pid is not None and w.process.is_alive()]

    def close(self) -> None:
        """Stop every worker; jobs running now end with an error."""
        self._closed = True
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_exception(BusyError("the advisor is shutting down"))
        for worker in self._workers:
            worker.closed = True
            if worker in self._idle:
                worker.stop()
            else:
                worker.kill()  # its job's thread sees the end and tidies up
        self._threads.shutdown(wait=False, cancel_futures=True)
