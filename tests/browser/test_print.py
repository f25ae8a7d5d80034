"""Large print never makes the cards smaller (issue 48: on a laptop it shrank Klondike's cards
from 110 to 85 px); it makes the corner index larger where the table has room for it."""

from __future__ import annotations

import pytest
from helpers import geometry, new_page, open_game
from liveserver import LiveServer
from playwright.sync_api import Browser

INDEX_FONT = ("parseFloat(getComputedStyle(document.querySelector('#table .card[data-code]"
              " .idx')).fontSize)")


def measure(server: LiveServer, browser: Browser, deal: str, width: int, height: int,
            large: bool, shot: str = "") -> tuple[float, float]:
    """(card width, corner index font size) of a fresh deal at a window size."""
    context, page = new_page(browser, width, height, {"large": large})
    open_game(page, f"{server.url}/?deal={deal}")
    found = (float(geometry(page)["cw"]), float(page.evaluate(INDEX_FONT)))
    body_font = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert (body_font > 16) == large     # the page's words are larger in large print
    if shot:
        page.screenshot(path=shot)
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
    return found


@pytest.mark.parametrize("deal", ["klondike%237", "spider%233", "klondike:open=true%234"])
def test_large_print_never_shrinks_laptop_cards(server: LiveServer, browser: Browser,
                                                deal: str) -> None:
    for width, height in [(1366, 768), (1366, 657)]:
        plain = measure(server, browser, deal, width, height, False)
        large = measure(server, browser, deal, width, height, True)
        assert large[0] >= plain[0], f"{deal} at {width}x{height}: {plain} -> {large}"
        assert large[1] >= plain[1], f"{deal} at {width}x{height}: {plain} -> {large}"


def test_large_print_enlarges_the_index_on_a_phone(server: LiveServer,
                                                   browser: Browser) -> None:
    plain = measure(server, browser, "klondike%237", 390, 844, False)
    large = measure(server, browser, "klondike%237", 390, 844, True)
    assert large[0] >= plain[0] and large[1] >= 1.3 * plain[1], (plain, large)
