"""KlondikeVectorEnv (the compiled batch of Klondike games) against SyncVectorEnv over
KabaleEnv, which plays core's rules: the same observations, masks, rewards, terminations and
truncations at every step, autoresets included."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import kabale
from kabale.core.cards import Card
from kabale.core.state import State
from kabale.env import KabaleEnv, KlondikeVectorEnv

OPTIONS = [{}, {"draw": 3}, {"decks": 2, "empty": "any"}, {"passes": 1, "scoring": "vegas"},
           {"open": True, "back": False}, {"draw": 3, "passes": 3, "scoring": "none"}]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_the_batch_steps_exactly_as_sync_envs_of_kabale_env(options: dict[str, object]) -> None:
    n = 6
    batch = KlondikeVectorEnv(n, "klondike", max_moves=150, shaped=True, **options)
    sync = gym.vector.SyncVectorEnv([
        lambda: KabaleEnv("klondike", max_moves=150, shaped=True, **options)] * n)
    rng = np.random.default_rng(1)
    seen, ends = batch.reset(seed=7), 0
    expected = sync.reset(seed=7)
    for _ in range(700):
        _same(seen, expected)
        masks = seen[-1]["action_mask"]
        legal = np.argmax(rng.random(masks.shape) * masks, axis=1)
        actions = np.where(rng.random(n) < 0.95, legal, rng.integers(masks.shape[1], size=n))
        seen, expected = batch.step(actions), sync.step(actions)
        ends += int((seen[2] | seen[3]).sum())
    _same(seen, expected)
    assert ends >= n  # autoresets were compared too


def _same(seen: tuple[object, ...], expected: tuple[object, ...]) -> None:
    *parts, info = seen
    *want, want_info = expected
    for got, wanted in zip(parts, want, strict=True):
        if isinstance(got, dict):
            assert got.keys() == wanted.keys()
            for name in got:
                assert np.array_equal(got[name], wanted[name]), name
        else:
            assert np.allclose(got, wanted)
    assert np.array_equal(info["action_mask"], want_info["action_mask"])


def _stuck(stock: list[str]) -> kabale.Game:
    """Unlimited passes; only the stock can move: no Ace on top, no top fits another, and the
    stock ``stock`` (a card that fits a top makes the game go on), already turned back once
    so that the player knows it (a loss is declared only when the player could know it)."""
    tops = [Card.parse(t) for t in ("2S", "2C", "2H", "2D", "5S", "5C", "5H")]
    kept = [Card.parse(t) for t in stock]
    rest = [c for c in (Card(r, s) for s in range(4) for r in range(1, 14))
            if c not in tops and c not in kept]
    columns = tuple((*rest[i::7], top) for i, top in enumerate(tops))
    state = State(columns=columns, down=tuple(len(c) - 1 for c in columns), stock=tuple(kept),
                  waste=(), foundations=((),) * 4, passes_used=1)
    return kabale.Game.from_position("klondike", state)


def test_a_stock_that_cycles_without_a_play_is_lost_as_core_says() -> None:
    lost, going = _stuck(["9S", "9C"]), _stuck(["9S", "4H"])
    assert (lost.outcome, going.outcome) == ("lost", "playing")
    batch = KlondikeVectorEnv(2, "klondike")
    _, info = batch.reset(options={"games": [lost, going]})
    assert list(info["outcome"]) == [2, 0]
    assert info["action_mask"].sum(axis=1).tolist() == [1, 1]  # only d, and the state kept
    draw = batch.actions.action(kabale.Move("d"))
    observation, _, terminated, _, info = batch.step(np.array([draw, draw]))
    assert list(observation["waste"][:, 0]) == [0, 13 * 1 + 4]  # game 0 is over: unchanged
    assert terminated.tolist() == [True, False]
    assert info["action_mask"][1, batch.actions.action(kabale.Move("w", "5"))]
    with pytest.raises(kabale.KabaleError, match="bad reset options"):
        batch.reset(options={"games": [lost]})
    tall = State(columns=(tuple(rest_of_pack()), (), (), (), (), (), ()), down=(51, *(0,) * 6),
                 stock=(), waste=(), foundations=((),) * 4)
    for env in (batch, KabaleEnv("klondike")):
        games = [kabale.Game.from_position("klondike", tall)] * 2
        with pytest.raises(kabale.KabaleError, match="column 1 holds 52 cards; the observation "
                           "holds 19"):
            env.reset(options={"games": games} if env is batch else {"game": games[0]})


def rest_of_pack() -> list[Card]:
    return [Card(r, s) for s in range(4) for r in range(1, 14)]


def test_only_the_klondike_family_has_a_batch_and_bad_input_is_named() -> None:
    with pytest.raises(kabale.KabaleError, match="no batch kernel for 'spider'"):
        KlondikeVectorEnv(4, "spider")
    batch = gym.make_vec("kabale/Klondike-v0", num_envs=3, vectorization_mode="vector_entry_point",
                         draw=3)
    assert isinstance(batch, KlondikeVectorEnv) and str(batch.variant) == "klondike:draw=3"
    batch.reset(seed=1)
    with pytest.raises(kabale.KabaleError, match=r"bad actions .*: 3 integers 0\.\.589"):
        batch.step(np.array([0, 1]))
