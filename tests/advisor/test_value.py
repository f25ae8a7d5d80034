"""A world's worth after a plan: Klondike's verdicts (won, proved lost, or undecided within the
budget) and Spider's outlook."""

from __future__ import annotations

from dataclasses import replace

from kabale import Game
from kabale.advisor.value import UNDECIDED, outlook, progress, worths
from kabale.core import State
from kabale.solver.batch import solve_states

VARIANT = "klondike:draw=3"


def test_a_world_is_worth_its_verdict_and_an_undecided_one_lies_between() -> None:
    games = [Game.new(VARIANT, seed) for seed in range(1, 25)]
    variant, rules = games[0].variant, games[0].rules
    states = [g.state for g in games]

    def no_outlook(state: State) -> float:
        raise AssertionError("Klondike's worth reads no positions beyond the world's")

    verdicts = solve_states(variant, states, 200_000)
    got = worths(variant, rules, states, 200_000, no_outlook)
    statuses = {v.status for v in verdicts}
    assert {"solved", "unsolvable"} <= statuses  # both ends appear among these deals
    for verdict, (won, worth) in zip(verdicts, got, strict=True):
        assert won == (verdict.status == "solved")
        assert worth == {"solved": 1.0, "unsolvable": 0.0}.get(verdict.status, UNDECIDED)
    # one position each: not enough to decide a deal, so every world is undecided
    assert worths(variant, rules, states, 1, no_outlook) == [(False, UNDECIDED)] * len(states)
    assert 0.0 < UNDECIDED < 1.0


def test_a_spider_outlook_searches_each_look_once_and_is_the_best_progress_ahead() -> None:
    game = Game.new("spider:suits=2", 3)
    rules = game.rules
    start = game.state
    # the same look with two face-down cards exchanged (columns 1 and 2, bottom cards)
    columns = [list(pile) for pile in start.columns]
    assert columns[0][0] != columns[1][0]
    columns[0][0], columns[1][0] = columns[1][0], columns[0][0]
    twin = replace(start, columns=tuple(tuple(pile) for pile in columns))
    searched: list[State] = []

    def reach(state: State) -> list[State]:
        searched.append(state)
        return [rules.apply(state, move) for move in rules.legal_moves(state)
                if not move.is_stock]

    ahead = outlook(reach)
    best = max(progress(s) for s in [start, *reach(start)])
    searched.clear()
    assert ahead(start) == best > progress(start)
    assert ahead(twin) == best
    assert searched == [start]  # the twin looks alike: not searched again
    moved = reach(start)[0]
    searched.clear()
    assert ahead(moved) == max(progress(s) for s in [moved, *reach(moved)])
    assert len(searched) == 2  # a new look is searched
