"""driver.race, which runs a search's lanes at once (pure Python lanes here)."""

from __future__ import annotations

import threading

import pytest

from kabale.solver.driver import Outcome, race


class Flag:
    """A Python stand-in for the kernels' Halt (race only sets and reads it)."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def set(self) -> None:
        self.event.set()

    def is_set(self) -> bool:
        return self.event.is_set()


def waits_for(flag: Flag, nodes: int) -> Outcome:
    """A lane that decides nothing and stops only when halted (as a kernel does)."""
    assert flag.event.wait(30), "never halted"
    return "unknown", [], nodes


def test_the_first_lane_to_decide_wins_and_halts_the_others() -> None:
    flag = Flag()
    outcome = race([lambda: waits_for(flag, 7), lambda: ("solved", ["d"], 5)], flag)
    assert outcome == ("solved", ["d"], 12)
    assert flag.is_set()


def test_no_lane_decides() -> None:
    flag = Flag()
    assert race([lambda: ("unknown", [], 3), lambda: ("unknown", [], 4)], flag) == \
        ("unknown", [], 7)
    assert not flag.is_set()


def test_a_lane_that_fails_halts_the_others_and_its_error_is_raised() -> None:
    flag = Flag()

    def broken() -> Outcome:
        raise MemoryError("no table")

    with pytest.raises(MemoryError, match="no table"):
        race([lambda: waits_for(flag, 1), broken], flag)
    assert flag.is_set()


def test_a_late_lane_never_starts_when_the_first_decides_in_its_head_start() -> None:
    flag = Flag()
    started: list[str] = []

    def late() -> Outcome:
        started.append("late")
        return "unknown", [], 0

    assert race([lambda: ("unsolvable", [], 2), late], flag, head_start=30.0) == \
        ("unsolvable", [], 2)
    assert started == []
    # undecided, the first lane lets the late one start at once when it ends
    assert race([lambda: ("unknown", [], 2), late], Flag(), head_start=30.0) == \
        ("unknown", [], 2)
    assert started == ["late"]
