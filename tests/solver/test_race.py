"""driver.race, which runs a search's lanes at once, and Klondike's second lane."""

from __future__ import annotations

import threading

import pytest
from test_verdicts import wins

from kabale import Game
from kabale.solver import klondike, solve
from kabale.solver._klondike import Halt
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


def test_klondikes_second_lane_decides_on_its_own() -> None:
    """Draw-3 deal 451 is lost drawing one card too: the second lane's relaxation proves
    it. Deal 2 is won: its forecast wins, so the relaxation is left out and the shuffled
    exhaustive search wins, with a line core plays to a win."""
    lost = Game.new("klondike:draw=3,open=true", 451)
    assert klondike.second_lane(lost, 0, 0, 16, Halt())[0] == "unsolvable"
    won = Game.new("klondike:draw=3,open=true", 2)
    status, line, _ = klondike.second_lane(won, 0, 0, 16, Halt())
    assert status == "solved" and wins(won, line)


def test_klondike_on_two_lanes_gives_the_verdicts_of_one(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new("klondike:draw=3,open=true", 451)
    monkeypatch.setattr(klondike, "cores", lambda: 2)
    two = solve(game, max_seconds=None)
    monkeypatch.setattr(klondike, "cores", lambda: 1)
    one = solve(game, max_seconds=None)
    assert two.status == one.status == "unsolvable"
