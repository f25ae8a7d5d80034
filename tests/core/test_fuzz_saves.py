"""Property-based fuzzing of ``Game.from_json`` (hypothesis): whatever the text, it either
loads a game that saves back to itself or raises InvalidSaveError, never anything else.

The example counts keep this file to a few seconds; ``KABALE_FUZZ=N`` multiplies them for a
longer run outside the default suite.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kabale import Game, InvalidSaveError

SCALE = int(os.environ.get("KABALE_FUZZ", "1"))
FUZZ = settings(max_examples=150 * SCALE, deadline=None, derandomize=SCALE == 1,
                suppress_health_check=[HealthCheck.too_slow])


def _base(variant: str, seed: int, moves: int, position: bool = False) -> Game:
    game = Game.new(variant, seed)
    if position:
        game = Game.from_position(variant, game.state)
    for step in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[(step * 7) % len(legal)])
    if game.can_undo:
        game.undo()
    return game


BASES = [_base("klondike", 3, 14), _base("spider:suits=2", 5, 10), _base("spiderette", 2, 6, True),
         _base("klondike:draw=3,passes=3", 8, 30)]
SAVES = [game.to_json() for game in BASES]
# All but the first as if dealt at random: their saves say the deal id is secret.
SAVES[1:] = [text.replace('"deal_known":true', '"deal_known":false') for text in SAVES[1:]]

json_leaf = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats()
             | st.text(max_size=12) | st.sampled_from(["d", "3>7", "w>f", "1:2>3", "AS", "position",
                                                        "klondike#1", "spider#=AS", "٧>٤"]))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                          max_leaves=12)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (dict keys and list indices), the root included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(copy[path[0]], path[1:], new)
    return copy


def _delete(value: Any, path: tuple[Any, ...]) -> Any:
    if len(path) == 1:
        copy = dict(value) if isinstance(value, dict) else list(value)
        del copy[path[0]]
        return copy
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _delete(copy[path[0]], path[1:])
    return copy


@st.composite
def edited_saves(draw: st.DrawFn) -> str:
    """A real save with one to three edits: a value replaced, a key or item deleted, or a
    move string changed."""
    data = json.loads(draw(st.sampled_from(SAVES)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "delete", "text"]))
        if action == "delete" and path:
            data = _delete(data, path)
        elif action == "text":
            data = _replace(data, path, draw(st.text(max_size=8)))
        else:
            data = _replace(data, path, draw(json_value))
    return json.dumps(data)


@st.composite
def cut_saves(draw: st.DrawFn) -> str:
    """A real save cut short, or with a few characters changed."""
    text = draw(st.sampled_from(SAVES))
    if draw(st.booleans()):
        return text[: draw(st.integers(0, len(text) - 1))]
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        chars[draw(st.integers(0, len(chars) - 1))] = draw(st.characters())
    return "".join(chars)


def _check(text: str | bytes) -> None:
    try:
        game = Game.from_json(text)  # type: ignore[arg-type]
    except InvalidSaveError as error:
        assert str(error) and "\n" not in str(error)
        return
    again = game.to_json()
    assert Game.from_json(again).to_json() == again


@pytest.mark.slow
@FUZZ
@given(edited_saves())
def test_edited_saves_load_or_raise_invalid_save_error(text: str) -> None:
    _check(text)
    assert SAVES[0] == BASES[0].to_json()  # nothing shared was changed


@FUZZ
@given(cut_saves())
def test_damaged_saves_load_or_raise_invalid_save_error(text: str) -> None:
    _check(text)


@FUZZ
@given(st.one_of(st.text(max_size=60), st.binary(max_size=60), json_value.map(json.dumps)))
def test_any_text_loads_or_raises_invalid_save_error(text: str | bytes) -> None:
    _check(text)
