"""The hosted server's own pages (issue 44) in a real browser, against `kabale serve`: the
leaderboard page in a player's language, and the player's data page (a transfer code taken
to a second browser, then deleting everything)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("site") / "site.db"
    proc = subprocess.Popen([sys.executable, "-m", "kabale", "serve", "--db", str(db),
                             "--port", "0", "--advice-workers", "1"],
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
    assert found
    yield f"http://127.0.0.1:{found.group(1)}"
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


def test_the_leaderboard_page_speaks_the_players_language(browser: Browser, site: str) -> None:
    context = browser.new_context(locale="da-DK")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if "Security Policy" in m.text else None)
    page.goto(f"{site}/leaderboard")
    expect(page.locator("h1")).to_have_text("Dagens rangliste")
    expect(page.locator("#board-rule")).to_contain_text("Fortryd er tilladt")
    expect(page.locator("#board-me")).to_have_text("Ingen sejre uden hjælp endnu.")
    page.click("#board-weekly")
    expect(page.locator("#board-days")).to_be_visible()
    assert not errors
    context.close()


def test_a_transfer_code_takes_the_games_to_a_second_browser(browser: Browser,
                                                             site: str) -> None:
    phone, laptop = browser.new_context(), browser.new_context()
    first = phone.new_page()
    with first.expect_response(lambda r: r.url.endswith("/api/games")) as made:
        first.goto(site + "/")  # the page makes a game, and so a player
    assert made.value.status == 201
    first.evaluate("""fetch('/api/player/settings', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({settings: {felt: 'light'}})})""")
    first.goto(site + "/static/player.html")
    expect(first.locator("#me-status")).to_have_text(re.compile(r"Games kept for you: [1-9]"))
    first.click("#me-make")
    expect(first.locator("#me-code")).to_contain_text("It works once")
    code = re.search(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", first.locator("#me-code")
                     .inner_text())
    assert code
    second = laptop.new_page()
    second.goto(site + "/static/player.html")
    expect(second.locator("#me-status")).to_have_text("This browser has played no game here yet.")
    second.fill("#me-code-input", code.group(0).lower())
    second.click("#me-redeem button")
    expect(second.locator("#me-code")).to_have_text(
        "This browser now plays as you did on the other device.")
    expect(second.locator("#me-status")).to_have_text(re.compile(r"Games kept for you: [1-9]"))
    kept = second.evaluate("JSON.parse(localStorage.getItem('kabale.settings'))")
    assert kept["felt"] == "light"  # the other device's settings came along
    second.on("dialog", lambda dialog: dialog.accept())
    second.click("#me-delete")
    expect(second.locator("#me-status")).to_have_text("Everything of yours is deleted.")
    first.reload()
    expect(first.locator("#me-status")).to_have_text("This browser has played no game here yet.")
    phone.close()
    laptop.close()


def test_the_page_links_to_the_boards_and_the_players_data() -> None:
    index = (Path(__file__).resolve().parents[2] / "src" / "kabale" / "server" / "static"
             / "index.html").read_text(encoding="utf-8")
    assert 'href="/leaderboard"' in index and 'href="/static/player.html"' in index
