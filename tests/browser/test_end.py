"""The end of a game for keyboard and screen-reader players (issue 48): the win is announced, the
focus goes to the banner, Esc closes it, "Play this deal again" deals the same cards; axe finds
nothing serious at the win, with label-content-name-mismatch (an experimental rule) switched
on, which every face-up ten failed (its corner's "10" was text the name "ten of clubs" lacks)."""

from __future__ import annotations

from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from helpers import new_page, open_game, settle
from liveserver import LiveServer
from playwright.sync_api import Browser, Page, expect
from positions import klondike_longest, store_game

import kabale
from kabale.core.cards import Card, Suit
from kabale.core.state import State

COLUMNS = ["KS", "KH QS", "KD QC JD", "KC QD JC TH", "TD TC", "QH JS", "JH TS"]


def face_up_to_finish() -> kabale.Game:
    """Klondike with Ace..9 of each suit home and the rest face up: the page finishes it."""
    piles = tuple(tuple(Card(rank, suit) for rank in range(1, 10)) for suit in Suit)
    columns = tuple(tuple(Card.parse(x) for x in col.split()) for col in COLUMNS)
    state = State(columns=columns, down=(0,) * 7, stock=(), waste=(), foundations=piles)
    return kabale.Game.from_position("klondike", state)


def serious(page: Page) -> list[str]:
    results = Axe().run(page, options={"rules": {"label-content-name-mismatch": {"enabled": True}}})
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def active(page: Page) -> str:
    found: str = page.evaluate(
        "(() => { const a = document.activeElement;"
        " return (a.closest('#banner') ? 'banner ' : '') + (a.id || a.tagName); })()")
    return found


def test_face_up_tens_pass_the_name_mismatch_rule(server: LiveServer, browser: Browser) -> None:
    gid = store_game(server.db, "end-open", klondike_longest("klondike:open=true,draw=3"))
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?game={gid}")             # every card face up: tens too
    assert page.locator('#table .card[data-code^="T"]').count() >= 3
    assert serious(page) == []
    context.close()


def test_a_win_is_announced_focused_closed_by_esc_and_dealt_again(
        server: LiveServer, browser: Browser, shots: Path) -> None:
    gid = store_game(server.db, "end-win", face_up_to_finish())
    context, page = new_page(browser, 1366, 657)
    page.goto(f"{server.url}/?game={gid}")
    expect(page.locator("#banner-text")).to_contain_text("You won!", timeout=15000)
    expect(page.locator("#echo")).to_contain_text("You won!")     # the live region says so
    page.wait_for_function("() => document.activeElement.closest('#banner') !== null")
    assert active(page) == "banner BUTTON"
    expect(page.locator("#btn-again")).to_have_text("Play this deal again")
    settle(page)
    page.screenshot(path=str(shots / "won-banner.png"))
    assert serious(page) == []
    page.keyboard.press("Escape")
    expect(page.locator("#banner")).to_be_hidden()
    assert active(page) == "btn-new"

    page.reload()                                   # the finished game: its banner again
    page.wait_for_selector("body[data-ready='1']")
    expect(page.locator("#btn-again")).to_be_visible()
    with page.expect_response(lambda r: r.url.endswith("/replay")) as answer:
        page.locator("#btn-again").click()
    fresh = answer.value.json()
    assert fresh["observation"]["moves_made"] == 0 and fresh["status"] == "playing"
    assert [" ".join(c) for c in fresh["observation"]["columns"]] == COLUMNS
    page.wait_for_function(f"() => window.kabale.body().id === {fresh['id']!r}")
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
