"""kabale.env: registration, spaces, the env checker, seeding, masks against core, rewards."""

from __future__ import annotations

import random
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import kabale
from kabale.core.cards import Card
from kabale.core.state import State
from kabale.core.variants import OPTIONS, parse_variant
from kabale.env import ENV_IDS, KabaleEnv, RandomAgent
from kabale.env.view import UNSEEN, card_code, column_depth

FAMILY_VARIANTS = ["klondike", "klondike:draw=3", "double-klondike", "thoughtful",
                   "klondike:empty=any,back=false,passes=1", "vegas", "spider:suits=1",
                   "spider:suits=2", "spider", "spiderette", "spiderette:suits=1,strict=false"]


def _codes(pile: list[str]) -> list[int]:
    return [UNSEEN if text == "??" else card_code(Card.parse(text)) for text in pile]


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_the_env_checker_passes(env_id: str) -> None:
    env = gym.make(env_id, render_mode="ansi")
    check_env(env.unwrapped)
    assert env.unwrapped.variant == parse_variant(ENV_IDS[env_id])


@pytest.mark.parametrize(("env_id", "options"), [
    ("kabale/Klondike-v0", {"decks": 2, "draw": 3}), ("kabale/Klondike-v0", {"open": True}),
    ("kabale/Spider-v0", {"suits": 1, "strict": False}),
    ("kabale/Spiderette-v0", {"foundations": "cards"}),
    ("kabale/Spider-v0", {"suits": 2, "foundations": "cards"})])
def test_the_env_checker_passes_with_options(env_id: str, options: dict[str, object]) -> None:
    check_env(gym.make(env_id, render_mode="ansi", **options).unwrapped)


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_every_option_is_a_keyword(env_id: str) -> None:
    family = ENV_IDS[env_id]
    for name, values in OPTIONS[family].items():
        for value in values:
            env = gym.make(env_id, **{name: value})
            assert env.unwrapped.variant[name] == value
            assert env.unwrapped.variant.family == family
    as_text = gym.make(env_id, **{name: str(values[-1]).lower()})
    assert as_text.unwrapped.variant[name] == values[-1]


def test_keywords_go_on_top_of_an_alias_and_bad_ones_are_named() -> None:
    assert str(KabaleEnv("vegas", draw=1).variant) == "klondike:passes=3,scoring=vegas"
    with pytest.raises(kabale.NotationError, match=r"unknown option 'drw' for 'klondike'"):
        gym.make("kabale/Klondike-v0", drw=3)
    with pytest.raises(kabale.NotationError, match=r"bad value '2' for klondike option 'draw'"):
        KabaleEnv("klondike", draw=2)
    with pytest.raises(kabale.KabaleError, match="bad max_moves 0"):
        KabaleEnv(max_moves=0)


def test_spaces_have_the_documented_sizes() -> None:
    sizes = {"klondike": (590, 19, 24), "double-klondike": (1028, 21, 59),
             "spider": (1171, 83, None), "spiderette": (547, 52, None),
             "spider:foundations=cards": (1181, 83, None),
             "spiderette:foundations=cards": (554, 52, None)}
    for variant, (actions, depth, stock) in sizes.items():
        env = KabaleEnv(variant)
        assert env.action_space.n == actions
        assert column_depth(env.rules) == depth
        assert env.observation_space["columns"].shape == (env.rules.n_columns, depth)
        if stock is not None:
            assert env.observation_space["waste"].shape == (stock,)
        else:
            assert "waste" not in env.observation_space.spaces


def test_reset_deals_that_deal_number_and_repeats() -> None:
    env = KabaleEnv("spider:suits=2")
    first, info = env.reset(seed=42)
    assert env.game.deal_id == "spider:suits=2#42"
    assert env.game.state == kabale.Game.new("spider:suits=2", 42).state
    again, info_again = env.reset(seed=42)
    assert all(np.array_equal(first[k], again[k]) for k in first)
    assert info["legal"] == info_again["legal"]
    env.reset(seed=5)
    following = [env.reset()[0]["columns"] for _ in range(3)]
    env.reset(seed=5)
    assert all(np.array_equal(a, env.reset()[0]["columns"]) for a in following)
    assert not np.array_equal(following[0], following[1])


