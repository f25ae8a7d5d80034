"""win_chance and the Wilson interval."""

from __future__ import annotations

import pytest
from advice_games import played

from kabale import Game, KabaleError
from kabale.advisor import EFFORTS, Chance, wilson, win_chance
from kabale.advisor.chance import chance_of
from kabale.advisor.effort import scaled
from kabale.solver.batch import solve_states


@pytest.mark.parametrize(("wins", "trials", "low", "high"), [
    (5, 10, 0.2366, 0.7634),    # the textbook values of Wilson's 95% interval
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (81, 100, 0.7222, 0.8749),
])
def test_wilson_matches_known_values(wins: int, trials: int, low: float, high: float) -> None:
    got = wilson(wins, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_undecided_worlds_count_both_ways() -> None:
    c = chance_of(wins=6, losses=2, undecided=2)
    assert (c.samples, c.wins, c.undecided) == (10, 6, 2)
    assert c.value == pytest.approx(0.6)  # undecided worlds counted as not won
    assert c.low == pytest.approx(wilson(6, 10)[0])  # undecided as lost
    assert c.high == pytest.approx(wilson(8, 10)[1])  # undecided as won


def test_the_chance_is_the_share_of_worlds_the_solver_wins() -> None:
    game = played("klondike:draw=3", 9, 40)
    effort = scaled(EFFORTS["klondike"]["quick"], chance_samples=12)
    c = win_chance(game, seed=5, effort=effort)
    from kabale.advisor import knowledge
    from kabale.advisor.worlds import rng_for, sample_positions
    verdicts = solve_states(game.variant, sample_positions(knowledge(game), 12, rng_for(5)),
                            effort.chance_nodes)
    assert c.wins == sum(v.status == "solved" for v in verdicts)
    assert c.samples == 12 and c.low <= c.value <= c.high
    assert win_chance(game, seed=5, effort=effort) == c


def test_a_finished_game_is_certain() -> None:
    game = Game.new("klondike:open=true", 1)
    from kabale import solve
    for move in solve(game).moves:
        game.play(move)
    assert win_chance(game) == Chance(1.0, 1.0, 1.0, 64, 64, 0)


def test_every_card_known_gives_the_solvers_verdict() -> None:
    for seed in range(1, 6):
        game = Game.new("klondike:open=true,draw=3", seed)
        verdict = solve_states(game.variant, [game.state], 1_000_000)[0].status
        c = win_chance(game, samples=8)
        expected = {"solved": (1.0, 1.0), "unsolvable": (0.0, 0.0), "unknown": (0.0, 1.0)}
        assert (c.low, c.high) == expected[verdict]


@pytest.mark.parametrize("bad", [0, -3, 1.5, True])
def test_a_bad_sample_count_is_refused(bad: object) -> None:
    with pytest.raises(KabaleError, match="samples"):
        win_chance(Game.new("klondike", 1), samples=bad)  # type: ignore[arg-type]


def test_an_unknown_effort_is_refused() -> None:
    with pytest.raises(KabaleError, match="effort"):
        win_chance(Game.new("klondike", 1), effort="heroic")
