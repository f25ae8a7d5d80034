"""postmortem(): with the true deal, the move that lost the win and a line from before it."""

from __future__ import annotations

from advice_games import played

from kabale import Game
from kabale.advisor import EFFORTS, postmortem
from kabale.advisor.effort import scaled
from kabale.advisor.postmortem import prefix
from kabale.solver.batch import solve_states


def status(game: Game) -> str:
    return solve_states(game.variant, [game.state], 2_000_000)[0].status


def lost_game() -> Game:
    """A winnable Klondike deal played at random until it is lost."""
    for seed in range(1, 40):
        game = played("klondike", seed, 400)
        if status(prefix(game, 0)) == "solved" and status(game) == "unsolvable":
            return game
    raise AssertionError("no winnable deal lost at random")


def test_the_move_that_lost_the_win() -> None:
    game = lost_game()
    effort = scaled(EFFORTS["klondike"]["quick"], chance_samples=4)
    pm = postmortem(game, effort=effort)
    assert pm.winnable_at_start is True and pm.proved
    assert pm.lost_at is not None
    before, after = prefix(game, pm.lost_at), prefix(game, pm.lost_at + 1)
    assert status(before) == "solved" and status(after) == "unsolvable"
    for move in pm.line_before:
        before.play(move)
    assert before.outcome == "won"
    index, was, now = pm.biggest_drop
    assert 0 <= index < game.moves_made and was >= now


def test_a_game_still_winnable_has_no_losing_move() -> None:
    game = Game.new("klondike", 1)
    game.play(game.legal_moves()[0])
    pm = postmortem(game, drops=False)
    if pm.winnable_at_start:
        assert pm.lost_at is None
        for move in pm.line_before:
            game.play(move)
        assert game.outcome == "won"


def test_a_deal_never_winnable_has_no_losing_move() -> None:
    for seed in range(1, 60):
        game = Game.new("klondike:draw=3", seed)
        if status(game) == "unsolvable":
            break
    game.play(game.legal_moves()[0])
    pm = postmortem(game, drops=False)
    assert pm.winnable_at_start is False and pm.lost_at is None and pm.line_before == []


def test_the_look_back_shows_a_spider_line_stripped_of_its_detours() -> None:
    """The look-back's line in the Spider family is strip_line's (issue 51): it wins, it is
    the stripped form of the search's line, and line_found gives that line's length."""
    from kabale.solver.lines import strip_line

    game = Game.new("spider:suits=1", 3)
    game.play(game.legal_moves()[0])
    effort = scaled(EFFORTS["spider"]["quick"], exact_nodes=300_000)
    pm = postmortem(game, effort=effort, drops=False)
    assert pm.lost_at is None and pm.line_before
    (verdict,) = solve_states(game.variant, [game.state], 300_000, lines=True)
    assert pm.line_found == len(verdict.line) > len(pm.line_before)
    assert pm.line_before == strip_line(game, verdict.line).moves
    assert pm.to_dict()["line_found"] == pm.line_found
    for move in pm.line_before:
        game.play(move)
    assert game.outcome == "won"
