"""Every tap counts (issue 48): stock taps 100 ms apart each draw, a double click on the stock
draws twice, a second quick tap on a column plays the card left there, a tap on a face-down card
says why nothing happens; and a player never reads a server's raw refusal (the demo's win with
the auto-finish, a stale second tab)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from helpers import body, moves_made, new_page, open_game, settle, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser, Page, expect
from positions import store_game

import kabale
from kabale.core.cards import Card, Suit
from kabale.core.state import State

#: Every bubble, toast and banner text the page shows, kept as it appears.
WATCH_JS = """() => {
  window.shown = [];
  for (const id of ['bubble', 'toast', 'banner-text']) {
    const el = document.getElementById(id);
    new MutationObserver(() => window.shown.push(el.textContent))
      .observe(el, { childList: true, characterData: true, subtree: true });
  }
}"""


def taps(page: Page, selector: str, n: int, dy: float = 8) -> None:
    """Tap `n` times at one point of the element `selector`, 100 ms apart (one click each:
    the browser counts them as a double, triple... click)."""
    box = page.locator(selector).bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + dy
    page.mouse.move(x, y)
    for i in range(n):   # one press each, counted as a browser counts quick clicks
        page.mouse.down(click_count=i + 1)
        page.mouse.up(click_count=i + 1)
        page.wait_for_timeout(100)


def two_cards_home() -> kabale.Game:
    """Klondike with the 10 of hearts and the 9 of spades (on it) in column 1, both able to go
    home (Ace..8 of spades and Ace..9 of hearts are there), and the king of clubs in the stock
    (so that no auto-finish starts)."""
    def up_to(suit: Suit, top: int) -> tuple[Card, ...]:
        return tuple(Card(rank, suit) for rank in range(1, top + 1))

    def cards(text: str) -> tuple[Card, ...]:
        return tuple(Card.parse(x) for x in text.split())

    spades, hearts, diamonds, clubs = list(Suit)
    state = State(columns=(cards("TH 9S"), cards("KH QS JH TS"), cards("KS QH JS"), (), (), (), ()),
                  down=(0,) * 7, stock=cards("KC"), waste=(),
                  foundations=(up_to(spades, 8), up_to(hearts, 9), up_to(diamonds, 13),
                               up_to(clubs, 12)))
    return kabale.Game.from_position("klondike", state)


def last_face_down_klondike() -> kabale.Game:
    """Klondike with Ace..9 home, the 10 of diamonds face down under the 10 of clubs and every
    other card face up: the demo's first move turns the last card, then the game finishes.
    (No column holds more cards than the deal put there: the bot reads a deal's places.)"""
    def c(text: str) -> Card:
        return Card.parse(text)

    piles = tuple(tuple(Card(rank, suit) for rank in range(1, 10)) for suit in Suit)
    columns = tuple(tuple(c(x) for x in col.split()) for col in
                    ["KS", "KH QS", "KD QC JD", "KC QD JC TH", "TD TC", "QH JS", "JH TS"])
    state = State(columns=columns, down=(0, 0, 0, 0, 1, 0, 0), stock=(), waste=(),
                  foundations=piles)
    return kabale.Game.from_position("klondike", state)


def test_stock_taps_100_ms_apart_each_draw(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?deal=klondike%237")
    taps(page, '#table .card[data-pile="d"] >> nth=-1', 5)
    wait_moves(page, 5)
    page.evaluate("window.kabale.idle()")
    assert moves_made(page) == 5 and len(body(page)["observation"]["waste"]) == 5
    settle(page)
    page.dblclick('#table .card[data-pile="d"] >> nth=-1')   # a double click: two draws
    wait_moves(page, 7)
    page.evaluate("window.kabale.idle()")
    assert moves_made(page) == 7
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_a_quick_second_tap_on_a_column_counts(server: LiveServer, browser: Browser) -> None:
    gid = store_game(server.db, "taps-two-home", two_cards_home())
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?game={gid}")
    # Both taps at the 9's top edge, which the 10 under it covers once the 9 has gone home.
    taps(page, '#table .card[data-code="9S"]', 2, dy=6)
    wait_moves(page, 2)
    page.evaluate("window.kabale.idle()")
    obs = body(page)["observation"]
    assert obs["columns"][0] == [] and obs["foundations"][1][-1] == "TH"
    assert moves_made(page) == 2
    context.close()


def test_a_tap_on_a_face_down_card_says_why(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?deal=klondike%237")
    page.locator('#table .card.back[data-pile="7"]').last.click(position={"x": 20, "y": 6})
    expect(page.locator("#bubble")).to_have_text("That card is face down.")
    page.evaluate("window.kabale.idle()")
    assert moves_made(page) == 0
    # the bubble points at the card (its middle over the card's column), not the window's
    card = page.locator('#table .card.back[data-pile="7"]').last.bounding_box()
    said = page.locator("#bubble").bounding_box()
    assert card and said
    middle = said["x"] + said["width"] / 2
    assert card["x"] - said["width"] / 2 <= middle <= card["x"] + card["width"] + said["width"] / 2
    assert said["y"] + said["height"] <= card["y"] + 60
    context.close()


@pytest.mark.slow   # the demo's pace: about 13 s
def test_the_demo_wins_without_a_raw_refusal(server: LiveServer, browser: Browser) -> None:
    gid = store_game(server.db, "taps-demo-win", last_face_down_klondike())
    context, page = new_page(browser, 1200, 820, {"speed": "normal"})
    open_game(page, f"{server.url}/?game={gid}")
    page.evaluate(WATCH_JS)
    page.click("#btn-demo")
    expect(page.locator("#banner-text")).to_contain_text("You won!", timeout=20000)
    page.evaluate("window.kabale.idle()")
    page.wait_for_timeout(300)   # what a late answer would still show
    shown: list[str] = page.evaluate("window.shown")
    assert not [s for s in shown if "refused" in s or "illegal" in s or "no longer" in s], shown
    expect(page.locator("#bubble")).to_be_hidden()
    assert body(page)["observation"]["outcome"] == "won"
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def post(url: str, data: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(data).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as res:
        answer: dict[str, Any] = json.loads(res.read())
    return answer


def test_a_stale_tab_is_told_in_words_and_brought_up_to_date(server: LiveServer,
                                                             browser: Browser) -> None:
    gid = store_game(server.db, "taps-stale", two_cards_home())
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?game={gid}")
    for _ in range(2):   # another tab plays both cards home
        post(f"{server.url}/api/games/{gid}/moves", {"move": "1>f"})
    page.locator('#table .card[data-code="9S"]').click()
    expect(page.locator("#bubble")).to_contain_text("That move could no longer be played")
    assert "refused" not in page.locator("#bubble").inner_text()
    page.evaluate("window.kabale.idle()")
    assert body(page)["observation"]["columns"][0] == []
    expect(page.locator('#table .card[data-code="9S"][data-pile="1"]')).to_have_count(0)
    context.close()
