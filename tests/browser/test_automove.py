"""The optional auto-move (issue 48): with the setting on, a safe card (an ace or a two, or a
card both foundations of the other colour have caught up with) goes home by itself after the
player's move; off (the default), nothing moves by itself; an undo is not undone."""

from __future__ import annotations

from helpers import body, moves_made, new_page, open_game, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser

DEAL = "klondike%237"   # the ace of hearts alone in column 1, the ace of diamonds on column 7


def test_safe_cards_go_home_by_themselves_when_asked(server: LiveServer,
                                                     browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820, {"autoMove": True})
    open_game(page, f"{server.url}/?deal={DEAL}")
    assert moves_made(page) == 0                    # nothing moves before the player does
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    wait_moves(page, 3)                             # the draw, then both aces home
    page.evaluate("window.kabale.idle()")
    obs = body(page)["observation"]
    assert sorted(c for f in obs["foundations"] for c in f) == ["AD", "AH"]
    page.keyboard.press("u")                        # an undo takes one back and stays
    wait_moves(page, 2)
    page.wait_for_timeout(300)
    page.evaluate("window.kabale.idle()")
    assert moves_made(page) == 2
    context.close()


def test_nothing_moves_by_itself_by_default(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?deal={DEAL}")
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    page.wait_for_timeout(300)
    page.evaluate("window.kabale.idle()")
    assert moves_made(page) == 1
    context.close()
