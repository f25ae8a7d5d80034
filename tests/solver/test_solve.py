"""solve() on real deals: lines replayed by core, mid-game starts, limits, bad input."""

from __future__ import annotations

import pytest

from kabale import Game, KabaleError
from kabale.solver import Result, solve

SAMPLES = {
    "klondike:draw=3,open=true": range(1, 7),
    "klondike:open=true": range(1, 7),
    "klondike:draw=3,passes=3,back=false": range(1, 5),
    "klondike:decks=2,open=true": range(1, 3),
    "spider:suits=1": range(1, 4),
    "spiderette:suits=1": range(1, 4),
}


def replays_to_win(game: Game, moves: list[str]) -> bool:
    copy = game.copy()
    for move in moves:
        copy.play(move)
    return copy.outcome == "won"


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(SAMPLES))
def test_real_deals_solved_lines_replay(variant: str) -> None:
    solved = 0
    for seed in SAMPLES[variant]:
        game = Game.new(variant, seed=seed)
        result = solve(game, max_seconds=2.0)
        assert isinstance(result, Result)
        assert result.status in ("solved", "unsolvable", "unknown")
        assert result.nodes >= 0 and result.seconds >= 0
        if result.status == "solved":
            solved += 1
            assert replays_to_win(Game.from_deal_id(game.deal_id), result.moves)
        else:
            assert result.moves == []
    assert solved >= 1, f"no deal of {variant} solved in the sample"


def first_solved(variant: str) -> tuple[Game, Result]:
    """The first deal of the variant (seeds 1, 2, ...) that solves in a second."""
    for seed in range(1, 50):
        game = Game.new(variant, seed=seed)
        result = solve(game, max_seconds=1.0)
        if result.status == "solved":
            return game, result
    raise AssertionError(f"no deal of {variant} among seeds 1-49 solved")


def test_mid_game_position_is_solved_from_where_it_stands() -> None:
    game, first = first_solved("klondike:draw=3,open=true")
    for move in first.moves[:40]:
        game.play(move)
    again = solve(game, max_seconds=5.0)
    assert again.status == "solved"
    assert replays_to_win(game, again.moves)
    assert game.moves_made == 40  # the game itself is untouched


def test_solve_does_not_change_the_game() -> None:
    game = Game.new("spiderette:suits=1", seed=2)
    game.play(game.legal_moves()[0])
    before = game.to_json()
    solve(game, max_seconds=0.5)
    assert game.to_json() == before


@pytest.mark.parametrize("variant", ["klondike:draw=3,open=true", "spider:suits=4",
                                     "spiderette"])
def test_tiny_node_limit_gives_unknown(variant: str) -> None:
    # seed 5 of Thoughtful draw 3 takes millions of positions; a one-position budget cannot
    # decide any of these deals, so the only honest answer is "unknown"
    game = Game.new(variant, seed=5)
    result = solve(game, max_nodes=1)
    assert result.status == "unknown"
    assert result.moves == []
    assert result.nodes <= 1


def test_time_limit_gives_unknown_quickly() -> None:
    game = Game.new("spider:suits=4", seed=1)
    result = solve(game, max_seconds=0.2)
    assert result.status == "unknown"
    assert result.seconds < 5


@pytest.mark.parametrize("variant", ["klondike:open=true", "spiderette:suits=1"])
def test_won_game_is_solved_with_no_moves(variant: str) -> None:
    game, result = first_solved(variant)
    for move in result.moves:
        game.play(move)
    assert game.outcome == "won"
    again = solve(game)
    assert (again.status, again.moves) == ("solved", [])


@pytest.mark.parametrize("kwargs", [
    {"max_seconds": -1}, {"max_seconds": "fast"}, {"max_seconds": float("nan")},
    {"max_seconds": float("inf")}, {"max_seconds": 0}, {"max_nodes": 0}, {"max_nodes": 1.5},
    {"max_memory_mb": 1}, {"max_memory_mb": True},
])
def test_bad_limits_are_refused(kwargs: dict[str, object]) -> None:
    game = Game.new("klondike", seed=1)
    with pytest.raises(KabaleError):
        solve(game, **kwargs)  # type: ignore[arg-type]


def test_not_a_game_is_refused() -> None:
    with pytest.raises(KabaleError, match="kabale.Game"):
        solve("klondike#1")  # type: ignore[arg-type]


def test_a_signal_handler_stops_the_klondike_kernel_and_leaves_it_as_it_was() -> None:
    """The kernel runs a Python signal handler at its looks at the clock (in the main
    thread): an exception the handler raises ends the search with the kernel back at its
    position, ready to search again as a fresh one would."""
    import os
    import signal
    import threading
    import time

    from kabale.solver import klondike

    class Stop(Exception):
        pass

    def stop(signum: int, frame: object) -> None:
        raise Stop

    game = Game.new("klondike:draw=3,open=true", 23)  # 40M positions to prove lost
    kernel = klondike.kernel_for(game, 64)
    previous = signal.signal(signal.SIGUSR1, stop)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGUSR1))
    try:
        start = time.perf_counter()
        timer.start()
        with pytest.raises(Stop):
            kernel.run(0, 60.0)
        assert time.perf_counter() - start < 30
    finally:
        timer.cancel()
        signal.signal(signal.SIGUSR1, previous)
    fresh = klondike.kernel_for(game, 64)
    fresh_status, fresh_line = fresh.run(5000, 0.0)
    before = kernel.nodes
    assert kernel.run(5000, 0.0) == (fresh_status, fresh_line)
    assert kernel.nodes - before == fresh.nodes
