"""A Klondike world's worth after a plan: won, proved lost, or undecided within the budget."""

from __future__ import annotations

from kabale import Game
from kabale.advisor.value import UNDECIDED, worths
from kabale.core import State
from kabale.solver.batch import solve_states

VARIANT = "klondike:draw=3"


def test_a_world_is_worth_its_verdict_and_an_undecided_one_lies_between() -> None:
    games = [Game.new(VARIANT, seed) for seed in range(1, 25)]
    variant, rules = games[0].variant, games[0].rules
    states = [g.state for g in games]

    def no_reach(state: State) -> list[State]:
        raise AssertionError("Klondike's worth reads no positions beyond the world's")

    verdicts = solve_states(variant, states, 200_000)
    got = worths(variant, rules, states, 200_000, no_reach)
    statuses = {v.status for v in verdicts}
    assert {"solved", "unsolvable"} <= statuses  # both ends appear among these deals
    for verdict, (won, worth) in zip(verdicts, got, strict=True):
        assert won == (verdict.status == "solved")
        assert worth == {"solved": 1.0, "unsolvable": 0.0}.get(verdict.status, UNDECIDED)
    # one position each: not enough to decide a deal, so every world is undecided
    assert worths(variant, rules, states, 1, no_reach) == [(False, UNDECIDED)] * len(states)
    assert 0.0 < UNDECIDED < 1.0
