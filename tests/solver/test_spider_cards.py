"""The Spider kernel under foundations=cards: every stage of LANES searches it, the lines it
finds send cards up one at a time and win through core, and rule 6 stays off."""

from __future__ import annotations

import pytest
from test_verdicts import wins

from kabale import Game, solve
from kabale.solver import spider
from kabale.solver._spider import Halt, SpiderKernel
from kabale.solver.batch import solve_states

STAGES = sorted({kind for lanes in spider.LANES.values() for lane in lanes
                 for kind, _ in lane})


@pytest.mark.parametrize("kind", STAGES)
def test_every_stage_alone_wins_a_deal_with_cards_sent_up(kind: str) -> None:
    game = Game.new("spiderette:foundations=cards,strict=false", 1)
    status, ops, nodes = spider.run_lane(((kind, 1.0),), "spiderette", spider.kernel_args(game),
                                         0.0, 3_000_000, 64, Halt())
    assert status == "solved" and 0 < nodes <= 3_000_000
    line = spider.notation(ops)
    assert sum(move.endswith(">f") for move in line) == 52
    assert wins(game, line)


@pytest.mark.parametrize("variant", ["spider:foundations=cards", "spider:foundations=cards,suits=1",
                                     "spiderette:foundations=cards,suits=2"])
def test_the_solver_wins_deals_of_every_family_and_suit_count(variant: str) -> None:
    for seed in (1, 2):
        game = Game.new(variant, seed)
        result = solve(game, max_seconds=None, max_nodes=5_000_000)
        assert result.status == "solved" and wins(game, result.moves)
        assert any(move.endswith(">f") for move in result.moves)


def test_the_kernel_starts_from_cards_already_up_and_keeps_rule_6_off() -> None:
    game = Game.new("spiderette:foundations=cards", 4)
    line = solve(game, max_seconds=None).moves
    middle = game.copy()
    for move in line[:len(line) // 2]:
        middle.play(move)
    assert any(middle.state.foundations)
    kernel = SpiderKernel(*spider.kernel_args(middle), 16)
    assert kernel.cards_up and not kernel.dead_ends
    runs = SpiderKernel(*spider.kernel_args(Game.new("spiderette", 4)), 16)
    assert not runs.cards_up and runs.dead_ends
    status, ops = kernel.run(0, 0.0)
    assert status == 1 and wins(middle, spider.notation(ops))


def test_the_one_lane_path_is_deterministic_under_cards() -> None:
    game = Game.new("spiderette:foundations=cards", 9)
    first = solve_states(game.variant, [game.state], 200_000, lines=True)
    assert first == solve_states(game.variant, [game.state], 200_000, lines=True)
    assert first[0].status == "solved" and wins(game, list(first[0].line))
