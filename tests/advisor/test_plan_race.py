"""The race that compares plans on common worlds (advisor/choose.py): when it lets a plan go,
and that the budget goes to the plans still close."""

from __future__ import annotations

from kabale import Game
from kabale.advisor import EFFORTS, knowledge
from kabale.advisor.choose import EQUAL_AFTER, ROUND, _race, _settled
from kabale.advisor.effort import scaled
from kabale.advisor.plans import Planner
from kabale.advisor.worlds import rng_for, sample_positions


def test_a_lead_beyond_chance_settles() -> None:
    # won in every world where the other lost, and never the other way round
    assert _settled([1.0] * 12, [1.0] * 6 + [0.0] * 6)


def test_a_lead_within_chance_does_not() -> None:
    # one world of sixteen apart: a lead of one standard error
    lead = [1.0] * 9 + [0.0] * 7
    other = [1.0] * 8 + [0.0] * 8
    assert not _settled(lead, other)


def test_equal_plans_settle_only_after_enough_worlds() -> None:
    same = [1.0, 0.0] * (EQUAL_AFTER // 2)
    assert _settled(same, same)
    assert not _settled(same[:EQUAL_AFTER - 2], same[:EQUAL_AFTER - 2])


def test_the_race_spends_its_worlds_on_the_close_plans() -> None:
    # Klondike draw 3 with its stock known: seven plans at the deal
    game = Game.new("klondike:draw=3", 5)
    k = knowledge(game, stock_known=True)
    effort = scaled(EFFORTS["klondike"]["normal"], worlds=128, solves=800)
    positions = sample_positions(k, effort.worlds, rng_for(5))
    planner = Planner(k, game.rules, positions[0])
    found, _, _ = planner.plans(effort.closure)
    assert len(found) > 2
    ranked = _race(game, planner, found, positions, effort)
    trials = [s.trials for s in ranked]
    assert sum(trials) <= effort.solves
    assert trials[0] == max(trials) and trials[0] >= ROUND
    assert min(trials) < trials[0]  # some plan left the race early
    assert ranked[0].value / ranked[0].trials >= max(s.value / s.trials for s in ranked
                                                     if s.trials == trials[0]) - 1e-9
