"""The honesty invariant: two games with the same history of seen cards but different unseen
cards get identical hints, chances and bot moves for one seed, in every family; and the
test itself catches an advisor that is handed the true cards."""

from __future__ import annotations

import dataclasses

import pytest
from advice_games import played, sights, twins

from kabale import Game
from kabale.advisor import EFFORTS, Bot, hint, knowledge, win_chance
from kabale.advisor.choose import choose
from kabale.advisor.effort import Effort, scaled

VARIANTS = ["klondike", "klondike:draw=3", "klondike:decks=2", "spider:suits=1",
            "spider:suits=2", "spider", "spiderette", "spiderette:suits=2"]


def small(game: Game) -> Effort:
    """A budget small enough for many answers in a test, large enough to decide some."""
    return scaled(EFFORTS[game.variant.family]["quick"], worlds=6, solves=18, closure=150,
                  proposals=2, reach=5, chance_samples=6, exact_nodes=20_000)


def answers(game: Game, effort: Effort) -> tuple[object, ...]:
    return (hint(game, effort=effort, seed=3), win_chance(game, seed=3, effort=effort),
            Bot(effort, seed=3).choose(game))


@pytest.mark.parametrize("variant", VARIANTS)
def test_unseen_cards_never_change_an_answer(variant: str) -> None:
    checked = 0
    for seed, moves in ((1, 25), (6, 90), (2, 8)):
        game = played(variant, seed, moves)
        if game.outcome != "playing":
            continue
        checked += 1
        effort = small(game)
        expected = answers(game, effort)
        pairs = twins(game, limit=2)
        assert pairs, "no two unseen cards to swap"
        for twin in pairs:
            assert sights(twin) == sights(game)
            assert answers(twin, effort) == expected
    assert checked >= 2


def peeking_choice(game: Game, effort: Effort) -> object:
    """What the advisor would answer if it were handed the true cards: the knowledge of a
    player who sees everything."""
    k = knowledge(game)
    truth = dataclasses.replace(k, columns=game.state.columns, stock=game.state.stock,
                                unseen_cards=())
    ranked = choose(game, truth, effort, 3).ranked
    return [([str(m) for m in s.plan.moves], s.wins) for s in ranked]


@pytest.mark.parametrize(("variant", "seed", "moves"),
                         [("klondike", 6, 30), ("spiderette", 2, 6)])
def test_the_swap_test_catches_an_advisor_that_peeks(variant: str, seed: int,
                                                     moves: int) -> None:
    game = played(variant, seed, moves)
    effort = small(game)
    honest = [choose(t, knowledge(t), effort, 3).ranked[0].plan for t in twins(game, 8)]
    assert len({repr(p) for p in honest}) == 1  # honest: the same plan for every twin
    peeks = {repr(peeking_choice(t, effort)) for t in [game, *twins(game, 8)]}
    assert len(peeks) > 1  # handed the truth, the answer moves with the unseen cards
