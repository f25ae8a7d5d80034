"""worlds(): the unseen cards re-dealt uniformly, every world consistent with what was seen."""

from __future__ import annotations

from collections import Counter

import pytest
from advice_games import VARIANTS, played, sights

from kabale import Game, KabaleError
from kabale.advisor import knowledge, worlds
from kabale.advisor.worlds import rng_for, sample_positions


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_world_replays_the_history_and_shows_the_same(variant: str) -> None:
    game = played(variant, 5, 70)
    seen = sights(game)
    k = knowledge(game)
    for world in worlds(game, n=4, seed=2):
        assert world.history == game.history
        assert sights(world) == seen
        assert knowledge(world) == k


@pytest.mark.parametrize("variant", ["klondike:draw=3", "spider:suits=2", "spiderette"])
def test_the_fast_positions_are_the_worlds_positions(variant: str) -> None:
    game = played(variant, 3, 50)
    k = knowledge(game)
    fast = sample_positions(k, 5, rng_for(9))
    assert [w.state for w in worlds(game, n=5, seed=9)] == fast


def test_worlds_are_repeatable_and_differ() -> None:
    game = played("klondike", 2, 30)
    first = [w.state for w in worlds(game, n=6, seed=1)]
    assert first == [w.state for w in worlds(game, n=6, seed=1)]
    assert first != [w.state for w in worlds(game, n=6, seed=2)]
    assert len({w.stock for w in first}) == 6


def test_each_unseen_card_is_equally_likely_in_each_unseen_place() -> None:
    # Klondike deal 1 after one move: 44 unseen places; look at two of them over 4,400
    # worlds, 100 expected sightings of each card: a skewed shuffle shows up far outside
    # the binomial's spread (sd ~ 9.9), while a fair one stays within 5 sd almost surely
    game = Game.new("klondike", 1)
    game.play(game.legal_moves()[0])
    k = knowledge(game)
    positions = sample_positions(k, 44 * 100, rng_for(123))
    for place in (k.unseen[0], k.unseen[-1]):
        pile, index = place
        column = None if pile == "d" else int(pile) - 1
        counts = Counter(state.stock[index] if column is None else
                         state.columns[column][index] for state in positions)
        assert set(counts) == set(k.unseen_cards)
        for card, count in counts.items():
            assert abs(count - 100) < 50, (place, card, count)


def test_thoughtful_has_one_world_the_true_one() -> None:
    game = played("klondike:open=true", 4, 15)
    assert all(w.state == game.state for w in worlds(game, n=3, seed=1))


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_a_bad_count_is_refused(bad: object) -> None:
    with pytest.raises(KabaleError, match="number of worlds"):
        worlds(Game.new("klondike", 1), n=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 2**64, "7", 1.5])
def test_a_bad_seed_is_refused(bad: object) -> None:
    with pytest.raises(KabaleError, match="bad seed"):
        worlds(Game.new("klondike", 1), n=1, seed=bad)  # type: ignore[arg-type]


def _late(variant: str, hidden: int) -> Game:
    """A game of ``variant`` played by its solver's winning line until at most ``hidden``
    cards are still unseen (the stock known: knowledge(..., stock_known=True))."""
    from kabale.solver.batch import solve_states

    seed = 1
    while True:  # the first deal the solver wins
        game = Game.new(variant, seed)
        (verdict,) = solve_states(game.variant, [game.state], 2_000_000, lines=True)
        if verdict.status == "solved":
            break
        seed += 1
    for text in verdict.line:
        if len(knowledge(game, stock_known=True).unseen_cards) <= hidden:
            return game
        game.play(next(m for m in game.legal_moves() if m.explicit() == text or str(m) == text))
    raise AssertionError("won before so few cards were unseen")


@pytest.mark.parametrize("variant", ["klondike:open=false", "klondike:decks=2"])
def test_few_unseen_cards_give_every_position_once(variant: str) -> None:
    from math import factorial

    from kabale.advisor.worlds import every_position

    game = _late(variant, 4)
    k = knowledge(game, stock_known=True)
    cards = k.unseen_cards
    assert 2 <= len(cards) <= 4
    expected = factorial(len(cards))
    for count in Counter(cards).values():
        expected //= factorial(count)
    positions = every_position(k, 64)
    assert positions is not None and len(positions) == expected
    assert len(set(positions)) == expected  # every arrangement, once
    sampled = set(sample_positions(k, 200, rng_for(1)))
    assert sampled <= set(positions)  # and nothing the knowledge does not allow
    assert every_position(k, expected - 1) is None
