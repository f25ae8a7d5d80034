"""The solver's one status vocabulary: the verdict words callers see (Status) and the integer
codes the compiled kernels return, each code with one name and the verdict it means.

Two kinds of search return codes, and their 0 differs:

- a depth-first kernel's ``run``/``resume``/``sweep`` (_klondike.pyx, _spider.pyx; the DEFs
  of _klondike_types.pxi): 0 is an exhaustive search that found no win, so the position
  is unsolvable (KernelCode.UNSOLVABLE; the .pxi calls it LOST);
- the Spider beam's phase search (SpiderPhases.search, _spider_phase.pxi) and its rounds
  (solver/spider.py): 0 is a phase or round searched within its budget without a win, which
  proves nothing (PhaseCode.NO_WIN; the .pxi calls it FAILED). A round that searched every
  position whole is PhaseCode.UNSOLVABLE, which only the Python rounds return.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

__all__ = ["KernelCode", "PhaseCode", "Status", "verdict"]


class Status(StrEnum):
    """A verdict: a str, so ``result.status == "solved"``, JSON and f-strings see the word."""

    SOLVED = "solved"          # a winning line, replayed through core
    UNSOLVABLE = "unsolvable"  # an exhaustive search found no win
    UNKNOWN = "unknown"        # a limit (time, positions, memory) came first

    def __repr__(self) -> str:
        # the word's repr, as before it was an enum: printed results and logs read the same
        return repr(self.value)


class KernelCode(IntEnum):
    """What a depth-first kernel's search returns (_klondike_types.pxi's DEFs, _spider.pyx)."""

    SOLVED = 1         # a winning line
    UNSOLVABLE = 0     # searched whole without a win (the .pxi's LOST)
    LIMIT = -1         # time or node limit
    MEMORY = -2        # the table could not grow
    PAUSED = -3        # Klondike: the pause time came; resume goes on with the search
    INTERRUPTED = -4   # Klondike: a signal's handler raised; the exception is set

    @property
    def status(self) -> Status:
        """The verdict this code means (a pause or interruption decides nothing)."""
        return {KernelCode.SOLVED: Status.SOLVED,
                KernelCode.UNSOLVABLE: Status.UNSOLVABLE}.get(self, Status.UNKNOWN)


class PhaseCode(IntEnum):
    """What the Spider beam's phase search and rounds return (_spider_phase.pxi, spider.py)."""

    SOLVED = 1        # a winning line
    NO_WIN = 0        # searched within its budget without a win: proves nothing (FAILED)
    STOPPED = -1      # time, node or memory limit
    UNSOLVABLE = 2    # a round that searched every position whole found no win

    @property
    def status(self) -> Status:
        """The verdict this code means."""
        return {PhaseCode.SOLVED: Status.SOLVED,
                PhaseCode.UNSOLVABLE: Status.UNSOLVABLE}.get(self, Status.UNKNOWN)


def verdict(code: int) -> Status:
    """The verdict of a depth-first kernel's raw code."""
    return KernelCode(code).status
