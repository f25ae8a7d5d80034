"""Play Klondike deal 7 in a real browser against the real server.

Deal klondike#7 starts with AH alone in column 1, JS on column 2, 2C on 4, 8H on 5, 9S on 6
and AD on 7 (the core's deal, checked below against the server's own observation).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from helpers import settle, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Page, expect

import kabale
from kabale.core.cards import Card, Suit
from kabale.core.state import State
from kabale.storage.db import GameStore

DEAL = "klondike%237"


def body(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("window.kabale.body()")
    return data


def top_code(page: Page, pile: str) -> str | None:
    cards = page.locator(f'#table .card[data-pile="{pile}"]')
    if cards.count() == 0:
        return None
    return cards.nth(cards.count() - 1).get_attribute("data-code")


RANK_NAMES = dict(zip("A23456789TJQK", ["ace", "two", "three", "four", "five", "six", "seven",
                                         "eight", "nine", "ten", "jack", "queen", "king"],
                      strict=True))
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def name(code: str) -> str:
    """A card's English name: "queen of hearts"."""
    return f"{RANK_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"


def drag(page: Page, source: str, target: str) -> None:
    """Press on the top card of pile `source`, move in steps, release over pile `target`."""
    src = page.locator(f'#table .card[data-pile="{source}"]').last.bounding_box()
    dst = page.locator(f'#table .card[data-pile="{target}"]').last.bounding_box()
    assert src and dst
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + 12)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + 30, steps=8)
    page.mouse.up()


def test_play_a_game_with_pointer_and_keyboard(server: LiveServer, page: Page,
                                               shots: Path) -> None:
    page.goto(f"{server.url}/?deal={DEAL}")
    page.wait_for_selector("body[data-ready='1']")
    obs = body(page)["observation"]
    assert obs["deal_id"] == "klondike#7"
    assert [c[-1] for c in obs["columns"]] == ["AH", "JS", "TC", "2C", "8H", "9S", "AD"]
    expect(page.locator("#deal-id")).to_have_text("#7")
    expect(page.locator("#variant-name")).to_have_text("Klondike · draw 1")
    assert page.locator("#table .card.back:not([data-pile='d'])").count() == 21
    settle(page)
    page.screenshot(path=str(shots / "01-start.png"))

    # An illegal drop snaps back with the reason in words, at the card: 2C onto JS.
    drag(page, "4", "2")
    expect(page.locator("#bubble")).to_have_text(
        "The two of clubs cannot go on the jack of spades: only a red ten goes there.")
    assert body(page)["observation"]["moves_made"] == 0
    page.wait_for_timeout(250)
    assert top_code(page, "4") == "2C"

    # Drag and drop: 8H onto 9S.
    drag(page, "5", "6")
    wait_moves(page, 1)
    assert top_code(page, "6") == "8H"
    expect(page.locator("#echo")).to_have_text(
        "Eight of hearts from column 5 to the nine of spades in column 6."
        f" Turned up the {name(body(page)['observation']['columns'][4][-1])} in column 5.")

    # Click: AH goes to its best place, the hearts foundation f2.
    page.locator('#table .card[data-code="AH"]').click()
    wait_moves(page, 2)
    assert body(page)["observation"]["foundations"][1] == ["AH"]
    assert top_code(page, "f2") == "AH"

    # Keyboard: type the move anywhere, Enter plays it.
    page.locator("body").press("Escape")
    page.keyboard.type("7>f")
    page.keyboard.press("Enter")
    wait_moves(page, 3)
    assert body(page)["observation"]["foundations"][2] == ["AD"]
    turned = f"Turned up the {name(body(page)['observation']['columns'][6][-1])} in column 7."
    expect(page.locator("#echo")).to_have_text(
        f"Ace of diamonds from column 7 to the diamonds foundation. {turned}")
    settle(page)
    page.screenshot(path=str(shots / "02-three-moves.png"))

    # Undo with u, redo with Ctrl+Y, undo with the button, redo with the button.
    page.locator("#table").click(position={"x": 5, "y": 600})
    page.keyboard.press("u")
    wait_moves(page, 2)
    assert body(page)["observation"]["foundations"][2] == []
    expect(page.locator("#echo")).to_have_text(
        f"Took back: Ace of diamonds from column 7 to the diamonds foundation. {turned}")
    page.keyboard.press("Control+y")
    wait_moves(page, 3)
    page.click("#btn-undo")
    wait_moves(page, 2)
    page.click("#btn-redo")
    wait_moves(page, 3)
    assert body(page)["observation"]["foundations"][2] == ["AD"]

    # The stock: a click draws one card onto the waste.
    page.get_by_role("button", name="Stock, 24 cards: Enter draws").click()
    wait_moves(page, 4)
    obs = body(page)["observation"]
    assert obs["stock"] == 23 and len(obs["waste"]) == 1
    assert top_code(page, "w") == obs["waste"][-1]
    expect(page.locator('#table .badge[data-pile="d"]')).to_have_text("23")
    settle(page)
    page.screenshot(path=str(shots / "03-drawn.png"))

    # Reload: the same game, as it was.
    before = body(page)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    after = body(page)
    assert after["id"] == before["id"]
    assert after["observation"] == before["observation"]
    expect(page.locator("#echo")).to_have_text("Resumed Klondike · draw 1 after 4 moves.")
    assert top_code(page, "6") == "8H" and top_code(page, "w") == obs["waste"][-1]
    settle(page)
    page.screenshot(path=str(shots / "04-reloaded.png"))


