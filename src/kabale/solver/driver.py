"""How a kernel's time is spent: short restarts with shuffled move order, then one
exhaustive search.

A depth-first search that takes a bad turn early can spend its whole budget under it even
when the deal is easy. So the driver first runs a few short searches whose move order is
perturbed (``noise``), each with a growing node budget, and stops at the first win. Then it
runs the plain exhaustive search with whatever budget is left; only that run may report
"unsolvable" (a restart that ends without a win proves nothing, and each run starts with an
empty table so no restart's partial work can prune the exhaustive one). Restarts of kernels
with a depth cap back up past their ``restart_depth`` (RESTART_DEPTH if they name none)
moves; such a run can end "unknown" but never "unsolvable" (_spider.pyx rule 4,
_klondike.pyx rule 10).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .status import KernelCode, Status, verdict

RESTARTS = 6          # shuffled restarts before the exhaustive search
FIRST_BUDGET = 20_000  # nodes of the first restart; each next one doubles it
RESTART_SHARE = 0.35   # at most this share of the time (and of a node limit) goes to restarts
NOISE = 24             # priority noise of the restarts (priority classes are 10-40 apart)
RESTART_DEPTH = 3000   # depth cap of restarts in kernels that have one and name no other


Outcome = tuple[str, Any, int]  # status word, the kernel's line, positions searched


class Flag(Protocol):
    def set(self) -> None: ...
    def is_set(self) -> bool: ...


class Kernel(Protocol):
    nodes: int

    def run(self, max_nodes: int, max_seconds: float, noise: int = 0) -> tuple[int, Any]: ...


def drive(kernel: Kernel, max_seconds: float, max_nodes: int,
          restarts: int = RESTARTS) -> tuple[str, Any]:
    """Run up to ``restarts`` restarts then the exhaustive search within the limits (0 =
    none); returns the status word and the kernel's line (empty unless solved)."""
    start = time.perf_counter()
    restart_nodes = int(max_nodes * RESTART_SHARE) if max_nodes else 0
    budget = FIRST_BUDGET
    for attempt in range(1, restarts + 1):
        if max_nodes:
            budget = min(budget, restart_nodes - kernel.nodes)
            if budget < FIRST_BUDGET // 4:
                break
        seconds = 0.0
        if max_seconds:
            seconds = max_seconds * RESTART_SHARE - (time.perf_counter() - start)
            if seconds <= 0.01:
                break
        if hasattr(kernel, "max_depth"):
            kernel.max_depth = getattr(kernel, "restart_depth", RESTART_DEPTH)
        status, line = kernel.run(budget, seconds, NOISE + attempt)
        if status == KernelCode.SOLVED:
            return Status.SOLVED, line
        if status == KernelCode.UNSOLVABLE:
            # the whole space was searched within the budget: as exhaustive as the plain run
            return Status.UNSOLVABLE, []
        if status == KernelCode.MEMORY:
            return Status.UNKNOWN, []
        budget *= 2
    left_nodes = max(max_nodes - kernel.nodes, 1) if max_nodes else 0
    left_seconds = 0.0
    if max_seconds:
        left_seconds = max(max_seconds - (time.perf_counter() - start), 0.001)
    if hasattr(kernel, "max_depth"):
        kernel.max_depth = 0
    status, line = kernel.run(left_nodes, left_seconds, 0)
    return verdict(status), line


def time_left(max_seconds: float, start: float) -> float:
    """What is left of a time limit (0: none) after the time since ``start``."""
    if not max_seconds:
        return 0.0
    return max(max_seconds - (time.perf_counter() - start), 0.001)


def cores() -> int:
    """How many cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def race(lanes: Sequence[Callable[[], Outcome]], halt: Flag, head_start: float = 0.0) -> Outcome:
    """Run ``lanes`` at once, one thread each (the first in this one), until one decides:
    its status and line, with the positions of all lanes; ("unknown", [], positions) when
    none does. The first lane to decide raises ``halt``, which must stop the others (the
    kernels search without the GIL and look at their Halt with the clock). The others start
    ``head_start`` seconds after the first, or when it ends: a deal it decides sooner never
    pays for them. An exception in a lane halts the others and is raised here."""
    outcomes: list[Outcome | BaseException] = []
    decided: list[Outcome] = []  # first first
    first_ended = threading.Event()

    def go(lane: Callable[[], Outcome]) -> None:
        try:
            outcome = lane()
        except BaseException as error:  # raised again in the caller's thread
            outcomes.append(error)
            halt.set()
            return
        outcomes.append(outcome)
        if outcome[0] != Status.UNKNOWN:
            decided.append(outcome)
            halt.set()

    def go_later(lane: Callable[[], Outcome]) -> None:
        first_ended.wait(head_start)
        if not halt.is_set():
            go(lane)

    others = [threading.Thread(target=go_later, args=(lane,), daemon=True)
              for lane in lanes[1:]]
    for thread in others:
        thread.start()
    try:
        go(lanes[0])
    finally:
        first_ended.set()
    try:
        for thread in others:
            thread.join()
    except BaseException:  # interrupted while waiting: stop the others too
        halt.set()
        raise
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome
    nodes = sum(outcome[2] for outcome in outcomes if not isinstance(outcome, BaseException))
    if not decided:
        return Status.UNKNOWN, [], nodes
    return decided[0][0], decided[0][1], nodes
