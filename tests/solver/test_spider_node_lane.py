"""4-suit Spider's one search (issue 51): the whole beam's first rounds each get a budget of
their own, not a share of the whole, so a larger budget only runs further along the same
path, a round that spends its own budget hands over to the next, and a time limit only cuts
the search short."""

from __future__ import annotations

import pytest
from test_verdicts import wins

from kabale import Game, solve
from kabale.solver import spider
from kabale.solver._spider import SpiderPhases


def test_a_deal_won_at_one_budget_is_won_the_same_at_a_larger_one() -> None:
    # won by the whole beam's third round at 1,530,073 positions; with the whole beam given
    # 15% of the budget it was undecided at 8,500,000 and won at 20,000,000
    game = Game.new("spider", 9100001)
    assert solve(game, max_seconds=None, max_nodes=1_000_000).status == "unknown"
    small = solve(game, max_seconds=None, max_nodes=1_600_000)
    large = solve(game, max_seconds=None, max_nodes=8_500_000)
    assert small.status == large.status == "solved"
    assert (small.moves, small.nodes) == (large.moves, large.nodes)
    assert wins(game, large.moves)


def test_a_round_that_spends_its_own_budget_hands_over_to_the_next() -> None:
    game = Game.new("spider", 9100001)
    rounds = spider.BEAM_ROUNDS["spider"]
    wide, winner = rounds[7], rounds[2]  # (10,000 x 512) costs millions; round 2 wins
    phases = SpiderPhases(*spider.kernel_args(game), 64, 128)
    status, _ = spider.phase_rounds(phases, (wide, winner), 0, 0, True, (1_000_000, 1_000_000))
    assert status == spider.SOLVED
    # the wide round stopped at its budget; round 2 then ran as it does alone (542,810)
    assert phases.nodes == 1_000_000 + 542_810
    # the same budget as a limit on the whole stops in the wide round
    phases = SpiderPhases(*spider.kernel_args(game), 64, 128)
    assert spider.phase_rounds(phases, (wide, winner), 0, 1_000_000, True) == \
        (spider.STOPPED, None)


def test_four_suit_spider_runs_its_own_lane_under_any_limit() -> None:
    lane = spider.SUITS_LANE["spider", 4]
    assert spider.lanes_for("spider", 1, 1_000, 4) == (lane,)
    assert spider.lanes_for("spider", 2, 0, 4) == (lane,)
    assert spider.lanes_for("spider", 1, 1_000, 1) == spider.LANES["spider"]
    assert spider.lanes_for("spiderette", 2, 1_000, 4) == spider.LANES["spiderette"]


def test_a_time_limit_only_cuts_the_search_a_budget_runs() -> None:
    # won in the whole rounds at 1,530,073 positions: the clock, far off, changes nothing
    game = Game.new("spider", 9100001)
    timed = solve(game, max_seconds=60, max_nodes=None)
    budget = solve(game, max_seconds=None, max_nodes=8_500_000)
    assert timed.status == budget.status == "solved"
    assert (timed.moves, timed.nodes) == (budget.moves, budget.nodes)


@pytest.mark.slow
def test_the_wide_whole_rounds_win_a_deal_the_full_beam_did_not() -> None:
    # deal 16 was undecided at 60M positions when the full beam came right after the six
    # cheap whole rounds (the full beam won it at 71M); the wide (20,000 x 256) whole round
    # wins it on its own at 10,626,568 positions
    game = Game.new("spider", 16)
    cheap = spider.WHOLE_PLAN[:6]
    status, _, used = spider.beam_stage(True, "spider", spider.kernel_args(game), 64, 0, 0,
                                        plan=cheap)
    assert status == "unknown"
    result = solve(game, max_seconds=None, max_nodes=sum(cap for _, cap in cheap) + 20_000_000)
    assert result.status == "solved"
    assert result.nodes > used
    assert wins(game, result.moves)
