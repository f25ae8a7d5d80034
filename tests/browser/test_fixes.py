"""The fixes the table needed: the new-game dialog's controls, foundation clicks, ?deal= links
(asked first, and typed with a bare #), statistics, Vegas money, the timer, settings kept
between visits, and the page under a strict CSP. (A secret deal: test_play.py.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import body, moves_made, new_page, open_game, wait_moves
from liveserver import LiveServer
from playwright.sync_api import Browser, Route, expect

# slow: run by `python -m pytest -m slow` (.ci/run), not the README's pass
pytestmark = pytest.mark.slow

DEAL = "klondike%237"


def test_new_game_dialog_is_light_and_shows_one_choice(server: LiveServer,
                                                        browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal=spider%3Asuits%3D2%2342")
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    look = page.evaluate("""() => {
      const sel = document.querySelector('#dlg-new select:not([hidden])');
      const cs = getComputedStyle(sel);
      const choices = [...document.querySelectorAll('.game-choice')].map((c) => ({
        checked: c.querySelector('input').checked, border: getComputedStyle(c).borderColor,
        shadow: getComputedStyle(c).boxShadow }));
      const shown = [...document.querySelectorAll('#dlg-new fieldset.family')]
        .filter((f) => !f.hidden);
      return { scheme: cs.colorScheme, bg: cs.backgroundColor, colour: cs.color, choices,
               shown: shown.map((f) => f.dataset.family) };
    }""")
    assert look["scheme"] == "light"
    assert look["bg"] == "rgb(255, 255, 255)" and look["colour"] == "rgb(28, 28, 28)"
    assert [c["checked"] for c in look["choices"]] == [False, True, False]
    checked = look["choices"][1]
    assert all(c["border"] != checked["border"] and c["shadow"] == "none"
               for c in look["choices"] if not c["checked"])
    assert look["shown"] == ["spider"]            # only the chosen game's options
    page.check("#fam-klondike")
    assert page.evaluate("[...document.querySelectorAll('#dlg-new fieldset.family')]"
                         ".filter((f) => !f.hidden).map((f) => f.dataset.family)") == ["klondike"]
    context.close()


def test_click_on_a_foundation_card_leaves_it_there(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal={DEAL}")
    page.locator('#table .card[data-code="AH"]').click()
    wait_moves(page, 1)
    page.locator('#table .card[data-pile="f2"]').click()
    expect(page.locator("#bubble")).to_have_text(
        "To take a card back from a foundation, drag it to a column.")
    page.wait_for_timeout(300)
    assert moves_made(page) == 1 and body(page)["observation"]["foundations"][1] == ["AH"]
    context.close()


def stats(server: LiveServer, variant: str) -> dict[str, Any]:
    import urllib.request
    from urllib.parse import quote

    with urllib.request.urlopen(f"{server.url}/api/stats?variant={quote(variant)}") as res:
        data: dict[str, Any] = json.loads(res.read())["variants"][0]
    return data


def test_a_deal_link_while_a_game_runs_asks_first(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal=klondike%3Adraw%3D3%2399")
    game = body(page)["id"]
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    before = stats(server, "klondike:draw=3")["played"]
    page.goto(f"{server.url}/?deal=spider%3Asuits%3D2%2342")
    page.wait_for_selector("#dlg-ask[open]")
    expect(page.locator("#ask-text")).to_contain_text(
        "A game is in progress (Klondike · draw 3, 1 move)")
    page.get_by_role("button", name="Keep playing").click()
    page.wait_for_selector("body[data-ready='1']")
    assert body(page)["id"] == game and "deal=klondike" in page.url
    page.goto(f"{server.url}/?deal=spider%3Asuits%3D2%2342")
    page.get_by_role("button", name="Start the linked deal").click()
    page.wait_for_function(
        "() => window.kabale?.body()?.observation?.deal_id === 'spider:suits=2#42'")
    after = stats(server, "klondike:draw=3")
    assert after["played"] == before + 1 and after["recent"][-1]["result"] == "lost"
    context.close()


def test_a_typed_deal_link_with_a_bare_hash(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal=spider:suits=2#42")
    assert body(page)["observation"]["deal_id"] == "spider:suits=2#42"
    assert "#" not in page.url.split("?")[1].replace("%23", "")
    context.close()


def test_statistics_summary_averages_and_reset(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal=spiderette%3Asuits%3D1%2312")
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    page.evaluate("fetch(`/api/games/${window.kabale.body().id}/resign`, {method: 'POST',"
                  " headers: {'Content-Type': 'application/json'}, body: '{}'})")
    page.click("#btn-stats")
    expect(page.locator("#stats-variant")).to_have_value("spiderette:suits=1")
    page.select_option("#stats-variant", "")
    table = page.locator("table.stats")
    expect(table).to_contain_text("Average moves")
    all_played = int(table.locator("tr", has_text="Played").locator("td").inner_text())
    assert all_played >= 1
    page.select_option("#stats-variant", "spiderette:suits=1")
    expect(table.locator("tr", has_text="Played").locator("td")).to_have_text("1")
    expect(table.locator("tr", has_text="Average moves").locator("td")).to_have_text("1")
    expect(page.locator("svg.chart text.bar-mark")).to_have_text("✗")   # not by colour alone
    page.click("#stats-reset")
    expect(page.locator("#ask-text")).to_contain_text("Spiderette · 1 suit")
    page.get_by_role("button", name="Reset", exact=True).click()
    expect(table.locator("tr", has_text="Played").locator("td")).to_have_text("0")
    assert stats(server, "spiderette:suits=1")["played"] == 0
    context.close()


def test_vegas_money_and_running_balance(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal=vegas%231")   # the alias: draw 3, 3 passes, Vegas
    expect(page.locator("#score")).to_have_text("-$52")
    start = page.locator("#balance").inner_text()
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    page.click("#btn-new")
    page.click("#new-go")                            # the same variant, a random deal
    page.wait_for_function("() => window.kabale?.body()?.observation?.moves_made === 0")
    expect(page.locator("#balance")).not_to_have_text(start)
    value = lambda text: int(text.replace("$", "").replace("−", "-").replace(",", ""))  # noqa: E731
    expect(page.locator("#balance-box")).to_be_visible()
    assert value(page.locator("#balance").inner_text()) == value(start) - 52
    context.close()


def test_the_timer_starts_at_the_first_move(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657)
    open_game(page, f"{server.url}/?deal=klondike%233")
    page.wait_for_timeout(1300)
    expect(page.locator("#timer")).to_have_text("0:00")
    page.keyboard.type("d")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    expect(page.locator("#timer")).to_have_text("0:01", timeout=3000)
    assert body(page)["elapsed"] < 1.0                # the wait before the move did not count
    context.close()


def test_settings_are_kept_between_visits(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657, {"speed": "normal"})
    open_game(page, f"{server.url}/?deal={DEAL}")
    default = page.evaluate("import('/static/js/settings.js').then((m) => { localStorage.clear();"
                            " return m.loadSettings(); })")
    assert default["sound"] is False and default["timer"] is True  # short sounds off by default
    page.click("#btn-settings")
    page.select_option("#set-back", "red")
    page.select_option("#set-felt", "light")
    page.select_option("#set-speed", "slow")
    for box in ["#set-left", "#set-four", "#set-large", "#set-sound"]:
        page.check(box)
    page.uncheck("#set-timer")
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    classes = page.evaluate("document.body.className")
    for cls in ["felt-light", "four-colour", "large-print", "left-handed"]:
        assert cls in classes
    expect(page.locator("#timer-box")).to_be_hidden()
    assert page.evaluate("document.querySelector('#back rect:nth-child(2)').getAttribute('fill')") \
        == "#9b1c2e"
    stock = page.locator('#table .slot[data-pile="d"]').bounding_box()
    first = page.locator('#table .slot[data-pile="1"]').bounding_box()
    assert stock and first and stock["x"] > first["x"]          # the stock on the right
    colours = page.evaluate("['9S', '8H', 'AD', '2C'].map((c) => getComputedStyle("
                            "document.querySelector(`#table .card[data-code=\"${c}\"]`)).color)")
    assert len(set(colours)) == 4                                # four colours
    page.click("#btn-settings")
    assert page.input_value("#set-speed") == "slow" and page.is_checked("#set-sound")
    context.close()


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "object-src 'none'; frame-ancestors 'none'")


def with_csp(route: Route) -> None:
    res = route.fetch()
    route.fulfill(response=res, headers={**res.headers, "content-security-policy": CSP})


def test_the_page_works_under_a_strict_csp(server: LiveServer, browser: Browser) -> None:
    context, page = new_page(browser, 1366, 657, {"speed": "normal"})
    page.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation',"
                         " (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));")
    page.route(f"{server.url}/", with_csp)
    page.route(f"{server.url}/?*", with_csp)
    page.route("**/static/rules.html*", with_csp)
    open_game(page, f"{server.url}/?deal={DEAL}")
    page.locator('#table .card[data-code="AH"]').click()
    wait_moves(page, 1)
    page.keyboard.type("u")
    wait_moves(page, 0)
    for button in ["#btn-new", "#btn-settings", "#btn-stats", "#btn-rules"]:
        page.click(button)
        page.wait_for_timeout(150)
        page.keyboard.press("Escape")
    assert page.locator('#table .card[data-code="AH"] .idx .st').bounding_box()
    violations = page.evaluate("window.__csp")
    page.goto(f"{server.url}/static/rules.html?game=spider&lang=da")
    expect(page.locator("#rules-heading")).to_have_text("Regler: Edderkopkabale")
    violations += page.evaluate("window.__csp")
    assert violations == []
    assert page.locator('#rules-body li').count() > 5
    context.close()

