"""Asking for a winnable deal while the server's searchers are busy (issue 48: a first ask for
a winnable four-suit Spider failed with a 503): the page says it is looking, asks again after
the server's Retry-After, and deals the game, with no refusal shown."""

from __future__ import annotations

import json

from helpers import body, new_page, open_game
from liveserver import LiveServer
from playwright.sync_api import Browser, Route, expect


def test_a_busy_search_is_asked_again_and_said(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?deal=klondike%237")
    asked: list[str] = []

    def busy_once(route: Route) -> None:
        asked.append(route.request.method)
        if route.request.method == "POST" and len(asked) == 1:
            route.fulfill(status=503, headers={"Retry-After": "1"}, content_type=
                          "application/json", body=json.dumps({
                              "error": "the advisor is busy", "code": "busy",
                              "retry_after": 1}))
        else:
            route.continue_()

    page.route("**/api/games", busy_once)
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    page.check("#fam-spider")
    page.check("#kind-winnable")
    page.click("#new-go")
    expect(page.locator("#toast")).to_have_text("Looking for a winnable deal…")
    page.wait_for_function("() => window.kabale?.body()?.deal?.winnable === true",
                           timeout=60_000)
    assert asked == ["POST", "POST"]
    assert body(page)["observation"]["variant"].startswith("spider")
    expect(page.locator("#bubble")).to_be_hidden()      # no refusal was shown
    expect(page.locator("#toast")).to_be_hidden()
    assert not page.errors  # type: ignore[attr-defined]
    context.close()


def test_a_hint_asked_while_the_advisor_is_busy_is_answered(server: LiveServer,
                                                             browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    open_game(page, f"{server.url}/?deal=klondike%237")
    asked: list[int] = []

    def busy_once(route: Route) -> None:
        asked.append(1)
        if len(asked) == 1:
            route.fulfill(status=503, headers={"Retry-After": "1"}, content_type=
                          "application/json", body=json.dumps({
                              "error": "the advisor is busy", "code": "busy",
                              "retry_after": 1}))
        else:
            route.continue_()

    page.route("**/api/games/*/hint", busy_once)
    page.click("#btn-hint")
    expect(page.locator("#bubble")).to_contain_text("Hint", timeout=60_000)
    assert len(asked) == 2 and body(page)["assisted"] is True
    assert not page.errors  # type: ignore[attr-defined]
    context.close()
