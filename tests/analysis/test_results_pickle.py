"""Results travel to and from workers: every result type pickles to an equal value."""

from __future__ import annotations

import copy
import pickle

from kabale import Game, solve
from kabale.advisor import wilson, win_chance
from kabale.analysis import job_for, summarize
from kabale.solver.batch import solve_states
from kabale.storage.results import Row


def test_results_pickle_and_copy_to_equal_values() -> None:
    game = Game.new("klondike:open=true", 1)
    row = Row("klondike", 1, "solver", "nodes=10", "solved", 3, 10, 0.5, "0.1.0")
    values = [
        solve(game, max_seconds=None, max_nodes=100_000),
        solve_states(game.variant, [game.state], 100_000, lines=True)[0],
        win_chance(Game.new("spiderette:foundations=cards", 2), samples=4, seed=1),
        row, summarize([row]), job_for("spider", "solver", nodes=1000), wilson(3, 4),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value


def test_a_job_plays_the_same_after_pickle() -> None:
    job = job_for("spiderette:foundations=cards", "solver", nodes=50_000)
    back = pickle.loads(pickle.dumps(job))
    assert [(r.result, r.nodes) for r in back.play([1, 2])] == \
        [(r.result, r.nodes) for r in job.play([1, 2])]
