"""Property-based fuzzing of the Solvitaire reader (hypothesis): any object, a real deal
edited, or a deal's text damaged either reads as a game or raises InvalidDealError, which
``kabale solve --deal`` prints as one line with exit status 2.

``KABALE_FUZZ=N`` multiplies the example counts for a longer run outside the suite.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kabale import Game, InvalidDealError
from kabale.storage.solvitaire import loads, to_solvitaire

SCALE = int(os.environ.get("KABALE_FUZZ", "1"))
FUZZ = settings(max_examples=150 * SCALE, deadline=None, derandomize=SCALE == 1,
                suppress_health_check=[HealthCheck.too_slow])
DEALS = [to_solvitaire(Game.new(variant, 4)) for variant in
         ("klondike:draw=3", "spider:suits=2", "spiderette", "double-klondike")]
mid = Game.new("klondike", 6)
for _ in range(12):
    mid.play(mid.legal_moves()[0])
DEALS.append(to_solvitaire(mid))

card_texts = st.sampled_from(["AS", "10h", "KD", "th", "³S", "1S", "14C", "", "A", "ＡS", "QQ"])
leaf = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | card_texts
        | st.text(max_size=6) | st.sampled_from(["klondike", "spider", "golf", "klondike-3"]))
value = st.recursive(leaf, lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=14)
keys = st.sampled_from(["tableau piles", "stock", "waste", "foundations", "kabale variant"])


def _edit(data: Any, draw: st.DrawFn) -> Any:
    """Replace one value somewhere inside ``data`` (a key, a pile, a card)."""
    if isinstance(data, dict) and data and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(data)))
        return {**data, key: _edit(data[key], draw)}
    if isinstance(data, list) and data and draw(st.booleans()):
        index = draw(st.integers(0, len(data) - 1))
        return [*data[:index], _edit(data[index], draw), *data[index + 1:]]
    return draw(value)


@st.composite
def edited_deals(draw: st.DrawFn) -> str:
    data = json.loads(json.dumps(draw(st.sampled_from(DEALS))))
    for _ in range(draw(st.integers(1, 3))):
        if isinstance(data, dict) and draw(st.integers(0, 3)) == 0:
            data[draw(keys)] = draw(value)
        else:
            data = _edit(data, draw)
    return json.dumps(data)


@st.composite
def damaged_texts(draw: st.DrawFn) -> str:
    text = json.dumps(draw(st.sampled_from(DEALS)))
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        chars[draw(st.integers(0, len(chars) - 1))] = draw(st.characters())
    return "".join(chars)


def _check(text: str, variant: str | None) -> None:
    try:
        game = loads(variant, text)
    except InvalidDealError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert isinstance(game.observe(), dict) and game.to_json()


@FUZZ
@given(edited_deals(), st.sampled_from([None, "klondike", "spider:suits=2", "spiderette"]))
def test_edited_deals_read_or_raise_invalid_deal_error(text: str, variant: str | None) -> None:
    _check(text, variant)


@FUZZ
@given(damaged_texts() | value.map(json.dumps) | st.text(max_size=40))
def test_any_text_reads_or_raises_invalid_deal_error(text: str) -> None:
    _check(text, None)
