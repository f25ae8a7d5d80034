"""Spiderette's two lanes: the endgame budget of the depth-first search of whole runs, the
Halt flag that stops a search from another thread, and the race of the lanes (run_spider).
"""

from __future__ import annotations

import threading
import time

import pytest
from test_spider_part_runs import parts_taken
from test_verdicts import wins

from kabale import Game
from kabale.solver import spider
from kabale.solver._spider import Halt, SpiderKernel, SpiderPhases


def kernel(game: Game, table_mb: int = 64) -> SpiderKernel:
    return SpiderKernel(*spider.kernel_args(game), table_mb)


def test_an_endgame_budget_wins_where_the_plain_search_is_stuck_in_lost_endgames() -> None:
    """Spiderette deal 39: the depth-first search of whole runs finds no win in 300k
    positions; given at most 5,000 positions per endgame it finds one well within that, and
    core plays it to a win moving whole runs only."""
    game = Game.new("spiderette", 39)
    assert spider.whole_runs_win(kernel(game), 0, 300_000) is None
    budgeted = kernel(game)
    ops = spider.whole_runs_win(budgeted, 0, 300_000, 5_000)
    assert ops is not None and budgeted.nodes < 300_000
    line = spider.notation(ops)
    assert wins(game, line) and parts_taken(game, line) == 0


def test_a_search_that_cut_an_endgame_proves_nothing_and_undoes_its_moves() -> None:
    """Deal 72 is lost: searched whole it ends 0 (unsolvable). With a budget of 10
    positions per endgame the same search cuts endgames, so it ends -1 and says it left
    positions out; the kernel is back at the deal, and a plain run then visits exactly what
    it visits on a fresh kernel."""
    game = Game.new("spiderette", 72)
    fresh = kernel(game)
    expected = fresh.run(0, 0)
    assert expected == (0, []) and not fresh.left_out
    used = kernel(game)
    used.endgame_budget = 10
    assert used.run(0, 0) == (-1, [])
    assert used.left_out
    used.endgame_budget = 0
    before = used.nodes
    assert used.run(0, 0) == expected and not used.left_out
    assert used.nodes - before == fresh.nodes


def test_a_raised_halt_stops_every_search_at_once() -> None:
    """With its Halt raised, the depth-first search, the sweep and a phase search all stop
    at their first look at the clock, answering "limit" (-1), and the board is unchanged."""
    game = Game.new("spiderette", 184)
    halt = Halt()
    halt.set()
    assert halt.is_set()
    stopped = kernel(game)
    stopped.halt = halt
    assert stopped.run(0, 0) == (-1, [])
    assert stopped.sweep(0, 0, 200_000, 60) == (-1, [])
    assert stopped.nodes < 10_000 and stopped.stock_left == len(game.state.stock)
    phases = SpiderPhases(*spider.kernel_args(game), 16, 16)
    phases.halt = halt
    assert phases.search(phases.start(), False, 10_000_000, 16, 0, 0)[0] == -1
    assert phases.nodes < 10_000


def test_a_search_in_a_thread_lets_another_thread_halt_it() -> None:
    """The kernel searches without the GIL: while it runs in a thread (deal 184, which no
    search decides in 30 million positions), this thread runs and raises the Halt, and the
    search stops long before its node limit."""
    game = Game.new("spiderette", 184)
    searching = kernel(game)
    searching.halt = Halt()
    outcome: list[tuple[int, list[tuple[int, int, int, int]]]] = []
    worker = threading.Thread(target=lambda: outcome.append(searching.run(30_000_000, 0)))
    worker.start()
    time.sleep(0.05)
    searching.halt.set()
    worker.join()
    assert outcome == [(-1, [])]
    assert searching.nodes < 30_000_000


def test_the_lane_that_decides_first_stops_the_other(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two lanes race on deal 39: one gives each endgame a budget and wins within 300k
    positions, the other (the plain search of whole runs) would spend its whole share of the
    node limit. The win is returned and the plain lane was halted well before its share."""
    monkeypatch.setitem(spider.LANES, "spiderette",
                        ((("endgames", 1.0),), (("whole dfs", 1.0),)))
    monkeypatch.setattr(spider, "cores", lambda: 2)
    game = Game.new("spiderette", 39)
    status, line, nodes = spider.run_spider(game, 0, 40_000_000, 64)
    assert status == "solved" and wins(game, line)
    assert nodes < 20_000_000


def test_a_halted_lane_runs_no_more_stages() -> None:
    """A lane whose Halt is already raised answers unknown without searching."""
    halt = Halt()
    halt.set()
    args = spider.kernel_args(Game.new("spiderette", 39))
    assert spider.run_lane(spider.LANES["spiderette"][1], "spiderette", args, 10.0, 0, 16,
                           halt) == ("unknown", [], 0)


def test_with_one_core_spiderette_runs_its_stages_in_one_lane(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two lanes on one core would each run at half speed: there the ONE_CORE lane runs
    instead, and its win is real. Spider has one lane anyway."""
    assert spider.lanes_for("spiderette", 2) == spider.LANES["spiderette"]
    assert spider.lanes_for("spiderette", 1) == (spider.ONE_CORE["spiderette"],)
    assert spider.lanes_for("spider", 1) == spider.LANES["spider"]
    monkeypatch.setattr(spider, "cores", lambda: 1)
    game = Game.new("spiderette", 39)
    status, line, _ = spider.run_spider(game, 5.0, 0, 64)
    assert status == "solved" and wins(game, line)
