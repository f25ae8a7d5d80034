"""Phone ergonomics (issue 48): the New game dialog's Deal box and Deal button in view without
scrolling (phones both ways and a 1366x657 laptop), the bar's buttons at least 44 px on touch,
score, moves and time labelled on a phone, and a hint's bubble never covering the lit cards."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import new_page, open_game, settle
from liveserver import LiveServer
from playwright.sync_api import Browser

SIZES = [(1366, 657, False), (844, 390, True), (640, 360, True), (390, 844, True)]

IN_VIEW_JS = """(ids) => ids.map((id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  return [id, r.top >= 0 && r.bottom <= innerHeight && r.height > 0]; })"""


@pytest.mark.parametrize(("width", "height", "touch"), SIZES,
                         ids=[f"{w}x{h}" for w, h, _ in SIZES])
def test_the_deal_box_and_button_are_in_view(server: LiveServer, browser: Browser, width: int,
                                             height: int, touch: bool, shots: Path) -> None:
    context, page = new_page(browser, width, height, touch=touch)
    open_game(page, f"{server.url}/?deal=klondike%237")
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    shown = page.evaluate(IN_VIEW_JS, ["kind-any", "kind-winnable", "kind-daily", "new-seed",
                                       "new-go", "new-cancel"])
    assert all(ok for _, ok in shown), shown
    page.screenshot(path=str(shots / f"newgame-{width}x{height}.png"))
    context.close()


def test_touch_buttons_are_44_px_and_figures_labelled(server: LiveServer,
                                                      browser: Browser) -> None:
    for width, height in [(640, 360), (390, 844)]:
        context, page = new_page(browser, width, height, touch=True)
        open_game(page, f"{server.url}/?deal=klondike%237")
        small = page.evaluate("""() => [...document.querySelectorAll('header.bar button')]
          .filter((b) => b.offsetParent !== null && !b.classList.contains('tags'))
          .map((b) => [b.id, b.getBoundingClientRect().width, b.getBoundingClientRect().height])
          .filter(([, w, h]) => w < 44 || h < 44)""")
        assert small == [], (width, small)
        labels = page.evaluate("""() => [...document.querySelectorAll('.info .lbl')]
          .filter((l) => l.offsetParent !== null)
          .map((l) => [l.textContent, l.getBoundingClientRect().width > 8])""")
        assert ["Score", True] in labels and ["Moves", True] in labels
        assert ["Time", True] in labels
        context.close()


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"]
            and b["top"] < a["bottom"])


RECTS_JS = """(sel) => [...document.querySelectorAll(sel)].map((e) => {
  const r = e.getBoundingClientRect();
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; })"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390), (640, 360)])
def test_a_hint_bubble_leaves_the_lit_cards_in_view(server: LiveServer, browser: Browser,
                                                    width: int, height: int) -> None:
    context, page = new_page(browser, width, height, touch=True)
    open_game(page, f"{server.url}/?deal=klondike%237")
    page.click("#btn-hint")
    page.wait_for_selector("#table .hint")
    page.wait_for_selector("#bubble.tip:not([hidden])")
    settle(page)
    bubble = page.evaluate(RECTS_JS, "#bubble")[0]
    lit = page.evaluate(RECTS_JS, "#table .hint, #table .hint-target")
    assert lit and not [r for r in lit if overlaps(bubble, r)], (bubble, lit)
    context.close()
