"""The table fits the window in every variant at every stage, and every fanned card shows its
rank and suit: the longest columns each family can hold, at a laptop window, a large screen
and a phone held both ways, measured from the elements' geometry."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import body, geometry, new_page, open_game, settle, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser
from positions import klondike_longest, spider_after_four_deals, store_game

# slow: run by `python -m pytest -m slow` (.ci/run), not the README's pass
pytestmark = pytest.mark.slow

SIZES = [(1366, 657), (1920, 1080), (390, 844), (844, 390)]
POSITIONS = {
    "spider-2": lambda: spider_after_four_deals(2),
    "spider-4": lambda: spider_after_four_deals(4, seed=3),
    "klondike": lambda: klondike_longest("klondike:draw=3"),
    "double": lambda: klondike_longest("klondike:decks=2,draw=3", seed=2),
    "thoughtful": lambda: klondike_longest("klondike:open=true,draw=3", seed=4),
}


@pytest.fixture(scope="module")
def stored(server: LiveServer) -> dict[str, str]:
    return {name: store_game(server.db, f"fit-{name}", make()) for name, make in POSITIONS.items()}


def check_fits(page_geometry: dict[str, object], where: str) -> None:
    g = page_geometry
    assert g["scrollW"] <= g["W"] and g["scrollH"] <= g["H"], f"{where}: the page scrolls: {g}"
    assert not g["outside"], f"{where}: cards outside the window: {g['outside']}"
    assert not g["hidden"], f"{where}: corner indices covered: {g['hidden']}"


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_longest_columns_fit_with_every_corner_showing(server: LiveServer, browser: Browser,
                                                       stored: dict[str, str], width: int,
                                                       height: int, shots: Path) -> None:
    for large in (False, True):
        context, page = new_page(browser, width, height, {"large": large})
        for name, game_id in stored.items():
            open_game(page, f"{server.url}/?game={game_id}")
            g = geometry(page)
            where = f"{name} at {width}x{height}{' large print' if large else ''}"
            check_fits(g, where)
            n_face_up = sum(len(c) - d for c, d in zip(body(page)["observation"]["columns"],
                                                      body(page)["observation"]["down"],
                                                      strict=True))
            assert g["checked"] >= n_face_up, where
            if name == "thoughtful":          # the stock's cards, next first, each in view
                chips = page.eval_on_selector_all(
                    "#table .stock-strip .chip",
                    "els => els.map(e => e.querySelector('.rk').dataset.rk + e.dataset.suit"
                    " + (e.getBoundingClientRect().bottom <= innerHeight))")
                stock = body(page)["observation"]["stock_cards"][::-1]
                assert chips == [f"{c[0].replace('T', '10')}{c[1]}true" for c in stock], where
            if not large:
                page.screenshot(path=str(shots / f"fit-{name}-{width}x{height}.png"))
        assert not page.errors  # type: ignore[attr-defined]
        context.close()


def test_cards_grow_on_large_screens_and_in_large_print(server: LiveServer, browser: Browser,
                                                        stored: dict[str, str]) -> None:
    # Large print takes the largest corner index that leaves the cards as wide as plain print
    # has them (issue 48: it shrank a laptop's Klondike cards from 110 to 85 px): on a large
    # screen the index grows; where the longest column fills the height, it cannot.
    sizes = {}
    for width, height in [(1366, 657), (1920, 1080), (2560, 1440)]:
        context, page = new_page(browser, width, height)
        open_game(page, f"{server.url}/?game={stored['klondike']}")
        sizes[width] = geometry(page)["cw"]
        font = page.evaluate("getComputedStyle(document.querySelector('#table .card[data-code]"
                             " .idx')).fontSize")
        context.close()
        context, page = new_page(browser, width, height, {"large": True})
        open_game(page, f"{server.url}/?game={stored['klondike']}")
        large = page.evaluate("getComputedStyle(document.querySelector('#table .card[data-code]"
                              " .idx')).fontSize")
        assert float(large[:-2]) >= float(font[:-2]), (width, font, large)
        if width == 2560:
            assert float(large[:-2]) > float(font[:-2]) * 1.1, (width, font, large)
        assert geometry(page)["cw"] >= sizes[width], (width, sizes[width], geometry(page)["cw"])
        check_fits(geometry(page), f"large print at {width}")
        context.close()
    assert sizes[1366] < sizes[1920] < sizes[2560]
    assert sizes[1920] > 1.25 * sizes[1366]


def test_touch_plays_both_ways_round(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 844, 390, touch=True)
    open_game(page, f"{server.url}/?deal=klondike%237")
    assert body(page)["observation"]["columns"][0] == ["AH"]
    page.locator('#table .card[data-code="AH"]').tap()          # to its foundation
    wait_moves(page, 1)
    assert body(page)["observation"]["foundations"][1] == ["AH"]
    page.set_viewport_size({"width": 390, "height": 844})        # the phone turned upright
    page.wait_for_function("() => document.getElementById('table').geometry.width === 390")
    settle(page)
    check_fits(geometry(page), "after turning")
    page.locator('#table .card[data-code="AD"]').tap()
    wait_moves(page, 2)
    assert body(page)["observation"]["foundations"][2] == ["AD"]
    page.locator('#table .card[data-pile="d"][role="button"]').tap()   # the stock draws
    wait_moves(page, 3)
    assert len(body(page)["observation"]["waste"]) == 1
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