@pytest.mark.slow
def test_spider_deal_new_game_dialog_and_stats(server: LiveServer, page: Page,
                                               shots: Path) -> None:
    page.goto(f"{server.url}/?deal=spider%3Asuits%3D2%2342")
    page.wait_for_selector("body[data-ready='1']")
    assert body(page)["observation"]["deal_id"] == "spider:suits=2#42"
    expect(page.locator('#table .badge[data-pile="d"]')).to_have_text("5")
    expect(page.locator('#table .card[data-pile="d"]').last).to_have_attribute(
        "aria-label", "Stock, 5 deals left: Enter deals a row")
    page.locator('#table .card[data-pile="d"]').last.click()
    wait_moves(page, 1)
    expect(page.locator('#table .badge[data-pile="d"]')).to_have_text("4")
    assert page.locator("#table .card[data-code]").count() == 20

    # New game from the dialog: Spiderette, one suit, deal 12. The Spider game counts as lost.
    page.click("#btn-new")
    page.check("#fam-spiderette")
    page.select_option('fieldset[data-family="spiderette"] select[name="suits"]', "1")
    page.fill("#new-seed", "12")
    page.click("#new-go")
    page.wait_for_function(
        "() => window.kabale?.body()?.observation?.deal_id === 'spiderette:suits=1#12'")
    assert page.locator("#table .card[data-code]").count() == 7
    assert "deal=spiderette" in page.url
    settle(page)
    page.screenshot(path=str(shots / "05-spiderette.png"))

    page.click("#btn-stats")
    page.select_option("#stats-variant", "spider:suits=2")
    expect(page.locator("table.stats")).to_contain_text("Played1")
    expect(page.locator("svg.chart rect")).to_have_count(1)
    page.screenshot(path=str(shots / "06-stats.png"))


def all_face_up_klondike() -> kabale.Game:
    """Klondike with Ace..9 of each suit home and the rest face up in four columns."""
    def c(text: str) -> Card:
        return Card.parse(text)

    piles = tuple(tuple(Card(rank, suit) for rank in range(1, 10)) for suit in Suit)
    columns = tuple(tuple(c(x) for x in col.split()) for col in
                    ["KS QH JS TH", "KH QS JH TS", "KD QC JD TC", "KC QD JC TD"]) + ((),) * 3
    state = State(columns=columns, down=(0,) * 7, stock=(), waste=(), foundations=piles)
    return kabale.Game.from_position("klondike", state)


@pytest.mark.slow
def test_auto_finish_can_be_stopped_and_wins(server: LiveServer, page: Page,
                                             shots: Path) -> None:
    store = GameStore(server.db)
    store.add("autofinish-game", all_face_up_klondike())
    store.close()
    page.goto(f"{server.url}/?game=autofinish-game")
    page.wait_for_selector("body[data-ready='1']")
    page.get_by_role("button", name="Stop").click()
    page.evaluate("window.kabale.idle()")  # a move sent before the click may still land
    stopped = body(page)["observation"]["moves_made"]
    page.wait_for_timeout(700)
    assert body(page)["observation"]["moves_made"] == stopped < 16
    expect(page.locator("#banner")).to_contain_text("Every card is face up")
    page.get_by_role("button", name="Finish").click()
    expect(page.locator("#banner")).to_contain_text("You won!", timeout=15000)
    assert body(page)["observation"]["outcome"] == "won"
    assert body(page)["status"] == "won"
    page.screenshot(path=str(shots / "07-won.png"))


def test_a_random_deal_stays_secret_until_copy_link_reveals_it(server: LiveServer,
                                                              page: Page) -> None:
    page.goto(f"{server.url}/?variant=spider%3Asuits%3D1")
    page.wait_for_selector("body[data-ready='1']")
    first = body(page)
    obs = first["observation"]
    assert obs["deal_id"] is None
    expect(page.locator("#deal-id")).to_have_text(f"Deal {obs['deal_hash'][:6]}…")
    assert "null" not in page.locator("header").inner_text()
    assert "deal=" not in page.url and f"game={first['id']}" in page.url

    # Dismissed: nothing is revealed.
    page.click("#btn-copy")
    expect(page.locator("#ask-text")).to_contain_text("anyone can know every face-down card")
    expect(page.locator("#ask-text")).to_contain_text("counts as played with help")
    page.get_by_role("button", name="Cancel").click()
    page.evaluate("window.kabale.idle()")
    assert body(page)["observation"]["deal_id"] is None

    # Accepted: the server records the reveal, the page shows the number (shortened) and the link.
    page.click("#btn-copy")
    page.locator("#ask-buttons button").first.click()
    page.wait_for_function("() => window.kabale?.body()?.observation?.deal_id !== null")
    deal_id = body(page)["observation"]["deal_id"]
    assert deal_id.startswith("spider:suits=1#")
    number = deal_id.rpartition("#")[2]
    short = number if len(number) <= 10 else f"{number[:4]}…{number[-4:]}"
    expect(page.locator("#deal-id")).to_have_text(f"#{short}")
    assert page.locator("#deal-id").get_attribute("title") == f"Deal number {number}"
    expect(page.locator("#toast")).to_contain_text(f"/?deal={quote(deal_id, safe='')}")
    # Mid-game the number shows every hidden card: the game counts as played with help.
    assert body(page)["assisted"] is True
    expect(page.locator("#deal-tags")).to_contain_text("with help")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert body(page)["observation"]["deal_id"] == deal_id and body(page)["id"] == first["id"]
