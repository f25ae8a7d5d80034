"""The hint button while its hint is worked out (docs/api.md, "Help as jobs"), in Debian's
chromium against the real server: it shows it is busy and says how to cancel, and a second
press cancels, stopping the page's wait and asking the server to stop the job."""

from __future__ import annotations

import pytest
from helpers import new_page, open_game
from liveserver import LiveServer
from playwright.sync_api import Browser, Route, expect

# slow: run by `python -m pytest -m slow` (.ci/run), not the README's pass
pytestmark = pytest.mark.slow


def test_a_hint_being_worked_out_spins_and_a_second_press_cancels_it(
        server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1200, 820)
    held: list[Route] = []
    # the hint's request is held, so the test sees the button while the answer is awaited
    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/hint", hold)
    open_game(page, f"{server.url}/?deal=spider%3Asuits%3D2%2342")
    button = page.locator("#btn-hint")
    button.click()
    expect(button).to_have_attribute("aria-busy", "true")
    expect(button).to_have_attribute("title", "Working out a hint… press again to cancel")
    assert held, "the hint was asked for"
    with page.expect_request(lambda r: r.method == "DELETE" and r.url.endswith("/help")) \
            as cancel:
        button.click()
    assert cancel.value.response() is not None and cancel.value.response().status == 200
    expect(button).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#echo")).to_have_text("Hint cancelled.")
    page.unroute("**/hint")
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        button.click()  # and it asks again afresh
    assert answer.value.status == 200
    context.close()