def test_reset_options_start_from_a_game_or_a_deal_id() -> None:
    game = kabale.Game.new("klondike:draw=3", 9)
    game.play(game.legal_moves()[0])
    env = KabaleEnv("klondike", draw=3)
    env.reset(options={"game": game})
    assert env.game.state == game.state and env.game is not game
    env.reset(options={"deal_id": "klondike:draw=3#11"})
    assert env.game.deal_id == "klondike:draw=3#11"
    with pytest.raises(kabale.KabaleError, match="variant 'klondike' is not this env's"):
        env.reset(options={"game": kabale.Game.new("klondike", 1)})
    with pytest.raises(kabale.KabaleError, match="bad reset options"):
        env.reset(options={"deck": []})


@pytest.mark.parametrize("variant", FAMILY_VARIANTS)
def test_masks_legal_and_view_agree_with_core_at_every_step(variant: str) -> None:
    env = KabaleEnv(variant, max_moves=300)
    rng = random.Random(variant)
    for seed in (1, 2):
        observation, info = env.reset(seed=seed)
        for _ in range(300):
            game = env.game
            legal = game.legal_moves()
            assert info["legal"] == [str(m) for m in legal]
            actions = np.flatnonzero(info["action_mask"])
            assert [env.actions.moves[a] for a in actions] == sorted(
                legal, key=env.actions.index.__getitem__)
            assert np.array_equal(env.action_masks(), info["action_mask"])
            _check_view(observation, game)
            if not legal:
                break
            observation, _, terminated, truncated, info = env.step(rng.choice(actions))
            if terminated or truncated:
                break


