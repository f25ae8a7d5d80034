"""Plans (advisor/plans.py): legal sequences that show nothing until their last move (nor, in
Klondike, make a move that cannot be undone before it), with tips summed along the search
equal to scoring the plan move by move."""

from __future__ import annotations

import pytest
from advice_games import VARIANTS, played

from kabale import Game
from kabale.advisor import knowledge
from kabale.advisor.knowledge import sight
from kabale.advisor.plans import Planner
from kabale.advisor.tips import tip_score
from kabale.advisor.worlds import rng_for, sample_positions


def planner_of(variant: str, seed: int, moves: int) -> Planner:
    """The planner of a game played ``moves`` random moves in, on one sampled world."""
    game = played(variant, seed, moves)
    k = knowledge(game)
    (start,) = sample_positions(k, 1, rng_for(seed))
    return Planner(k, game.rules, start)


@pytest.mark.parametrize("variant", VARIANTS)
def test_plans_are_legal_show_a_card_only_last_and_carry_their_tips(variant: str) -> None:
    checked = 0
    for seed, moves in ((1, 0), (2, 15), (3, 40)):
        planner = planner_of(variant, seed, moves)
        found, reached, _ = planner.plans(60)
        rules = planner.rules
        for plan in found + reached:
            state = planner.start
            commits = False
            for n, move in enumerate(plan.moves):
                assert move in rules.legal_moves(state), (variant, seed, plan.moves)
                after = rules.apply(state, move)
                shows = planner.reveals(state, after)
                last = n == len(plan.moves) - 1
                assert shows == (plan.reveals and last), plan.moves
                commits = planner.commits(state, move, after)
                assert not commits or last, plan.moves
                state = after
            assert plan.reveals or rules.is_won(state) or commits or plan in reached
            assert not commits or plan in found
            assert plan.tips == tip_score(rules, planner.start, plan.moves), plan.moves
            checked += 1
    assert checked > 0


def test_klondike_steps_of_several_presses_score_as_their_moves() -> None:
    # draw 3: a waste play several presses away is one step; its tips must equal the
    # presses' and the play's scored one at a time
    game = Game.new("klondike:draw=3", 5)
    while game.state.passes_used == 0:  # one pass through: every stock card seen
        game.play(next(m for m in game.legal_moves() if m.is_stock))
    k = knowledge(game)
    planner = Planner(k, game.rules, sample_positions(k, 1, rng_for(5))[0])
    found, reached, _ = planner.plans(200)
    long_steps = [p for p in found + reached
                  if sum(m.is_stock for m in p.moves) >= 2 and not p.moves[-1].is_stock]
    assert long_steps
    for plan in long_steps:
        assert plan.tips == tip_score(planner.rules, planner.start, plan.moves)


def test_a_winning_line_becomes_the_plan_up_to_its_first_card_shown() -> None:
    planner = planner_of("klondike", 4, 10)
    found, _, _ = planner.plans(60)
    shown = next(p for p in found if p.reveals)
    line = tuple(m.explicit() for m in shown.moves)
    again = planner.plan_of(line + line)
    assert again == shown
    assert again.tips == shown.tips


def _left_out(plan: tuple, short: tuple) -> tuple:
    """The moves of ``plan`` that ``short`` (its moves up to some point, then its last step)
    leaves out."""
    for size in range(len(short), 0, -1):  # the last step's length, longest first
        head = len(short) - size
        if short[head:] == plan[len(plan) - size:] and short[:head] == plan[:head]:
            return plan[head:len(plan) - size]
    raise AssertionError((plan, short))


@pytest.mark.parametrize("variant", ["klondike", "klondike:draw=3", "klondike:empty=any",
                                     "spiderette", "spider:suits=2"])
def test_a_plan_cut_short_still_reaches_the_plans_position_in_every_world(
        variant: str) -> None:
    # earliest(plan) keeps the plan's last step and a prefix of its moves; the moves it left
    # out, played after it, must lead to the plan's own position in every world, not only in
    # the planner's (their legality may not read the card the step shows)
    cut = 0
    for seed, moves in ((4, 25), (5, 10), (6, 30)):
        game = played(variant, seed, moves)
        k = knowledge(game)
        worlds = sample_positions(k, 6, rng_for(seed))
        planner = Planner(k, game.rules, worlds[0])
        found, _, _ = planner.plans(300)
        rules = planner.rules
        for plan in found:
            short = planner.earliest(plan)
            if short == plan:
                continue
            cut += 1
            assert short.reveals == plan.reveals
            assert short.tips == tip_score(rules, planner.start, short.moves)
            rest = _left_out(plan.moves, short.moves)
            assert rest
            for world in worlds:
                whole = world
                for move in plan.moves:
                    whole = rules.apply(whole, move)
                state = world
                for move in (*short.moves, *rest):
                    legal = {m: m for m in rules.legal_moves(state)}
                    assert move in legal, (plan.moves, short.moves)
                    state = rules.apply(state, legal[move])
                assert sight(state, planner.symmetric, planner.cycle) == \
                    sight(whole, planner.symmetric, planner.cycle)
    assert cut > 0
