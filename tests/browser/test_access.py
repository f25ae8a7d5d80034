"""Keyboard play without notation, accessible names in the page's language, each move announced,
and axe-core (the engine shipped in axe-playwright-python) finding no serious violation."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from helpers import body, moves_made, new_page, open_game, settle, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser, Page, expect
from positions import klondike_longest, store_game

# slow: run by `python -m pytest -m slow` (.ci/run), not the README's pass
pytestmark = pytest.mark.slow

DEAL = "klondike%237"   # column 5 ends in 8H, column 6 in 9S (see test_play.py)


def focused(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.evaluate(
        "(() => { const a = document.activeElement; return {pile: a.dataset.pile || '',"
        " index: a.dataset.index || '', label: a.getAttribute('aria-label') || '',"
        " outline: getComputedStyle(a).outlineStyle}; })()")
    return data


def tab_to_pile(page: Page, pile: str) -> None:
    """Tab from the page's start until a card or slot of `pile` has the focus."""
    page.locator("body").focus()
    for _ in range(60):
        page.keyboard.press("Tab")
        if focused(page)["pile"] == pile:
            return
    raise AssertionError(f"Tab never reached pile {pile}")


def test_a_whole_move_by_keyboard_alone(server: LiveServer, browser: Browser, shots: Path) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal={DEAL}")
    tab_to_pile(page, "1")                        # Tab reaches the columns, one stop per pile
    f = focused(page)
    assert f["label"] == "ace of hearts, column 1, top card"
    assert f["outline"] != "none"                 # the focus is visible
    for _ in range(4):
        page.keyboard.press("ArrowRight")         # arrows walk along the columns
    assert focused(page)["label"] == "eight of hearts, column 5, top card"
    page.keyboard.press("Enter")                  # pick it up
    expect(page.locator("#echo")).to_contain_text("Picked up eight of hearts")
    assert page.locator('#table .card.held[data-code="8H"]').count() == 1
    page.keyboard.press("ArrowLeft")              # a wrong pile first: refused in words
    page.keyboard.press(" ")
    expect(page.locator("#bubble")).to_have_text(
        "The eight of hearts cannot go on the two of clubs: only a red ace goes there.")
    assert moves_made(page) == 0
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert focused(page)["pile"] == "6"
    page.keyboard.press("Enter")                  # put it down on the nine of spades
    wait_moves(page, 1)
    assert body(page)["observation"]["columns"][5][-2:] == ["9S", "8H"]
    expect(page.locator("#echo")).to_contain_text(
        "Eight of hearts from column 5 to the nine of spades in column 6.")
    assert focused(page)["label"] == "eight of hearts, column 6, top card"
    # Escape puts back what was picked up; Enter on the stock draws.
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    expect(page.locator("#echo")).to_have_text("Put back.")
    assert page.locator("#table .card.held").count() == 0
    page.keyboard.press("Home")
    assert focused(page)["pile"] == "d"
    page.keyboard.press("Enter")
    wait_moves(page, 2)
    expect(page.locator("#echo")).to_contain_text("Drew the")
    settle(page)
    page.screenshot(path=str(shots / "keyboard.png"))
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_a_move_in_notation_can_be_lit_for_hints(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal={DEAL}")
    assert page.evaluate("window.kabale.highlight('9>9')") is None      # not a legal move
    page.evaluate("() => { window.__clear = window.kabale.highlight('5>6'); }")
    lit = "els => els.map(e => e.dataset.code)"
    assert page.eval_on_selector_all("#table .hint", lit) == ["8H"]
    assert page.eval_on_selector_all("#table .hint-target", lit) == ["9S"]
    page.evaluate("window.__clear()")
    assert page.locator("#table .hint, #table .hint-target").count() == 0
    page.evaluate("() => { window.kabale.highlight('7>f'); }")
    piles = "els => els.map(e => e.dataset.pile)"
    targets = page.eval_on_selector_all("#table .hint-target", piles)
    assert targets == ["f3"]                                  # the diamonds foundation
    page.set_viewport_size({"width": 1300, "height": 640})    # a redraw keeps the lit move
    page.wait_for_function("() => document.getElementById('table').geometry.width === 1300")
    assert page.locator("#table .hint-target").count() == 1
    context.close()


def test_names_and_announcements_in_the_pages_language(server: LiveServer,
                                                       browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657, {"lang": "da"})
    open_game(page, f"{server.url}/?deal={DEAL}")
    assert page.evaluate("document.documentElement.lang") == "da"
    card = page.locator('#table .card[data-code="8H"]')
    expect(card).to_have_attribute("aria-label", "hjerter otte, kolonne 5, øverste kort")
    expect(page.locator('#table .pile[data-pile="7"]')).to_have_attribute(
        "aria-label", "Kolonne 7, 6 kort med bagsiden op")
    expect(page.locator('#table .card[data-pile="d"][role="button"]')).to_have_attribute(
        "aria-label", "Trækbunke, 24 kort: Enter vender kort")
    expect(page.locator('#table .slot[data-pile="f2"]')).to_have_attribute(
        "aria-label", "Grundbunken med hjerter")
    card.focus()
    page.keyboard.press("Enter")
    page.locator('#table .card[data-code="9S"]').focus()
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    expect(page.locator("#echo")).to_contain_text(
        "Hjerter otte fra kolonne 5 til spar ni i kolonne 6.")
    page.keyboard.press("u")
    expect(page.locator("#echo")).to_contain_text("Fortrudt: Hjerter otte fra kolonne 5")
    context.close()


def serious(page: Page) -> list[str]:
    # label-content-name-mismatch is experimental in axe-core: switched on by name.
    results = Axe().run(page, options={"rules": {"label-content-name-mismatch": {"enabled": True}}})
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("lang", ["en", "da"])
def test_axe_finds_no_serious_violation(server: LiveServer, browser: Browser, lang: str) -> None:
    game = store_game(server.db, f"axe-{lang}", klondike_longest("klondike:open=true,draw=3"))
    context, page = new_page(browser, 1366, 657, {"lang": lang})
    open_game(page, f"{server.url}/?game={game}")
    found = serious(page)
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    found += serious(page)
    page.keyboard.press("Escape")
    page.click("#btn-settings")
    found += serious(page)
    page.keyboard.press("Escape")
    page.click("#btn-rules")
    found += serious(page)
    page.keyboard.press("Escape")
    open_game(page, f"{server.url}/?deal=spider%3Asuits%3D4%2342")
    found += serious(page)
    assert not found, found
    context.close()