def _check_view(observation: dict[str, np.ndarray], game: kabale.Game) -> None:
    """The arrays say what Game.observe says (the reference for what a player sees)."""
    seen = game.observe()
    for row, pile in zip(observation["columns"], seen["columns"], strict=True):
        assert list(row[:len(pile)]) == _codes(pile) and not row[len(pile):].any()
    assert list(observation["down"]) == seen["down"]
    assert observation["stock"][0] == seen["stock"]
    assert observation["score"][0] == seen["score"]
    if "waste" in observation:
        assert list(observation["waste"][:len(seen["waste"])]) == _codes(seen["waste"])
        assert list(observation["foundations"]) == [len(p) for p in seen["foundations"]]
        stock = list(observation["stock_cards"][:seen["stock"]])
        if seen["stock_cards"] is not None or game.state.passes_used:
            assert stock == [card_code(c) for c in game.state.stock]
        else:
            assert stock == [UNSEEN] * seen["stock"]
        left = seen["passes_left"]
        assert observation["passes_left"][0] == (-1 if left is None else left)
    else:
        suits = [card_code(Card.parse(run[0])) // 13 for run in seen["foundations"]]
        assert list(observation["foundations"][:len(suits)]) == [s for s in suits]


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_random_episodes_end_within_max_moves(env_id: str) -> None:
    env = gym.make(env_id, max_moves=400)
    agent = RandomAgent(seed=3)
    for seed in range(1, 6):
        observation, info = env.reset(seed=seed)
        terminated = truncated = False
        step = 0
        while not (terminated or truncated) and step < 401:
            observation, reward, terminated, truncated, info = env.step(
                agent.act(observation, info))
            step += 1
        assert terminated or truncated
        assert truncated == (step == 400 and not terminated)
        assert observation["steps"][0] == step
        with pytest.raises(kabale.KabaleError, match="the episode has ended"):
            env.step(0)


def test_a_refused_action_changes_nothing_but_counts_as_a_step() -> None:
    env = KabaleEnv("spiderette", max_moves=2)
    observation, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    after, reward, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal"] and reward == 0 and not terminated and not truncated
    assert env.game.moves_made == 0 and info2["legal"] == info["legal"]
    assert all(np.array_equal(after[k], observation[k]) for k in after if k != "steps")
    assert env.step(illegal)[3]  # the second step reaches max_moves
    for bad in (-1, 547, 2.0, "3>7"):
        env.reset(seed=4)
        with pytest.raises(kabale.KabaleError, match=r"bad action .*: an integer 0\.\.546"):
            env.step(bad)


def _almost_won_klondike() -> kabale.Game:
    piles = [tuple(Card(rank, suit) for rank in range(1, 14)) for suit in range(4)]
    king = piles[0][-1]
    state = State(columns=((king,), (), (), (), (), (), ()), down=(0,) * 7, stock=(),
                  waste=(), foundations=(piles[0][:-1], *piles[1:]))
    return kabale.Game.from_position("klondike", state)


def test_the_winning_move_earns_one_and_terminates() -> None:
    env = KabaleEnv("klondike")
    observation, info = env.reset(options={"game": _almost_won_klondike()})
    assert "1>f" in info["legal"]
    observation, reward, terminated, truncated, info = env.step(env.action_of("1>f"))
    assert (reward, terminated, truncated, info["outcome"]) == (1.0, True, False, "won")
    assert not info["action_mask"].any() and list(observation["foundations"]) == [13] * 4


@pytest.mark.parametrize("variant", ["klondike", "spider:suits=1", "spiderette"])
def test_the_shaped_reward_adds_up_to_the_change_in_progress(variant: str) -> None:
    env = KabaleEnv(variant, shaped=True, max_moves=300)
    agent = RandomAgent(seed=8)
    observation, info = env.reset(seed=8)
    n = env.rules.n_cards

    def progress(obs: dict[str, np.ndarray]) -> float:
        home = obs["foundations"].sum() if "waste" in obs else 13 * np.count_nonzero(
            obs["foundations"])
        return float(home - obs["down"].sum()) / n

    start, total, flips = progress(observation), 0.0, 0
    while True:
        before = observation["down"].sum()
        observation, reward, terminated, truncated, info = env.step(agent.act(observation, info))
        flips += before - observation["down"].sum()
        total += float(reward)
        if terminated or truncated:
            break
    assert flips > 0
    assert total == pytest.approx(progress(observation) - start + (info["outcome"] == "won"))


def test_render_ansi_prints_the_game() -> None:
    env = gym.make("kabale/Spiderette-v0", render_mode="ansi")
    env.reset(seed=3)
    assert env.render() == str(env.unwrapped.game)
    quiet = KabaleEnv("spiderette")
    quiet.reset(seed=3)
    assert quiet.render() is None


def test_action_of_names_a_legal_move_or_refuses() -> None:
    env = KabaleEnv("klondike")
    env.reset(seed=7)
    assert env.actions.moves[env.action_of("d")].is_stock
    with pytest.raises(kabale.KabaleError, match=r"move 'w>f' is not legal here; legal: "):
        env.action_of("w>f")


def test_importing_kabale_does_not_import_gymnasium() -> None:
    code = "import sys, kabale; assert 'gymnasium' not in sys.modules and 'numpy' not in " \
           "sys.modules, sorted(m for m in sys.modules if 'gym' in m)"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_foundations_cards_shows_the_heights_and_numbers_the_moves_up() -> None:
    env = KabaleEnv("spiderette:foundations=cards")
    observation, info = env.reset(seed=7)  # AH tops column 1 and AD column 7
    assert env.actions.moves[0].explicit() == "1>f" and len(env.actions) == 554
    assert info["legal"][:2] == ["1>f", "7>f"]
    observation, *_ = env.step(env.action_of("7>f"))
    assert list(observation["foundations"]) == [0, 0, 1, 0]  # f3 takes diamonds
