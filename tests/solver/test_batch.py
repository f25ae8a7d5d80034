"""solve_states: deterministic small solves, each verdict agreeing with the full solver."""

from __future__ import annotations

import pytest

import kabale
from kabale.solver.batch import solve_states, table_mb
from kabale.solver.result import replay

VARIANTS = ["klondike", "klondike:draw=3", "klondike:back=false,passes=1",
            "klondike:decks=2", "spiderette", "spider:suits=1"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_verdicts_are_repeatable_and_lines_win(variant: str) -> None:
    games = [kabale.Game.new(variant, seed=seed) for seed in range(1, 9)]
    for game in games[::2]:  # mid-game positions too
        for _ in range(6):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(legal[len(legal) // 2])
    states = [game.state for game in games]
    first = solve_states(games[0].variant, states, 3000, lines=True)
    again = solve_states(games[0].variant, states, 3000, lines=True)
    assert first == again
    for game, verdict in zip(games, first, strict=True):
        assert verdict.nodes <= 3000 + 64  # a kernel looks at its budget between batches
        if verdict.status == "solved" and game.outcome != "won":
            assert replay(game, list(verdict.line))  # raises unless it wins
        else:
            assert verdict.line == ()


def test_a_verdict_never_contradicts_the_full_solver() -> None:
    games = [kabale.Game.new("klondike:draw=3", seed=seed) for seed in range(1, 31)]
    small = solve_states(games[0].variant, [g.state for g in games], 2000)
    decided = 0
    for game, verdict in zip(games, small, strict=True):
        if verdict.status == "unknown":
            continue
        decided += 1
        assert kabale.solve(game, max_seconds=30).status == verdict.status
    assert decided >= 10


def test_lines_are_left_out_unless_asked() -> None:
    game = kabale.Game.new("klondike", seed=1)
    (verdict,) = solve_states(game.variant, [game.state], 5000)
    assert verdict.status == "solved" and verdict.line == ()


@pytest.mark.parametrize("bad", [0, -5, 1.5, True, None])
def test_a_bad_budget_is_refused(bad: object) -> None:
    game = kabale.Game.new("klondike", seed=1)
    with pytest.raises(kabale.KabaleError, match="max_nodes"):
        solve_states(game.variant, [game.state], bad)  # type: ignore[arg-type]


def test_tables_grow_with_the_budget() -> None:
    assert table_mb(1000) == 1
    assert table_mb(10**6) == 64
    assert table_mb(10**9) == 256


@pytest.mark.parametrize("variant", ["klondike", "klondike:draw=3", "klondike:draw=3,passes=3",
                                     "klondike:passes=1", "klondike:back=false,draw=3",
                                     "klondike:empty=any,draw=3,passes=3", "klondike:decks=2"])
def test_klondike_states_run_the_serial_lane(variant: str) -> None:
    """The kernel's solve_many runs klondike.serial's lane (the search without cards brought
    back, the relaxation and its forecast, restarts, the exhaustive search) itself: every
    position gets the verdict and the position count serial gives it, at several budgets."""
    from kabale.solver.klondike import RELAXED, serial

    games = [kabale.Game.new(variant, seed=seed) for seed in range(1, 13)]
    for game in games[::2]:
        for _ in range(10):
            legal = [m for m in game.legal_moves() if not m.is_stock] or game.legal_moves()
            if not legal:
                break
            game.play(legal[len(legal) // 3])
    for game in games[1::2]:  # a pass used (where passes are limited, one may be left)
        while game.state.passes_used < 1 and any(m.is_stock for m in game.legal_moves()):
            game.play("d")
    states = [game.state for game in games]
    assert any(state.passes_used for state in states) or games[0].variant["passes"] == 1
    for budget in (150, 3000, 40_000):
        verdicts = solve_states(games[0].variant, states, budget, lines=True)
        for game, verdict in zip(games, verdicts, strict=True):
            status, line, nodes = serial(game, 0.0, budget, table_mb(budget), RELAXED)
            assert (verdict.status, verdict.nodes) == (status, nodes), (variant, budget)
            if status == "solved" and game.outcome != "won":
                assert list(verdict.line) == line
                assert replay(game, line)
