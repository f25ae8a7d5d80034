"""The sweep over endgames (SpiderKernel.sweep): a search for wins that deals early.

It moves whole runs only, like the depth-first search of whole runs, so it proves nothing
when it fails; what it finds must be a real win, and it must leave the kernel exactly where
it was when it does not win.
"""

from __future__ import annotations

import pytest
from test_spider_part_runs import parts_taken
from test_verdicts import wins

from kabale import Game
from kabale.solver import spider
from kabale.solver._spider import SpiderKernel

SWEEP_LIMIT = 12_000_000  # positions; deal 74 is won in about 5 million


def kernel(game: Game, table_mb: int = 64) -> SpiderKernel:
    return SpiderKernel(*spider.kernel_args(game), table_mb)


@pytest.mark.slow
def test_the_sweep_wins_where_the_depth_first_search_deals_too_late() -> None:
    """Spiderette deal 74 (unknown at 10 s before the sweep): its win makes only a few moves
    before each deal. The sweep finds a line of whole runs that core plays to a win, within
    positions in which the depth-first search of whole runs, dealing last, finds none (it
    needs about 150 million)."""
    game = Game.new("spiderette", 74)
    swept = kernel(game)
    ops = spider.sweep_win(swept, 0, SWEEP_LIMIT)
    assert ops is not None
    line = spider.notation(ops)
    assert wins(game, line) and parts_taken(game, line) == 0
    assert spider.whole_runs_win(kernel(game), 0, swept.nodes) is None


def test_a_sweep_that_does_not_win_leaves_the_kernel_where_it_was() -> None:
    """Cut by its node limit mid-pass, the sweep undoes every move: the exhaustive search
    that follows on the same kernel visits exactly the positions it visits on a fresh one
    and reaches the same verdict (deal 72 is lost)."""
    game = Game.new("spiderette", 72)
    fresh = kernel(game)
    expected = fresh.run(0, 0)
    used = kernel(game)
    assert used.sweep(20_000, 0, 300_000, 60) == (-1, [])
    assert used.stock_left == len(game.state.stock)
    before = used.nodes
    assert used.run(0, 0) == expected == (0, [])
    assert used.nodes - before == fresh.nodes


def test_a_sweep_of_a_lost_deal_ends_without_a_win() -> None:
    """On a lost deal the sweep reaches every endgame, searches each one whole (raising the
    budget for those cut) and ends without a win: 0, no line; the driver's sweep_win
    answers None."""
    game = Game.new("spiderette", 160)
    assert kernel(game).sweep(0, 0, 300_000, 60) == (0, [])
    assert spider.sweep_win(kernel(game), 0, 0) is None


def test_the_sweep_needs_cards_in_the_stock() -> None:
    """With nothing left to deal there is no endgame to sweep: a clear error, and the
    solver's stage skips it."""
    game = Game.new("spiderette", 3)
    while game.state.stock:
        game.play("d")
    with pytest.raises(ValueError, match="stock"):
        kernel(game).sweep(0, 0, 1000, 5)
    assert spider.kernel_stage("sweep", kernel(game), 1.0, 0) == ("unknown", [])
