"""Bot, autoplay and hint: legal moves, repeatable answers, wins where the cards are known."""

from __future__ import annotations

import json

import pytest
from advice_games import played

from kabale import Game, KabaleError
from kabale.advisor import EFFORTS, Bot, autoplay, hint, knowledge
from kabale.advisor.bot import MAX_MOVING_ON, decision_seed
from kabale.advisor.choose import choose
from kabale.advisor.effort import scaled
from kabale.advisor.tips import REASONS
from kabale.solver.batch import solve_states


def quick(family: str) -> object:
    return scaled(EFFORTS[family]["quick"], worlds=8, solves=24, closure=200)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["klondike", "klondike:draw=3,passes=3",
                                     "spiderette:suits=1", "spider:suits=1"])
def test_autoplay_plays_legal_moves_to_an_end(variant: str) -> None:
    game = Game.new(variant, 2)
    effort = quick(game.variant.family)
    done = autoplay(variant, 2, Bot(effort, seed=1), max_moves=300)
    assert done.moves_made > 0
    replay = Game.new(variant, 2)
    for move in done.history:
        replay.play(move)  # the checked path accepts every move
    assert replay.state == done.state
    if done.outcome == "playing" and done.moves_made < 300:  # the bot gave up
        choice = choose(done, knowledge(done), effort,
                        decision_seed(1, done.moves_made))
        assert choice.hopeless or not choice.ranked or choice.moves_on


#: the first 97 moves of Spiderette deal 4 as the bot played it at effort normal: after them
#: no plan the search finds shows a card (its search is cut: thousands of positions)
WANDERING = ("2>6 7>4 d 1>6 1>3 5>1 5>4 2>1 4>1 4>6 5>1 1>5 d 3>5 1>3 2>3 4>2 6>1 7>6 5>7 "
             "5>4 6>4 d 5>2 4>2 d 5>3 6>5 4>6 4>1 3>7 5>3 6>1 6>5 5>3 3>7 6>3 5>6 4>3 1>5 "
             "1>3 5>3 7>1 4>1 3>5 3>7 5>7 6>5 3>4 6>3 6>2 3>2 5>2 4>2 7>5 7>2 5>2 4>3 2>5 "
             "2>7 5>7 2>3 1>5 7>1 5>7 1>5 1>3 5>3 1>6 4>1 7>4 3>7 3>6 4>6 7>4 7>3 4>3 6>4 "
             "6>7 4>7 3>4 7>3 4>7 6>4 6>5 4>5 7>6 3>7 6>5 3>4 5>3 4>5 3:8>4 3>1 4>1 6>4 6>2")


@pytest.mark.slow
def test_a_bot_that_can_only_move_on_compares_few_plans_and_gives_up() -> None:
    game = Game.new("spiderette", 4)
    for move in WANDERING.split():
        game.play(move)
    effort = EFFORTS["spiderette"]["quick"]
    choice = choose(game, knowledge(game), effort, 1)
    assert choice.moves_on and not choice.hopeless
    assert 2 <= len(choice.ranked) <= max(2, effort.solves // 4)
    bot = Bot("quick", seed=1)
    while (move := bot.choose(game)) is not None:
        game.play(move)
    assert game.outcome == "playing" and game.legal_moves()  # given up, not stuck
    assert game.moves_made - 97 < (MAX_MOVING_ON + 1) * 10


def test_the_bot_is_repeatable_for_a_seed() -> None:
    effort = quick("klondike")
    first = autoplay("klondike", 3, Bot(effort, seed=7), max_moves=60)
    again = autoplay("klondike", 3, Bot(effort, seed=7), max_moves=60)
    assert first.history == again.history


def test_with_every_card_known_the_bot_plays_the_solvers_verdict() -> None:
    for seed in (1, 2, 3, 4):
        start = Game.new("klondike:open=true", seed)
        verdict = solve_states(start.variant, [start.state], 1_000_000)[0].status
        game = autoplay("klondike:open=true", seed, Bot("quick", seed=0))
        assert game.outcome == ("won" if verdict == "solved" else "playing")
        assert game.moves_made > 0 or verdict == "unsolvable"


def test_the_vote_scheme_plays_too() -> None:
    game = autoplay("klondike", 4, Bot(quick("klondike"), seed=1, scheme="vote"),
                    max_moves=80)
    assert game.moves_made > 0


def test_bad_bot_settings_are_refused() -> None:
    with pytest.raises(KabaleError, match="scheme"):
        Bot(scheme="guess")
    with pytest.raises(KabaleError, match="effort"):
        Bot(effort="heroic")


@pytest.mark.parametrize("variant", ["klondike:draw=3", "spider:suits=2", "spiderette"])
def test_a_hint_is_a_legal_move_with_its_reason(variant: str) -> None:
    game = played(variant, 4, 12)
    advice = hint(game, effort=quick(game.variant.family), seed=2)
    legal = {str(m) for m in game.legal_moves()}
    assert advice.move in legal
    assert {move for move, _ in advice.moves} <= legal
    assert advice.moves[0] == (advice.move, advice.chance)
    chances = [chance for _, chance in advice.moves]
    assert min(chances) >= 0.0 and max(chances) <= 1.0
    assert advice.reason == REASONS.get(advice.reason_key, advice.reason)
    assert advice.line[0] == advice.move
    copy = game.copy()
    for move in advice.line:  # the plan behind it plays from here
        copy.play(move)
    json.dumps(advice.to_dict())


def test_no_hint_once_the_game_is_over() -> None:
    game = autoplay("klondike:open=true", 1, Bot("quick", seed=0))
    assert hint(game).move is None and hint(game).reason_key == "game_over"
