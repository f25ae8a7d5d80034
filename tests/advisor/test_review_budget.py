"""review(): the review-wide budget of solver positions, and the review's own scale of a
Spider world before the last deal."""

from __future__ import annotations

import importlib
import math

import pytest
from advice_games import played, twins

from kabale import Game
from kabale.advisor import EFFORTS, review
from kabale.advisor.effort import Effort, scaled
from kabale.advisor.value import progress, score
from kabale.core import State

#: the module (the package's own name ``review`` is the function)
module = importlib.import_module("kabale.advisor.review")
value_module = importlib.import_module("kabale.advisor.value")


def small(family: str) -> Effort:
    """A tiny budget: the tests check what a review promises, not how well it judges."""
    return scaled(EFFORTS[family]["quick"], chance_samples=6, chance_nodes=400, reach=3,
                  exact_nodes=20_000)


def spied(monkeypatch: pytest.MonkeyPatch) -> tuple[list, list[int]]:
    """Every _values a review asks for, and the positions its world solves search."""
    seen: list = []
    searched = [0]
    inner = module._values
    solve = value_module.solve_states

    def values(*args: object, **kwargs: object) -> object:
        got = inner(*args, **kwargs)
        seen.append(got)
        return got

    def counted(*args: object, **kwargs: object) -> object:
        got = solve(*args, **kwargs)
        searched[0] += sum(v.nodes for v in got)
        return got

    monkeypatch.setattr(module, "_values", values)
    monkeypatch.setattr(value_module, "solve_states", counted)
    return seen, searched


def worlds_of(found: object) -> int:
    """The worlds a decision's moves were valued on (0 when it carries no worths)."""
    got = list(found.worlds.values())  # type: ignore[attr-defined]
    return len(got[0]) if got else 0


def test_a_spent_budget_values_each_decision_on_its_first_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = played("klondike", 2, 60)
    level = small("klondike")
    seen, searched = spied(monkeypatch)
    whole = review(game, level, 1, with_deal=False)
    full = [worlds_of(v) for v in seen]
    spent_full = searched[0]
    seen.clear()
    searched[0] = 0
    monkeypatch.setattr(module, "REVIEW_BUDGET", {"klondike": 0})
    cut = review(game, level, 1, with_deal=False)
    short = [worlds_of(v) for v in seen]
    rounds = module.ROUNDS["klondike"]
    assert len(short) == len(full) and any(full)
    assert short == [math.ceil(n / rounds) for n in full]
    assert searched[0] < spent_full
    assert len(cut.decisions) == len(whole.decisions) == game.moves_made
    # still only what the player saw: twins whose unseen cards differ review alike
    expected = cut.to_dict()
    for twin in twins(game, 2):
        assert review(twin, level, 1, with_deal=False).to_dict() == expected


def test_a_review_stays_within_its_budget_and_one_round_a_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = played("klondike:draw=3", 5, 80)
    level = small("klondike")
    seen, searched = spied(monkeypatch)
    review(game, level, 4, with_deal=False)
    unbounded = searched[0]
    seen.clear()
    searched[0] = 0
    budget = unbounded // 4 // level.chance_nodes
    monkeypatch.setattr(module, "REVIEW_BUDGET", {"klondike": budget})
    review(game, level, 4, with_deal=False)
    size = math.ceil(level.chance_samples * module.REVIEW_WORLDS["klondike"] /
                     module.ROUNDS["klondike"])
    # a decision overshoots its share by one round at most: each move on `size` worlds
    rounds = sum(len(v.worlds) * size * level.chance_nodes for v in seen)
    assert searched[0] <= budget * level.chance_nodes + rounds
    assert searched[0] < unbounded


def test_a_typical_game_is_valued_on_every_world(monkeypatch: pytest.MonkeyPatch) -> None:
    # the budget bites only on long, costly games: a short one is reviewed as coach mode
    # grades each of its moves alone, on all of the worlds
    game = played("spider:suits=1", 3, 30)
    level = small("spider")
    seen, _ = spied(monkeypatch)
    review(game, level, 2, with_deal=False)
    wanted = level.chance_samples * module.REVIEW_WORLDS["spider"]
    assert all(worlds_of(v) in (0, wanted) for v in seen)


def opening(variant: str, seed: int) -> tuple[State, State]:
    """A deal's first position and the one after dealing from the stock at once."""
    game = Game.new(variant, seed)
    start = game.state
    game.play(next(m for m in game.legal_moves() if m.is_stock))
    return start, game.state


def test_the_review_s_scale_orders_as_the_score_and_spreads_the_opening() -> None:
    states: list[State] = []
    for seed in range(1, 6):
        game = played("spider:suits=2", seed, 50)
        states += [game.initial_state, game.state]
    by_score = sorted(states, key=score)
    worths = [module.standing(s) for s in by_score]
    assert all(0.0 < w < 1.0 for w in worths)
    assert worths == sorted(worths)
    for seed in range(1, 6):
        start, dealt = opening("spider:suits=2", seed)
        # a deal at once, ten cards on whatever lies there: on value.py's logistic a small
        # step near 0; on the review's scale several times larger
        lost = module.standing(start) - module.standing(dealt)
        assert score(dealt) < score(start)
        assert lost > 2 * (progress(start) - progress(dealt)) > 0


@pytest.mark.parametrize(("variant", "scale"), [
    ("spider:suits=1", "progress"), ("spiderette:suits=1", "progress"),
    ("spider:suits=2", "standing"), ("spider", "standing"), ("spiderette", "standing")])
def test_the_review_s_scale_is_chosen_by_the_deck_s_suits(variant: str, scale: str) -> None:
    chosen = module.scale_for(Game.new(variant, 1))
    assert chosen is {"progress": progress, "standing": module.standing}[scale]
