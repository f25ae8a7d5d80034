"""The baseline agents: each plays only legal actions; greedy follows its rule; the bot adapter
plays exactly the advisor bot's moves."""

from __future__ import annotations

import numpy as np
import pytest

import kabale
from kabale.core.cards import Card
from kabale.core.state import State
from kabale.env import BotAgent, GreedyAgent, KabaleEnv, RandomAgent
from kabale.env.agents import play_episode


@pytest.mark.parametrize("variant", ["klondike:draw=3", "spider:suits=2", "spiderette"])
def test_random_and_greedy_play_only_legal_actions_and_repeat_by_seed(variant: str) -> None:
    env = KabaleEnv(variant, max_moves=200)
    for make in (lambda: RandomAgent(seed=2), lambda: GreedyAgent(env, seed=2)):
        runs = []
        for _ in range(2):
            agent = make()
            observation, info = env.reset(seed=6)
            actions = []
            for _ in range(200):
                action = agent.act(observation, info)
                assert info["action_mask"][action]
                actions.append(action)
                observation, _, terminated, truncated, info = env.step(action)
                assert not info["illegal"]
                if terminated or truncated:
                    break
            runs.append(actions)
        assert runs[0] == runs[1]


def _spider_position() -> kabale.Game:
    """Spiderette, 4 suits: column 1 holds 5S on face-down cards, column 2 6S, column 3 6H,
    column 4 the 9S-8S run on 9H on face-down cards; the rest of the pack is the stock."""
    def card(text: str) -> Card:
        return Card.parse(text)

    shown = [(card("5S"),), (card("6S"),), (card("6H"),), (card("9H"), card("9S"), card("8S"))]
    used = {c for pile in shown for c in pile}
    rest = [c for c in (Card(r, s) for s in range(4) for r in range(1, 14)) if c not in used]
    columns = ((*rest[:12], *shown[0]), *shown[1:3], (*rest[12:24], *shown[3]), (), (), ())
    state = State(columns=columns, down=(12, 0, 0, 12, 0, 0, 0), stock=tuple(rest[24:]),
                  waste=(), foundations=())
    return kabale.Game.from_position("spiderette:strict=false", state)


def test_greedy_rates_moves_by_its_rule() -> None:
    env = KabaleEnv("spiderette", strict=False)
    observation, info = env.reset(options={"game": _spider_position()})
    agent = GreedyAgent(env, seed=1)
    rating = {text: agent.rate(env.actions.moves[env.action_of(text)], observation)
              for text in info["legal"]}
    assert rating["1>2"] == 4  # turns a face-down card up
    assert rating["1>3"] == 4
    assert rating["4:2>5"] == 0  # the run off the 9H onto an empty column
    assert rating["4:1>5"] == -1  # 8S off its own 9S: gains nothing
    assert rating["3>5"] == -1  # a whole column onto an empty one
    assert rating["d"] == 1
    assert env.actions.moves[agent.act(observation, info)].source == "1"


def test_greedy_sends_cards_home_first() -> None:
    piles = [tuple(Card(rank, suit) for rank in range(1, 14)) for suit in range(4)]
    state = State(columns=((piles[0][-1],), (piles[1][-1],), (), (), (), (), ()),
                  down=(0,) * 7, stock=(), waste=(),
                  foundations=(piles[0][:-1], piles[1][:-1], *piles[2:]))
    env = KabaleEnv("klondike")
    observation, info = env.reset(options={"game": kabale.Game.from_position("klondike", state)})
    episode_agent = GreedyAgent(env, seed=3)
    choice = env.actions.moves[episode_agent.act(observation, info)]
    assert choice.target == "f"
    assert play_episode(env, GreedyAgent(env, seed=3), seed=None).outcome in {
        "won", "lost", "truncated"}


def test_the_bot_agent_plays_the_bots_moves() -> None:
    from kabale.advisor import Bot

    env = KabaleEnv("spiderette:suits=1", max_moves=40)
    agent = BotAgent(env, effort="quick", seed=4)
    twin = Bot(effort="quick", seed=4)
    game = kabale.Game.new("spiderette:suits=1", 12)
    observation, info = env.reset(seed=12)
    for _ in range(40):
        action = agent.act(observation, info)
        expected = twin.choose(game)
        if action is None:
            assert expected is None
            break
        assert expected is not None and env.actions.moves[action] == expected
        game.play(expected)
        observation, _, terminated, truncated, info = env.step(action)
        assert env.game.state == game.state
        if terminated or truncated:
            break
    assert game.moves_made > 5
    assert np.array_equal(observation["down"], game.state.down)
